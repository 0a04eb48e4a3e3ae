#pragma once
// Results measured outside the tool, read from CSV tables (SPEC §5 "enter or import (CSV)
// observed results", §6 ask/tell):
//
//  - match_results: a sheet of results for trials the tool proposed (`sebo observe --csv`).
//    Rows name their trial by a "trial" column, or else by the values of every parameter
//    column, which must equal those of one pending trial exactly (as numbers: "0.50" is 0.5).
//    Optional columns "status" (completed | failed | abandoned | pending) and "error". Other
//    columns are ignored. Each row is reported as matched, unmatched, invalid or skipped (no
//    result yet).
//  - import_trials: historical data (`sebo import`, `sebo new --import`): every row, with all
//    parameter columns and the metrics' values, becomes a completed trial with generator
//    "import". A fixed parameter's column may be absent; when present it must hold the fixed
//    value. Rows outside the linear parameter constraints are imported with a note.
//
// Metric columns, in both: one per metric of the experiment, named after it, with its standard
// error in an optional column "<metric>_sem" (a column named after a metric is always that
// metric's value). An experiment with a single metric also takes "objective" and "sem". A sheet
// without a column for some metric is refused as a whole. A completed row needs a value of every
// objective and of every constrained metric; a tracked metric's cell may be empty (not measured).
//
// Column names are matched exactly, except the fixed ones (trial, objective, sem, status,
// error), which ignore letter case. Nothing here changes an experiment except record_results.

#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"
#include "io/csv_table.h"

namespace sebo {

// A result to record on one trial.
struct ObservedResult {
    int trial = 0;
    TrialStatus status = TrialStatus::Completed;  // Completed, Failed or Abandoned
    MetricValues values;                          // Completed only
    std::string error;                            // Failed / Abandoned: why
};

// What became of one data row of a results sheet. Recorded: the row repeats the result its trial
// already has (a sheet of all trials exported, filled in and read back), so there is nothing to
// record and nothing wrong; a different result for such a trial is Invalid (unless overwrite).
struct ResultRow {
    enum class Status { Matched, Unmatched, Invalid, Skipped, Recorded };
    int line = 0;
    Status status = Status::Invalid;
    int trial = -1;       // Matched: the trial its result is for
    std::string message;  // Unmatched / Invalid / Skipped / Recorded: why
};

const char* to_string(ResultRow::Status status);

struct ResultsMatch {
    std::vector<ObservedResult> results;  // one per matched row, in file order
    std::vector<ResultRow> rows;          // one per data row, in file order

    int count(ResultRow::Status status) const;
    // True when no row is unmatched or invalid (skipped and recorded rows carry no result and are fine).
    bool complete() const { return count(ResultRow::Status::Unmatched) == 0 && count(ResultRow::Status::Invalid) == 0; }
};

struct ResultsMatchOptions {
    // Allow replacing the result of a trial that already has one (completed, failed, abandoned).
    bool overwrite = false;
};

// Throws InputError (field "<source> line N") when the sheet itself is unusable: no column for
// a metric, or neither a trial column nor every parameter column.
ResultsMatch match_results(const Experiment& experiment, const CsvTable& table, const ResultsMatchOptions& options = {});

// Empty when the result can be recorded: the trial exists, has no result yet (or overwrite),
// and the values fit the status (completed: a value of every objective and constrained metric,
// only metrics of the experiment, finite values and standard errors >= 0; otherwise no values).
std::optional<std::string> check_result(const Experiment& experiment, const ObservedResult& result, bool overwrite);

// Records each result on its trial (status, values, error, completed_at = timestamp). A
// result replaces the trial's old one entirely: an exclusion from analysis, which judged the old
// value, is dropped (the trial counts again).
// Every result must pass check_result(.., overwrite = true) (asserted).
void record_results(Experiment& experiment, const std::vector<ObservedResult>& results, const std::string& timestamp);

struct TrialImport {
    std::vector<Trial> trials;          // completed, generator "import", indices after the experiment's
    std::vector<std::string> problems;  // "past.csv line 4, column x3: 12 is above the upper bound 10"
    // Rows imported although they violate a linear parameter constraint, one note each:
    // "past.csv line 5: outside the parameter constraint fa + fb <= 1 (...); imported as data ...".
    std::vector<std::string> notes;
};

// Reads historical trials; a row with a problem is reported, not imported. Callers import
// nothing unless `problems` is empty. Throws InputError when a column is missing.
TrialImport import_trials(const Experiment& experiment, const CsvTable& table);

}  // namespace sebo
