#pragma once
// `sebo new --from SOURCE`: an experiment made from another tool's record (issue 31; an Ax JSON
// snapshot, an Optuna SQLite storage or journal file) with the flags that choose the study and the
// target. The reading and the mapping are the engine's (io/imported_experiment.h); this prints
// what it returns.

#include <vector>

#include "cli/arguments.h"
#include "experiment/experiment.h"

namespace sebo::cli {

// --from, --study, --target-trial, --target.
std::vector<OptionSpec> import_option_specs();

// Flags of `sebo new` that describe the space, the outcomes or past results, which --from takes
// from the source instead.
const std::vector<const char*>& flags_replaced_by_import();

// Reads the source, sets the target as the flags say, and (unless quiet) prints on stderr what was
// read: the source, the trials by status, every warning line, and the target used. Throws
// InputError / UsageError naming the flag, the file's field and the value.
Experiment experiment_from_import_flags(const Arguments& parser, bool quiet);

}  // namespace sebo::cli
