#pragma once
// `sebo run --problem NAME --noise SD` (issue 30): Gaussian measurement noise added to a built-in
// problem's metrics (problems/noisy_problem.h). `--noise SD` applies to every metric, in each
// metric's own units; `--noise METRIC=SD` to one (repeatable; it overrides a plain SD for that
// metric). Mistakes are UsageErrors naming the flag and the value; whether METRIC is a metric of
// the problem is checked by resolve_problem_spec (field problem.noise.METRIC).

#include <map>
#include <string>

#include "cli/arguments.h"

namespace sebo::cli {

OptionSpec noise_option();

// metric → sd, with "*" for a plain SD (ProblemSpec::noise); empty without the flag.
std::map<std::string, double> noise_from_options(const Arguments& parser);

}  // namespace sebo::cli
