#pragma once
// The command-line side of extreme values and excluded trials, shared by `sebo observe` and
// `sebo run`: `sebo observe FILE --trial I --exclude REASON | --include`, and the one-line
// warning about a new extreme value (experiment/extreme_values.h).

#include <string>
#include <vector>

#include "cli/arguments.h"
#include "experiment/experiment.h"

namespace sebo::cli {

// Handles --exclude REASON / --include for --trial I of the experiment at `path` (loaded, changed,
// saved atomically) and reports the effect on stderr unless `quiet`. Throws UsageError for flags
// that do not go with them and InputError for a trial that cannot be excluded.
int observe_exclusion(const Arguments& parser, const std::string& path, bool quiet);

// Prints one warning line on stderr for each of `trials` whose value is extreme, with the
// command that excludes it.
void warn_extreme_values(const Experiment& experiment, const std::vector<int>& trials, const std::string& path);

// One "warning: ..." line per modelled metric with a standard error on some measurements and not
// on others (experiment/standard_errors.h); returns whether it printed any.
bool warn_partial_standard_errors(const Experiment& experiment);

}  // namespace sebo::cli
