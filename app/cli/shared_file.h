#pragma once
// The command line's side of several processes writing one experiment file (docs/file-format.md,
// "Several writers"): the --wait option, the lock options of each command, and the notes about
// locks and merges printed on stderr. A lock that stays taken ends the command with exit code 3
// (main.cpp).

#include <string>

#include "cli/arguments.h"
#include "io/experiment_merge.h"
#include "io/file_lock.h"

namespace sebo::cli {

inline constexpr int kExitFileBusy = 3;
inline constexpr double kDefaultWaitSeconds = 10.0;

// --wait S, for the commands that write an experiment file.
OptionSpec wait_option();
// The value of --wait (default kDefaultWaitSeconds); throws UsageError naming the value.
double wait_seconds(const Arguments& parser);

// Lock options for `program` ("sebo observe") waiting `wait` seconds; waits are announced on
// stderr unless quiet.
FileLockOptions lock_options(const std::string& program, double wait, bool quiet);

// "sebo run: note: ..." on stderr.
void print_note(const std::string& program, const std::string& note);
// What a save merged from other processes, one line each (nothing when it merged nothing).
void print_merge(const std::string& program, const MergeReport& report);

}  // namespace sebo::cli
