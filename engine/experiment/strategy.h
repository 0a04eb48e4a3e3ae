#pragma once
// A strategy proposes the next configurations of an experiment. Sobol is the first; the
// model-based strategies (GPEI, SAASBO, EI-ER, EI-IR, SEBO) live behind the same interface.

#include <memory>
#include <string>
#include <vector>

#include "experiment/experiment.h"
#include "experiment/step_control.h"

namespace sebo {

struct Proposal {
    enum class Status { Ok, Cancelled, Failed };
    Status status = Status::Ok;
    // Configurations in user units, already snapped to targets and rounded for integers.
    std::vector<std::vector<double>> points;
    std::string generator;  // recorded on the trials, e.g. "sobol"
    std::string message;    // why it failed or was cancelled
};

class Strategy {
public:
    virtual ~Strategy() = default;
    virtual std::string name() const = 0;
    // Proposes `count` new configurations for the experiment as it is (completed, failed and
    // pending trials). Must be deterministic for a given experiment (seed and trials).
    virtual Proposal propose(const Experiment& experiment, int count, const StepControl& control) = 0;
};

std::unique_ptr<Strategy> make_strategy(const MethodSettings& settings);

}  // namespace sebo
