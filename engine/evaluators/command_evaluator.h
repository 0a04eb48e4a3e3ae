#pragma once
// The user's own system as the evaluator (SPEC §1: "an external command"). For every trial the
// program in EvaluatorSpec::command is started directly from its argv — never through a shell,
// so no character of a parameter name, value or argument is ever interpreted — in a process
// group of its own, by the absolute path, folder and environment of its launch plan
// (command_launch.h, the plan a person approves: command_review.h), and talks JSON over its
// standard streams as command_protocol.h says (one JSON line in, one JSON object out, exit
// status 0).
//
// A trial fails (EvaluationOutcome::ok = false, with the reason and the last lines of stderr)
// when the program cannot be started, exits non-zero or by a signal, runs past the timeout,
// writes anything but one JSON object, or reports a value that is not a number. (A missing or
// unknown metric, and a non-finite value, fail the trial in the runner, experiment/runner.h.) On a
// timeout or a cancellation the whole process group gets SIGTERM, then SIGKILL after a grace
// period. When the program exits, whatever it left running in its process group is killed, so an
// evaluation never leaves processes behind. A batch runs up to EvaluatorSpec::max_concurrency
// programs at once.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "evaluators/command_protocol.h"
#include "experiment/evaluator.h"
#include "experiment/experiment.h"
#include "space/search_space.h"

namespace sebo {

struct CommandEvaluatorOptions {
    // After SIGTERM (timeout or cancellation) the process group has this long to exit before
    // SIGKILL; it bounds how long a cancellation can take.
    double kill_grace_seconds = 1.0;
    // After the program exits, how long its output pipes may stay open (held by a process that
    // left its process group) before the evaluator stops reading them.
    double drain_seconds = 1.0;
    // A larger stdout fails the trial (it is still read to the end, so the program never blocks).
    std::size_t max_output_bytes = std::size_t{16} << 20;
    // How much of the end of stderr a failure message quotes.
    std::size_t stderr_tail_bytes = 2048;
    // Receives what the programs write to stderr, one line at a time as it arrives (cut as
    // output_lines.h says), with the index of the trial whose program wrote it; called on the
    // thread that evaluates. Empty: stderr is only kept for failure messages.
    std::function<void(int trial, std::string_view line)> stderr_line;

    std::optional<std::string> validate() const;
};

class CommandEvaluator final : public Evaluator {
public:
    // Throws InputError naming the field ("evaluator.command[0]", "evaluator.timeout_seconds",
    // ...) when the spec cannot be run: no program, a NUL character in an argument or variable, a
    // bad variable name, a non-positive timeout or a concurrency outside [1, kMaxConcurrency].
    // `metrics`: the experiment's metric names (Outcomes::metrics), not empty; the short form
    // {"objective": v} is the value of the only one.
    CommandEvaluator(EvaluatorSpec spec, SearchSpace space, std::vector<std::string> metrics,
                     CommandEvaluatorOptions options = {});

    EvaluationOutcome evaluate(const Trial& trial, const StepControl& control) override;
    // Runs up to max_concurrency programs at once from one thread (a poll loop over their pipes);
    // outcome i belongs to trials[i] whatever order they finish in.
    std::vector<EvaluationOutcome> evaluate_batch(const std::vector<Trial>& trials, const StepControl& control) override;

private:
    EvaluatorSpec spec_;
    SearchSpace space_;
    std::vector<std::string> metrics_;
    CommandEvaluatorOptions options_;
};

// The argv as one would type it in a POSIX shell, each argument quoted as shell_quoting.h says —
// for showing a command to a person, never for running it.
std::string shell_quoted_command_line(const std::vector<std::string>& argv);

}  // namespace sebo
