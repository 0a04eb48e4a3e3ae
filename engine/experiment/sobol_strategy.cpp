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
        // The sampler's points that snap and round feasibly, from the start of its sequence, so
        // that a point skipped (no feasible rounding of its integers) is skipped the same way
        // when the design is drawn one trial at a time or resumed. At most four samples per point.
        const auto wanted = static_cast<std::size_t>(already) + static_cast<std::size_t>(count);
        for (const std::size_t drawn : {wanted, 4 * wanted}) {
            points.clear();
            const PolytopeSample sample = sample_polytope(*polytope, static_cast<int>(drawn), experiment.seed);
            std::size_t good = 0;
            for (std::size_t i = 0; i < sample.points.size() && points.size() < static_cast<std::size_t>(count); ++i) {
                std::optional<std::vector<double>> values = feasible_configuration(experiment.space, sample.points[i]);
                if (!values) continue;
                if (good++ >= already) points.push_back(std::move(*values));
            }
            if (points.size() == static_cast<std::size_t>(count)) break;
        }
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
