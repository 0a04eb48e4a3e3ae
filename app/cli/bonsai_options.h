#pragma once
// The flag of BONSAI's pruning tolerance (issue 16; MethodSettings::bonsai_tolerance) for
// `sebo new` and `sebo run`: --bonsai-tolerance T, in (0, 1]. `sebo suggest` and `sebo run`
// without it take the file's.

#include "cli/arguments.h"
#include "experiment/experiment.h"

namespace sebo::cli {

OptionSpec bonsai_tolerance_option();

// Sets method.bonsai_tolerance from the flag, when given; a value outside (0, 1] is a
// UsageError naming the flag and the value.
void apply_bonsai_tolerance_flag(const Arguments& parser, MethodSettings& method);

}  // namespace sebo::cli
