#pragma once
// The flags of `sebo new` and `sebo run --problem` that say what is measured and wanted
// (experiment/outcomes.h): --objective NAME[:min|:max], --threshold NAME=V, --constraint
// "NAME<=V" / "NAME>=V" and --metric NAME, each repeatable. Every mistake is a UsageError naming
// the flag and the value: an objective given twice, more than four, a threshold of a metric that
// is not an objective, a constraint on a metric that is neither an objective nor declared with
// --metric, a value that is not a number.

#include <optional>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "experiment/outcomes.h"

namespace sebo::cli {

// The four flags' declarations.
std::vector<OptionSpec> outcome_option_specs();

// Whether any of the four flags was given.
bool has_outcome_options(const Arguments& parser);

// The outcomes the flags describe. `base` (a built-in problem's own outcomes) supplies what the
// flags leave out: its objectives without --objective, its constraints without --constraint,
// and its metrics, which constraints and thresholds may name; without base, --objective is
// required. Metrics: the objectives', then --metric's, then base's remaining ones.
Outcomes outcomes_from_options(const Arguments& parser, const std::optional<Outcomes>& base = std::nullopt);

}  // namespace sebo::cli
