#pragma once
// Experiment files: "*.sebo.json" with "format": "sebo-experiment" and an integer "version"
// (SPEC §7, DESIGN "Persistence"). Loading never trusts the file: every field is checked and
// the first problem is reported as an InputError naming its path, e.g.
// "trials[3].parameters.x7: 12 is above the upper bound 10".

#include <string>

#include "experiment/experiment.h"

namespace sebo {

inline constexpr const char* kExperimentFormat = "sebo-experiment";
inline constexpr int kExperimentVersion = 1;

// Pretty-printed JSON text of the experiment (parameters keyed by name, in user units).
std::string experiment_to_json_text(const Experiment& experiment);

// Parses and validates; throws InputError.
Experiment experiment_from_json_text(const std::string& text);

// Reads a file; throws InputError (field "file" for unreadable/oversized files).
Experiment load_experiment(const std::string& path);

// Atomic save: writes "<path>.tmp-<pid>", flushes it to disk, renames it over `path`.
// Throws std::runtime_error with the path and the system's reason on failure.
void save_experiment(const Experiment& experiment, const std::string& path);

// Writes text to a file atomically (same protocol as save_experiment).
void write_file_atomic(const std::string& path, const std::string& text);

}  // namespace sebo
