#include "io/results_import.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <climits>
#include <cmath>
#include <map>

#include "core/format.h"
#include "core/input_error.h"

namespace sebo {
namespace {

// A numeric cell, or the reason it is not one.
struct NumberCell {
    std::optional<double> value;
    std::string problem;
};

NumberCell read_number(const std::string& cell) {
    if (cell.empty()) return {std::nullopt, "a number is required"};
    const auto value = parse_number(cell);
    if (!value) return {std::nullopt, single_quoted(cell) + " is not a number"};
    if (!std::isfinite(*value)) return {std::nullopt, single_quoted(cell) + " is not a finite number"};
    return {value, {}};
}

// A parameter's cell: a number, or for a choice one of its values (its index).
NumberCell read_parameter_value(const Parameter& p, const std::string& cell) {
    if (p.kind != ParameterKind::Choice) return read_number(cell);
    if (cell.empty()) return {std::nullopt, "one of the values of '" + p.name + "' is required"};
    if (const auto k = choice_index(p, cell)) return {static_cast<double>(*k), {}};
    std::string listed;
    for (const ChoiceValue& v : p.values) listed += (listed.empty() ? "" : "|") + v.text;
    return {std::nullopt, single_quoted(cell) + " is not one of the values " + listed + " of parameter '" + p.name + "'"};
}

// The columns of one metric: its value, named after it (or "objective" when it is the
// experiment's only metric), and its optional standard error "<metric>_sem" (or "sem").
struct MetricColumn {
    std::string metric;
    std::size_t value = 0;
    std::optional<std::size_t> sem;
    bool required = true;  // an objective or a constrained metric: a completed row needs its value
};

std::optional<std::size_t> one_of(const CsvTable& table, std::optional<std::size_t> named,
                                  std::optional<std::size_t> generic, const std::string& what) {
    if (named && generic && *named != *generic)
        throw InputError(table.where(table.header_line), "both '" + table.header[*named] + "' and '" +
                                                             table.header[*generic] + "' columns; keep only the one with " +
                                                             what);
    return named ? named : generic;
}

std::vector<MetricColumn> metric_columns(const Experiment& experiment, const CsvTable& table) {
    const Outcomes& outcomes = experiment.outcomes;
    const bool single = outcomes.metrics.size() == 1;
    std::vector<MetricColumn> columns;
    for (const std::string& metric : outcomes.metrics) {
        MetricColumn column;
        column.metric = metric;
        column.required = outcomes.objective_on(metric) || outcomes.is_constrained(metric);
        const auto value = one_of(table, table.column(metric), single ? table.column_ignoring_case("objective") : std::nullopt,
                                  "the values of " + metric);
        if (!value)
            throw InputError(table.where(table.header_line),
                             "no column for the metric '" + metric + "'" +
                                 (single ? "; name it '" + metric + "' or 'objective'"
                                         : "; every metric (" + outcomes.metric_list() +
                                               ") needs a column named after it, even if its cells stay empty"));
        column.value = *value;
        const auto sem = table.column(metric + "_sem");
        column.sem = one_of(table, sem && !outcomes.has_metric(metric + "_sem") ? sem : std::nullopt,
                            single ? table.column_ignoring_case("sem") : std::nullopt,
                            "the standard errors of " + metric);
        columns.push_back(std::move(column));
    }
    return columns;
}

bool any_metric_value(const std::vector<MetricColumn>& columns, const CsvTable::Row& row) {
    return std::any_of(columns.begin(), columns.end(), [&](const MetricColumn& c) { return !row.cells[c.value].empty(); });
}

// A problem with one cell: its column and what is wrong.
struct CellProblem {
    std::size_t column = 0;
    std::string message;
};

// Reads the metric cells of a completed row into `values`; the first problem found, if any.
std::optional<CellProblem> read_metric_cells(const std::vector<MetricColumn>& columns, const CsvTable::Row& row,
                                             MetricValues& values) {
    for (const MetricColumn& column : columns) {
        const std::string& text = row.cells[column.value];
        const bool has_sem = column.sem && !row.cells[*column.sem].empty();
        if (text.empty()) {
            if (column.required)
                return CellProblem{column.value, "a completed result needs a value of every objective and constrained metric"};
            if (has_sem) return CellProblem{*column.sem, "a standard error without a value of " + column.metric};
            continue;
        }
        const NumberCell value = read_number(text);
        if (!value.value) return CellProblem{column.value, value.problem};
        Measurement m{*value.value, std::nullopt};
        if (has_sem) {
            const std::string& sem_text = row.cells[*column.sem];
            const NumberCell sem = read_number(sem_text);
            if (!sem.value) return CellProblem{*column.sem, sem.problem};
            if (*sem.value < 0.0) return CellProblem{*column.sem, single_quoted(sem_text) + " is negative"};
            m.sem = sem.value;
        }
        values.emplace(column.metric, m);
    }
    return std::nullopt;
}

std::vector<std::optional<std::size_t>> parameter_columns(const Experiment& experiment, const CsvTable& table) {
    std::vector<std::optional<std::size_t>> columns;
    for (const Parameter& p : experiment.space.parameters()) columns.push_back(table.column(p.name));
    return columns;
}

std::optional<std::string> first_missing(const Experiment& experiment, const std::vector<std::optional<std::size_t>>& columns) {
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (!columns[i]) return experiment.space.parameter(static_cast<int>(i)).name;
    return std::nullopt;
}

// Why value v does not fit parameter i (bounds, integrality), or empty.
std::optional<std::string> check_value(const SearchSpace& space, int i, double v) {
    std::vector<double> probe = space.target();
    probe[static_cast<std::size_t>(i)] = v;
    const auto error = space.check_point(probe);
    if (!error) return std::nullopt;
    const std::string prefix = space.parameter(i).name + ": ";
    return error->compare(0, prefix.size(), prefix) == 0 ? error->substr(prefix.size()) : *error;
}

std::string describe_result(const Experiment& experiment, const Trial& t) {
    if (t.status != TrialStatus::Completed) return to_string(t.status);
    std::string text = "completed";
    for (const std::string& metric : experiment.outcomes.metrics)
        if (const auto value = t.value(metric)) text += ", " + metric + " " + format_number(*value);
    return text + (t.exclusion ? ", excluded from analysis: " + t.exclusion->reason : std::string());
}

// Whether `result` is what `trial` already holds: the same status and, completed, the same metrics
// with the same values and standard errors — to the 15 significant digits a spreadsheet keeps.
bool repeats(const Trial& trial, const ObservedResult& result) {
    if (trial.status != result.status) return false;
    if (result.status != TrialStatus::Completed) return true;
    const auto same = [](double a, double b) { return a == b || std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); };
    if (trial.values.size() != result.values.size()) return false;
    for (const auto& [metric, m] : result.values) {
        const auto it = trial.values.find(metric);
        if (it == trial.values.end() || !same(it->second.mean, m.mean) || it->second.sem.has_value() != m.sem.has_value() ||
            (m.sem && !same(*it->second.sem, *m.sem)))
            return false;
    }
    return true;
}

}  // namespace

