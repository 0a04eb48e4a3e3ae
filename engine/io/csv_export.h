#pragma once
// CSV and JSON export of trials and chosen configurations, in the user's units. Numbers are
// written with format_number (shortest text that reads back to the same double); unset values
// are empty CSV cells. Lines end with "\n"; every row, the last included, ends with one.

#include <string>

#include "experiment/experiment.h"

namespace sebo {

// One row per trial, in the experiment's order:
//   trial,status,objective,sem,active,generator,<parameter names...>,error,excluded
// "active" is Experiment::sparsity(): active groups when the space has groups, otherwise
// active parameters. objective and sem are empty when unset, error is empty when there is none,
// excluded holds the reason of a trial excluded from analysis (empty when it counts).
std::string trials_to_csv(const Experiment& experiment);

// One configuration. changed_only keeps only the parameters that differ from their targets.
// CSV: header "parameter,value,target,changed" and a row per parameter (changed is true/false).
// JSON: {"trial": i, "objective": v, "active": k, "parameters": {name: value, ...}}, with
// "objective" null when the trial has no value, parameters in the order of the search space
// and integer parameters written as JSON integers; a trial excluded from analysis also has
// "excluded": reason (before "parameters").
// The trial must exist (throws InputError with field "trial" otherwise).
std::string configuration_to_csv(const Experiment& experiment, int trial, bool changed_only);
std::string configuration_to_json(const Experiment& experiment, int trial, bool changed_only);

// RFC 4180 quoting of one CSV field (quotes when it holds a comma, quote or line break;
// quotes inside are doubled).
std::string csv_quote(const std::string& field);

}  // namespace sebo
