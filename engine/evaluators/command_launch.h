#pragma once
// How the program of an external-command evaluator is found and started: the absolute working
// folder, the program resolved to an absolute path, and the environment it gets. This is the one
// routine both the evaluator (command_evaluator.h, when it spawns) and the confirmation shown to a
// person before anything runs (command_review.h) use, so that what is shown is what runs.
//
// The program is looked up as execvp(3) would from inside the working folder, with one
// deliberate difference: the search uses the PATH the program will get — the file's PATH when its
// evaluator environment sets one, else the inherited PATH (else the C library's default,
// confstr(_CS_PATH)). (posix_spawnp would search the caller's PATH even when the program gets
// another, so the program shown and the one started could differ.) The evaluator then starts the
// resolved absolute path, never a name.

#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"

namespace sebo {

// What a started program inherits from the process that starts it.
struct LaunchContext {
    std::vector<std::string> environment;  // "NAME=value" entries, in the order of environ
    std::string current_directory;         // absolute

    // This process's environment and working directory.
    static LaunchContext current();
    // The inherited value of a variable (the first entry of that name, as getenv(3) finds it).
    std::optional<std::string> inherited(const std::string& name) const;
};

struct CommandLaunch {
    std::string working_directory;  // absolute (the caller's directory when the spec names none)
    // The absolute path that is executed; empty when no executable was found (then
    // program_error says why and nothing may be started).
    std::string program;
    std::string program_error;
    std::string search_path;               // the PATH searched (for messages); empty for a path with '/'
    bool searched_spec_path = false;       // the search used the PATH of the spec's environment
    std::vector<std::string> environment;  // the program's: "NAME=value", the spec's variables last
};

// Pure but for looking at the file system (which candidate files exist and are executable).
CommandLaunch plan_launch(const EvaluatorSpec& spec, const LaunchContext& context);

}  // namespace sebo
