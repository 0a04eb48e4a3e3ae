#include "results_import.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

#include "core/format.h"
#include "core/input_error.h"

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
    const std::vector<std::vector<std::string>> rows = split_csv(text);
    std::size_t header_at = 0;
    while (header_at < rows.size() && rows[header_at].empty()) ++header_at;
    if (header_at >= rows.size()) throw InputError("line 1", "the file is empty; expected a header row with 'trial'");

    // Columns by name.
    const std::vector<std::string>& header = rows[header_at];
    const std::string objective_name = lower(experiment.objective.name);
    int col_trial = -1, col_objective = -1, col_sem = -1, col_status = -1, col_error = -1;
    for (std::size_t c = 0; c < header.size(); ++c) {
        const std::string name = lower(trim(header[c]));
        const int at = static_cast<int>(c);
        if (name == "trial") col_trial = at;
        else if (name == "objective" || (!objective_name.empty() && name == objective_name)) {
            if (col_objective < 0) col_objective = at;
        } else if (name == "sem") col_sem = at;
        else if (name == "status") col_status = at;
        else if (name == "error") col_error = at;
    }
    const std::string header_field = "line " + std::to_string(header_at + 1);
    if (col_trial < 0) throw InputError(header_field, "the header has no 'trial' column");
    if (col_objective < 0 && col_status < 0)
        throw InputError(header_field, "the header has neither an 'objective' (or '" + experiment.objective.name +
                                           "') nor a 'status' column");

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
        const std::string value_text = cell(col_objective);
        if (value_text.empty()) {
            ++result.skipped_empty;
            continue;
        }
        const std::optional<double> value = parse_number(value_text);
        if (!value) throw InputError(at + "." + header[static_cast<std::size_t>(col_objective)], "'" + value_text + "' is not a number");
        out.objective = *value;
        const std::string sem_text = cell(col_sem);
        if (!sem_text.empty()) {
            const std::optional<double> sem = parse_number(sem_text);
            if (!sem || *sem < 0) throw InputError(at + ".sem", "'" + sem_text + "' is not a non-negative number");
            out.sem = sem;
        }
        result.rows.push_back(out);
    }
    return result;
}

}  // namespace sebo::ui
