#pragma once
// An experiment: the problem definition, the method settings, and every trial (SPEC §1, §7).
// All state of an optimization run lives here; strategies and analytics are pure functions of it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "acquisition/penalty_kind.h"
#include "experiment/sampler_state.h"
#include "experiment/outcomes.h"
#include "experiment/trial.h"
#include "space/search_space.h"

namespace sebo {

// Settings of a built-in problem (see problems/problem_catalog.h for the names and defaults).
struct ProblemSpec {
    std::string name;              // "branin", "hartmann6", "sourcing", ...
    int dimension = 0;             // 0: the problem's default
    std::vector<int> effective;    // empty: the problem's default
    std::optional<double> target;  // unit-cube target of every parameter; unset: default (0)
    int repetitions = 0;           // stochastic problems: simulations per evaluation (0: default)
    std::uint64_t world_seed = 0;  // stochastic problems: seed of the fixed world (0: default)
    // Gaussian measurement noise added to the problem's metrics (issue 30; problems/noisy_problem.h):
    // metric name → standard deviation in the metric's own units. The name "*" stands for every
    // metric not named otherwise; resolve_problem_spec replaces it by the names.
    std::map<std::string, double> noise;
};

struct EvaluatorSpec {
    enum class Kind { Problem, Command, Manual };
    Kind kind = Kind::Manual;
    ProblemSpec problem;               // Kind::Problem
    std::vector<std::string> command;  // Kind::Command: argv, never a shell string
    double timeout_seconds = 3600.0;   // Kind::Command
    // Kind::Command: where the command runs (empty: the caller's working directory), variables
    // added to (or replacing those of) the caller's environment, and how many evaluations of a
    // batch may run at the same time (see evaluators/command_evaluator.h).
    std::string working_directory;
    std::vector<std::pair<std::string, std::string>> environment;
    int max_concurrency = 1;
    static constexpr int kMaxConcurrency = 256;
};

const char* to_string(EvaluatorSpec::Kind kind);
std::optional<EvaluatorSpec::Kind> evaluator_kind_from_string(const std::string& text);

// The strategies the paper compares (§6): quasi-random search, standard BO (GPEI), SAASBO,
// EI with external (ER, eq. 4) and internal (IR, eq. 6) regularization, and SEBO with the L0
// (homotopy), L1 and group-lasso penalties; sebo-l0-fixed-a is the ablation without homotopy.
// BONSAI (Daulton et al. 2026; issue 16) is log-EI followed by greedy pruning of the candidate
// towards the target (experiment/bonsai_pruning.h).
enum class StrategyKind { Sobol, Gpei, Saasbo, EiEr, EiIr, SeboL0, SeboL1, SeboGl, SeboL0FixedA, Bonsai };

const char* to_string(StrategyKind kind);
std::optional<StrategyKind> strategy_kind_from_string(const std::string& text);
std::vector<StrategyKind> all_strategy_kinds();
// A one-line description for menus and help.
const char* describe(StrategyKind kind);
bool uses_model(StrategyKind kind);
// SEBO's EHVI over the objectives and the sparsity penalty: sebo-l0, sebo-l1, sebo-gl, sebo-l0-fixed-a.
bool is_sebo(StrategyKind kind);

// The surrogate model: the standard GP with MAP hyperparameters, the SAAS GP sampled with NUTS
// (the paper's default), or SAAS with MAP hyperparameters (fast, approximate).
enum class ModelKind { Gp, SaasNuts, SaasMap };

const char* to_string(ModelKind kind);
std::optional<ModelKind> model_kind_from_string(const std::string& text);
std::vector<ModelKind> all_model_kinds();

// How the SAAS model is sampled (issue 15; docs/method.md, "Sampling the SAAS model").
//  - Fast (the default): several chains side by side, warm-started from the previous step's
//    sampler state with a short warm-up; the full warm-up only when there is no usable state.
//  - Paper: the paper's single chain — 512 warm-up, 256 samples, every 16th kept — from scratch
//    at every step, for reproducing the paper.
enum class NutsMode { Fast, Paper };

const char* to_string(NutsMode mode);
std::optional<NutsMode> nuts_mode_from_string(const std::string& text);
std::vector<NutsMode> all_nuts_modes();

// The NUTS settings of one step, resolved from the mode, its overrides and the threads.
struct NutsSchedule {
    int chains = 1;          // run side by side; each keeps its share of samples / thinning draws
    int warmup = 512;        // the full warm-up of each chain
    bool warm_start = false;  // start from the previous step's state when it applies
    bool mode_start = false;  // otherwise from the posterior mode (model/laplace_start.h)
    int warm_warmup = 0;     // warm-up of each chain of those starts (step size only)
    int samples = 256;       // sampling iterations of all chains together
    int thinning = 16;       // keep every thinning-th: samples / thinning draws in all
    int max_tree_depth = 6;
};

// Whether the acquisition integrates over the posterior at the measured configurations instead of
// trusting their measured values (issue 30; docs/method.md, "Noisy measurements"):
//  - Auto (the default for new experiments): when the noise is not negligible — the models'
//    noise standard deviation is at least kNegligibleNoise of the objective's (model/noise_level.h);
//  - On: always; Off: never (today's acquisition over the measurements; files of format version 6
//    and older, which were run that way).
enum class NoisyAcquisition { Auto, On, Off };

const char* to_string(NoisyAcquisition mode);
std::optional<NoisyAcquisition> noisy_acquisition_from_string(const std::string& text);
std::vector<NoisyAcquisition> all_noisy_acquisitions();

struct MethodSettings {
    StrategyKind strategy = StrategyKind::Sobol;
    int initial_trials = 8;  // quasi-random (Sobol) trials before any model is used
    int budget = 50;         // total number of trials to run to

