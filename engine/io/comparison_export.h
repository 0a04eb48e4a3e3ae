#pragma once
// The comparison of candidates (experiment/comparison.h) as text to paste into a message, as CSV
// for a spreadsheet, and one configuration as a change request: a plain-text file that says what to
// change ("cache_mb 256 → 811") and what it is expected to do, for whoever applies it (issue 32
// item 3). The explorer's Copy as text / Copy as CSV and Trial › Export change request write these.

#include <string>

#include "experiment/comparison.h"

namespace sebo {

// Lines ending with "\n":
//   Compared with the status quo (trials 0, 3): throughput 1010 ± 7.07 (mean of 2), p99_ms 41
//   (or "No status quo … was measured: values without differences.")
//
//   Trial 4: 2 changes: cache_mb 256 → 811, threads 4 → 8
//     throughput (maximized): 1250 (+240, +23.8 %); model 1230 (95 %: 1180 – 1290), P(better than the status quo) 0.93
//     p99_ms (minimized; p99_ms <= 50): 38 (-3, -7.3 %)
//     constraints: met
// A block per candidate (its changes from the status quo; the metrics as metric_label names them,
// describe_value, then describe_estimate after "; "; "constraints:" only with outcome constraints).
std::string comparison_text(const Experiment& experiment, const Comparison& comparison);

// One row per candidate and metric (the status quo's rows first, when it was measured), with a
// header:
//   trial,status_quo,changes,active,metric,role,value,sem,count,difference,difference_percent,
//   model_mean,model_lower,model_upper,p_better_than_status_quo
// Numbers in full (format_number), unset ones empty; status_quo is true or false; changes is
// describe(changes, "; "); role is "maximize", "minimize", "constraint" or "tracked". Text cells go
// through csv_text_cell (io/csv_cell.h), which guards against spreadsheet formulas.
std::string comparison_csv(const Experiment& experiment, const Comparison& comparison);

// A change request for trial `trial`'s configuration: the experiment, the changes one per line,
// the expected effect of every metric against the status quo (comparison_text's metric lines), and
// the note it was chosen with. Throws InputError as compare_candidates does.
std::string change_request_text(const Experiment& experiment, int trial, const RecommendationReport* estimates = nullptr);

}  // namespace sebo
