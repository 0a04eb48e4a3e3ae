#include "problems/problem.h"

#include <exception>

#include "problems/random_stream.h"

namespace sebo {

Measurement Problem::primary_measurement(const std::vector<double>& x, std::uint64_t noise_seed) const {
    const MetricValues values = evaluate(x, noise_seed);
    return values.at(outcomes().objectives.front().metric);
}

std::map<std::string, double> Problem::noise_free_values(const std::vector<double>& x) const {
    std::map<std::string, double> values;
    for (const auto& [metric, measurement] : evaluate(x, 0)) values[metric] = measurement.mean;
    return values;
}

std::uint64_t problem_noise_seed(std::uint64_t experiment_seed, int trial_index) {
    // The index goes through the sign-extending cast so that every int maps to a distinct value.
    return mix_seeds(experiment_seed, static_cast<std::uint64_t>(static_cast<std::int64_t>(trial_index)));
}

EvaluationOutcome ProblemEvaluator::evaluate(const Trial& trial, const StepControl& control) {
    EvaluationOutcome outcome;
    if (control.cancelled()) {
        outcome.error = "cancelled before the evaluation started";
        return outcome;
    }
    if (auto error = problem_->space().check_point(trial.parameters)) {
        outcome.error = "the configuration is not inside the problem's search space: " + *error;
        return outcome;
    }
    try {
        outcome.values = problem_->evaluate(trial.parameters, problem_noise_seed(seed_, trial.index));
        if (problem_->noisy()) outcome.noise_free = problem_->noise_free_values(trial.parameters);
        outcome.ok = true;
    } catch (const std::exception& e) {
        outcome.error = std::string("the evaluation failed: ") + e.what();
    }
    return outcome;
}

}  // namespace sebo
