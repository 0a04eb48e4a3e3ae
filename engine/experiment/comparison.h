#pragma once
// Compare candidates (issue 32 item 3; SPEC §11 "the decision desk"): a few configurations side by
// side against the status quo, as a decision maker weighs them — each metric's value with its
// difference to the status quo in the metric's units and in per cent, the model's estimate and 95 %
// interval where the model gives one (experiment/recommendations.h), and only the parameters the
// configuration changes, in configuration_changes.h's wording ("cache_mb 256 → 811").
//
// Values are measurements, a configuration measured more than once merged (experiment/
// replicates.h: mean, standard error, count). The status quo is the configuration that changes
// nothing (sparsity 0) among the trials that count in the analysis, as the recommendations name
// it; without one there are no differences, only values. The explorer's comparison view, the
// change-request export and the report all render this one computation (io/comparison_export.h).

#include <optional>
#include <string>
#include <vector>

#include "experiment/configuration_changes.h"
#include "experiment/experiment.h"
#include "experiment/recommendations.h"

namespace sebo {

struct MetricComparison {
    std::string metric;
    // What the metric is to the experiment: its objective (unset for a constrained or tracked
    // metric) and whether a constraint is on it.
    std::optional<Objective> objective;
    bool constrained = false;

    // The measurement (replicates merged); unset when the metric was not recorded.
    std::optional<double> value;
    std::optional<double> sem;
    int count = 0;  // measurements merged

    // value − the status quo's value (user units and sign), and that difference as a fraction of
    // the status quo's magnitude (0.136 = +13.6 %; unset when the status quo's value is 0). Unset
    // without a status quo or a value on either side.
    std::optional<double> difference;
    std::optional<double> relative;
    // For an objective with a difference: whether it moves in the objective's direction (unset for
    // no change and for metrics that are not objectives).
    std::optional<bool> better;

    // The model's estimate of the configuration's noise-free value (posterior mean and 95 %
    // credible interval) and, for an objective, the probability that it beats the status quo's:
    // unset where the model has none (a tracked metric, no estimates given, too few trials).
    std::optional<MetricEstimate> estimate;
    std::optional<double> p_better_than_status_quo;
};

struct CandidateComparison {
    int trial = 0;
    // The trials merged into the values: the trial's configuration as measured (just the trial when
    // measured once or when it does not count in the analysis).
    std::vector<int> measurements;
    int sparsity = 0;                      // Experiment::sparsity
    std::vector<ParameterChange> changes;  // away from the targets: what the status quo would change
    Feasibility feasibility = Feasibility::Unknown;  // of the merged values
    std::vector<MetricComparison> metrics;           // in the experiment's metric order
    bool is_status_quo = false;
};

struct Comparison {
    // The status quo's configuration as measured: its trials (the first names it), empty when it
    // was not measured, and its values as a candidate of its own (no differences).
    std::vector<int> status_quo_trials;
    std::optional<CandidateComparison> status_quo;
    std::vector<CandidateComparison> candidates;  // in the order given
};

// Compares `trials` (indices, each named once; a trial named twice is compared once) with the
// status quo. `estimates` (may be null) are the model's estimates of the same experiment. Throws
// InputError (field "trials") when the list is empty or names a trial that does not exist or has
// no result (pending, failed, abandoned).
Comparison compare_candidates(const Experiment& experiment, const std::vector<int>& trials,
                              const RecommendationReport* estimates = nullptr);

// "1250 ± 12 (+150, +13.6 %)": a metric's value with its standard error and its difference to the
// status quo in units and per cent, numbers with format_short's 6 digits and the per cent with one
// decimal; "—" when the metric was not recorded. With several measurements "(mean of 3)" follows
// the value.
std::string describe_value(const MetricComparison& metric);
// "model 1230 (95 %: 1180 – 1290), P(better than the status quo) 0.93", or empty without an
// estimate.
std::string describe_estimate(const MetricComparison& metric);
// "throughput (maximized)", "p99_ms (minimized; p99_ms <= 50)", "memory (memory <= 100)", "cost
// (tracked)": a metric with what it is to the experiment.
std::string metric_label(const Experiment& experiment, const std::string& metric);
// Whether a configuration meets the outcome constraints: "met", "not met", "unknown (…)".
std::string constraints_text(Feasibility feasibility);
// "+13.6 %", "-2.0 %", "+0.0 %".
std::string percent_text(double fraction);

}  // namespace sebo
