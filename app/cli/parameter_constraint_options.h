#pragma once
// The flag of linear parameter constraints (issue 14, item 3) for `sebo new`:
// --parameter-constraint "fa + fb + fc <= 1", repeatable, in the parameters' units
// (space/linear_constraint.h for the grammar).

#include "cli/arguments.h"
#include "space/search_space.h"

namespace sebo::cli {

OptionSpec parameter_constraint_option();

// The space with the flags' constraints added after those it already has (a JSON space file's
// "parameter_constraints"); a constraint that does not parse is a UsageError naming the flag,
// the text, the column and what is wrong. Then the creation checks
// (space/space_constraints.h): constraints no configuration satisfies, or a target that violates
// one, are an InputError naming `source` (the space file).
SearchSpace apply_parameter_constraint_flags(const Arguments& parser, const SearchSpace& space, const std::string& source);

}  // namespace sebo::cli
