#pragma once
// Quasi-random search: the experiment's scrambled Sobol sequence (seeded by the experiment
// seed), continued from the number of Sobol trials already generated, so resuming a run
// gives the same points as an uninterrupted one.

#include "experiment/strategy.h"

namespace sebo {

class SobolStrategy final : public Strategy {
public:
    std::string name() const override { return "sobol"; }
    Proposal propose(const Experiment& experiment, int count, const StepControl& control) override;
};

// The next `count` Sobol configurations for the experiment (user units, snapped).
std::vector<std::vector<double>> next_sobol_points(const Experiment& experiment, int count);

}  // namespace sebo
