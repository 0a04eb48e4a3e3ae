#pragma once
// What a polytope of linear parameter constraints looks like: empty or not (and if empty, which
// constraints conflict), the directions along which it extends, and a point deep inside it.
//
// 1. Chebyshev centre: the largest ball inside P within the affine subspace of its equalities,
//        maximize r  s.t.  a_i·u + ‖N·N^T a_i‖ r <= b_i  (every row and box side),  E u = f,
//    a linear program (core/linear_program.h) with N an orthonormal basis of the null space
//    of E. Infeasible LP: P is empty.
// 2. r = 0 with room left in the null space means P is flatter than its equalities say: some
//    inequalities hold with equality everywhere (`x + y <= 1` and `x + y >= 1`, or `x >= 1` with
//    x in [0,1]). They are found by repeatedly maximizing the total slack of the candidate rows
//    (a row with positive slack at the optimum is not implicit; when none has any, all remaining
//    are), added to the equalities, and the centre is computed again in the smaller subspace.
// 3. Empty: a deletion filter over the user's constraints (drop each in turn; keep it out when
//    the rest still conflict) leaves a minimal set that cannot hold together within the bounds,
//    named in the message by the constraints' labels.

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "core/linear_program.h"
#include "space/polytope.h"

namespace sebo {

struct PolytopeAnalysis {
    // Failed: a linear program ended on numerical trouble (message says which).
    enum class Status { Feasible, Empty, Failed };
    Status status = Status::Failed;
    std::string message;       // Empty or Failed: what the user or caller needs to know
    std::vector<int> conflict; // Empty: the sources of a minimal conflicting set (may hold −1 for unnamed rows)

    // Feasible only:
    Eigen::VectorXd centre;     // the Chebyshev centre, inside P
    double radius = 0.0;        // of the largest ball around it within P's affine hull (0 for a single point)
    Eigen::MatrixXd directions; // D × k orthonormal basis of the directions P extends in (k = 0: one point)
    std::vector<int> implicit_equalities;  // inequality rows that hold with equality all over P
    std::vector<int> fixed_columns;        // columns with the same value all over P (a box side holds with equality)
};

PolytopeAnalysis analyze_polytope(const Polytope& polytope, const LinearProgramOptions& lp = {});

// Some point of P, or nothing when P is empty (or the program failed). Cheaper than the analysis:
// one linear program, no centre.
std::optional<Eigen::VectorXd> find_point_in_polytope(const Polytope& polytope, const LinearProgramOptions& lp = {});

}  // namespace sebo
