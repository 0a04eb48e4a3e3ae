#pragma once
// STAND-IN for the paper's contextual adaptive-bitrate (ABR) problem (paper §5 "Adaptive
// bitrate simulation"; the ContextualBO simulator is not available here). It has the same
// structure, not the same physics: 12 contexts (e.g. network types) x 4 policy parameters
// = 48 parameters, one group per context, and the target is a global (non-contextual) policy
// pi_global already tuned for all contexts. Sparsity is counted in groups: the question is
// which few contexts deserve their own residual Delta pi_c.
//
// Model (deterministic, cheap): context c carries traffic share w_c and has its own best
// policy o_c; its quality of experience is r_c(x_c) = 1 - sum_j a_j (x_{c,j} - o_{c,j})^2 and
// the objective is the traffic-weighted QoE sum_c w_c r_c(x_c), maximized. Nine contexts
// have o_c = pi_global, so changing them only hurts; three (ctx02, ctx05, ctx09) gain
// 0.0246, 0.0276 and 0.0114 from their own optimum. Their residuals are chosen to cancel in
// the traffic-weighted mean, so pi_global is exactly the best shared policy (as it would be
// after a global optimization).

#include <array>
#include <optional>
#include <vector>

#include "problems/problem.h"

namespace sebo {

class GroupedContextualProblem final : public Problem {
public:
    static constexpr int kContexts = 12;
    static constexpr int kParametersPerContext = 4;
    static constexpr int kDimension = kContexts * kParametersPerContext;

    GroupedContextualProblem();

    const SearchSpace& space() const override { return space_; }
    // "qoe", maximized, with the value of the global policy as threshold: the hypervolume
    // measures gains over not contextualizing.
    Outcomes outcomes() const override;
    MetricValues evaluate(const std::vector<double>& x, std::uint64_t noise_seed) const override;
    std::optional<double> optimum() const override { return 1.0; }
    // The parameters of the three contexts that gain, where their optimum differs from the global policy.
    std::vector<int> effective_dimensions() const override;

    static std::array<double, kParametersPerContext> global_policy();
    static std::array<double, kContexts> traffic_shares();
    // The best policy of one context (pi_global + Delta pi_c).
    static std::array<double, kParametersPerContext> context_optimum(int context);

private:
    SearchSpace space_;
};

}  // namespace sebo