    // Unset: the strategy's default (GP for gpei, SAAS-NUTS for every other model-based one).
    std::optional<ModelKind> model;
    // EI-ER / EI-IR: regularization weight λ (standardized objective units per unit of penalty)
    // and penalty (L0 unless set).
    double lambda = 0.01;
    std::optional<PenaltyKind> penalty;
    // BONSAI: the pruning stops before a reset would lose more than this share of the dense
    // candidate's incremental EI (experiment/bonsai_pruning.h), in (0, 1]; the paper's 0.2.
    double bonsai_tolerance = 0.2;

    // The sparsity range of interest (issue 14; docs/method.md, "Sparsity range of interest"), in
    // active parameters (active groups when the space has groups); unset: 0..D, the paper's.
    //  - max_active M: configurations with more than M changes add no hypervolume — the sparsity
    //    side of the reference point moves from D to M + 1, in the analytics and the SEBO EHVI.
    //  - min_active N: fewer than N changes are no better than N — the L0 penalty becomes
    //    max(ξ, N) (a smooth maximum of φ_a and N during the homotopy), and the analytics count a
    //    trial with fewer than N changes as N.
    // Both need the L0 penalty (their units are counts).
    std::optional<int> max_active;
    std::optional<int> min_active;

    // A new experiment's first trial is the target configuration (generator "status-quo") before
    // any Sobol or model trial (issue 14). False for older files and the paper's bench presets.
    bool status_quo_first = false;

    // Yeo–Johnson power transform of the objective before standardization (model/power_transform.h).
    bool warp_objective = true;
    // SEBO strategies check the warp at every fit (experiment/model_step.h, WarpMode::Checked):
    // used only while a standard GP fitted to the plain values infers negligible noise, since
    // under noise it compresses the catastrophic values — often the status quo's — that SEBO's
    // sparse steps must know. false: the warp whenever warp_objective (files of format version 9
    // and older).
    bool warp_check = true;

    // Noisy measurements (issue 30): the noisy acquisitions (acquisition/noisy_acquisition.h)
    // with `noisy_draws` baseline draws in all (a model of S samples draws ⌈noisy_draws / S⌉
    // per sample).
    NoisyAcquisition noisy_acquisition = NoisyAcquisition::Auto;
    int noisy_draws = 128;
    // A dense start under noise (docs/method.md §13): while a step uses the noisy acquisition, the
    // steps of a SEBO strategy (sebo-l0, sebo-l1, sebo-gl, sebo-l0-fixed-a) with one objective and
    // no outcome constraint that begin with fewer than initial_trials + dense_steps trials — so
    // one at a time, the trials numbered initial_trials … initial_trials + dense_steps − 1; a
    // batch's members together — are proposed by the noisy EI without the sparsity objective (SAASBO's acquisition) — dense
    // configurations, whose effects rise above the noise, from which the model learns which
    // parameters matter before the sparse steps. Not with max_active (more changes than that are
    // worth nothing to the user). 0: never (files of format version 7 and older).
    int dense_steps = 15;
    // The dense start goes on past dense_steps, up to dense_steps_max steps in all, while the
    // model knows no parameter to matter (experiment/model_step.h, knows_a_relevant_parameter):
    // a sparse step then chooses which parameters to change blindly. At most dense_steps:
    // never (files of format version 10 and older).
    int dense_steps_max = 30;
    // Within the dense start, Thompson sampling once the noisy EI's trials measure no better than
    // the initial design's quasi-random ones (experiment/model_step.h, dense_start). false: the
    // noisy EI throughout (files of format version 8 and older).
    bool dense_thompson = true;

    // Acquisition optimization (paper appendix E.1).
    int raw_samples = 1024;
    int restarts = 20;
    double homotopy_a_start = 0.31622776601683794;  // 10^-0.5
    double homotopy_a_end = 1e-3;
    int homotopy_steps = 30;
    double fixed_a = 0.1;  // sebo-l0-fixed-a only

