#pragma once
// Greedy resetting of a configuration's changed parameters to their targets, one per step: the
// routine behind BONSAI's pruning (Daulton et al. 2026, arXiv 2602.07144, "greedy pruning";
// issue 16) and behind "simplify this configuration" (DESIGN.md: both share one greedy-reset
// routine).
//
// From a start x₀ (unit cube) and a target t, each step tries every coordinate that still differs
// from its target, set alone onto the target (the ones reset earlier stay on target), evaluates
// the caller's value v (larger is better: an acquisition value, a predicted utility) and keeps the
// reset whose value is largest — equivalently, whose relative drop
//
//     drop(x) = (v(x₀) − v(x)) / (v(x₀) − reference)
//
// is smallest. `reference` is what the value is measured above: for BONSAI the acquisition value
// of the best configuration already observed or pending, so that the drop is relative to the
// dense candidate's *incremental* value; for simplify the start's value minus its magnitude. When
// v(x₀) <= reference there is nothing to lose relative to: a drop is 0 when v(x) >= v(x₀) and
// infinite otherwise. Ties go to the lowest column, so the path is deterministic.
//
// Stopping: a step whose smallest drop exceeds the tolerance ends the path (BONSAI) unless
// `continue_past_tolerance` is set (simplify, which walks down to `min_changed`, marking the steps
// within the tolerance); a drop exactly at the tolerance is accepted. The path also ends when
// `min_changed` changed coordinates are left.
//
// Linear parameter constraints (space/polytope.h): a reset point outside the polytope is repaired
// by projecting the other coordinates onto it with every on-target coordinate pinned
// (space/polytope_projection.h); when no feasible point has them pinned, that reset is skipped for
// this step (reported in GreedyResetStep::skipped).

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sebo {

class Polytope;

struct GreedyResetOptions {
    double tolerance = 0.2;  // largest accepted relative drop, in (0, 1]
    int min_changed = 1;     // stop when this many changed coordinates are left (BONSAI: 1)
    bool continue_past_tolerance = false;
    const Polytope* constraints = nullptr;  // unset: the unit cube only

    std::optional<std::string> validate() const;
};

struct GreedyResetStep {
    Eigen::VectorXd x;        // the configuration after this step (unit cube)
    int reset = -1;           // the column set onto its target at this step (−1: the start)
    double value = 0.0;       // v(x)
    double drop = 0.0;        // relative drop of v from the start
    bool within_tolerance = true;
    int changed = 0;          // coordinates of x that differ from the target
    std::vector<int> skipped; // columns whose reset broke a constraint that could not be repaired
};

struct GreedyResetPath {
    enum class Stop { Tolerance, Floor, NoFeasibleReset, Cancelled };
    Stop stop = Stop::Floor;
    // steps[0] is the start; with continue_past_tolerance every step down to min_changed,
    // otherwise the accepted ones only.
    std::vector<GreedyResetStep> steps;
    // The last step within the tolerance: BONSAI's pruned candidate.
    const GreedyResetStep& accepted() const;
};

using GreedyValue = std::function<double(const Eigen::VectorXd&)>;

// `start` and `target` have the same size; `start` must lie in the constraints' polytope when
// they are set. `stop_requested` (optional) is polled between steps.
GreedyResetPath greedy_reset(const Eigen::VectorXd& start, const Eigen::VectorXd& target, const GreedyValue& value,
                             double reference, const GreedyResetOptions& options,
                             const std::function<bool()>& stop_requested = {});

// The relative drop as defined above.
double relative_drop(double start_value, double value, double reference);

}  // namespace sebo
