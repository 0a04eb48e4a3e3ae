#include "experiment/evaluator.h"

#include <chrono>

namespace sebo {

std::vector<EvaluationOutcome> Evaluator::evaluate_batch(const std::vector<Trial>& trials, const StepControl& control) {
    using Clock = std::chrono::steady_clock;
    std::vector<EvaluationOutcome> outcomes;
    outcomes.reserve(trials.size());
    for (std::size_t i = 0; i < trials.size(); ++i) {
        if (control.cancelled()) break;
        control.report({"evaluating", static_cast<int>(i) + 1, static_cast<int>(trials.size()),
                        "trial " + std::to_string(trials[i].index)});
        const auto start = Clock::now();
        EvaluationOutcome outcome = evaluate(trials[i], control);
        outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        outcomes.push_back(std::move(outcome));
    }
    outcomes.resize(trials.size());
    return outcomes;
}

}  // namespace sebo
