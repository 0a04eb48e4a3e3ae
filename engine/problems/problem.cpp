#include "problems/problem.h"

#include <cmath>
#include <exception>

#include "core/format.h"
#include "problems/random_stream.h"

namespace sebo {

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
        const ProblemValue value = problem_->evaluate(trial.parameters, problem_noise_seed(seed_, trial.index));
        if (!std::isfinite(value.value)) {
            outcome.error = "the problem returned a non-finite value (" + format_number(value.value) + ")";
            return outcome;
        }
        if (value.sem && !(std::isfinite(*value.sem) && *value.sem >= 0.0)) {
            outcome.error = "the problem returned an invalid standard error (" + format_number(*value.sem) + ")";
            return outcome;
        }
        outcome.ok = true;
        outcome.objective = value.value;
        outcome.sem = value.sem;
    } catch (const std::exception& e) {
        outcome.error = std::string("the evaluation failed: ") + e.what();
    }
    return outcome;
}

}  // namespace sebo
