#pragma once
// Experiment files: "*.sebo.json" with "format": "sebo-experiment" and an integer "version"
// (SPEC §7, DESIGN "Persistence"; every field is described in docs/file-format.md). Loading
// never trusts the file: every field is checked and the first problem is reported as an
// InputError naming its JSON path, e.g. "trials[3].parameters.x7: 12 is above the upper bound 10".
// Whole-document problems (empty file, invalid JSON, nesting too deep, not an object) use the
// empty path "".

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"
#include "io/file_io.h"

namespace sebo {

inline constexpr const char* kExperimentFormat = "sebo-experiment";
// Version 2 added Trial::exclusion ("excluded"), version 3 the NUTS sampler mode, the trials' fit
// records and the sampler state, version 4 several metrics, objectives and outcome
// constraints ("metrics", "objectives", "constraints", trials' "values"), parameters'
// "min_change" and the method's sparsity range and status-quo setting, version 5 linear
// parameter constraints ("space.parameter_constraints") and fixed parameters (kind "fixed" with a
// "value"), version 6 a sampler state per modelled metric ("sampler_states"), version 7
// a built-in problem's added noise ("evaluator.problem.noise") and trials' "noise_free" values,
// versions 8 and 9 the dense start under noise ("dense_steps", "dense_thompson"), version 10 the
// warp's check ("warp_check"), version 11 (this one) the dense start's extension
// ("dense_steps_max"; docs/file-format.md, Versioning). Older
// files are upgraded on load (io/experiment_migration.h) and saved in the current version.
inline constexpr int kExperimentVersion = 11;

// Arrays/objects nested deeper than this are refused before parsing; the format itself needs 5.
inline constexpr int kMaxJsonNesting = 64;

// Pretty-printed JSON text of the experiment (parameters keyed by name, in user units). Numbers
// are written in a form that reads back bit-identical; strings that are not valid UTF-8 have the
// bad bytes replaced by U+FFFD.
std::string experiment_to_json_text(const Experiment& experiment);

// The same text assembled from the trials' own texts, each as trial_json_text made it for that
// trial (one per trial, in order): ExperimentTextCache (experiment_text_cache.h) re-serializes only
// the trials that changed. Equal to experiment_to_json_text, byte for byte.
std::string trial_json_text(const Trial& trial, const SearchSpace& space, const std::vector<std::string>& metrics);
std::string experiment_json_text(const Experiment& experiment, const std::vector<const std::string*>& trial_texts);

// Parses and validates; throws InputError.
Experiment experiment_from_json_text(const std::string& text);

// A search space on its own, in the layout of an experiment file's "space" object
// ({"parameters": [...]}), with the same checks; paths start at "parameters". Throws InputError.
SearchSpace space_from_json_text(const std::string& text);

// The metrics, objectives and outcome constraints of a JSON object in the layout of an experiment
// file's top level ("metrics", "objectives", "constraints"), with the same checks; unset when the
// object has none of the three. For space files that also say what is measured. Throws InputError.
std::optional<Outcomes> outcomes_from_json_text(const std::string& text);

// Reads a file; throws InputError (field "file" for unreadable/oversized files).
Experiment load_experiment(const std::string& path);

// Atomic save: writes "<path>.tmp-<pid>", flushes it to disk, renames it over `path`.
// An experiment that fails Experiment::validate() is refused (a file that cannot be loaded
// again would lose everything). Throws std::runtime_error with the path and the reason.
// With a `cache`, only the trials changed since its last text are serialized anew (a recovery
// file autosaved after every step).
class ExperimentTextCache;
void save_experiment(const Experiment& experiment, const std::string& path, ExperimentTextCache* cache = nullptr);

}  // namespace sebo
