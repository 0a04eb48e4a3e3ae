#pragma once
// What a person approves before an experiment file's external command runs (SPEC §7: a loaded
// file never runs a command without the user confirming it): everything that will run, taken
// from the same launch plan the evaluator uses (command_launch.h), so that what is shown is what
// runs — the program resolved to an absolute path, every argument, the absolute working folder
// and whether it exists, the timeout and concurrency, and every environment variable the file
// adds or changes (with the inherited value it replaces). Variables that can hijack the program
// (hijacking_variables.h) are named, and refused unless allowed one by one.
//
// Both front ends show text() — `sebo run` in its message, the GUI in its confirmation dialog —
// and refuse with hijacking_refusals(). The fingerprint identifies exactly what was shown; the
// GUI keys its approvals on it, so any change of the evaluator section asks again.

#include <optional>
#include <string>
#include <vector>

#include "evaluators/command_launch.h"
#include "experiment/experiment.h"

namespace sebo {

struct ReviewedVariable {
    std::string name;
    std::string value;
    std::optional<std::string> inherited;  // the value it replaces; unset when it adds a variable
    std::optional<std::string> hijack;     // why it is refused unless allowed (hijack_reason)
};

struct CommandReview {
    std::string program;           // as written in the file (argv[0])
    std::string resolved_program;  // absolute path started; empty when none was found
    std::string program_error;     // why none was found
    std::string link_target;       // where resolved_program leads when it is a symbolic link
    bool found_through_file_path = false;  // resolved with the PATH the file sets
    std::vector<std::string> arguments;    // argv[1..]
    std::string working_directory;         // absolute
    bool working_directory_exists = false;
    // False when the file names no folder: the program then runs in the folder sebo was started
    // from, which the review says (it is where the file was opened from, not the file's folder).
    bool working_directory_named = true;
    double timeout_seconds = 0.0;
    int max_concurrency = 1;
    std::vector<ReviewedVariable> environment;  // in the file's order
    // Canonical text of all of the above but the inherited values: equal fingerprints mean the
    // same program, arguments, folder, variables, timeout and concurrency.
    std::string fingerprint;

    // The names of the variables that are refused unless allowed, in the file's order.
    std::vector<std::string> hijacking_variables() const;
    // One line per item ("Program", "Arguments", ...), each argument and variable on its own
    // line; control and invisible characters are escaped, so a file cannot make one line look
    // like two or hide text.
    std::string text() const;
};

// Reviews a command evaluator spec as it would be started from `context`.
CommandReview review_command(const EvaluatorSpec& spec, const LaunchContext& context = LaunchContext::current());

// One message per hijacking variable that is not in `allowed`, naming it ("evaluator.environment.
// LD_PRELOAD is refused: ..."); empty when nothing is refused. The front ends add how to allow it.
std::vector<std::string> hijacking_refusals(const CommandReview& review, const std::vector<std::string>& allowed);

}  // namespace sebo
