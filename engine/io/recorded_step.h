#pragma once
// A recorded step of the candidate search (issue 34; tests/data/step_corpus/README.md): the
// experiment as it stood before a model step, the hyperparameter samples its fit gave each
// modelled metric, and the candidate the code of the time proposed from them. Replaying the step
// (experiment/candidate_search.h) runs the candidate search again without refitting, so that a
// change to the search can be judged against the recorded candidate under the same acquisition.
//
// The file is JSON: {"format": "sebo-recorded-step", "version": 1, "label", "recorded_by",
// "experiment": the experiment file's object (io/experiment_file.h; written without its sampler
// state), "models": [{"metric", "samples": [{"inverse_squared_lengthscales": [..], "output_scale",
// "noise", "mean"}, ..]}, ..] in the order of the modelled metrics, "reference": {"x": [..] (unit
// cube), "value", "changes", "stages", "local_optimizations", "evaluations", "stage_paths",
// "stage_evaluations", "endings": {"converged", "limit", "failed"}}}. Numbers read back
// bit-identical.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "experiment/experiment.h"
#include "model/gp_hyperparameters.h"
#include "optimize/homotopy.h"

namespace sebo {

inline constexpr const char* kRecordedStepFormat = "sebo-recorded-step";
inline constexpr int kRecordedStepVersion = 1;

// The candidate of a recorded step and the work of its search (optimize/homotopy.h).
struct RecordedCandidate {
    Eigen::VectorXd x;   // finalized unit-cube point
    double value = 0.0;  // exact acquisition value at x
    int changes = 0;     // exact L0 count at x: changed parameters (changed groups when the space has groups)
    int stages = 0;
    int local_optimizations = 0;
    int evaluations = 0;
    std::vector<int> stage_paths;
    std::vector<int> stage_evaluations;
    LocalEndings endings;
};

struct RecordedStep {
    std::string label;        // where the step comes from, e.g. "moo-branin-currin/sebo-l0/seed=1/n=20"
    std::string recorded_by;  // the program and version that recorded it
    Experiment experiment;    // before the step
    std::vector<std::string> metrics;                      // the modelled metrics, in order
    std::vector<std::vector<GpHyperparameters>> samples;  // per modelled metric
    RecordedCandidate reference;
};

// The candidate of a search as a RecordedCandidate, with its exact L0 count in `space`.
RecordedCandidate recorded_candidate(const OptimizedCandidate& candidate, const SearchSpace& space);
// The exact L0 count of a unit-cube point of `space` (make_sparsity_penalty's, without a floor).
int changed_parameters(const SearchSpace& space, const Eigen::VectorXd& x);

// Compact JSON text (one line).
std::string recorded_step_to_json_text(const RecordedStep& step);
// Parses and checks the file: its format and version, the experiment (experiment_from_json_text),
// one model per modelled metric of the experiment, in order, with samples whose dimension is the
// models' input dimension (the space's, or its choices' encoded features) and that pass
// GpHyperparameters::validate, and a reference point of the space's dimension in the unit cube.
// Throws InputError naming the field.
RecordedStep recorded_step_from_json_text(const std::string& text);
// Reads a file (load errors as InputError with field "file").
RecordedStep load_recorded_step(const std::string& path);

}  // namespace sebo
