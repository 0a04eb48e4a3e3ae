#pragma once
// The flags that say how a model step uses the machine and samples the SAAS model (issue 15),
// shared by the subcommands that fit models: --threads N (the engine's thread pool) and
// --nuts fast|paper (MethodSettings::nuts).

#include "cli/arguments.h"
#include "experiment/experiment.h"

namespace sebo::cli {

OptionSpec threads_option();
OptionSpec nuts_option();

// --threads N (1–256), or the CPUs this process may use.
int threads_from(const Arguments& parser);
// Applies --nuts to the method when given.
void apply_nuts_flag(const Arguments& parser, MethodSettings& method);

// --noisy-acquisition auto|on|off (MethodSettings::noisy_acquisition).
OptionSpec noisy_acquisition_option();
void apply_noisy_acquisition_flag(const Arguments& parser, MethodSettings& method);

}  // namespace sebo::cli
