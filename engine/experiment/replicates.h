#pragma once
// Repeated measurements of one configuration (issue 30 item 5): trials whose parameter values are
// identical are one configuration in the analysis. The raw views (the frontier, the tables, the
// exports) show one entry per configuration with the mean of its measurements, their standard
// error and their count; the model is given every measurement (each replicate is a data point, and
// the GP's noise — inferred, or the standard errors reported — weighs them), which is what makes a
// replicate informative (docs/method.md, "Noisy measurements").

#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"

namespace sebo {

struct Replicates {
    std::vector<int> trials;  // trial indices in the experiment's order; trials.front() stands for them
};

// The trials that count in the analysis (Experiment::analyzed) grouped by configuration, groups in
// the order of their first trial.
std::vector<Replicates> analyzed_replicates(const Experiment& experiment);

// One metric's measurements of a configuration merged: the mean of the recorded values; the
// standard error sqrt(Σ sem_i²)/n when every replicate reported one, otherwise the sample standard
// deviation / √n when n ≥ 2 (unset for one measurement without a standard error); n the count of
// replicates that recorded the metric (0: no value).
struct MergedMeasurement {
    double mean = 0.0;
    std::optional<double> sem;
    int count = 0;
};
MergedMeasurement merged_measurement(const Experiment& experiment, const std::vector<int>& trials, const std::string& metric);

// The configuration's first trial with every metric's value replaced by the merged measurement
// of the group: what the raw analysis (experiment/analytics.h) uses for a configuration measured
// more than once. `trials` non-empty, the first one in the experiment.
Trial merged_trial(const Experiment& experiment, const std::vector<int>& trials);

// Whether any configuration that counts in the analysis was measured more than once.
bool has_replicates(const Experiment& experiment);

// "Confirm with more measurements" (issue 30 item 5; `sebo confirm`, the explorer's action): the
// configurations of `trials`, each `repeats` times in a row (trial order kept, a trial named twice
// confirmed once), in user units, to be added as new trials — pending for a manual experiment, run
// with the experiment's evaluator otherwise. Throws InputError with field "trials" when the list is
// empty, "trials[i]" naming a trial that does not exist, has no result to confirm (pending, failed,
// abandoned) or is not a configuration of the space, and "repeats" when repeats is outside [1, 1000].
std::vector<std::vector<double>> replicate_points(const Experiment& experiment, const std::vector<int>& trials, int repeats);

}  // namespace sebo