const char* to_string(ResultRow::Status status) {
    switch (status) {
    case ResultRow::Status::Matched: return "matched";
    case ResultRow::Status::Unmatched: return "not matched";
    case ResultRow::Status::Invalid: return "invalid";
    case ResultRow::Status::Skipped: return "skipped";
    case ResultRow::Status::Recorded: return "already recorded";
    }
    return "invalid";
}

int ResultsMatch::count(ResultRow::Status status) const {
    return static_cast<int>(std::count_if(rows.begin(), rows.end(), [&](const ResultRow& r) { return r.status == status; }));
}

std::optional<std::string> check_result(const Experiment& experiment, const ObservedResult& result, bool overwrite) {
    const Trial* trial = experiment.find_trial(result.trial);
    if (!trial) return "no trial " + std::to_string(result.trial) + " in the experiment";
    if (trial->status != TrialStatus::Pending && !overwrite)
        return "trial " + std::to_string(result.trial) + " already has a result (" + describe_result(experiment, *trial) + ")";
    const Outcomes& outcomes = experiment.outcomes;
    switch (result.status) {
    case TrialStatus::Completed:
        for (const std::string& metric : outcomes.metrics)
            if (!result.values.count(metric) && (outcomes.objective_on(metric) || outcomes.is_constrained(metric)))
                return "a completed result needs a value of " + metric + " (" +
                       (outcomes.objective_on(metric) ? "an objective" : "a constrained metric") + ")";
        break;
    case TrialStatus::Failed:
    case TrialStatus::Abandoned:
        if (!result.values.empty()) return std::string("a ") + to_string(result.status) + " trial has no values";
        break;
    case TrialStatus::Pending: return "a result cannot be 'pending'";
    }
    for (const auto& [metric, m] : result.values) {
        if (!outcomes.has_metric(metric))
            return "unknown metric '" + metric + "'; the metrics are " + outcomes.metric_list();
        if (!std::isfinite(m.mean)) return format_number(m.mean) + " is not a finite value of " + metric;
        if (m.sem && (!std::isfinite(*m.sem) || *m.sem < 0.0))
            return "the standard error " + format_number(*m.sem) + " of " + metric + " is not a finite number >= 0";
    }
    return std::nullopt;
}

