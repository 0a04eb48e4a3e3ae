#pragma once
// "Simplify this configuration" and "explain this trial" (SPEC §10, issue 16): what the model
// predicts when a chosen trial's changed parameters are set back to their targets.
//
// The model is the experiment's own (its method's surrogate and objective warp) fitted to every
// trial that counts in the analysis. From the trial's configuration the path resets one parameter
// per step — the one whose reset costs the least predicted objective — down to zero changed
// parameters (optimize/greedy_reset.h, the routine BONSAI's pruning uses). Every step reports the
// posterior's prediction in the objective's own units and direction, and whether it is within the
// tolerance of the start: u₀ − u <= tolerance·|u₀| with u the prediction in maximization form.
//
// Predictions in objective units: the model predicts the warped, standardized utility
// t = (ψ(u) − m)/s; the mean maps back through the inverse transforms (the image of the mixture
// mean — the predictive median when one member dominates), and the standard deviation by the delta
// method, s·σ_t / ψ'(u). Without a warp both are exact: u = m + s·μ_t, sd = s·σ_t.
//
// Several objectives or outcome constraints (issue 16 item 3, issue 13): every modelled metric has
// its model, as in a strategy step (experiment/outcome_step.h). The path is still the first
// objective's (the reset that costs it least); every step also reports each objective's
// prediction and — with constraints — the posterior probability that the configuration satisfies
// all of them (acquisition/feasibility.h, the product over the constrained metrics' models).

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"
#include "experiment/model_step.h"
#include "experiment/outcome_step.h"
#include "core/step_control.h"
#include "model/ensemble_posterior.h"

namespace sebo {

struct SimplifyOptions {
    double tolerance = 0.2;  // relative to the start's predicted value, in (0, 1]

    std::optional<std::string> validate() const;
};

// The fewest trials that count in the analysis for a model to be fitted (as a strategy step).
inline constexpr int kSimplifyMinimumTrials = 2;

// Why trial `index` cannot be simplified or explained, naming the trial (unset: it can): unknown,
// pending, failed, abandoned, completed but excluded from the analysis, or fewer than kSimplifyMinimumTrials
// trials counting in the analysis.
std::optional<std::string> simplify_unavailable(const Experiment& experiment, int index);

// The experiment's model, fitted once for any number of paths and explanations.
struct SimplifyModel {
    TrainingSet training;  // the first objective's
    std::shared_ptr<const EnsemblePosterior> posterior;
    // With several objectives or any constraint: every modelled metric's training set and model
    // (the first is the one above) and the constraints in the models' units; otherwise empty.
    MetricTraining metrics;
    std::vector<std::shared_ptr<const EnsemblePosterior>> posteriors;
    std::optional<OutcomeModelUnits> units;
};

struct SimplifyModelFit {
    enum class Status { Ok, Cancelled, Failed };
    Status status = Status::Failed;
    std::string message;
    std::optional<SimplifyModel> model;
};

// Fits the method's surrogate (deterministic for the experiment's seed and the threads of
// control.pool). Failed, with a message, when fewer than kSimplifyMinimumTrials trials count.
SimplifyModelFit fit_simplify_model(const Experiment& experiment, const StepControl& control = {});

struct Prediction {
    double mean = 0.0;  // objective units and sign
    double sd = 0.0;
};

// The model's prediction at a configuration in user units.
Prediction predict_objective(const Experiment& experiment, const SimplifyModel& model, const std::vector<double>& values);

struct SimplifyStep {
    std::vector<double> parameters;  // user units
    std::vector<int> changed;        // parameters differing from their targets, in column order
    int reset = -1;                  // the parameter reset at this step (−1: the trial itself)
    Prediction predicted;  // the first objective
    bool within_tolerance = true;
    // With several objectives: each objective's prediction (the first is `predicted`); else empty.
    std::vector<Prediction> objectives;
    // With outcome constraints: the probability that every one holds; else unset.
    std::optional<double> feasibility;
};

struct SimplifyPath {
    int trial = 0;
    std::optional<double> measured;  // the trial's objective value
    double tolerance = 0.2;
    std::vector<SimplifyStep> steps;  // steps[0] is the trial; the last has no changed parameter
};

// `index` must pass simplify_unavailable and `options` validate().
SimplifyPath simplify_path(const Experiment& experiment, const SimplifyModel& model, int index,
                           const SimplifyOptions& options = {});

// "Explain this trial": per changed parameter, the prediction with that parameter alone reset,
// sorted by the predicted effect (most harmful reset first).
struct ResetEffect {
    int parameter = 0;
    Prediction predicted;
    double effect = 0.0;  // predicted.mean − the trial's predicted mean (objective units)
};

struct TrialExplanation {
    int trial = 0;
    std::optional<double> measured;
    Prediction predicted;
    std::vector<ResetEffect> resets;
};

TrialExplanation explain_trial(const Experiment& experiment, const SimplifyModel& model, int index);

}  // namespace sebo
