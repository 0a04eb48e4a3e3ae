#pragma once
// The point of a polytope nearest to a given point (Euclidean distance in the unit cube), with
// some coordinates pinned at the given point's values — Ax's "pin the pruned parameter and project
// the others back onto the feasible set" (issue 14):
//
//     minimize ½‖z − y_F‖²  over the free coordinates z,  subject to the rows of P with the pinned
//     coordinates substituted, and 0 <= z <= 1.
//
// A strictly convex quadratic program, solved exactly by the primal active-set method (Nocedal &
// Wright, Numerical Optimization, 2nd ed., Algorithm 16.3). With the identity Hessian each
// equality-constrained step is the projection of y − z onto the null space of the working rows
// (column-pivoted QR), and the multipliers are the least-squares solution of Σ μ_i a_i = y − z. The
// start is y clamped to the box when that is already feasible (then it is the answer), otherwise a
// vertex from a linear program (core/linear_program.h), which also detects infeasible pins.

#include <Eigen/Core>
#include <vector>

#include "space/polytope.h"

namespace sebo {

struct PolytopeProjection {
    // Infeasible: no point of P has the pinned values. Failed: numerical trouble (iteration limit,
    // or a result that does not pass Polytope::contains); x is then unusable.
    enum class Status { Ok, Infeasible, Failed };
    Status status = Status::Failed;
    Eigen::VectorXd x;  // Ok: the nearest point; pinned coordinates exactly as given
    int iterations = 0;

    // The optimality certificate (Ok): on the free coordinates,
    //     x − y + A^T μ + E^T ν − λ_lower + λ_upper = 0,
    // with μ, λ >= 0 and each zero unless its row is tight. Entries for pinned coordinates are 0.
    Eigen::VectorXd inequality_multipliers;  // μ, one per inequality row of P
    Eigen::VectorXd equality_multipliers;    // ν, one per equality row of P
    Eigen::VectorXd lower_multipliers;       // λ_lower, one per coordinate (bound u_j >= 0)
    Eigen::VectorXd upper_multipliers;       // λ_upper, one per coordinate (bound u_j <= 1)
};

// `pinned` is empty (nothing pinned) or has one entry per coordinate. `point` must be finite.
PolytopeProjection project_onto_polytope(const Polytope& polytope, const Eigen::VectorXd& point,
                                         const std::vector<bool>& pinned = {});

}  // namespace sebo
