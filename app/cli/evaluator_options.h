#pragma once
// How a command that evaluates trials (`sebo run`, `sebo confirm`) gets its evaluator: a built-in
// problem's, or the experiment's own command — which never runs unless --evaluator command names
// it, and not at all with a variable of its environment that could change what runs (LD_PRELOAD,
// PATH, ...; evaluators/hijacking_variables.h) unless --allow-env NAME allows it. A file may come
// from someone else: without the flags the error message shows everything that would run.

#include <memory>
#include <string>

#include "cli/arguments.h"
#include "experiment/evaluator.h"
#include "experiment/experiment.h"

namespace sebo::cli {

OptionSpec evaluator_option();
OptionSpec allow_env_option();

// The evaluator of `experiment` (the file `path`), or null for a manual experiment (trials stay
// pending). UsageError for a command that is not approved, or flags that do not fit the file.
std::unique_ptr<Evaluator> evaluator_from_options(const Arguments& parser, const Experiment& experiment, const std::string& path);

}  // namespace sebo::cli
