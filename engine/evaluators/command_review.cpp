#include "evaluators/command_review.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "evaluators/hijacking_variables.h"
#include "evaluators/shell_quoting.h"

namespace sebo {
namespace {

constexpr const char* kIndent = "             ";  // under the values of text()

std::string inherited_change(const ReviewedVariable& v) {
    if (!v.inherited) return shell_quoted(v.name) + "=" + shell_quoted(v.value) + " (added)";
    if (*v.inherited == v.value) return shell_quoted(v.name) + "=" + shell_quoted(v.value) + " (as inherited)";
    return shell_quoted(v.name) + ": " + shell_quoted(*v.inherited) + " → " + shell_quoted(v.value);
}

}  // namespace

std::vector<std::string> CommandReview::hijacking_variables() const {
    std::vector<std::string> names;
    for (const ReviewedVariable& v : environment)
        if (v.hijack) names.push_back(v.name);
    return names;
}

std::string CommandReview::text() const {
    std::string out = "Program      " + shell_quoted(program);
    if (resolved_program.empty()) {
        out += " → not found: " + program_error + " (every evaluation would fail)";
    } else {
        if (resolved_program != program) out += " → " + shell_quoted(resolved_program);
        if (!link_target.empty() && link_target != resolved_program) out += " (a link to " + shell_quoted(link_target) + ")";
        if (found_through_file_path) out += " (found through the PATH the file sets)";
    }
    out += "\nArguments    ";
    if (arguments.empty()) out += "none";
    for (std::size_t i = 0; i < arguments.size(); ++i)
        out += (i == 0 ? "" : std::string("\n") + kIndent) + std::to_string(i + 1) + ". " + shell_quoted(arguments[i]);
    out += "\nFolder       " + shell_quoted(working_directory) +
           (working_directory_exists ? " (exists)" : " (does not exist: every evaluation would fail)");
    if (!working_directory_named) out += " — the folder sebo was started in: the file names none";
    out += "\nTimeout      " + format_number(timeout_seconds) + " s per evaluation";
    out += "\nConcurrency  " + (max_concurrency == 1 ? std::string("1 evaluation at a time")
                                                    : "up to " + std::to_string(max_concurrency) + " evaluations at once");
    out += "\nEnvironment  ";
    if (environment.empty()) out += "inherited, nothing added or changed";
    for (std::size_t i = 0; i < environment.size(); ++i) {
        out += (i == 0 ? "" : std::string("\n") + kIndent) + inherited_change(environment[i]);
        if (environment[i].hijack) out += "   [refused unless allowed]";
    }
    return out;
}

CommandReview review_command(const EvaluatorSpec& spec, const LaunchContext& context) {
    const CommandLaunch launch = plan_launch(spec, context);
    CommandReview review;
    review.program = spec.command.empty() ? std::string() : spec.command.front();
    review.resolved_program = launch.program;
    review.program_error = launch.program_error;
    if (!launch.program.empty()) {
        std::error_code error;
        if (std::filesystem::is_symlink(launch.program, error)) {
            const auto target = std::filesystem::canonical(launch.program, error);
            if (!error) review.link_target = target.string();
        }
        review.found_through_file_path = launch.searched_spec_path;
    }
    if (spec.command.size() > 1) review.arguments.assign(spec.command.begin() + 1, spec.command.end());
    review.working_directory = launch.working_directory;
    review.working_directory_named = !spec.working_directory.empty();
    struct stat info {};
    review.working_directory_exists = ::stat(launch.working_directory.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
    review.timeout_seconds = spec.timeout_seconds;
    review.max_concurrency = spec.max_concurrency;
    for (const auto& [name, value] : spec.environment)
        review.environment.push_back({name, value, context.inherited(name), hijack_reason(name)});

    // The fingerprint: JSON of the texts as shell_quoted() writes them (which keeps every byte
    // apart, even of ill-formed UTF-8), so no two different reviews give the same text. Variables
    // are sorted by name: their order in the file does not change what runs.
    std::vector<std::pair<std::string, std::string>> variables;
    for (const auto& [name, value] : spec.environment) variables.emplace_back(shell_quoted(name), shell_quoted(value));
    std::sort(variables.begin(), variables.end());
    std::vector<std::string> arguments;
    for (const std::string& argument : review.arguments) arguments.push_back(shell_quoted(argument));
    nlohmann::ordered_json print = nlohmann::ordered_json::object();
    print["fingerprint"] = 1;
    print["program"] = shell_quoted(review.program);
    print["resolved_program"] = shell_quoted(review.resolved_program);
    print["arguments"] = arguments;
    print["working_directory"] = shell_quoted(review.working_directory);
    print["environment"] = variables;
    print["timeout_seconds"] = review.timeout_seconds;
    print["max_concurrency"] = review.max_concurrency;
    review.fingerprint = print.dump();
    return review;
}

std::vector<std::string> hijacking_refusals(const CommandReview& review, const std::vector<std::string>& allowed) {
    std::vector<std::string> out;
    for (const ReviewedVariable& v : review.environment) {
        if (!v.hijack || std::find(allowed.begin(), allowed.end(), v.name) != allowed.end()) continue;
        out.push_back("evaluator.environment." + shell_quoted(v.name) + " is refused: " + *v.hijack +
                      ". A file could use it to make the command run code that is not on its command line.");
    }
    return out;
}

}  // namespace sebo
