#pragma once
// Multi-start local maximization inside the polytope of linear parameter constraints (issue 14):
// the counterpart of maximize_in_unit_box (optimize/multistart.h) for spaces with constraints.
//
// Each start is projected into P (space/polytope_projection.h) and improved by SLSQP (Kraft 1988,
// sequential least-squares quadratic programming; NLopt's NLOPT_LD_SLSQP) with the analytic
// gradient, the box as bounds and the rows of P as linear constraints with constant gradients.
// SLSQP handles general linear equalities and inequalities directly, each step solving a
// least-squares QP that keeps the linearized constraints; L-BFGS-B only knows bounds.
//
// NLopt's result code is always looked at: success codes (including the evaluation limit) keep
// its point; ROUNDOFF_LIMITED, FAILURE and a forced stop (cancellation, or a non-finite value)
// keep the best feasible point evaluated. SLSQP may end a hair outside a row; then its point is
// projected back into P and evaluated again, and the better of that and the best feasible point
// seen is kept. Every returned x passes Polytope::contains.

#include <Eigen/Core>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "optimize/multistart.h"
#include "space/polytope.h"

namespace sebo {

struct SlsqpOptions {
    int max_evaluations = 200;          // objective evaluations per start
    double relative_x_tolerance = 1e-8; // NLopt xtol_rel
    double relative_f_tolerance = 1e-9; // NLopt ftol_rel (the L-BFGS-B default's relative improvement)

    std::optional<std::string> validate() const;
};

struct PolytopeOptimum {
    // How SLSQP ended, from NLopt's result code.
    enum class Ending { Converged, EvaluationLimit, RoundoffLimited, Failed, Stopped };
    Eigen::VectorXd x;  // inside P
    double value = 0.0;
    int evaluations = 0;
    Ending ending = Ending::Failed;
    bool projected = false;  // SLSQP's own point was outside P and was projected back
};

const char* to_string(PolytopeOptimum::Ending ending);

// Maximizes f from each start. A start that cannot be projected into P (P is empty) gives no
// optimum. Checks `stop` between starts and at every evaluation.
std::vector<PolytopeOptimum> maximize_in_polytope(const SmoothObjective& f, const std::vector<Eigen::VectorXd>& starts,
                                                  const Polytope& polytope, const SlsqpOptions& options,
                                                  std::stop_token stop = {});

}  // namespace sebo
