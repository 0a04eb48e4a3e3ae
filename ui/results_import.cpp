#include "results_import.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include "core/format.h"
#include "core/input_error.h"
#include "io/csv_cell.h"

namespace sebo::ui {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string trim(const std::string& s) {
    const auto begin = s.find_first_not_of(" \t");
    if (begin == std::string::npos) return {};
    const auto end = s.find_last_not_of(" \t");
    return s.substr(begin, end - begin + 1);
}

// A whole-field number; nothing else may follow it.
std::optional<double> parse_number(const std::string& text) {
    if (text.empty()) return std::nullopt;
    errno = 0;
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value)) return std::nullopt;
    return value;
}

}  // namespace

std::vector<std::vector<std::string>> split_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    bool any = false;  // the current row has content
    int line = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                if (c == '\n') ++line;
                field += c;
            }
            continue;
        }
        if (c == '"') {
            quoted = true;
            any = true;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
            any = true;
        } else if (c == '\r') {
            continue;
        } else if (c == '\n') {
            ++line;
            if (any || !field.empty()) {
                row.push_back(field);
                rows.push_back(row);
            } else {
                rows.push_back({});  // keep line numbers: an empty line is an empty row
            }
            row.clear();
            field.clear();
            any = false;
        } else {
            field += c;
            any = true;
        }
    }
    if (quoted) throw InputError("line " + std::to_string(line), "a quoted field is not closed");
    if (any || !field.empty()) {
        row.push_back(field);
        rows.push_back(row);
    }
    return rows;
}

ResultsImport parse_results_csv(const std::string& text, const Experiment& experiment) {
    std::vector<std::vector<std::string>> rows = split_csv(text);
    // Blanks around a cell, and the apostrophe the exports put before a would-be spreadsheet
    // formula (io/csv_cell.h), are not part of its value.
    for (std::vector<std::string>& row : rows)
        for (std::string& cell : row) cell = strip_formula_guard(trim(cell));
    std::size_t header_at = 0;
    while (header_at < rows.size() && rows[header_at].empty()) ++header_at;
    if (header_at >= rows.size()) throw InputError("line 1", "the file is empty; expected a header row with 'trial'");

    // Columns by name (letter case ignored): the fixed ones, and a value and standard error per
    // metric (with a single metric also "objective" and "sem").
    const std::vector<std::string>& header = rows[header_at];
    const Outcomes& outcomes = experiment.outcomes;
    const bool single = outcomes.metrics.size() == 1;
    const auto find_column = [&](const std::string& wanted) {
        for (std::size_t c = 0; c < header.size(); ++c)
            if (lower(trim(header[c])) == lower(wanted)) return static_cast<int>(c);
        return -1;
    };
    const int col_trial = find_column("trial"), col_status = find_column("status"), col_error = find_column("error");
    struct MetricColumns {
        std::string metric;
        int value = -1, sem = -1;
        bool required = true;
    };
    std::vector<MetricColumns> metric_columns;
    for (const std::string& metric : outcomes.metrics) {
        MetricColumns m{metric, find_column(metric), find_column(metric + "_sem"),
                        outcomes.objective_on(metric) || outcomes.is_constrained(metric)};
        if (single && m.value < 0) m.value = find_column("objective");
        if (single && m.sem < 0) m.sem = find_column("sem");
        metric_columns.push_back(m);
    }
    const std::string header_field = "line " + std::to_string(header_at + 1);
    if (col_trial < 0) throw InputError(header_field, "the header has no 'trial' column");
    const bool any_metric = std::any_of(metric_columns.begin(), metric_columns.end(), [](const MetricColumns& m) { return m.value >= 0; });
    for (const MetricColumns& m : metric_columns)
        if (m.value < 0 && (any_metric || col_status < 0))
            throw InputError(header_field, "the header has no column for the metric '" + m.metric + "'" +
                                               (single ? " (or 'objective')" : "") +
                                               (any_metric ? "" : ", and no 'status' column"));

    ResultsImport result;
    std::set<int> seen;
    for (std::size_t r = header_at + 1; r < rows.size(); ++r) {
        const std::vector<std::string>& row = rows[r];
        if (row.empty() || (row.size() == 1 && trim(row[0]).empty())) continue;
        const std::string at = "line " + std::to_string(r + 1);
        auto cell = [&](int c) { return c >= 0 && c < static_cast<int>(row.size()) ? trim(row[static_cast<std::size_t>(c)]) : std::string(); };

        const std::string trial_text = cell(col_trial);
        const std::optional<double> trial_number = parse_number(trial_text);
        if (!trial_number || std::floor(*trial_number) != *trial_number)
            throw InputError(at + ".trial", "'" + trial_text + "' is not a trial index");
        const int index = static_cast<int>(*trial_number);
        const Trial* trial = experiment.find_trial(index);
        if (!trial) throw InputError(at + ".trial", "there is no trial " + trial_text);
        if (!seen.insert(index).second) throw InputError(at + ".trial", "trial " + trial_text + " appears twice");
        if (trial->status != TrialStatus::Pending) {
            ++result.skipped_not_pending;
            continue;
        }

        ResultRow out;
        out.trial = index;
        const std::string status = lower(cell(col_status));
        if (status == "failed") {
            out.failed = true;
            out.error = cell(col_error);
            if (out.error.empty()) out.error = "marked failed in an imported results file";
            result.rows.push_back(out);
            continue;
        }
        if (!status.empty() && status != "completed" && status != "pending")
            throw InputError(at + ".status", "'" + cell(col_status) + "' is not completed, failed or pending");
        if (std::all_of(metric_columns.begin(), metric_columns.end(), [&](const MetricColumns& m) { return cell(m.value).empty(); })) {
            ++result.skipped_empty;
            continue;
        }
        for (const MetricColumns& m : metric_columns) {
            const std::string value_text = cell(m.value);
            const std::string column = m.value >= 0 ? header[static_cast<std::size_t>(m.value)] : m.metric;
            if (value_text.empty()) {
                if (m.required)
                    throw InputError(at + "." + column, "a completed result needs a value of every objective and constrained metric");
                continue;
            }
            const std::optional<double> value = parse_number(value_text);
            if (!value) throw InputError(at + "." + column, "'" + value_text + "' is not a number");
            Measurement measurement{*value, std::nullopt};
            const std::string sem_text = cell(m.sem);
            if (!sem_text.empty()) {
                const std::optional<double> sem = parse_number(sem_text);
                if (!sem || *sem < 0)
                    throw InputError(at + "." + header[static_cast<std::size_t>(m.sem)], "'" + sem_text + "' is not a non-negative number");
                measurement.sem = sem;
            }
            out.values.emplace(m.metric, measurement);
        }
        result.rows.push_back(out);
    }
    return result;
}

}  // namespace sebo::ui
