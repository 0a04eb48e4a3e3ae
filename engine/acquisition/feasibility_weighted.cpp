#include "acquisition/feasibility_weighted.h"

#include "acquisition/acquisition.h"

namespace sebo {

double log_sparse_ehvi_times_feasibility(const SparseMultiEhvi& ehvi, std::span<const MixtureMoments> objectives,
                                         double xi, const FeasibilityProbability& feasibility,
                                         std::span<const MixtureMoments> constrained, ConstrainedGradient* gradient) {
    return ehvi.log_ehvi(objectives, xi, gradient ? &gradient->objectives : nullptr,
                         gradient ? &gradient->dxi : nullptr) +
           feasibility.log_value(constrained, gradient ? &gradient->constrained : nullptr);
}

double log_ehvi_times_feasibility(const MultiEhvi& ehvi, std::span<const MixtureMoments> objectives,
                                  const FeasibilityProbability& feasibility,
                                  std::span<const MixtureMoments> constrained, ConstrainedGradient* gradient) {
    if (gradient) gradient->dxi = 0.0;
    return ehvi.log_ehvi(objectives, gradient ? &gradient->objectives : nullptr) +
           feasibility.log_value(constrained, gradient ? &gradient->constrained : nullptr);
}

double log_ei_times_feasibility(const MixtureMoments& objective, double best, const FeasibilityProbability& feasibility,
                                std::span<const MixtureMoments> constrained, ConstrainedGradient* gradient) {
    if (gradient) {
        gradient->dxi = 0.0;
        gradient->objectives.resize(1);
    }
    const double log_ei =
        log_mixture_ei(objective.mean, objective.var, best, gradient ? &gradient->objectives[0].dmean : nullptr,
                       gradient ? &gradient->objectives[0].dvar : nullptr);
    return log_ei + feasibility.log_value(constrained, gradient ? &gradient->constrained : nullptr);
}

}  // namespace sebo
