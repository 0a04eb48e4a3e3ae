#pragma once
// The parts of one model-based step (paper §6; DESIGN.md "Data flow of one step") as
// ModelStrategy assembles them from an experiment and its method settings: the training data,
// the surrogate options, and — given a fitted posterior — the acquisition, its screening points
// and the optimizer settings. They are public so that other clients build exactly what a
// strategy step builds: `sebo fit` fits the step's model to a file's trials, and the benchmark
// times the fit and the acquisition optimization separately.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "acquisition/acquisition.h"
#include "acquisition/sparsity_penalty.h"
#include "experiment/experiment.h"
#include "model/ensemble_posterior.h"
#include "model/power_transform.h"
#include "model/nuts_warm_start.h"
#include "model/standardizer.h"
#include "model/surrogate.h"
#include "model/training_data.h"
#include "optimize/homotopy.h"

namespace sebo {

// The trials that count in the analysis (completed, not excluded) as a GP sees them (SPEC §2
// "Models"): configurations mapped into the unit cube; utilities (the objective in maximization
// form) with extreme values winsorized — a value more than 1e3 robust scales from the median
// (core/robust_spread.h) is moved onto the far-out fence on its side (or onto the most distant
// ordinary value beyond it), so it stays the best or the worst observation without flattening
// every other difference to nothing; then warped by a
// fitted Yeo–Johnson transform when the method asks for it (model/power_transform.h), then
// standardized; and the known noise variances — the standard errors carried through the warp
// (delta method) into standardized units, squared, floored at 1e-8 — only when every such trial
// reported one (otherwise the noise is inferred).
struct TrainingSet {
    std::shared_ptr<const TrainingData> data;
    PowerTransform warp;        // of the utilities (the identity when not warped)
    Standardizer standardizer;  // of the warped utilities
    std::vector<int> trials;    // trial index of each row of data->inputs
    // The utilities as the warp sees them, one per row: winsorized, then × utility_scale.
    Eigen::VectorXd utility;
    // Trials whose utilities were winsorized (extreme values), in row order.
    std::vector<int> winsorized;
    // A power of two the utilities were multiplied by: 1 unless they are beyond ±1e100 or all
    // within ±1e-100, where it brings them to order 1 (squares in a variance would overflow or
    // underflow). utility = utility_scale × the winsorized utilities.
    double utility_scale = 1.0;

