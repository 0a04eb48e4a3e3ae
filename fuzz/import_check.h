#pragma once
// What the importers' fuzz targets (fuzz_ax_snapshot, fuzz_optuna_journal, fuzz_optuna_sqlite)
// check on each input, shared with tests/engine/test_fuzz_regressions.cpp so that a saved finding
// replays through the very same checks in the normal build.
//
// An input is either refused with an InputError or read into an experiment that is consistent:
// it validates, has one origin per trial and a status quo (if any) of the space's dimension; with
// the target chosen by the default rule and by its first trial (each of which may be refused
// with an InputError, e.g. a target that violates a parameter constraint) it saves to a file that
// loads back to the same text.

#include <string>
#include <vector>

#include "core/input_error.h"
#include "io/experiment_file.h"
#include "io/imported_experiment.h"
#include "io/optuna_journal.h"
#include "io/optuna_sqlite.h"
#include "io/optuna_study.h"

namespace sebo::fuzz {

// Empty when the experiment saves and loads back unchanged.
inline std::string import_round_trip_problem(const Experiment& experiment) {
    if (const auto error = experiment.validate()) return "an imported experiment does not validate: " + *error;
    const std::string saved = experiment_to_json_text(experiment);
    try {
        if (experiment_to_json_text(experiment_from_json_text(saved)) != saved) return "save -> load -> save changed the file";
    } catch (const InputError& e) {
        return std::string("the saved file does not load: ") + e.what() + "\n--- saved text:\n" + saved;
    }
    return "";
}

// Empty when `imported` keeps every rule above; InputErrors of the target's choice are fine.
inline std::string check_imported(const ImportedExperiment& imported) {
    const Experiment& e = imported.experiment;
    if (const auto error = e.validate()) return "an imported experiment does not validate: " + *error;
    if (imported.origins.size() != e.trials.size()) return "the origins do not match the trials";
    if (imported.status_quo && static_cast<int>(imported.status_quo->values.size()) != e.space.dimension())
        return "the status quo has " + std::to_string(imported.status_quo->values.size()) + " values for " +
               std::to_string(e.space.dimension()) + " parameters";
    std::vector<ImportTargetChoice> choices = {{}};
    if (!e.trials.empty()) choices.push_back({0, {}});
    for (const ImportTargetChoice& choice : choices) {
        ImportedExperiment copy = imported;
        try {
            choose_import_target(copy, choice);
        } catch (const InputError&) {
            continue;
        }
        if (std::string problem = import_round_trip_problem(copy.experiment); !problem.empty()) return problem;
    }
    return "";
}

// Every study of a journal's text; InputErrors propagate.
inline std::string check_journal(const std::string& text) {
    const optuna::JournalReplay replay = optuna::replay_journal(text);
    for (const optuna::StudyRecord& study : replay.studies) {
        try {
            if (std::string problem = check_imported(optuna::study_to_experiment(study)); !problem.empty()) return problem;
        } catch (const InputError&) {
        }
    }
    return "";
}

// Every study of the SQLite storage at `path`; InputErrors propagate.
inline std::string check_sqlite_storage(const std::string& path) {
    for (const OptunaStudySummary& summary : optuna::read_sqlite_studies(path)) {
        try {
            if (std::string problem = check_imported(optuna::study_to_experiment(optuna::read_sqlite_study(path, summary.name)));
                !problem.empty())
                return problem;
        } catch (const InputError&) {
        }
    }
    return "";
}

}  // namespace sebo::fuzz
