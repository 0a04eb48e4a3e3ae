#pragma once
// A built-in problem: a search space, an objective and a way to evaluate it (SPEC §4).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "experiment/evaluator.h"
#include "experiment/experiment.h"
#include "space/search_space.h"

namespace sebo {

struct ProblemValue {
    double value = 0.0;  // objective in the user's sign (see Problem::objective())
    std::optional<double> sem;
};

class Problem {
public:
    virtual ~Problem() = default;
    virtual const SearchSpace& space() const = 0;
    virtual Objective objective() const = 0;
    // Evaluates a configuration in user units. Stochastic problems draw their noise from
    // `noise_seed` so that an experiment is reproducible; deterministic ones ignore it.
    // Must be safe to call concurrently from several threads.
    virtual ProblemValue evaluate(const std::vector<double>& x, std::uint64_t noise_seed) const = 0;
    // The best achievable objective value (user sign) when known.
    virtual std::optional<double> optimum() const { return std::nullopt; }
    // The objective side of the hypervolume reference point (user sign), fixed per problem so
    // that traces of different runs compare (SPEC §3).
    virtual std::optional<double> hypervolume_reference() const { return std::nullopt; }
    // The parameters that actually matter, when known (embedded synthetic problems).
    virtual std::vector<int> effective_dimensions() const { return {}; }
};

// The noise seed of one trial: a splitmix64-based mix of the experiment seed and the trial
// index, so neighbouring trials and neighbouring seeds draw unrelated noise.
std::uint64_t problem_noise_seed(std::uint64_t experiment_seed, int trial_index);

// Adapts a Problem to the Evaluator interface; the noise seed is derived from the experiment
// seed and the trial index, so re-running a trial reproduces its value.
class ProblemEvaluator final : public Evaluator {
public:
    ProblemEvaluator(std::shared_ptr<const Problem> problem, std::uint64_t experiment_seed)
        : problem_(std::move(problem)), seed_(experiment_seed) {}
    // Never throws: a configuration outside the problem's space, a non-finite value or an
    // exception from the problem becomes ok = false with a message.
    EvaluationOutcome evaluate(const Trial& trial, const StepControl& control) override;

private:
    std::shared_ptr<const Problem> problem_;
    std::uint64_t seed_;
};

}  // namespace sebo
