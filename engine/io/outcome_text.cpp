#include "io/outcome_text.h"

#include <cmath>

#include "core/format.h"
#include "core/input_error.h"
#include "io/csv_table.h"

namespace sebo {

namespace {

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string name_part(const std::string& text, std::size_t end, const std::string& field, const char* form) {
    const std::string name = trimmed(text.substr(0, end));
    if (name.empty()) throw InputError(field, single_quoted(text) + " has no metric name; expected " + form);
    return name;
}

double number_part(const std::string& text, std::size_t begin, const std::string& field, const char* what) {
    const std::string number = trimmed(text.substr(begin));
    const auto value = parse_number(number);
    if (number.empty()) throw InputError(field, single_quoted(text) + " has no " + what);
    if (!value) throw InputError(field, single_quoted(number) + " in " + single_quoted(text) + " is not a number");
    if (!std::isfinite(*value)) throw InputError(field, single_quoted(number) + " in " + single_quoted(text) + " is not a finite number");
    return *value;
}

}  // namespace

Objective parse_objective_text(const std::string& text, const std::string& field) {
    Objective objective;
    std::string name = trimmed(text);
    const auto colon = name.rfind(':');
    if (colon != std::string::npos) {
        const std::string direction = trimmed(name.substr(colon + 1));
        if (direction == "min" || direction == "max") {
            objective.minimize = direction == "min";
            name = trimmed(name.substr(0, colon));
        }
    }
    if (name.empty()) throw InputError(field, single_quoted(text) + " has no metric name; expected NAME, NAME:max or NAME:min");
    objective.metric = name;
    return objective;
}

OutcomeConstraint parse_constraint_text(const std::string& text, const std::string& field) {
    const auto at_most = text.rfind("<="), at_least = text.rfind(">=");
    if (at_most == std::string::npos && at_least == std::string::npos)
        throw InputError(field, single_quoted(text) + " is not a constraint; expected NAME<=BOUND or NAME>=BOUND");
    const bool upper = at_least == std::string::npos || (at_most != std::string::npos && at_most > at_least);
    const std::size_t op = upper ? at_most : at_least;
    OutcomeConstraint constraint;
    constraint.metric = name_part(text, op, field, "NAME<=BOUND or NAME>=BOUND");
    constraint.sense = upper ? ConstraintSense::AtMost : ConstraintSense::AtLeast;
    constraint.bound = number_part(text, op + 2, field, "bound after the operator");
    return constraint;
}

std::pair<std::string, double> parse_named_number(const std::string& text, const std::string& field) {
    const auto equals = text.rfind('=');
    if (equals == std::string::npos) throw InputError(field, single_quoted(text) + " is not NAME=VALUE");
    return {name_part(text, equals, field, "NAME=VALUE"), number_part(text, equals + 1, field, "value after '='")};
}

}  // namespace sebo
