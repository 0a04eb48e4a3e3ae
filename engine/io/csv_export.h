#pragma once
// CSV and JSON export of trials and chosen configurations, in the user's units.

#include <string>

#include "experiment/experiment.h"

namespace sebo {

// One row per trial: trial,status,objective,sem,active,generator,<parameter names...>,error
std::string trials_to_csv(const Experiment& experiment);

// One configuration. changed_only keeps only the parameters that differ from their targets.
// CSV: header "parameter,value,target,changed" and a row per parameter.
// JSON: {"trial": i, "objective": v, "active": k, "parameters": {name: value, ...}}.
// The trial must exist (throws InputError with field "trial" otherwise).
std::string configuration_to_csv(const Experiment& experiment, int trial, bool changed_only);
std::string configuration_to_json(const Experiment& experiment, int trial, bool changed_only);

// RFC 4180 quoting of one CSV field (quotes when it holds a comma, quote or line break).
std::string csv_quote(const std::string& field);

}  // namespace sebo
