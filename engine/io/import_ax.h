#pragma once
// Ax experiments (issue 31): a JSON snapshot written by AxClient.save_to_json_file
// ({"_type": "AxClient", "experiment": ...}), by Ax 1.x's ax.api.Client.save_to_json_file
// ({"_type": "Client", ...}), or an experiment saved alone ({"__type": "Experiment", ...}),
// read into an ordinary Experiment (io/imported_experiment.h). The parts: io/ax_space.h (search
// space, arms), io/ax_outcomes.h (objectives, constraints), io/ax_data.h (measurements); the
// mapping of every element is in docs/file-format.md, "Imports".
//
// Trials: a Trial is one trial; a BatchTrial gives one trial per arm (its status-quo arm
// included). Statuses: COMPLETED -> completed, with each metric's mean and SEM from data_by_trial
// (a completed trial without a value of every objective becomes failed, saying so); FAILED ->
// failed and ABANDONED, EARLY_STOPPED, STALE -> abandoned, each with its reason; RUNNING,
// CANDIDATE, STAGED, DISPATCHED -> pending. Arms outside the search space (Ax keeps
// out-of-design arms) are left out with a warning. Trials keep Ax's index when every trial has
// one arm; with batch trials they are numbered in Ax's order, arm by arm.

#include <string>

#include "io/imported_experiment.h"

namespace sebo {

// Reads a snapshot file (at most kMaxExperimentFileBytes, as experiment files; a larger one is
// refused before it is read, naming the path). Throws InputError naming the JSON path of what
// cannot be read or mapped.
ImportedExperiment import_ax_snapshot(const std::string& path);

// The same for the snapshot's text.
ImportedExperiment import_ax_snapshot_text(const std::string& text);

}  // namespace sebo
