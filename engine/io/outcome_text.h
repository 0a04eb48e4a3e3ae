#pragma once
// Metrics, objectives and outcome constraints written as short text, for command-line flags and
// text fields (`sebo new --objective latency:min --constraint "p99_ms<=50" --threshold
// throughput=900`, `sebo observe --value p99_ms=41.2`). Names are matched exactly; spaces around
// the parts are ignored. Every problem is an InputError whose field is the `field` given (the
// flag, or a file and line) and whose message quotes the text.

#include <string>
#include <utility>

#include "experiment/outcomes.h"

namespace sebo {

// "NAME", "NAME:max" or "NAME:min" (default: maximize). Only a last ":max" or ":min" is a
// direction, so a name may contain ':'.
Objective parse_objective_text(const std::string& text, const std::string& field);

// "NAME<=V" or "NAME>=V": the operator is the last "<=" or ">=" of the text.
OutcomeConstraint parse_constraint_text(const std::string& text, const std::string& field);

// "NAME=V" with a finite number V: the last '=' separates them.
std::pair<std::string, double> parse_named_number(const std::string& text, const std::string& field);

}  // namespace sebo
