#pragma once
// The parts of a model-based step with several metrics (SPEC §10, issue 13 items 3 and 4), next to
// experiment/model_step.h's single-objective ones: one surrogate per modelled metric, the
// outcome constraints and thresholds in each model's units, the points that form the front, and
// the step's acquisition problem (acquisition/outcome_acquisition.h).
//
// An experiment with one objective and no outcome constraint never comes here: its step is
// model_step.h's, number for number as before several metrics existed.
//
// Units. Metric j's model sees its values as make_metric_training_set prepares them — an
// objective's in maximization form (negated when minimized), any other metric's as recorded —
// winsorized, × utility_scale, warped, standardized (TrainingSet::model_value). Every one of these
// maps is increasing, so a bound keeps its direction through them; a bound on a minimized
// objective is negated with the values, so `latency <= 50` becomes `−latency >= −50` before the
// map. A bound is never winsorized (only the training values are), and utility_scale (a power of
// two, 1 for ordinary values) multiplies it as it multiplies the values. An objective's threshold
// (user sign) maps the same way and becomes that objective's side of the reference point.

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "acquisition/feasibility.h"
#include "experiment/model_step.h"
#include "core/step_control.h"

namespace sebo {

// The training sets of every modelled metric (Outcomes::modelled_metrics(): the objectives in
// order, then the constrained metrics that are not objectives).
struct MetricTraining {
    std::vector<std::string> metrics;
    std::vector<TrainingSet> sets;  // one per metric
};

// Unset, with `why` naming the metric, when a metric has fewer than `minimum` trials with a value
// (a model needs two).
std::optional<MetricTraining> make_metric_training(const Experiment& experiment, WarpMode warp, int minimum, std::string* why);

// One fit per training set, side by side on control.pool (a fit's NUTS chains nest on the same
// pool, so the busy threads never exceed its size). Set j warm-starts from warm[j] when `warm`
// has a non-null entry j, and starts cold otherwise (a fast NUTS fit at the posterior mode). The
// first set is fitted with `seed` and `progress` — with one set, exactly the single fit of a
// one-objective step — the others with seeds derived from `seed`. Deterministic for the seed,
// the warm starts and the pool's size.
std::vector<SurrogateFit> fit_metric_models(const std::vector<TrainingSet>& sets, const SurrogateOptions& options,
                                            std::uint64_t seed, const StepControl& control,
                                            const std::vector<const NutsWarmStart*>& warm = {},
                                            const std::function<void(int, int)>& progress = {});

// The L-BFGS-B tail compression (optimize/multistart.h) of a step with several metrics: one unit of
// the logarithmic acquisition. log(EHVI × PoF) falls as −z²/2 outside a constraint or far below a
// reference point when the metrics' posteriors are sharp, and without it each local optimization's
// first line search spent ~13 evaluations regrowing a step shrunk by that fall (docs/performance.md).
// The one-objective step does not use it: its numbers stay those of the paper's setting.
constexpr double kOutcomeTailCompression = 1.0;

// The experiment's objectives and constraints in the models' units.
struct OutcomeModelUnits {
    int objectives = 1;            // the first `objectives` models are the objectives, in order
    std::vector<int> constrained;  // the model of each constrained metric, in order of first mention
    // metric = a position in `constrained`; sense and bound in model units.
    std::vector<OutcomeBound> bounds;
    std::vector<std::optional<double>> thresholds;  // per objective (unset: the default rule)
};

// Unset, with `error` set, when the mapped bounds of a metric admit no value (validate_outcome_bounds).
std::optional<OutcomeModelUnits> outcome_model_units(const Experiment& experiment, const MetricTraining& training,
                                                     std::string* error);

// A configuration the acquisition measures improvement against: an observation (or a fantasy of
// a pending trial or an earlier member of the batch) with its objectives in model units.
struct OutcomePoint {
    Eigen::VectorXd x;                // unit cube
    std::vector<double> objectives;   // model units, maximized
    bool feasible = true;
};

// Every trial that counts in the analysis, its objectives as the training sets hold them (winsorized
// values included), feasible as recorded (Experiment::feasible: a missing constrained metric is
// not feasible).
std::vector<OutcomePoint> observed_outcome_points(const Experiment& experiment, const MetricTraining& training,
                                                  const OutcomeModelUnits& units);

// A fantasy at x: every objective at its posterior mean, feasible when every constrained metric's
// posterior mean satisfies its bounds.
OutcomePoint fantasy_outcome_point(const Eigen::VectorXd& x, const std::vector<std::shared_ptr<const EnsemblePosterior>>& posteriors,
                                   const OutcomeModelUnits& units);

// The step's acquisition over the models' posteriors (data with fantasies) against `points`:
//  - some point feasible — SEBO: log(EHVI(f_1..f_m, −ξ) × PoF) over the feasible points' front;
//    GPEI, SAASBO, BONSAI: log(EI × PoF) over the best feasible point (m = 1) or log(EHVI × PoF)
//    without sparsity (m > 1); EI-ER and EI-IR likewise, with their λξ terms when m = 1;
//  - no point feasible — log PoF, for SEBO times the sparsity's own improvement r_ξ − ξ.
// The reference point: per objective its threshold, otherwise the worst feasible value minus 10 %
// of the feasible range (at least 1: reference_below); the sparsity side as make_acquisition_problem's.
// Raw samples are anchored at the feasible points non-dominated in (f_1..f_m, −ξ) and the five best
// of the first objective, or — while none is feasible — at the five points of highest acquisition.
//
// With the noisy acquisition (uses_noisy_acquisition: On, or Auto and some metric's noise not
// negligible) the same forms are integrated over the posterior at the points' distinct
// configurations (acquisition/noisy_outcome_acquisition.h): every metric drawn there with
// noisy_draws_per_member draws per model sample, each component's feasible points and front or
// incumbent from its draws. "Feasible" above then means some component has a feasible point;
// the reference point and the anchors use the configurations' posterior means (the draws'
// averages), feasible when the means satisfy the bounds — all of them when none does.
// AcquisitionProblem::noisy says whether the noisy acquisition was used. Deterministic for `seed`.
AcquisitionProblem make_outcome_acquisition_problem(const SearchSpace& space, const MethodSettings& method,
                                                    const std::vector<std::shared_ptr<const EnsemblePosterior>>& posteriors,
                                                    const OutcomeModelUnits& units, const std::vector<OutcomePoint>& points,
                                                    const SparsityPenalty& penalty, std::uint64_t seed);

}  // namespace sebo
