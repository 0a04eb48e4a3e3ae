#pragma once
// The `sebo` subcommands. Each takes the arguments after its name and returns the exit code:
// 0 success, 2 bad usage or bad input (with a message naming the flag/field and value),
// 3 the experiment file is run or written by another process for longer than --wait allows,
// 1 any other failure. Usage and input errors are thrown (UsageError, InputError) and turned
// into exit code 2 by main(); a lock that stays taken is a FileBusyError, exit code 3.

#include <string>
#include <vector>

namespace sebo::cli {

using Args = std::vector<std::string>;

int command_problems(const Args& args);
int command_run(const Args& args);
int command_info(const Args& args);
int command_frontier(const Args& args);
int command_export(const Args& args);
int command_fit(const Args& args);
int command_new(const Args& args);
int command_import(const Args& args);
int command_suggest(const Args& args);
int command_observe(const Args& args);
int command_bench(const Args& args);
int command_simplify(const Args& args);
int command_confirm(const Args& args);

}  // namespace sebo::cli
