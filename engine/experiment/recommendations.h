#pragma once
// Recommendations from the model, with their uncertainty (issue 30 item 4; SPEC §11). Measurements
// are noisy: the best measured value at each number of changes is often the luckiest draw, not
// the best configuration. The model (the experiment's own, fitted to every measurement:
// experiment/simplify.h's fit_simplify_model) estimates each measured configuration's noise-free
// value, and for every k recommends:
//  - one objective: the measured configuration with at most k changes whose posterior mean is
//    best;
//  - several: the configurations with at most k changes whose posterior means no other such
//    configuration dominates;
//  - with outcome constraints: among the configurations whose posterior probability of
//    feasibility is at least 1/2 (a measured feasibility is a noisy measurement too).
// Each comes with every modelled metric's posterior mean and 95 % credible interval in the
// metric's own units, the probability of feasibility, and — when the status quo (the
// configuration with no change) was measured — each objective's probability that it beats the
// status quo's noise-free value under the joint posterior of the two.
//
// Estimates in user units: the model sees z = (ψ(u·c) − m)/s (the warp ψ, the utility scale c, the
// standardization; experiment/model_step.h). The interval's ends are the mixture's 2.5 % and
// 97.5 % quantiles of z mapped back (every map is monotone, so quantiles map to quantiles); the
// mean is the expectation of the mapped value, by a 64-point midpoint rule in probability per
// model sample. Without a warp the mean is the mixture mean mapped back exactly.
//
// Replicates (experiment/replicates.h) are one configuration; a configuration is named by its first
// trial.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"
#include "core/step_control.h"

namespace sebo {

struct MetricEstimate {
    double mean = 0.0;   // user units and sign
    double lower = 0.0;  // 95 % credible interval of the noise-free value
    double upper = 0.0;
};

struct ConfigurationEstimate {
    std::vector<int> trials;  // the configuration's trials that count in the analysis; trials.front() names it
    int sparsity = 0;         // Experiment::sparsity
    // Every modelled metric (the objectives, then the constrained metrics that are not objectives).
    std::map<std::string, MetricEstimate> estimates;
    // Per objective: P(noise-free value better than the status quo's); empty when the status quo
    // was not measured, and for the status quo itself.
    std::map<std::string, double> p_better_than_status_quo;
    std::optional<double> p_feasible;  // with outcome constraints
    int trial() const { return trials.front(); }
};

struct RecommendationReport {
    enum class Status { Ok, Cancelled, Failed };
    Status status = Status::Failed;
    std::string message;  // why, when not Ok
    // Every measured configuration that counts in the analysis, in the order of its first trial.
    std::vector<ConfigurationEstimate> configurations;
    // Position in `configurations` of the status quo, when it was measured.
    std::optional<std::size_t> status_quo;
    // The metrics whose measurements are noisy: a standard error was reported for one of them, or
    // the model's inferred noise is not negligible (model/noise_level.h). When an objective is
    // among them, views show these estimates by default instead of the raw measurements.
    std::vector<std::string> noisy_metrics;
    struct Level {
        int k = 0;
        std::vector<std::size_t> recommended;  // positions in `configurations`; best first
    };
    std::vector<Level> levels;  // k = 0..max_sparsity where some configuration is eligible

    bool noisy_objective(const Experiment& experiment) const;
    const ConfigurationEstimate* find(int trial) const;
};

// Fits the experiment's model and estimates every measured configuration. Failed with a message
// when fewer than two trials count in the analysis (the model needs two) or the fit fails.
RecommendationReport recommend_configurations(const Experiment& experiment, const StepControl& control = {});

}  // namespace sebo
