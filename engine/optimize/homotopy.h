#pragma once
// Acquisition optimization with homotopy continuation for the L0 penalty (paper §5, appendix E.1).
//
// The L0 count is replaced by the smooth φ_a; a is decreased along a log-spaced schedule (paper:
// 30 values from 10^-0.5 to 10^-3), and at every stage each of the restarts is re-optimized with
// L-BFGS-B starting from its optimum of the previous stage, tracing a path c(a) of local optima
// towards the true L0 acquisition. Near-duplicates are pruned and near-target coordinates
// snapped between stages. Finally every candidate met on the way is snapped and rounded and the
// best under the EXACT penalty is returned. Acquisitions without an L0 surrogate use a single
// stage. A fixed a (no continuation) exists only as the paper's ablation.

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "acquisition/acquisition.h"
#include "core/step_control.h"
#include "optimize/multistart.h"
#include "optimize/polytope_multistart.h"

namespace sebo {

struct HomotopyOptions {
    double a_start = 0.31622776601683794;  // 10^-0.5
    double a_end = 1e-3;
    int steps = 30;
    std::optional<double> fixed_a;  // ablation: optimize at this a only

    std::optional<std::string> validate() const;
    // The a values, log-spaced from a_start to a_end (or just fixed_a).
    std::vector<double> schedule() const;
};

struct AcquisitionOptimizerOptions {
    int raw_samples = 1024;  // screened at the first stage's a; the best `restarts` become starts
    int restarts = 20;
    double duplicate_tolerance = 1e-4;  // max-norm distance under which two optima are one
    HomotopyOptions homotopy;
    LbfgsbOptions lbfgsb;
    SlsqpOptions slsqp;  // instead of lbfgsb when the space has linear constraints

    std::optional<std::string> validate() const;
};

// How candidates are moved onto the space's grid: `snap` sets near-target coordinates exactly
// onto the target; `finalize` also rounds integer parameters (both unit cube → unit cube).
struct CandidateTransforms {
    std::function<Eigen::VectorXd(const Eigen::VectorXd&)> snap;
    std::function<Eigen::VectorXd(const Eigen::VectorXd&)> finalize;
    // Optional: true when a finalized candidate repeats a configuration that was already
    // evaluated (or is pending). Such a candidate is chosen only when no other is left: the
    // models infer some noise, so the acquisition can value a repeat, but a user's budget is
    // better spent on a new configuration.
    std::function<bool(const Eigen::VectorXd&)> is_known;
    // Optional: the polytope of the space's linear parameter constraints. Local optimization then
    // runs SLSQP inside it (optimize/polytope_multistart.h) instead of L-BFGS-B in the box; snap and
    // finalize must keep candidates inside it too (space/feasible_snap.h), raw samples included.
    std::shared_ptr<const Polytope> feasible_set;
    // Optional, per column: K ≥ 2 for a choice parameter of K values (space/search_space.h), 0
    // otherwise. The continuous optimizers leave a choice's coordinate where it is (the model's
    // derivative there is 0, model/input_encoding.h); after the last stage an exact local search
    // over the values changes it (optimize_acquisition).
    std::vector<int> choice_levels;
};

// How the local optimizations of a candidate search ended (issue 34): a convergence test met
// (L-BFGS-B: projected gradient or relative improvement; SLSQP: NLopt's tolerances), the limit
// reached (L-BFGS-B: max_iterations; SLSQP: max_evaluations), or a failure (L-BFGS-B: the line
// search could not make progress; SLSQP: roundoff-limited, failed or stopped). Every failed run
// still returns the best point it evaluated.
struct LocalEndings {
    int converged = 0;
    int limit = 0;
    int failed = 0;
    int restarted = 0;  // L-BFGS-B runs, of any ending, continued after a direction that did not descend
};

struct OptimizedCandidate {
    enum class Status { Ok, Cancelled };
    Status status = Status::Ok;
    Eigen::VectorXd x;          // finalized (snapped, rounded) unit-cube point
    double value = 0.0;         // exact acquisition value at x
    int stages = 0;             // stages run
    int local_optimizations = 0;
    // Acquisition evaluations (value and gradient) by the local optimizations: the stages' and,
    // with choice parameters, the choice search's (which stage_evaluations does not list).
    int evaluations = 0;
    std::vector<int> stage_paths;        // per stage: the paths (distinct starts) optimized
    std::vector<int> stage_evaluations;  // per stage: the acquisition evaluations they took
    LocalEndings endings;                // of the local optimizations counted above
    int best_stage = -1;        // the stage whose optimum won (−1: a raw sample)
    bool repeats_known = false; // every candidate, and every raw sample, repeated a known configuration
};

// `raw` are the screening points (unit cube): Sobol points and perturbations of good
// configurations, made by the caller.
//
// With choice parameters (transforms.choice_levels) the optimization is mixed: the stages above
// optimize the continuous parameters with every start's choices held, and then, from each of the
// best kChoiceSearchStarts finalized candidates, a local search tries every other value of each
// choice parameter in turn — each trial point re-optimized over the continuous parameters at the
// last stage's a, then finalized and judged by the exact acquisition — and moves to the best
// improvement, until no single change of a choice improves (at most kChoiceSearchRounds rounds).
inline constexpr int kChoiceSearchStarts = 3;
inline constexpr int kChoiceSearchRounds = 8;

OptimizedCandidate optimize_acquisition(const AcquisitionFunction& acquisition, const std::vector<Eigen::VectorXd>& raw,
                                        const CandidateTransforms& transforms, const AcquisitionOptimizerOptions& options,
                                        const StepControl& control);

}  // namespace sebo
