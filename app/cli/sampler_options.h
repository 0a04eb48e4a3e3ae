#pragma once
// --threads N: the engine's thread pool of the subcommands that fit models (issue 15). The flags
// that set the method (--nuts among them) are cli/method_options.h.

#include "cli/arguments.h"

namespace sebo::cli {

OptionSpec threads_option();

// --threads N (1–256), or the CPUs this process may use.
int threads_from(const Arguments& parser);

}  // namespace sebo::cli
