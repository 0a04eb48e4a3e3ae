#pragma once
// A choice parameter (issue 14, item 1) in experiment and space files: its "values" (strings,
// numbers, or another tool's true, false and null), "ordered" and "target" (one of the values),
// and a choice's value in a trial (the value itself, not its index). Kept apart from
// experiment_file.cpp so that the reader does not grow with every parameter kind.

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "space/parameter.h"

namespace sebo {

// Reads the members of a choice parameter at `path` into p (name and kind already read): every
// problem is an InputError naming the member (bounds, log, min_change or value given for a choice;
// values missing, empty, not strings or numbers; ordered not a boolean; a target not among them).
// Duplicated values are SearchSpace::validate_parameter's.
void read_choice_parameter(const nlohmann::json& object, const std::string& path, Parameter& p);
// Writes values, ordered and (when set) target into `j`.
void put_choice_parameter(nlohmann::ordered_json& j, const Parameter& p);

// The JSON of value `index` of a choice: its number when it is one (an integral number as a JSON
// integer, unless it was written as a floating-point number, 2.0), its text otherwise, or the
// literal (true, false, null).
nlohmann::ordered_json choice_value_json(const Parameter& p, double index);

// A number value of a choice. `real`: the file or the other tool wrote it as a floating-point
// number (2.0, Python's float): its text keeps the ".0" and it goes back out as 2.0, so that a
// suggestion returns to Optuna or Ax with the type the choice has there.
ChoiceValue number_choice_value(double number, bool real);
// The index of the value `value` (a string or number) names; an InputError naming `path` and the
// value otherwise.
int read_choice_value(const nlohmann::json& value, const std::string& path, const Parameter& p);

}  // namespace sebo
