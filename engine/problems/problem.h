#pragma once
// A built-in problem: a search space, the metrics it reports with its objectives and outcome
// constraints, and a way to evaluate it (SPEC §4, §10).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "experiment/evaluator.h"
#include "experiment/experiment.h"
#include "space/search_space.h"

namespace sebo {

class Problem {
public:
    virtual ~Problem() = default;
    virtual const SearchSpace& space() const = 0;
    // Every metric it reports, and what a new experiment on it optimizes by default: the
    // objectives with their thresholds — the objective side of the hypervolume reference point
    // (user sign), fixed per problem so that traces of different runs compare (SPEC §3) — and
    // the outcome constraints. A person may choose other objectives and constraints among the
    // same metrics (problem_catalog.h).
    virtual Outcomes outcomes() const = 0;
    // Evaluates a configuration in user units: one value per metric of outcomes().metrics.
    // Stochastic problems draw their noise from `noise_seed` so that an experiment is
    // reproducible; deterministic ones ignore it. Must be safe to call concurrently from several
    // threads.
    virtual MetricValues evaluate(const std::vector<double>& x, std::uint64_t noise_seed) const = 0;
    // The best achievable value (user sign) of the first default objective when known — among
    // the configurations that satisfy the default constraints.
    virtual std::optional<double> optimum() const { return std::nullopt; }
    // The parameters that actually matter, when known (embedded synthetic problems).
    virtual std::vector<int> effective_dimensions() const { return {}; }
    // The noise-free value of every metric at x (user sign): what evaluate() measures without its
    // noise — evaluate() itself for a deterministic problem, the expectation over the simulation
    // for a stochastic one. Benchmarks judge recommendations by it (issue 30).
    virtual std::map<std::string, double> noise_free_values(const std::vector<double>& x) const;
    // Whether evaluate() adds noise to the noise-free values (a stochastic problem, or one made
    // noisy with ProblemSpec::noise).
    virtual bool noisy() const { return false; }

    // The first default objective's measurement of evaluate(x, noise_seed).
    Measurement primary_measurement(const std::vector<double>& x, std::uint64_t noise_seed) const;
};

// The noise seed of one trial: a splitmix64-based mix of the experiment seed and the trial
// index, so neighbouring trials and neighbouring seeds draw unrelated noise.
std::uint64_t problem_noise_seed(std::uint64_t experiment_seed, int trial_index);

// Adapts a Problem to the Evaluator interface; the noise seed is derived from the experiment
// seed and the trial index, so re-running a trial reproduces its value. A noisy problem's outcome
// also carries the noise-free values (EvaluationOutcome::noise_free).
class ProblemEvaluator final : public Evaluator {
public:
    ProblemEvaluator(std::shared_ptr<const Problem> problem, std::uint64_t experiment_seed)
        : problem_(std::move(problem)), seed_(experiment_seed) {}
    // Never throws: a configuration outside the problem's space or an exception from the
    // problem becomes ok = false with a message (the runner checks the values themselves).
    EvaluationOutcome evaluate(const Trial& trial, const StepControl& control) override;

private:
    std::shared_ptr<const Problem> problem_;
    std::uint64_t seed_;
};

}  // namespace sebo
