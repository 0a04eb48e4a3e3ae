#pragma once
// The flags of the sparsity range of interest (issue 14, item 5; MethodSettings::max_active and
// min_active), shared by the subcommands that set method settings: --max-active M, --min-active N.

#include "cli/arguments.h"
#include "experiment/experiment.h"

namespace sebo::cli {

OptionSpec max_active_option();
OptionSpec min_active_option();

// Applies --max-active / --min-active to the experiment's method when given, and checks the
// range against the space and the strategy (UsageError naming the flag and the value).
void apply_sparsity_range_flags(const Arguments& parser, Experiment& experiment);

}  // namespace sebo::cli
