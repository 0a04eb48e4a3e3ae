#include "cli/shared_file.h"

#include <cmath>
#include <cstdio>

#include "core/format.h"

namespace sebo::cli {

OptionSpec wait_option() {
    return {"wait", "S",
            "seconds to wait while another process writes or runs FILE (default " +
                format_number(kDefaultWaitSeconds) + "); then stop with exit code 3"};
}

double wait_seconds(const Arguments& parser) {
    const auto wait = parser.number("wait");
    if (!wait) return kDefaultWaitSeconds;
    if (!std::isfinite(*wait) || *wait < 0 || *wait > 1e7)
        throw UsageError("--wait: " + format_number(*wait) + " is not a number of seconds between 0 and 10000000");
    return *wait;
}

FileLockOptions lock_options(const std::string& program, double wait, bool quiet) {
    FileLockOptions options;
    options.program = program;
    options.wait_seconds = wait;
    // Said after a second: shorter waits are for another process's save.
    options.announce_after_seconds = 1.0;
    if (!quiet && wait > 0)
        options.on_wait = [program](const LockHolder& holder) {
            std::fprintf(stderr, "%s: waiting: %s\n", program.c_str(),
                         holder.pid > 0 ? describe_holder("the file", holder).c_str() : "the file is locked by another process");
        };
    return options;
}

void print_note(const std::string& program, const std::string& note) {
    if (!note.empty()) std::fprintf(stderr, "%s: note: %s\n", program.c_str(), note.c_str());
}

void print_merge(const std::string& program, const MergeReport& report) {
    for (const std::string& line : describe_merge(report, "by another process", "here"))
        std::fprintf(stderr, "%s: merged: %s\n", program.c_str(), line.c_str());
}

}  // namespace sebo::cli
