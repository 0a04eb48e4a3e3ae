#pragma once
// An Ax search space (ax/core/search_space.py, parameter.py, parameter_constraint.py as
// ax/storage/json_store/encoders.py writes them) as a SEBO search space, and Ax arms as
// configurations of it. Internal to the Ax importer (io/import_ax.h); the mapping is documented in
// docs/file-format.md, "Imports".
//
//   RangeParameter FLOAT / INT      continuous / integer, log_scale kept; logit_scale, digits and
//                                   is_fidelity have no counterpart (kept with a warning)
//   ChoiceParameter                 choice with its values as typed (string, number, true/false),
//                                   is_ordered kept; is_task or dependents (a hierarchical space)
//                                   are refused
//   FixedParameter                  fixed when its value is a number; a text or boolean value
//                                   cannot be a fixed parameter here: left out, with a warning
//   DerivedParameter                left out (Ax computes it from the others), with a warning
//   ParameterConstraint, SumConstraint, OrderConstraint
//                                   linear parameter constraints (space/linear_constraint.h)

#include <optional>
#include <string>
#include <vector>

#include "io/ax_json.h"
#include "space/search_space.h"

namespace sebo::ax {

struct AxSpace {
    SearchSpace space;
    // Parameters the space has in Ax but not here, with why ("a fixed text value").
    std::vector<std::string> left_out;
};

// Throws InputError naming the path of the element that cannot be mapped.
AxSpace read_search_space(const Document& search_space, const std::string& path, std::vector<std::string>& warnings);

// The configuration an arm's parameters give (varying parameters, user units; a choice: its
// index), or why it is not one of the space ("lr = 2 is above the upper bound 0.4"): Ax keeps
// out-of-design arms that SEBO cannot. Throws InputError only for a value of the wrong type.
struct ArmConfiguration {
    std::vector<double> values;
    std::string problem;  // empty when `values` is a configuration of the space
};
ArmConfiguration read_arm(const AxSpace& space, const Document& arm, const std::string& path);

}  // namespace sebo::ax
