#include "experiment/sobol_strategy.h"

#include <algorithm>

#include "design/sobol.h"

namespace sebo {

std::vector<std::vector<double>> next_sobol_points(const Experiment& experiment, int count) {
    const auto already = static_cast<std::uint64_t>(std::count_if(
        experiment.trials.begin(), experiment.trials.end(), [](const Trial& t) { return t.generator == "sobol"; }));
    const ScrambledSobol sobol(experiment.space.dimension(), experiment.seed);
    std::vector<std::vector<double>> points;
    for (const auto& unit : sobol.points(already, count))
        points.push_back(experiment.space.snap(experiment.space.from_unit(unit)));
    return points;
}

Proposal SobolStrategy::propose(const Experiment& experiment, int count, const StepControl& control) {
    control.report({"generating initial design", 0, 0, {}});
    Proposal proposal;
    proposal.generator = "sobol";
    proposal.points = next_sobol_points(experiment, count);
    return proposal;
}

}  // namespace sebo
