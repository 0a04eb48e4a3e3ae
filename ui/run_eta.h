#pragma once
// How long the rest of a run of several steps will take (issue 17, item 9), from the step times
// measured so far: the mean of the most recent steps (model fits grow slower as trials
// accumulate, so old steps say less), times the steps still to come, less what the current step
// has already taken. Before the first step of the run has finished, a prior — the time the
// experiment's most recent trials took — stands in; without one there is no estimate.

#include <optional>
#include <vector>

#include "experiment/experiment.h"

namespace sebo::ui {

inline constexpr int kEtaRecentSteps = 3;

// `finished`: seconds of the finished steps of this run, in order; `current_elapsed`: seconds the
// running step has taken; `steps_left`: steps not finished, the running one included.
std::optional<double> remaining_run_seconds(const std::vector<double>& finished, double current_elapsed,
                                            int steps_left, std::optional<double> prior_step_seconds);

// The mean time (proposing + evaluating) of the experiment's last kEtaRecentSteps evaluated
// trials of the kind the next step makes: past the initial design only trials after it count
// (a Sobol point takes milliseconds, a model step seconds to minutes). Nothing when there is none.
std::optional<double> recent_trial_seconds(const Experiment& experiment);

}  // namespace sebo::ui
