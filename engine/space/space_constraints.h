#pragma once
// The checks a space with linear parameter constraints gets when an experiment is created
// (issue 14, item 3), beyond SearchSpace::validate(): constraints that no point within the bounds
// satisfies together (the conflicting ones named, space/polytope_analysis.h), and a target point
// — the status quo, the sparse point every proposal is pulled towards — that violates one (the
// constraint named with its left side's value there and the target values it involves).
// Each is a linear program or two; files that are only opened are not checked again.

#include <optional>
#include <string>

#include "space/search_space.h"

namespace sebo {

// Empty when the constraints are satisfiable and the target satisfies them (or there are none);
// otherwise the message, e.g.
//   "the target point (every parameter at its target: the status quo) violates the parameter
//    constraint fa + fb <= 1 (fa + fb = 1.5 with fa = 1, fb = 0.5); change the targets or the
//    constraint"
std::optional<std::string> check_constraints_on_creation(const SearchSpace& space);

}  // namespace sebo