    // A value in the set's sign (the utility of an objective, any other metric as recorded) in
    // the model's units: × utility_scale, warped, standardized. Strictly increasing, so a bound
    // keeps its direction (outcome constraints, objective thresholds).
    double model_value(double value) const;
};

// How a metric's values are warped before standardization (model/power_transform.h):
//  - Off: never (MethodSettings::warp_objective false);
//  - Always: the Yeo–Johnson warp (warp_objective without warp_check: format version 9 and
//    older; and every strategy outside the SEBO family, whose candidates stay away from the status
//    quo and for which the warp kept its worth under noise: SAASBO's model-based trials on Branin
//    at sd 9.2 were worth 15.4 warped and 23.1 checked, docs/method.md §13);
//  - Checked (a SEBO strategy): the warp only while a standard GP (MAP, seed kWarpCheckSeed)
//    fitted to the plain values infers negligible noise (model/noise_level.h). The warp exists
//    to keep the differences near the optimum above the inferred noise where a few values are
//    catastrophic (Branin's 308); under measurement noise those differences are below the noise
//    anyway, and compressing the catastrophic values — often the status quo's — lets the model
//    believe that a few changes undo them, so SEBO's sparse steps measure the status quo's value
//    again and again (docs/method.md §13, "The warp checked"). Not checked: fewer than
//    kWarpCheckMinimum values, a warp that is the identity, and values with a winsorized extreme
//    one (an error sentinel, where the warp is what keeps the bulk of the values apart:
//    docs/method.md §1).
enum class WarpMode { Off, Always, Checked };
WarpMode warp_mode(const MethodSettings& method);
inline constexpr int kWarpCheckMinimum = 5;
inline constexpr std::uint64_t kWarpCheckSeed = 0;

// Empty when no trial counts in the analysis. The training set of the first objective:
// make_metric_training_set of its metric.
std::optional<TrainingSet> make_training_set(const Experiment& experiment, WarpMode warp);

// The same for any metric (issue 13 item 3: one model per modelled metric): the trials that count
// in the analysis and recorded `metric` (a trial may lack a constrained or tracked metric), the
// values of an objective in maximization form, any other metric's as recorded, with the same
// winsorizing, warp and standardization of its own. Empty when no such trial exists.
std::optional<TrainingSet> make_metric_training_set(const Experiment& experiment, const std::string& metric, WarpMode warp);

// How the models see the space's points: null without choice parameters, otherwise their one-hot
// or ordinal features (model/input_encoding.h). make_metric_training_set sets it on the data.
std::shared_ptr<const InputEncoding> input_encoding(const SearchSpace& space);
// The name of the model's input `feature`: the parameter's, or "compression=lz4" for a one-hot
// feature of a choice (encoding null: the parameter of that index).
std::string feature_name(const SearchSpace& space, const InputEncoding* encoding, int feature);

// The surrogate the method asks for, with its NUTS settings for a step run with `threads`
// threads (the number of chains of the fast mode follows it unless set).
SurrogateOptions surrogate_options(const MethodSettings& method, int threads = 1);

// Whether a SAAS-NUTS fit of `training`, the training set of `metric`, may start from that
// metric's state in the experiment's sampler state (issue 15): only in the fast mode, with a
// state whose objective warp is the method's, whose trials are all still completed with the same
// parameters and values of the metric (data_fingerprint), and when at most max_added_trials()
// trials were added since. A metric without a state starts cold. The state's fit to the model
// (dimension, metric) is checked by the fit itself (model/saas_nuts_fit.h).
struct WarmStartChoice {
    std::optional<NutsWarmStart> state;  // unset: full warm-up
    std::string cold_reason;             // why not, when the fast mode would have warm-started
};
WarmStartChoice choose_warm_start(const Experiment& experiment, const std::string& metric, const TrainingSet& training,
                                  const MethodSettings& method);
// A state fitted to n trials still applies after this many more (a fifth of n, at least 5).
int max_added_trials(int fitted_trials);

// The state a fast SAAS-NUTS fit of `metric`'s model leaves for the next step, and what it
// records on its trials (the names of the `top` most relevant inputs with their R-hat and
// bulk-ESS).
MetricSamplerState make_sampler_state(const SurrogateFit& fit, const std::string& metric, const TrainingSet& training,
                                      const Experiment& experiment, const MethodSettings& method);
FitRecord make_fit_record(const SurrogateFit& fit, const MethodSettings& method, const SearchSpace& space, int top = 3);
// Raw samples, restarts and the homotopy schedule of the method (paper appendix E.1).
AcquisitionOptimizerOptions acquisition_optimizer_options(const MethodSettings& method);

// The penalty of the space (its targets and groups) of the given kind.
SparsityPenalty make_sparsity_penalty(const SearchSpace& space, PenaltyKind kind, int floor = 0);
// Snapping to targets and rounding integers, unit cube to unit cube. Keeps a reference to
// `space`, which must outlive the transforms. With linear parameter constraints: their polytope
// as the feasible set (SLSQP), and snapping and rounding that stay inside it (space/feasible_snap.h).
CandidateTransforms make_candidate_transforms(const SearchSpace& space);

// Screening points (paper appendix E; SPEC §9): Sobol points; Sobol points with a random share
// of coordinates set to the target; and around good configurations (`anchors`: the frontier and
// the best few), Gaussian perturbations of their active coordinates and copies with a few active
// coordinates switched off — the moves that discover sparser configurations. Without
// `sparse_moves`, the Sobol points and the perturbations only. Deterministic for `seed`.
std::vector<Eigen::VectorXd> raw_samples(const SearchSpace& space, const std::vector<Eigen::VectorXd>& anchors, int count,
                                         std::uint64_t seed, bool sparse_moves = true);

// What optimize_acquisition needs for one candidate besides the transforms and options.
struct AcquisitionProblem {
    std::unique_ptr<AcquisitionFunction> acquisition;
    std::vector<Eigen::VectorXd> raw_samples;  // screening points in the unit cube
    // The acquisition integrates over the posterior at the measured configurations (issue 30).
    bool noisy = false;
    // A step of the dense start under noise: SEBO's acquisition replaced by the noisy EI.
    bool dense = false;
    // A dense step by Thompson sampling (DenseStart::Thompson): the candidate is the first of the
    // raw samples — here Sobol points and perturbations of the best configurations, without
    // sparse moves — in the order of one Thompson draw (acquisition/thompson_sampling.h) that is
    // not known; `acquisition`, the noisy EI, only values it.
    bool thompson = false;
};

// Whether a step of `experiment` is in the dense start under noise (MethodSettings::dense_steps):
// a SEBO strategy without a sparsity range's upper end (max_active: more changes are worth
// nothing to the user), and fewer than initial_trials + dense_steps trials — or fewer than
// initial_trials + dense_steps_max while `posterior` (the step's model of the objective; none:
// not known) knows no parameter to matter. The step is dense only when it also uses the noisy
// acquisition (make_acquisition_problem decides that).
bool in_dense_start(const Experiment& experiment, const MethodSettings& method, const EnsemblePosterior* posterior = nullptr);

// Whether the model knows some parameter to matter (docs/method.md §13, "The dense start lasts
// until the model knows"): in at least 90 % of its members some input's inverse squared
// lengthscale ρ_d (inputs in the unit cube, the objective standardized) is kCredibleRelevance or
// more — a lengthscale of at most √10 ≈ 3.2 times the parameter's range, over which its effect
// is a visible share of the objective's spread — i.e. the 10th percentile of ρ_d over the
// members (model/parameter_relevance.h). A posterior of fewer than kCredibleRelevanceMembers
// members (a MAP fit: one set of hyperparameters, no spread to be credible about) always knows.
inline constexpr double kCredibleRelevance = 0.1;
inline constexpr int kCredibleRelevanceMembers = 4;
bool knows_a_relevant_parameter(const EnsemblePosterior& posterior);

// How a step of the dense start chooses (docs/method.md §13). The noisy EI exploits what the model
// has learned; where ten noisy measurements in many dimensions taught it nothing, its optimum runs
// to the box's corners and back to lucky draws, and its trials are worth less than the
// quasi-random design's. So the dense start judges its own trials by their measurements: the
// noisy EI while fewer than kDenseJudgeAfter of its trials are measured or their median is better
// than the median of the initial design's Sobol trials (the median: one disastrous trial of a
// working EI, or one extreme design point, does not decide), and Thompson sampling for the rest of
// the dense start once it is not. With fewer than two Sobol trials (an experiment of imported
// measurements, say), or MethodSettings::dense_thompson false, the noisy EI throughout. Off
// outside the dense start.
enum class DenseStart { Off, ExpectedImprovement, Thompson };
inline constexpr int kDenseJudgeAfter = 5;
DenseStart dense_start(const Experiment& experiment, const MethodSettings& method, const EnsemblePosterior* posterior = nullptr);
// The generator of a dense-start trial: "<strategy> (dense start)" for the noisy EI's,
// "<strategy> (dense start, Thompson)" for Thompson sampling's.
std::string dense_start_generator(StrategyKind strategy, DenseStart kind);

// Whether a step uses the noisy acquisitions with these posteriors (one per modelled metric; one for
// a step with one objective and no constraint): MethodSettings::noisy_acquisition On, or Auto and
// some metric's noise is not negligible (model/noise_level.h) — a noisy constraint makes the
// measured feasibility as unreliable as a noisy objective makes the front.
bool uses_noisy_acquisition(const MethodSettings& method, std::span<const std::shared_ptr<const EnsemblePosterior>> posteriors);
// The objective side of an acquisition's reference point in model units (standardized, so the
// training values have standard deviation 1): 10 % of the range below the worst value, the range
// at least 1. With one value, or values that all but agree (a lone feasible trial; a flat
// posterior), a range floor of a rounding error put the reference just below them, and an
// improvement of the sparsity axis alone earned nothing until a second value appeared (issue 30
// item 6); one standard deviation of the data is the scale the models are written in.
double reference_below(double worst, double best);

// Baseline draws per model sample: ⌈noisy_draws / members⌉.
int noisy_draws_per_member(const MethodSettings& method, int members);

// The method's acquisition over `posterior`, whose data (observations, then fantasies,
// standardized) define the incumbent and the current front — as measured, or with the noisy
// acquisition (uses_noisy_acquisition) through draws of the posterior at the distinct
// configurations; and the raw samples anchored at the good and non-dominated points of that data
// (by posterior mean with the noisy acquisition; inside the space's linear parameter constraints,
// when it has any). With a dense start (`dense`, from dense_start()) and the noisy acquisition, a
// SEBO strategy's acquisition is the noisy EI (problem.dense), and with DenseStart::Thompson the
// raw samples are Thompson sampling's candidates (problem.thompson). Deterministic for `seed`.
AcquisitionProblem make_acquisition_problem(const SearchSpace& space, const MethodSettings& method,
                                            std::shared_ptr<const EnsemblePosterior> posterior,
                                            const SparsityPenalty& penalty, std::uint64_t seed,
                                            DenseStart dense = DenseStart::Off);

}  // namespace sebo
