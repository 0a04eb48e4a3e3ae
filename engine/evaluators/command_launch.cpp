#include "evaluators/command_launch.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "evaluators/shell_quoting.h"

extern char** environ;

namespace sebo {
namespace {

std::string name_of(std::string_view entry) { return std::string(entry.substr(0, entry.find('='))); }

// `relative` inside `folder`, without "." segments or doubled slashes (both are safe to drop;
// ".." is kept, since folding it would be wrong when the folder before it is a symbolic link).
std::string inside(const std::string& folder, const std::string& relative) {
    const std::string joined = !relative.empty() && relative.front() == '/' ? relative : folder + "/" + relative;
    std::string out;
    std::size_t start = 0;
    while (start <= joined.size()) {
        std::size_t end = joined.find('/', start);
        if (end == std::string::npos) end = joined.size();
        const std::string_view segment(joined.data() + start, end - start);
        if (!segment.empty() && segment != ".") {
            out += '/';
            out += segment;
        }
        start = end + 1;
    }
    return out.empty() ? "/" : out;
}

// Why `path` cannot be executed, or nothing when it is a regular file this process may execute.
std::optional<std::string> not_executable(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return std::error_code(errno, std::generic_category()).message();
    if (S_ISDIR(info.st_mode)) return std::string("it is a folder");
    if (!S_ISREG(info.st_mode)) return std::string("it is not a regular file");
    if (::access(path.c_str(), X_OK) != 0) return std::string("it is not executable");
    return std::nullopt;
}

std::string default_search_path() {
    const std::size_t n = ::confstr(_CS_PATH, nullptr, 0);
    if (n == 0) return "/bin:/usr/bin";
    std::string path(n, '\0');
    ::confstr(_CS_PATH, path.data(), n);
    path.resize(n - 1);
    return path;
}

}  // namespace

LaunchContext LaunchContext::current() {
    LaunchContext context;
    for (char** entry = environ; entry && *entry; ++entry) context.environment.emplace_back(*entry);
    std::error_code error;
    context.current_directory = std::filesystem::current_path(error).string();
    if (error || context.current_directory.empty()) context.current_directory = "/";
    return context;
}

std::optional<std::string> LaunchContext::inherited(const std::string& name) const {
    for (const std::string& entry : environment)
        if (entry.size() > name.size() && entry[name.size()] == '=' && entry.compare(0, name.size(), name) == 0)
            return entry.substr(name.size() + 1);
    return std::nullopt;
}

CommandLaunch plan_launch(const EvaluatorSpec& spec, const LaunchContext& context) {
    CommandLaunch launch;
    launch.working_directory = spec.working_directory.empty() ? inside(context.current_directory, ".")
                                                              : inside(context.current_directory, spec.working_directory);

    for (const std::string& entry : context.environment) {
        const std::string name = name_of(entry);
        const bool replaced = std::any_of(spec.environment.begin(), spec.environment.end(),
                                          [&](const auto& variable) { return variable.first == name; });
        if (!replaced) launch.environment.push_back(entry);
    }
    std::optional<std::string> file_path_variable;
    for (const auto& [name, value] : spec.environment) {
        launch.environment.push_back(name + "=" + value);
        if (name == "PATH") file_path_variable = value;
    }

    if (spec.command.empty() || spec.command.front().empty()) {
        launch.program_error = "there is no program to run";
        return launch;
    }
    const std::string& program = spec.command.front();
    if (program.find('/') != std::string::npos) {
        // A path: relative to the working folder, where the program starts.
        const std::string candidate = inside(launch.working_directory, program);
        if (auto why = not_executable(candidate)) launch.program_error = shell_quoted(candidate) + ": " + *why;
        else launch.program = candidate;
        return launch;
    }
    // A name: the first executable file of that name in the folders of PATH, in order; an empty
    // entry (and a relative one) means the working folder (or a folder inside it), as for execvp.
    launch.searched_spec_path = file_path_variable.has_value();
    launch.search_path = file_path_variable ? *file_path_variable
                                            : context.inherited("PATH").value_or(default_search_path());
    std::string skipped;
    std::size_t start = 0;
    while (start <= launch.search_path.size()) {
        std::size_t end = launch.search_path.find(':', start);
        if (end == std::string::npos) end = launch.search_path.size();
        const std::string folder = launch.search_path.substr(start, end - start);
        const std::string candidate = inside(inside(launch.working_directory, folder.empty() ? "." : folder), program);
        const auto why = not_executable(candidate);
        if (!why) {
            launch.program = candidate;
            return launch;
        }
        if (*why != std::error_code(ENOENT, std::generic_category()).message() &&
            *why != std::error_code(ENOTDIR, std::generic_category()).message())
            skipped += "; " + shell_quoted(candidate) + ": " + *why;
        start = end + 1;
    }
    launch.program_error = "no executable file named " + shell_quoted(program) + " in the folders of PATH " +
                           shell_quoted(launch.search_path) +
                           (file_path_variable ? " (the evaluator environment's PATH)" : "") + skipped;
    return launch;
}

}  // namespace sebo
