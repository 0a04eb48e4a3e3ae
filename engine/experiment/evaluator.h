#pragma once
// Evaluates a trial's configuration: a built-in problem, later an external command. Manual
// evaluation has no Evaluator: the trial stays pending until a result is recorded.

#include <optional>
#include <string>

#include "experiment/step_control.h"
#include "experiment/trial.h"

namespace sebo {

struct EvaluationOutcome {
    bool ok = false;
    double objective = 0.0;  // user sign
    std::optional<double> sem;
    std::string error;  // why it failed, when !ok
};

class Evaluator {
public:
    virtual ~Evaluator() = default;
    virtual EvaluationOutcome evaluate(const Trial& trial, const StepControl& control) = 0;
};

}  // namespace sebo
