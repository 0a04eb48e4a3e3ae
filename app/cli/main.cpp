// sebo — the command-line client of the SEBO Explorer engine.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/shared_file.h"
#include "core/input_error.h"
#include "core/version.h"
#include "io/experiment_merge.h"
#include "io/file_lock.h"

namespace {

struct Command {
    const char* name;
    int (*run)(const sebo::cli::Args&);
    const char* summary;
};

const Command kCommands[] = {
    {"problems", sebo::cli::command_problems, "list the built-in problems and their options"},
    {"run", sebo::cli::command_run, "create (or resume) an experiment and run it to a number of trials"},
    {"info", sebo::cli::command_info, "summarize an experiment file"},
    {"frontier", sebo::cli::command_frontier, "objective vs active parameters: frontier, hypervolume, activation"},
    {"export", sebo::cli::command_export, "write one configuration in user units (JSON or CSV)"},
    {"fit", sebo::cli::command_fit, "fit the surrogate to the completed trials: relevance, diagnostics, leave-one-out"},
    {"simplify", sebo::cli::command_simplify, "the model's predicted path from a trial to fewer changed parameters"},
    {"new", sebo::cli::command_new, "create an experiment for your own system (space CSV/JSON, command or manual)"},
    {"suggest", sebo::cli::command_suggest, "propose the next trial(s) and save them as pending (ask)"},
    {"observe", sebo::cli::command_observe, "record measured results for pending trials, by value or from a CSV (tell)"},
    {"import", sebo::cli::command_import, "add past results from a CSV as completed trials"},
    {"confirm", sebo::cli::command_confirm, "measure chosen configurations again (replicates of noisy measurements)"},
    {"bench", sebo::cli::command_bench, "compare strategies over problems and seeds: results.csv, recommendations.csv, summary.md, plots"},
};

void print_usage(std::FILE* out) {
    std::fprintf(out, "usage: sebo COMMAND [OPTIONS]\n\nSparse Bayesian optimization (SEBO) from the command line.\n\ncommands:\n");
    for (const Command& c : kCommands) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
    std::fprintf(out, "\nRun 'sebo COMMAND --help' for the options of a command; 'sebo --version' names this build.\n");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    const std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        print_usage(stdout);
        return 0;
    }
    if (name == "--version") {
        std::printf("sebo: %s\n", sebo::program_version_text().c_str());
        return 0;
    }
    const std::vector<std::string> args(argv + 2, argv + argc);
    for (const Command& c : kCommands) {
        if (name != c.name) continue;
        try {
            return c.run(args);
        } catch (const sebo::cli::UsageError& e) {
            std::fprintf(stderr, "sebo %s: %s\n", c.name, e.what());
            return 2;
        } catch (const sebo::InputError& e) {
            std::fprintf(stderr, "sebo %s: %s\n", c.name, e.what());
            return 2;
        } catch (const sebo::FileBusyError& e) {
            // Another process runs or writes the file (docs/file-format.md, "Several writers").
            std::fprintf(stderr, "sebo %s: %s%s\n", c.name, e.what(),
                         e.stopped() ? "" : ". Try again when it is done, or wait longer with --wait S");
            return sebo::cli::kExitFileBusy;
        } catch (const sebo::MergeError& e) {
            std::fprintf(stderr, "sebo %s: %s\n", c.name, e.what());
            return 1;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "sebo %s: error: %s\n", c.name, e.what());
            return 1;
        }
    }
    std::fprintf(stderr, "sebo: unknown command '%s'\n\n", name.c_str());
    print_usage(stderr);
    return 2;
}
