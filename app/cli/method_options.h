#pragma once
// The flags that set an experiment's method, one parser for every command that takes them
// (issue 33 item 1): `sebo new`, `sebo run`, and `sebo suggest` / `sebo fit` for the few that apply
// to a file's next steps. Each flag has one help text and one message per mistake, naming the flag
// and the value:
//   --strategy NAME         --model gp|saas|saas-map   --init M          --lambda L
//   --penalty l0|l1|group-lasso   --bonsai-tolerance T   --max-active M   --min-active N
//   --nuts fast|paper       --noisy-acquisition auto|on|off   --dense-steps N
//   --dense-steps-max N     --dense-thompson on|off
// A flag that is absent leaves the method's value as it is (the file's, or the defaults).

#include <string>
#include <vector>

#include "cli/arguments.h"
#include "experiment/experiment.h"

namespace sebo::cli {

enum class MethodFlag { Strategy, Model, Init, Lambda, Penalty, BonsaiTolerance, MaxActive, MinActive, Nuts, NoisyAcquisition,
                        DenseSteps, DenseStepsMax, DenseThompson };

// Every method flag, in the order above.
std::vector<MethodFlag> all_method_flags();

// The declarations of `flags` (their help texts).
std::vector<OptionSpec> method_option_specs(const std::vector<MethodFlag>& flags = all_method_flags());

// Sets the method (and, for the sparsity range, checks it against the space) from those of `flags`
// that were given. UsageError naming the flag and the value on any mistake.
void apply_method_options(const Arguments& parser, Experiment& experiment,
                          const std::vector<MethodFlag>& flags = all_method_flags());
// The same on method settings alone (no check of the sparsity range against a space); returns
// whether --max-active or --min-active was given.
bool apply_method_options(const Arguments& parser, MethodSettings& method, const std::vector<MethodFlag>& flags);

// The names of the flags among `flags` that were given ("--strategy, --lambda").
std::vector<std::string> given_method_flags(const Arguments& parser, const std::vector<MethodFlag>& flags = all_method_flags());

}  // namespace sebo::cli
