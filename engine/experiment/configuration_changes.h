#pragma once
// What a configuration changes, as a decision maker reads it and a change request carries it
// (issue 32 item 3): only the parameters that differ, each as "name old → new" in the user's units
// ("cache_mb 256 → 811", "mode plain → fast"). The trials table's "Changed parameters" column, the
// comparison of candidates, the change-request export and the report all say it this way.

#include <string>
#include <vector>

#include "space/search_space.h"

namespace sebo {

struct ParameterChange {
    int parameter = 0;  // index in the search space's (varying) parameters
    std::string name;
    double from = 0.0, to = 0.0;  // user units (a choice: the value's index)
    std::string from_text, to_text;  // value_text: a choice's value itself, numbers in full
};

// The parameters whose values differ between two configurations of the space (same length as its
// parameters), in the space's order.
std::vector<ParameterChange> parameter_changes(const SearchSpace& space, const std::vector<double>& from,
                                               const std::vector<double>& to);
// The changes away from the targets (the status quo): the parameters SearchSpace::active_mask calls
// active.
std::vector<ParameterChange> changes_from_target(const SearchSpace& space, const std::vector<double>& values);

// "cache_mb 256 → 811".
std::string describe(const ParameterChange& change);
// The changes joined by `separator` ("cache_mb 256 → 811, threads 4 → 8"); "no change" when empty.
std::string describe(const std::vector<ParameterChange>& changes, const std::string& separator = ", ");

}  // namespace sebo
