#pragma once
// The frontiers of some of an experiment's objectives (a view that plots one objective against
// the sparsity, or two objectives against each other): the trials non-dominated in (the chosen
// objectives, −sparsity), and for every k the front of the chosen objectives among the trials
// with at most k active parameters. Like the analytics (experiment/analytics.h) these use the
// feasible analysed trials only; with every objective chosen they are the report's own
// (FrontierReport::pareto_trials and Level::front), and with one objective of a one-objective
// experiment they are taken from it.

#include <cstddef>
#include <vector>

#include "experiment_snapshot.h"

namespace sebo::ui {

struct ObjectiveFronts {
    // Trial indices, ascending.
    std::vector<int> pareto;
    // k = 0 .. max_sparsity: the front with at most k active, best first in the first chosen
    // objective (empty where no feasible trial has at most k active).
    std::vector<std::vector<int>> levels;

    bool isPareto(int trial) const;
};

// `objectives`: indices into the experiment's outcomes.objectives, each valid.
ObjectiveFronts objective_fronts(const ExperimentSnapshot& snapshot, const std::vector<std::size_t>& objectives);

}  // namespace sebo::ui
