#pragma once
// A strategy proposes the next configurations of an experiment. Sobol is the first; the
// model-based strategies (GPEI, SAASBO, EI-ER, EI-IR, SEBO) live behind the same interface.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"
#include "core/step_control.h"

namespace sebo {

struct Proposal {
    enum class Status { Ok, Cancelled, Failed };
    Status status = Status::Ok;
    // Configurations in user units, already snapped to targets and rounded for integers.
    std::vector<std::vector<double>> points;
    std::string generator;  // recorded on the trials, e.g. "sobol"
    std::string message;    // why it failed or was cancelled
    // A SAAS-NUTS fit's record, copied onto every new trial (experiment/fit_record.h).
    std::optional<FitRecord> fit;
    // When set, the step replaces Experiment::sampler_state with sampler_state (unset: clears
    // it): a model step that warm-starts, or that makes an earlier state stale.
    bool replaces_sampler_state = false;
    std::optional<SamplerState> sampler_state;
    // How many of the step's model fits (one per modelled metric) started from a sampler state.
    int warm_started_fits = 0;
    // Per sampled fit, in the models' order (objectives first): its metric, how it started
    // ("warm", "mode" or "full") and, when not warm, why the shorter starts were not used — a
    // state that no longer applies, or chains from it that failed their diagnostics.
    struct FitStart {
        std::string metric;
        std::string start;
        std::string cold_reason;
    };
    std::vector<FitStart> fit_starts;
    // Per proposed point of a model step: the acquisition optimization's work (for benchmarks and
    // diagnostics; optimize/homotopy.h's OptimizedCandidate has the same counts).
    struct CandidateWork {
        int local_optimizations = 0;
        int evaluations = 0;                 // of the acquisition, with its gradient
        std::vector<int> stage_paths;        // per homotopy stage: the paths optimized
        std::vector<int> stage_evaluations;  // per homotopy stage: their evaluations
    };
    std::vector<CandidateWork> candidate_work;
};

class Strategy {
public:
    virtual ~Strategy() = default;
    virtual std::string name() const = 0;
    // Proposes `count` new configurations for the experiment as it is (completed, failed and
    // pending trials, its sampler state). Must be deterministic for a given experiment and number
    // of threads (control.pool's size).
    virtual Proposal propose(const Experiment& experiment, int count, const StepControl& control) = 0;
};

std::unique_ptr<Strategy> make_strategy(const MethodSettings& settings);

}  // namespace sebo
