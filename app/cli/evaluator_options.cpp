#include "cli/evaluator_options.h"

#include <algorithm>

#include "evaluators/command_evaluator.h"
#include "evaluators/command_review.h"
#include "evaluators/shell_quoting.h"
#include "problems/problem_catalog.h"

namespace sebo::cli {

namespace {

std::string indented(const std::string& text, const std::string& indent) {
    std::string out = indent;
    for (char c : text) {
        out += c;
        if (c == '\n') out += indent;
    }
    return out;
}

std::string joined_lines(const std::vector<std::string>& lines, const std::string& indent) {
    std::string out;
    for (const std::string& line : lines) out += "\n" + indent + line;
    return out;
}

// The flags that allow every refused variable.
std::string allow_flags(const CommandReview& review, const std::vector<std::string>& allowed) {
    std::string flags;
    for (const std::string& name : review.hijacking_variables())
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) flags += " --allow-env " + shell_quoted(name);
    return flags;
}

// --allow-env names variables of the file's environment: a name it does not set is a typo that
// would otherwise leave the person wondering why the variable they meant is still refused.
void check_allowed_variables(const std::vector<std::string>& allowed, const EvaluatorSpec& spec, const std::string& path) {
    for (const std::string& name : allowed) {
        const bool set = std::any_of(spec.environment.begin(), spec.environment.end(),
                                     [&](const auto& variable) { return variable.first == name; });
        if (set) continue;
        std::string names;
        for (const auto& variable : spec.environment) names += (names.empty() ? "" : ", ") + shell_quoted(variable.first);
        throw UsageError("--allow-env: " + shell_quoted(name) + " is not a variable of the evaluator environment of " +
                         path + (names.empty() ? " (it sets none)" : " (it sets " + names + ")"));
    }
}

// What `sebo run FILE` without --evaluator command says: everything that would run.
std::string describe_command_to_approve(const std::string& path, const CommandReview& review,
                                        const std::vector<std::string>& allowed) {
    const std::vector<std::string> refusals = hijacking_refusals(review, allowed);
    std::string text = path + " evaluates every trial by running this program (directly, never through a shell):\n" +
                       indented(review.text(), "  ") + "\nIt runs only if you ask for it: add --evaluator command";
    if (!refusals.empty())
        text += ", and allow by name each variable that can change what runs (--allow-env NAME):" +
                joined_lines(refusals, "  ") + "\nIf you trust all of it:" + allow_flags(review, allowed) +
                " --evaluator command";
    return text;
}

std::string describe_refusals(const std::string& path, const CommandReview& review, const std::vector<std::string>& allowed) {
    const std::vector<std::string> refusals = hijacking_refusals(review, allowed);
    return "the command of " + path + " was not run:" + joined_lines(refusals, "  ") + "\nThe whole command:\n" +
           indented(review.text(), "  ") + "\nIf you trust it, allow each variable by name:" + allow_flags(review, allowed);
}

}  // namespace

OptionSpec evaluator_option() {
    return {"evaluator", "command", "run the external command of FILE (it never runs without this flag)"};
}

OptionSpec allow_env_option() {
    return {"allow-env", "NAME",
            "let the command run with the variable NAME of FILE's evaluator environment although it can change what runs "
            "(LD_PRELOAD, PATH, PYTHONPATH, ...; repeatable)",
            false, true};
}

std::unique_ptr<Evaluator> evaluator_from_options(const Arguments& parser, const Experiment& experiment, const std::string& path) {
    const auto evaluator_flag = parser.value("evaluator");
    if (parser.has("allow-env") && experiment.evaluator.kind != EvaluatorSpec::Kind::Command)
        throw UsageError("--allow-env: " + path + " does not evaluate trials by running a command");
    if (evaluator_flag && *evaluator_flag != "command")
        throw UsageError("--evaluator: '" + *evaluator_flag + "' is not an evaluator to run; the choice is 'command'");
    std::unique_ptr<Evaluator> evaluator;
    switch (experiment.evaluator.kind) {
    case EvaluatorSpec::Kind::Problem:
        if (evaluator_flag) throw UsageError("--evaluator command: " + path + " evaluates a built-in problem, not a command");
        evaluator = std::make_unique<ProblemEvaluator>(make_problem(experiment.evaluator.problem), experiment.seed);
        break;
    case EvaluatorSpec::Kind::Command: {
        // A file may come from someone else: its program runs only when asked for by name, and
        // not at all with a variable that could change what runs unless that is allowed by name.
        const EvaluatorSpec& spec = experiment.evaluator;
        const CommandReview review = review_command(spec);
        const std::vector<std::string> allowed = parser.values("allow-env");
        check_allowed_variables(allowed, spec, path);
        if (!evaluator_flag) throw UsageError(describe_command_to_approve(path, review, allowed));
        if (!hijacking_refusals(review, allowed).empty()) throw UsageError(describe_refusals(path, review, allowed));
        evaluator = std::make_unique<CommandEvaluator>(spec, experiment.space, experiment.outcomes.metrics);
        break;
    }
    case EvaluatorSpec::Kind::Manual:
        if (evaluator_flag) throw UsageError("--evaluator command: " + path + " is evaluated by hand, not by a command");
        break;
    }
    return evaluator;
}

}  // namespace sebo::cli
