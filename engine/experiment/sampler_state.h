#pragma once
// The NUTS state a fast SAAS-NUTS step leaves for the next step's warm start (issue 15;
// model/nuts_warm_start.h): per modelled metric (issue 13: every objective, then every
// constrained metric, each with its own model), where each chain ended, the adapted step size and
// inverse metric, and which data the fit saw. It lives in the experiment — and in its file
// ("sampler_states", docs/file-format.md) — so that a resumed `sebo run`, `sebo suggest` or a
// reopened GUI session warm-starts as an uninterrupted run would.
//
// The data part decides whether a metric's state still applies: that metric's next fit
// warm-starts only when every trial listed is still completed with the same parameters and value
// of the metric (`fingerprint`), the warp is the same, and few trials were added since
// (experiment/model_step.h). A metric without a state starts cold.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiment/outcomes.h"
#include "experiment/trial.h"

namespace sebo {

// The state of one metric's model.
struct MetricSamplerState {
    std::string metric;          // the modelled metric whose fit left the state
    bool warp_objective = true;  // MethodSettings::warp_objective of the fit
    std::vector<int> trials;     // indices of the completed trials the fit used, in training order
    std::uint64_t fingerprint = 0;  // data_fingerprint() of those trials when the fit ran
    double step_size = 0.0;
    bool dense_metric = true;
    // One row per chain: its last position, in the sampler's unconstrained coordinates
    // (model/saas_prior.h: log τ, log λ_1 … log λ_D, log σ², [log(noise − floor)], mean).
    std::vector<std::vector<double>> positions;
    // The inverse metric: d × d row by row (dense), or its d diagonal entries.
    std::vector<double> inverse_metric;

    static constexpr int kMaxChains = 64;

    // The number of unconstrained coordinates d (0 without positions).
    int dimension() const { return positions.empty() ? 0 : static_cast<int>(positions.front().size()); }

    // Empty when the state could start a sampler on a SAAS model of `inputs` inputs: 1 to 64
    // positions of D + 3 or D + 4 finite coordinates, a step size in (0, 1e7], an inverse metric of
    // the right size with positive finite variances, and — dense — symmetric and positive
    // definite; trial indices not negative and not repeated. Otherwise a message whose field path
    // starts with `path`.
    std::optional<std::string> validate(int inputs, const std::string& path) const;
};

// Every modelled metric's state, in the order of Outcomes::modelled_metrics(), each metric at most
// once. A metric whose model is not a fast SAAS-NUTS fit has none.
struct SamplerState {
    std::vector<MetricSamplerState> metrics;

    // The state of `metric`, or nullptr.
    const MetricSamplerState* find(const std::string& metric) const;
    // Empty when every metric's state is valid (MetricSamplerState::validate, with the path
    // "sampler_states.NAME") and no metric is named twice or with an empty name.
    std::optional<std::string> validate(int inputs) const;
};

// A 64-bit hash (FNV-1a over the bit patterns) of what a fit sees of the trials with these
// indices, in this order: each index, its parameter values and the utility (the value, negated
// when minimizing) and standard error of `objective`'s metric. Unset when one of them is missing,
// not completed or excluded from analysis. For a constrained metric that is not an objective,
// `objective` is modelled_sign's (the value as recorded).
std::optional<std::uint64_t> data_fingerprint(const std::vector<Trial>& trials, const Objective& objective,
                                              const std::vector<int>& indices);

// The sign in which `metric`'s model sees its values: its objective when it is one (negated when
// minimized), otherwise the value as recorded (an Objective on `metric` that maximizes).
Objective modelled_sign(const Outcomes& outcomes, const std::string& metric);

}  // namespace sebo
