#pragma once
// Evaluates a trial's configuration: a built-in problem or an external command
// (evaluators/command_evaluator.h). Manual evaluation has no Evaluator: the trial stays pending
// until a result is recorded.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/step_control.h"
#include "experiment/trial.h"

namespace sebo {

struct EvaluationOutcome {
    bool ok = false;
    // When ok: what was measured, per metric (user sign). The runner checks the names against
    // the experiment's metrics and the numbers for finiteness (experiment/runner.h).
    MetricValues values;
    std::string error;  // why it failed, when !ok
    // Wall-clock seconds of this evaluation, set by evaluate_batch (evaluations of a batch may
    // overlap, so the step's duration does not tell them apart).
    double seconds = 0.0;
    // Extra information the evaluator reported (compact JSON text of an object; empty if none).
    std::string metadata;
    // A built-in noisy problem's noise-free value of every metric (Trial::noise_free); empty for
    // every other evaluator.
    std::map<std::string, double> noise_free;
};

class Evaluator {
public:
    virtual ~Evaluator() = default;
    virtual EvaluationOutcome evaluate(const Trial& trial, const StepControl& control) = 0;
    // Evaluates the trials of one batch: outcome i belongs to trials[i]. The default evaluates
    // them one after another and times each; evaluators that can run several at once override it.
    // When the stop token fires, returns promptly (the outcomes are then meaningless).
    virtual std::vector<EvaluationOutcome> evaluate_batch(const std::vector<Trial>& trials, const StepControl& control);
};

}  // namespace sebo
