#pragma once
// Quasi-random search: the experiment's scrambled Sobol sequence (seeded by the experiment
// seed), continued from the number of Sobol trials already generated, so resuming a run
// gives the same points as an uninterrupted one.
//
// With linear parameter constraints the sequence is that of the constraints' polytope
// (design/polytope_sampler.h: the Sobol points inside it when they are at least a tenth, hit-and-run
// otherwise), each point snapped and rounded without leaving it (space/feasible_point.h).

#include "experiment/strategy.h"

namespace sebo {

class SobolStrategy final : public Strategy {
public:
    std::string name() const override { return "sobol"; }
    Proposal propose(const Experiment& experiment, int count, const StepControl& control) override;
};

// The next `count` Sobol configurations for the experiment (user units, snapped). Fewer (none)
// only when a space's constraints leave no point (which creation refuses) or rounding finds no
// feasible integer point.
std::vector<std::vector<double>> next_sobol_points(const Experiment& experiment, int count);

}  // namespace sebo
