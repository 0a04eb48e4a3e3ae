#pragma once
// Another tool's experiment, read into an ordinary Experiment (issue 31, "Bring your experiments";
// docs/file-format.md, "Imports"): its search space, objectives, outcome constraints and every
// trial, with the lines that say what could only be approximated, where each trial came from, and
// what the source says about the system as it runs today. The readers are io/import_ax.h (Ax JSON
// snapshots) and io/import_optuna.h (Optuna storages); import_experiment() picks one by the file's
// content. choose_import_target() then sets the target, the configuration every sparsity count
// measures changes from. `sebo new --from` and the explorer's import dialog call these two and
// show what they return.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "experiment/experiment.h"

namespace sebo {

// Where an imported trial came from, as the source numbers it.
struct TrialOrigin {
    int number = 0;    // Ax: the trial's index; Optuna: the trial's number
    std::string arm;   // Ax: the arm's name ("3_1"); empty for Optuna
    std::string label;  // "Ax trial 3, arm 3_1", "Optuna trial 7"
};

// A configuration the source itself names as the system as it runs today.
struct SourceConfiguration {
    std::string description;     // "the status-quo arm 'status_quo'"
    std::vector<double> values;  // every varying parameter, in user units (a choice: its index)
};

struct ImportedExperiment {
    // A manual experiment with the sebo new defaults (strategy sebo-l0) and no target set yet.
    Experiment experiment;
    // One line on what was read: "Ax Client snapshot (Ax 1.x), experiment 'tune_cnn'",
    // "Optuna SQLite storage (Optuna 3.1.0, schema 12), study 'mlp'".
    std::string source;
    // One line per thing kept only approximately, or left out, saying exactly what changed.
    std::vector<std::string> warnings;
    // One per experiment.trials entry, in the same order.
    std::vector<TrialOrigin> origins;
    // Ax's status-quo arm, when the experiment has one inside the search space.
    std::optional<SourceConfiguration> status_quo;
};

// For the readers: gives an imported experiment the settings of `sebo new` (strategy sebo-l0, a
// manual evaluator, status quo not measured again: the source's trials are the start) and a
// budget with room for 20 more trials (at least 50), and checks that it is consistent; a reader's
// slip is an InputError on the source, never a file that does not open again.
void finish_imported_experiment(ImportedExperiment& imported);

// What the user asked the target to be. Without a trial the base is the status quo when the
// source has one, else the default rule (README: 0, or the lower bound when 0 is outside the
// range; a choice's first value). `values` then replace single parameters' targets.
struct ImportTargetChoice {
    std::optional<int> trial;  // an index into experiment.trials (find_source_trial)
    std::vector<std::pair<std::string, std::string>> values;  // parameter name, value as text
    // The default rule even when the source has a status quo (the explorer offers it).
    bool default_rule = false;
};

struct ImportTarget {
    enum class Basis { StatusQuo, Trial, DefaultRule };
    Basis basis = Basis::DefaultRule;
    // "the status-quo arm 'status_quo' (lr = 0.01, momentum = 0.9)",
    // "Optuna trial 7 (x = 0.5, layers = 3)", "the default rule (…)", with the overrides named.
    std::string description;
};

// Sets every varying parameter's target as `choice` says and says what it used. Throws
// InputError naming "--target NAME" (unknown or fixed parameter, a value outside the bounds or not
// one of a choice's values) or "--target-trial" (no such trial).
ImportTarget choose_import_target(ImportedExperiment& imported, const ImportTargetChoice& choice);

// The trial the source numbers `text`: a trial number (Ax's index, Optuna's number) or an Ax
// arm's name ("3_1"). Throws InputError on "--target-trial" when there is none, or when the
// number is an Ax batch trial of several arms (naming them).
int find_source_trial(const ImportedExperiment& imported, const std::string& text);

// "lr = 0.01, momentum = 0.9": the targets of the varying parameters, as resolved.
std::string target_values_text(const SearchSpace& space);

enum class ImportFormat { AxSnapshot, OptunaSqlite, OptunaJournal };

const char* to_string(ImportFormat format);  // "Ax JSON snapshot", "Optuna SQLite storage", ...

struct ImportOptions {
    // Optuna: the study to read; required when the storage holds several (the message lists them).
    std::string study;
};

// "study.db", "sqlite:///study.db" (Optuna's storage URL) or a plain path: the file's path.
std::string import_source_path(const std::string& source);

// What the file is, from its first bytes: a SQLite database, an Ax snapshot (a JSON object) or
// an Optuna journal (lines of JSON objects with an "op_code"). Throws InputError on "file" when it
// cannot be read or is none of these.
ImportFormat detect_import_format(const std::string& path);

// Reads any of the three. Throws InputError naming the file, the field and the value.
ImportedExperiment import_experiment(const std::string& source, const ImportOptions& options = {});

}  // namespace sebo