void record_results(Experiment& experiment, const std::vector<ObservedResult>& results, const std::string& timestamp) {
    for (const ObservedResult& result : results) {
        assert(!check_result(experiment, result, true));
        Trial& trial = *experiment.find_trial(result.trial);
        trial.status = result.status;
        trial.values = result.values;
        trial.error = result.status == TrialStatus::Completed ? std::string() : result.error;
        trial.completed_at = timestamp;
        // The exclusion was a judgement of the value it replaces.
        trial.exclusion.reset();
    }
}

ResultsMatch match_results(const Experiment& experiment, const CsvTable& table, const ResultsMatchOptions& options) {
    const SearchSpace& space = experiment.space;
    const auto trial_column = table.column_ignoring_case("trial");
    const std::vector<MetricColumn> metrics = metric_columns(experiment, table);
    const auto status_column = table.column_ignoring_case("status");
    const auto error_column = table.column_ignoring_case("error");
    const auto columns = parameter_columns(experiment, table);
    const auto missing = first_missing(experiment, columns);
    if (!trial_column && missing)
        throw InputError(table.where(table.header_line),
                         "no 'trial' column and no column for parameter '" + *missing +
                             "': each row needs its trial index, or the values of every parameter");

    ResultsMatch match;
    std::map<int, int> claimed;  // trial index -> line that gave its result
    for (const CsvTable::Row& row : table.rows) {
        ResultRow report;
        report.line = row.line;
        auto finish = [&](ResultRow::Status status, std::string message) {
            report.status = status;
            report.message = std::move(message);
            match.rows.push_back(report);
        };
        auto invalid_cell = [&](const std::string& column, const std::string& message) {
            finish(ResultRow::Status::Invalid, "column " + column + ": " + message);
        };

        // The result: status and values.
        ObservedResult result;
        const std::string status_text = status_column ? lower_case(row.cells[*status_column]) : std::string();
        const bool no_status = status_text.empty() || status_text == "pending";
        if (no_status || status_text == "completed") {
            result.status = TrialStatus::Completed;
        } else if (status_text == "failed") {
            result.status = TrialStatus::Failed;
        } else if (status_text == "abandoned") {
            result.status = TrialStatus::Abandoned;
        } else {
            invalid_cell(table.header[*status_column], single_quoted(row.cells[*status_column]) +
                                                           " is not a status; expected completed, failed, abandoned or pending");
            continue;
        }
        if (result.status == TrialStatus::Completed) {
            if (no_status && !any_metric_value(metrics, row)) {
                finish(ResultRow::Status::Skipped, metrics.size() == 1 ? "no result yet (the " + table.header[metrics[0].value] +
                                                                             " cell is empty)"
                                                                       : std::string("no result yet (the metric cells are empty)"));
                continue;
            }
            if (const auto problem = read_metric_cells(metrics, row, result.values)) {
                invalid_cell(table.header[problem->column], problem->message);
                continue;
            }
        } else {
            if (const auto filled = std::find_if(metrics.begin(), metrics.end(),
                                                 [&](const MetricColumn& c) { return !row.cells[c.value].empty(); });
                filled != metrics.end()) {
                invalid_cell(table.header[filled->value], std::string("a ") + to_string(result.status) +
                                                              " trial has no value; leave the cell empty");
                continue;
            }
            result.error = error_column ? row.cells[*error_column] : std::string();
            if (result.error.empty()) result.error = std::string("reported ") + to_string(result.status) + " in " + table.source;
        }

        // The parameter values, when the sheet has every parameter column.
        std::vector<double> values;
        bool bad_value = false;
        if (!missing) {
            for (int i = 0; i < space.dimension() && !bad_value; ++i) {
                const std::size_t c = *columns[static_cast<std::size_t>(i)];
                const NumberCell value = read_parameter_value(space.parameter(i), row.cells[c]);
                if (!value.value) {
                    invalid_cell(table.header[c], value.problem);
                    bad_value = true;
                } else {
                    values.push_back(*value.value);
                }
            }
            if (bad_value) continue;
        }

        // Which trial it is for.
        if (trial_column) {
            const std::string& text = row.cells[*trial_column];
            const NumberCell index = read_number(text);
            if (!index.value || std::floor(*index.value) != *index.value || *index.value < 0 || *index.value > INT_MAX) {
                invalid_cell(table.header[*trial_column],
                             index.value ? single_quoted(text) + " is not a trial index (a whole number >= 0)" : index.problem);
                continue;
            }
            result.trial = static_cast<int>(*index.value);
            const Trial* trial = experiment.find_trial(result.trial);
            if (!trial) {
                finish(ResultRow::Status::Unmatched, "no trial " + std::to_string(result.trial) + " in the experiment");
                continue;
            }
            // Values beside a trial index must be that trial's: a shifted row is caught here. A
            // spreadsheet may have rounded them to 15 digits, hence the (unit-scale) tolerance.
            bool differs = false;
            for (int i = 0; i < static_cast<int>(values.size()) && !differs; ++i) {
                const double mine = trial->parameters[static_cast<std::size_t>(i)], theirs = values[static_cast<std::size_t>(i)];
                if (std::abs(space.to_unit(i, theirs) - space.to_unit(i, mine)) > 1e-9) {
                    invalid_cell(space.parameter(i).name, value_text(space.parameter(i), theirs) + " differs from trial " +
                                                              std::to_string(result.trial) + "'s value " +
                                                              value_text(space.parameter(i), mine));
                    differs = true;
                }
            }
            if (differs) continue;
        } else {
            const Trial* found = nullptr;
            const Trial* other = nullptr;
            for (const Trial& t : experiment.trials) {
                if (t.parameters != values) continue;
                if (t.status == TrialStatus::Pending && !claimed.count(t.index)) {
                    found = &t;
                    break;
                }
                if (!other) other = &t;
            }
            if (!found) {
                std::string message = "no pending trial has these parameter values";
                if (other)
                    message += " (trial " + std::to_string(other->index) + " has them: " +
                               (other->status == TrialStatus::Pending ? std::string("its result is on line ") +
                                                                            std::to_string(claimed[other->index])
                                                                      : describe_result(experiment, *other)) +
                               ")";
                finish(ResultRow::Status::Unmatched, message);
                continue;
            }
            result.trial = found->index;
        }
        if (const auto it = claimed.find(result.trial); it != claimed.end()) {
            finish(ResultRow::Status::Invalid,
                   "trial " + std::to_string(result.trial) + " already has a result on line " + std::to_string(it->second));
            continue;
        }
        if (const Trial* t = experiment.find_trial(result.trial);
            t && !options.overwrite && t->status != TrialStatus::Pending && repeats(*t, result)) {
            report.trial = result.trial;
            finish(ResultRow::Status::Recorded, "trial " + std::to_string(result.trial) + " (" + describe_result(experiment, *t) + ")");
            continue;
        }
        if (const auto problem = check_result(experiment, result, options.overwrite)) {
            finish(ResultRow::Status::Invalid, *problem);
            continue;
        }
        claimed[result.trial] = row.line;
        report.trial = result.trial;
        finish(ResultRow::Status::Matched, {});
        match.results.push_back(std::move(result));
    }
    return match;
}

