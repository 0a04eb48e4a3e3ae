#include "cli/import_options.h"

#include <cstdio>
#include <string>

#include "io/imported_experiment.h"

namespace sebo::cli {

std::vector<OptionSpec> import_option_specs() {
    OptionSpec target{"target", "NAME=VALUE",
                      "with --from: the target (today's value) of one parameter; repeatable, on top of the status quo, "
                      "--target-trial or the default rule"};
    target.repeatable = true;
    return {{"from", "SOURCE",
             "create the experiment from another tool's: an Ax JSON snapshot (AxClient or Client), an Optuna SQLite "
             "storage (study.db or sqlite:///study.db) or an Optuna journal file"},
            {"study", "NAME", "with an Optuna storage: the study to import (needed when it holds several)"},
            {"target-trial", "N", "with --from: the trial (numbered as the source numbers it; an Ax arm's name also) that "
                                  "measured the configuration in use today: its values become the targets"},
            target};
}

const std::vector<const char*>& flags_replaced_by_import() {
    static const std::vector<const char*> flags = {"space", "parameter-constraint", "objective", "metric", "constraint",
                                                   "threshold", "minimize", "import", "no-status-quo"};
    return flags;
}

Experiment experiment_from_import_flags(const Arguments& parser, bool quiet) {
    const std::string source = *parser.value("from");
    ImportOptions options;
    options.study = parser.value("study").value_or("");
    ImportedExperiment imported = import_experiment(source, options);

    ImportTargetChoice choice;
    if (const auto trial = parser.value("target-trial")) choice.trial = find_source_trial(imported, *trial);
    for (const std::string& given : parser.values("target")) {
        const auto eq = given.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError("--target: expected NAME=VALUE, got '" + given + "'");
        choice.values.emplace_back(given.substr(0, eq), given.substr(eq + 1));
    }
    const ImportTarget target = choose_import_target(imported, choice);

    if (!quiet) {
        const Experiment& e = imported.experiment;
        std::fprintf(stderr, "imported     %s from %s\n", imported.source.c_str(), source.c_str());
        std::string counts;
        for (const TrialStatus s : {TrialStatus::Completed, TrialStatus::Failed, TrialStatus::Abandoned, TrialStatus::Pending})
            if (const int n = e.count(s); n > 0) counts += (counts.empty() ? "" : ", ") + std::to_string(n) + " " + to_string(s);
        std::fprintf(stderr, "trials       %s\n", counts.empty() ? "none" : counts.c_str());
        for (const std::string& w : imported.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
        // Batch trials give one trial per arm, numbered in the source's order: say which is which.
        bool renumbered = false;
        for (std::size_t i = 0; i < e.trials.size() && i < imported.origins.size(); ++i)
            renumbered = renumbered || imported.origins[i].number != e.trials[i].index;
        if (renumbered) {
            constexpr std::size_t kShown = 6;
            std::string numbering;
            for (std::size_t i = 0; i < e.trials.size() && i < kShown; ++i)
                numbering += (i ? "; " : "") + std::to_string(e.trials[i].index) + " = " + imported.origins[i].label;
            if (e.trials.size() > kShown) numbering += "; ... (" + std::to_string(e.trials.size() - kShown) + " more)";
            std::fprintf(stderr, "numbering    Ax trials are numbered arm by arm here: %s\n", numbering.c_str());
        }
        std::fprintf(stderr, "target       %s\n", target.description.c_str());
        if (target.basis == ImportTarget::Basis::DefaultRule && choice.values.empty())
            std::fprintf(stderr, "             (the source names no status quo: give the configuration in use today with "
                                 "--target-trial N or --target NAME=VALUE)\n");
    }
    return std::move(imported.experiment);
}

}  // namespace sebo::cli
