#pragma once
// One Optuna study as its storages hold it (Optuna's FrozenStudy and FrozenTrial, in the
// internal representation the storages write): what io/optuna_sqlite.h and io/optuna_journal.h
// read, and what import_optuna.cpp maps into an experiment, the same way for both. Internal to the
// Optuna importer (io/import_optuna.h).

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/import_optuna.h"

namespace sebo::optuna {

// optuna.trial.TrialState; the journal writes the numbers, the RDB storage the names.
enum class TrialState { Running = 0, Complete = 1, Pruned = 2, Fail = 3, Waiting = 4 };

std::optional<TrialState> trial_state_from_name(const std::string& name);
std::optional<TrialState> trial_state_from_number(long long number);
const char* to_string(TrialState state);  // "COMPLETE", ...

// A parameter's distribution (optuna/distributions.py), the deprecated classes of Optuna 2
// (UniformDistribution, IntLogUniformDistribution, ...) read as the classes that replace them.
struct Distribution {
    enum class Kind { Float, Int, Categorical };
    Kind kind = Kind::Float;
    double low = 0.0, high = 0.0;
    bool log = false;
    std::optional<double> step;          // Float: None or a step; Int: the step (1 by default)
    std::vector<nlohmann::json> choices;  // Categorical, as typed: strings, numbers, true/false, null
    std::string json;                     // the text it was read from, for messages

    // Same class, log, step and choices (bounds may differ: Optuna lets them change).
    bool compatible(const Distribution& other) const;
};

// Parses Optuna's distribution JSON ({"name": "FloatDistribution", "attributes": {...}}, or the
// abbreviated {"type": "float", ...}). Throws InputError on `where`.
Distribution parse_distribution(const std::string& json, const std::string& where);

// One suggested parameter of a trial: its internal representation (Float, Int: the value;
// Categorical: the index of the choice) and distribution.
struct ParamValue {
    double internal = 0.0;
    Distribution distribution;
};

struct TrialRecord {
    int number = 0;
    TrialState state = TrialState::Running;
    std::vector<std::pair<std::string, ParamValue>> params;  // in the order they were suggested
    std::vector<double> values;                              // per objective (inf allowed); empty when none
    std::map<long long, double> intermediate;                // step -> reported value (NaN allowed)
    std::map<std::string, nlohmann::json> system_attrs;      // the keys the import uses
    std::optional<double> started, completed;               // seconds, for durations only
    std::string where;                                       // "trial 7 (trial_id 8)", for messages

    const ParamValue* param(const std::string& name) const;
};

struct StudyRecord {
    std::string name;
    std::vector<bool> minimize;  // per objective (study_directions)
    std::map<std::string, nlohmann::json> system_attrs;
    std::map<std::string, nlohmann::json> user_attrs;
    std::vector<TrialRecord> trials;  // in number order
    std::string storage;               // "Optuna SQLite storage (Optuna 3.1.0, schema 12)"
};

// The study named `requested` among `studies` (empty: the only one). Throws InputError on
// "--study" when there is none of that name, or several and none requested, listing them.
std::size_t select_study(const std::vector<OptunaStudySummary>& studies, const std::string& requested, const std::string& path);

// Seconds of an ISO-8601-like time "2024-05-01 12:00:03.123456" or "2024-05-01T12:00:03.123456
// [+00:00]", counted as if UTC (only differences are used); unset when it is not one.
std::optional<double> time_seconds(const std::string& text);

// Maps a study to an experiment (import_optuna.cpp).
ImportedExperiment study_to_experiment(const StudyRecord& study);

}  // namespace sebo::optuna