    // NUTS for the SAAS model: the mode, and overrides of its defaults (unset: the mode's value,
    // nuts_defaults()). nuts_samples counts the sampling iterations of all chains together;
    // nuts_chains (unset: the step's threads, at most 4) and nuts_warm_warmup apply to the fast
    // mode only — the paper mode is one chain, never warm-started.
    NutsMode nuts = NutsMode::Fast;
    std::optional<int> nuts_warmup;
    std::optional<int> nuts_samples;
    std::optional<int> nuts_thinning;
    std::optional<int> nuts_max_tree_depth;
    std::optional<int> nuts_chains;
    std::optional<int> nuts_warm_warmup;

    static constexpr int kMaxAutomaticChains = 4;
    static constexpr int kMaxChains = 64;

    // The defaults of a mode (chains: 1 for the paper mode, 0 = automatic for the fast one).
    static NutsSchedule nuts_defaults(NutsMode mode);
    // The settings of a step run with `threads` threads (≥ 1).
    NutsSchedule nuts_schedule(int threads) const;

    ModelKind resolved_model() const;
    PenaltyKind resolved_penalty() const;
    std::optional<std::string> validate() const;
};

struct ChosenConfiguration {
    int trial = 0;
    std::string note;
    bool operator==(const ChosenConfiguration&) const = default;
};

// Whether a trial's recorded values satisfy every outcome constraint. Unknown: a constrained
// metric was not recorded (or the trial has no result); such a trial is treated as infeasible —
// it is kept and shown, but it is on no frontier and adds no hypervolume, because nothing says it
// would be acceptable.
enum class Feasibility { Feasible, Infeasible, Unknown };

const char* to_string(Feasibility feasibility);  // "feasible", "infeasible", "unknown"

struct Experiment {
    std::string name;
    std::string description;
    SearchSpace space;
    // The metrics, objectives (with their thresholds, the hypervolume reference) and outcome
    // constraints.
    Outcomes outcomes = Outcomes::single("objective", false);
    EvaluatorSpec evaluator;
    MethodSettings method;
    std::uint64_t seed = 0;
    std::vector<Trial> trials;
    std::vector<ChosenConfiguration> chosen;
    // Left by the last fast SAAS-NUTS step for the next one's warm start (unset: none).
    std::optional<SamplerState> sampler_state;

    // The first objective: the one objective of a single-objective experiment, and the one that
    // single-objective views (and the strategies before several objectives are modelled) use.
    const Objective& primary_objective() const { return outcomes.objectives.front(); }

    // Whether a trial counts in the analysis (the model, the frontier, the hypervolume, the
    // activation frequencies): completed (so with a value of every objective) and not excluded
    // (Trial::exclusion). Excluding a trial excludes all of its metrics.
    bool analyzed(const Trial& trial) const;
    // Objective `objective` (an index into outcomes.objectives) in maximization form (negated
    // when minimized) of a trial that counts in the analysis; unset for every other trial
    // (excluded ones included). Without an index: the first objective.
    std::optional<double> utility(const Trial& trial, std::size_t objective = 0) const;
    // The recorded value (user sign) of an objective on any trial that has one, analysed or not.
    std::optional<double> objective_value(const Trial& trial, std::size_t objective = 0) const;
    const Measurement* objective_measurement(const Trial& trial, std::size_t objective = 0) const;
    // The first objective's direction.
    double to_utility(double objective_value) const { return primary_objective().to_utility(objective_value); }
    double from_utility(double utility_value) const { return primary_objective().from_utility(utility_value); }
    // Of a completed trial's recorded values (Unknown for trials without a result); every
    // completed trial of an experiment without constraints is feasible.
    Feasibility feasibility(const Trial& trial) const;
    // Counts in the analysis and satisfies every constraint: the trials frontiers are made of.
    bool feasible(const Trial& trial) const;
    int feasible_count() const;
    // The sparsity count used in every analysis: active groups when the space has groups,
    // otherwise active parameters. max_sparsity() is D (or the number of groups).
    int sparsity(const Trial& trial) const;
    int max_sparsity() const;

    int count(TrialStatus status) const;
    // Completed trials that are excluded from analysis.
    int excluded_count() const;
    const Trial* find_trial(int index) const;
    Trial* find_trial(int index);
    int next_trial_index() const;

    // Empty when consistent: a valid space, outcomes and settings, and every trial inside the
    // space with a status-consistent result (a completed trial has a value of every objective;
    // values only of known metrics, finite, with standard errors >= 0). Messages name the field
    // path of the experiment file.
    std::optional<std::string> validate() const;
};

}  // namespace sebo
