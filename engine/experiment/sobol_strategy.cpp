#include "experiment/sobol_strategy.h"

#include <algorithm>

#include "design/polytope_sampler.h"
#include "design/sobol.h"
#include "space/feasible_point.h"

namespace sebo {

std::vector<std::vector<double>> next_sobol_points(const Experiment& experiment, int count) {
    const auto already = static_cast<std::uint64_t>(std::count_if(
        experiment.trials.begin(), experiment.trials.end(), [](const Trial& t) { return t.generator == "sobol"; }));
    std::vector<std::vector<double>> points;
    if (const Polytope* polytope = experiment.space.polytope()) {
        const PolytopeSample sample = sample_polytope(*polytope, count, experiment.seed, {}, static_cast<int>(already));
        for (const Eigen::VectorXd& unit : sample.points)
            if (auto values = feasible_configuration(experiment.space, unit)) points.push_back(std::move(*values));
        return points;
    }
    const ScrambledSobol sobol(experiment.space.dimension(), experiment.seed);
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
