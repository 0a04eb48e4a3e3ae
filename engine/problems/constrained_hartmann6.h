#pragma once
// Hartmann6 with an outcome constraint that excludes its unconstrained optimum (issue 13, item 7):
// the objective is hartmann6(x) (problems/synthetic_functions.h, minimized) and a second metric is
// the sum of the six effective coordinates, constrained to sum ≤ 1.5. The unconstrained minimizer
// kHartmann6Minimizer has sum 2.07286, so it is infeasible.
//
// The constrained optimum below was computed with NLopt's SLSQP (LD_SLSQP, analytic gradients,
// xtol_rel 1e-14) from 2000 uniformly random starts in [0, 1]^6: the best of them, reached from 1413
// of the starts (the next-best local optimum found is −1.9043). Its last coordinate is lowered by
// 6.2e-13 so that the stated point is feasible in double arithmetic (sum 1.4999999999999996; the
// value rises by 1.2e-12). The constraint is active, every coordinate is strictly inside (0, 1),
// and the KKT condition holds there: the gradient of hartmann6 is −λ·(1, …, 1) with
// λ = 1.94896 > 0. tests/engine/test_moo_problems.cpp re-checks all of this and re-runs SLSQP from
// 64 starts.

#include <array>

namespace sebo {

// The constrained metric: x1 + … + x6.
double hartmann6_coordinate_sum(const std::array<double, 6>& x);

inline constexpr double kHartmann6SumBound = 1.5;  // feasible when hartmann6_coordinate_sum(x) ≤ this
inline constexpr double kConstrainedHartmann6Minimum = -2.59510829369852;
inline constexpr std::array<double, 6> kConstrainedHartmann6Minimizer = {
    0.10851374683492, 0.0379572725739636, 0.205771050214512, 0.248036832169082, 0.283342122113307, 0.616378976094215};

}  // namespace sebo
