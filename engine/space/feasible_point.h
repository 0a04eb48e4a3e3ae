#pragma once
// Between the unit cube where strategies work and the user's configurations, for a space with
// linear parameter constraints (issue 14): every configuration a strategy proposes passes
// SearchSpace::violated_constraints (1e-9 relative).
//
// - feasible_configuration: a unit-cube point snapped onto the targets (minimum changes) and its
//   integers rounded without leaving the polytope (space/feasible_snap.h), then mapped to user
//   units, the coordinates on target exactly onto the targets (no round trip through the cube).
//   Unlike SearchSpace::snap, nothing is snapped after the map: a coordinate the constraints keep
//   off its target stays changed (FeasibleSnap::kept_changed).
// - into_polytope: a screening point moved into the polytope — projected with the coordinates on
//   their target pinned (or, when no feasible point has them all on target, with none pinned).

#include <Eigen/Core>
#include <optional>
#include <vector>

#include "space/feasible_snap.h"
#include "space/search_space.h"

namespace sebo {

// The space's integer parameters as grid columns.
std::vector<IntegerColumn> integer_columns(const SearchSpace& space);

// The space's target in the unit cube.
Eigen::VectorXd target_unit_vector(const SearchSpace& space);

// A unit-cube point in user units; the coordinates exactly on their unit target exactly on the
// target (SearchSpace::from_unit otherwise).
std::vector<double> user_values(const SearchSpace& space, const Eigen::VectorXd& unit);

// Snapped, rounded, inside the polytope, in user units; empty when no rounding of the point's
// integers stays feasible (FeasibleSnap::Status::Infeasible) or a projection failed. The space must
// have constraints.
std::optional<std::vector<double>> feasible_configuration(const SearchSpace& space, const Eigen::VectorXd& unit);

// `x` when it is inside the polytope; otherwise its projection (see above); `x` unchanged when the
// projection fails.
Eigen::VectorXd into_polytope(const Polytope& polytope, const Eigen::VectorXd& x, const Eigen::VectorXd& target);

}  // namespace sebo
