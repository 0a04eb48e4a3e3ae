#pragma once
// Moving a candidate onto the space's grid without leaving the polytope of linear parameter
// constraints (issue 14): setting near-target coordinates exactly onto the sparse target
// ("snapping", SPEC §9) and rounding integer coordinates. Both move single coordinates, which can
// break a constraint; the others are then projected back (space/polytope_projection.h) with the
// moved ones pinned, as Ax's pruning does.
//
// Order, for a unit-cube candidate x and target t:
//   0. If x is outside P (a raw sample, say), it is first projected onto P with the coordinates
//      already on their target pinned (or with nothing pinned, when that is infeasible).
//   1. Snap. The coordinates the rule selects (and that are not on target yet) are all set onto
//      the target at once, pinned together with those already on target, and the rest projected.
//      When no point of P has all of them on target, they are taken one at a time, nearest to
//      the target first: each is snapped and pinned if P allows it with the ones pinned so far,
//      and otherwise KEPT CHANGED (reported in kept_changed). A coordinate on target is never moved
//      off it by a later projection.
//   2. Round integers (finalize_feasibly only). Every integer coordinate not on target goes to
//      its nearest grid value; with all of those and the target coordinates pinned the
//      continuous rest is projected. When that has no solution, a dive: integer coordinates in
//      column order are pinned one at a time, at the nearest grid value or else the other
//      neighbour, projecting all unpinned coordinates after each; if neither neighbour leaves a
//      feasible point, the status is Infeasible. Target coordinates are never released to make
//      rounding possible, so an integer point that needs one of them changed is not found.
// A projection can move an unpinned coordinate near its target; it is not snapped again.

#include <Eigen/Core>
#include <functional>
#include <vector>

#include "space/polytope.h"
#include "space/search_space.h"

namespace sebo {

// True when coordinate `column` at unit value `value` should be set onto its target.
using SnapRule = std::function<bool(int column, double value)>;

// The space's rule, one column per parameter: a change smaller than the parameter's minimum
// meaningful change (or, without one, within 1 % of its range) is snapped
// (SearchSpace::within_min_change_unit). The constraints come first: a coordinate they keep off
// its target stays changed even below its floor (FeasibleSnap::kept_changed), and a projection can
// leave an unpinned coordinate closer to its target than its floor.
SnapRule min_change_rule(const SearchSpace& space);

// An integer parameter's column: its values are the grid {0, 1/steps, 2/steps, …, 1}
// (steps = upper − lower of the parameter).
struct IntegerColumn {
    int column = 0;
    int steps = 1;
};

struct FeasibleSnap {
    // Infeasible: the candidate could not be projected into P, or (finalize) no rounding was
    // found. Failed: a projection ran into numerical trouble. x is usable only when Ok.
    enum class Status { Ok, Infeasible, Failed };
    Status status = Status::Failed;
    Eigen::VectorXd x;
    std::vector<int> snapped;       // columns set onto the target by this call
    std::vector<int> kept_changed;  // columns the rule selected but the constraints kept off target
    bool projected_first = false;   // step 0 happened
};

FeasibleSnap snap_feasibly(const Polytope& polytope, const Eigen::VectorXd& x, const Eigen::VectorXd& target,
                           const SnapRule& rule);

// Snap, then round the integer columns (steps 0–2).
FeasibleSnap finalize_feasibly(const Polytope& polytope, const Eigen::VectorXd& x, const Eigen::VectorXd& target,
                               const SnapRule& rule, const std::vector<IntegerColumn>& integers);

}  // namespace sebo
