#include "io/min_change_json.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/input_error.h"
#include "io/json_document.h"

namespace sebo {

MinChange read_min_change(const nlohmann::json& value, const std::string& path) {
    if (value.is_number()) {
        const double x = value.get<double>();
        if (!std::isfinite(x)) throw InputError(path, format_number(x) + " is not a finite number");
        return MinChange{x, false};
    }
    if (value.is_string()) {
        const std::string text = value.get<std::string>();
        if (const auto change = min_change_from_text(text); change && change->percent) return *change;
        throw InputError(path, shown_text(text) + " is not a percentage of the range (such as \"2%\"); "
                               "give a change in the parameter's units as a number");
    }
    throw InputError(path, "expected a number (the parameter's units) or a percentage such as \"2%\", got " +
                               describe_value(value));
}

nlohmann::ordered_json min_change_to_json(const MinChange& change) {
    if (change.percent) return to_text(change);
    return change.amount;
}

}  // namespace sebo
