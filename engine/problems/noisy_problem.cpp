#include "problems/noisy_problem.h"

#include <cassert>
#include <cmath>

#include "problems/random_stream.h"

namespace sebo {

namespace {
// Keeps the added noise independent of a stochastic problem's own draws from the same seed.
constexpr std::uint64_t kAddedNoiseSalt = 0x6164646564ull;  // "added"
}  // namespace

NoisyProblem::NoisyProblem(std::shared_ptr<const Problem> inner, std::map<std::string, double> sd)
    : inner_(std::move(inner)), sd_(std::move(sd)) {
    assert(inner_);
    for ([[maybe_unused]] const auto& [metric, value] : sd_) assert(std::isfinite(value) && value > 0.0);
}

MetricValues NoisyProblem::evaluate(const std::vector<double>& x, std::uint64_t noise_seed) const {
    MetricValues values = inner_->evaluate(x, noise_seed);
    // One stream per metric, keyed by its position among the problem's metrics, so that the
    // noise of one metric does not change when another's sd does.
    const std::vector<std::string> metrics = outcomes().metrics;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const auto sd = sd_.find(metrics[i]);
        const auto value = values.find(metrics[i]);
        if (sd == sd_.end() || value == values.end()) continue;
        RandomStream rng(mix_seeds(mix_seeds(noise_seed, kAddedNoiseSalt), i));
        value->second.mean += sd->second * rng.normal();
    }
    return values;
}

}  // namespace sebo
