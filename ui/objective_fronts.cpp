#include "objective_fronts.h"

#include <algorithm>

#include "pareto/sparsity_fronts.h"

namespace sebo::ui {

bool ObjectiveFronts::isPareto(int trial) const { return std::binary_search(pareto.begin(), pareto.end(), trial); }

ObjectiveFronts objective_fronts(const ExperimentSnapshot& snapshot, const std::vector<std::size_t>& objectives) {
    const Experiment& e = snapshot.experiment;
    ObjectiveFronts fronts;
    const int d = e.max_sparsity();
    if (objectives.size() == e.outcomes.objectives.size()) {
        // Every objective in the experiment's order: what the analytics computed.
        bool in_order = true;
        for (std::size_t i = 0; i < objectives.size(); ++i) in_order = in_order && objectives[i] == i;
        if (in_order) {
            fronts.pareto = snapshot.report.pareto_trials;
            std::sort(fronts.pareto.begin(), fronts.pareto.end());
            fronts.levels.resize(static_cast<std::size_t>(d) + 1);
            for (const FrontierReport::Level& level : snapshot.report.levels)
                if (level.k >= 0 && level.k <= d) fronts.levels[static_cast<std::size_t>(level.k)] = level.front;
            return fronts;
        }
    }
    std::vector<ObjectivePoint> points;
    for (std::size_t i = 0; i < e.trials.size(); ++i) {
        const Trial& t = e.trials[i];
        if (!e.feasible(t) || snapshot.sparsity[i] < 0) continue;
        ObjectivePoint p;
        p.sparsity = snapshot.sparsity[i];
        p.id = t.index;
        for (std::size_t o : objectives) p.utilities.push_back(*e.utility(t, o));
        points.push_back(std::move(p));
    }
    fronts.pareto = non_dominated(points);
    std::sort(fronts.pareto.begin(), fronts.pareto.end());
    fronts.levels.resize(static_cast<std::size_t>(d) + 1);
    for (SparsityFront& level : fronts_by_sparsity(points, d))
        fronts.levels[static_cast<std::size_t>(level.k)] = std::move(level.ids);
    return fronts;
}

}  // namespace sebo::ui
