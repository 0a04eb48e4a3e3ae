#pragma once
// A parameter's "min_change" in experiment and space files (space/min_change.h): a number in
// user units, or a string "N%" of the range. Kept apart from experiment_file.cpp so that the
// reader does not grow with every parameter field.

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "space/min_change.h"

namespace sebo {

// Throws InputError naming `path` when the value is neither a finite number nor a "N%" string.
// Ranges (negative, larger than the parameter's range) are SearchSpace::validate's.
MinChange read_min_change(const nlohmann::json& value, const std::string& path);

nlohmann::ordered_json min_change_to_json(const MinChange& change);

}  // namespace sebo