TrialImport import_trials(const Experiment& experiment, const CsvTable& table) {
    const SearchSpace& space = experiment.space;
    const auto columns = parameter_columns(experiment, table);
    if (const auto missing = first_missing(experiment, columns))
        throw InputError(table.where(table.header_line),
                         "no column for parameter '" + *missing + "'; every parameter needs a column");
    const std::vector<MetricColumn> metrics = metric_columns(experiment, table);

    TrialImport out;
    int next = experiment.next_trial_index();
    for (const CsvTable::Row& row : table.rows) {
        const std::size_t problems_before = out.problems.size();
        auto problem = [&](std::size_t column, const std::string& message) {
            out.problems.push_back(table.where(row.line, table.header[column]) + ": " + message);
        };
        Trial trial;
        for (int i = 0; i < space.dimension(); ++i) {
            const std::size_t c = *columns[static_cast<std::size_t>(i)];
            const NumberCell value = read_parameter_value(space.parameter(i), row.cells[c]);
            if (!value.value) {
                problem(c, value.problem);
                continue;
            }
            if (const auto why = check_value(space, i, *value.value)) problem(c, *why);
            trial.parameters.push_back(*value.value);
        }
        // A fixed parameter's column is optional; when present it must hold the fixed value (a row
        // measured with another value is not a configuration of this space).
        for (const Parameter& p : space.fixed_parameters())
            if (const auto c = table.column(p.name)) {
                const NumberCell value = read_number(row.cells[*c]);
                if (!value.value) problem(*c, value.problem);
                else if (*value.value != p.resolved_target())
                    problem(*c, format_number(*value.value) + " differs from the fixed value " + format_number(p.resolved_target()) +
                                    " of parameter '" + p.name + "'");
            }
        if (const auto cell = read_metric_cells(metrics, row, trial.values)) problem(cell->column, cell->message);
        if (out.problems.size() != problems_before) continue;
        // Past results outside the parameter constraints are data all the same: imported, and said.
        for (int k : space.violated_constraints(trial.parameters))
            out.notes.push_back(table.where(row.line) + ": outside the parameter constraint " + space.describe_violation(k, trial.parameters) +
                                "; imported as data (no proposal will be outside it)");
        trial.index = next++;
        trial.status = TrialStatus::Completed;
        trial.generator = "import";
        out.trials.push_back(std::move(trial));
    }
    return out;
}

}  // namespace sebo
