#pragma once
// What a trial measured, as the charts' tooltips show it: one line per metric ("p99_ms: 41.2 ±
// 0.8"), the plotted one first, and for a completed trial of a constrained experiment
// whether it is feasible and which constraint it breaks.

#include <QString>

#include "experiment/experiment.h"

namespace sebo::ui {

// An objective's axis title, short enough for a chart a few hundred pixels tall: "throughput ↑"
// (higher is better) or "p99_ms ↓" (lower is better).
QString objective_axis_title(const Objective& objective);

// HTML lines, each starting with <br>.
QString outcome_lines(const Experiment& experiment, const Trial& trial, const std::string& first);
struct ExperimentSnapshot;

// A configuration as a chart's snapshot shows it (chart_source.h): outcome_lines, and with merged
// replicates "mean of 3 measurements (trials 4, 9, 12) ± its standard error"; with the model's
// estimates each modelled metric's posterior mean and 95 % interval, the probabilities that it beats
// the status quo and that it is feasible, then what was measured.
QString configuration_lines(const ExperimentSnapshot& snapshot, const Trial& trial, const std::string& first);

// "Infeasible: p99_ms <= 50 does not hold", "Feasibility unknown: p99_ms was not recorded", or
// empty for a feasible trial, a trial without a result, or an experiment without constraints.
QString infeasibility_text(const Experiment& experiment, const Trial& trial);

}  // namespace sebo::ui
