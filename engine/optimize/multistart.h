#pragma once
// Multi-start L-BFGS-B maximization in the unit box [0,1]^D with analytic gradients
// (LBFGSpp's LBFGSBSolver). Each start is optimized independently; a line-search failure ends that
// start at the best point it evaluated rather than discarding it. Two defects of LBFGSpp 0.1.0
// (Debian 12's) are worked around as its later versions fixed them: a direction that does not
// descend makes the run continue with a fresh solver, and a line search out of trials takes its
// best trial when that decreased the value enough (multistart.cpp).

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sebo {

// f(x, grad) returns the value to MAXIMIZE at x; fills grad (same size) when it is non-null.
using SmoothObjective = std::function<double(const Eigen::VectorXd& x, Eigen::VectorXd* grad)>;

struct LbfgsbOptions {
    int max_iterations = 100;
    double gradient_tolerance = 1e-6;  // projected-gradient norm, relative to max(1, |x|)
    double relative_improvement = 1e-9;  // stop when the value improves less than this over 1 iteration
    int memory = 10;
    // 0: off. Otherwise, within each start, values more than this far below the start's value
    // reach the solver compressed: v ↦ k − c·log(1 + (k − v)/c) with k = v_start − c, c this
    // value (the gradient scaled alike), which is strictly increasing and continuously
    // differentiable and leaves every value above k untouched — so the local maxima, the optimum
    // returned and its value do not change. What changes is the line search: a trial step that
    // falls thousands of units below (a logarithmic acquisition far outside a constraint: log PoF ≈
    // −z²/2) no longer makes the cubic interpolation of Moré–Thuente return a step ~10⁻⁶ of the
    // useful one, which it then regrows ×2.1 per evaluation (docs/performance.md).
    double tail_compression = 0.0;

    std::optional<std::string> validate() const;
};

struct LocalOptimum {
    Eigen::VectorXd x;
    double value = 0.0;
    int iterations = 0;
    int evaluations = 0;  // of f, value and gradient
    // How the run ended: a line-search failure (LBFGSpp's exception), the iteration limit (a run
    // whose last allowed iteration also met a convergence test counts here too: LBFGSpp returns
    // the same count), or else a convergence test (projected gradient or relative improvement).
    bool line_search_failed = false;
    bool iteration_limit = false;
    // Times the run was continued by a fresh solver because a direction did not descend.
    int restarts = 0;
};

class ThreadPool;

// Maximizes f from each start (clamped into the box). Checks `stop` before each start; the
// result holds the optima of the starts completed, in the order of the starts. With a pool the
// starts run side by side (f must then be safe to call from several threads at once); each start
// is optimized exactly as it would be alone, so the result does not depend on the threads.
std::vector<LocalOptimum> maximize_in_unit_box(const SmoothObjective& f, const std::vector<Eigen::VectorXd>& starts,
                                               const LbfgsbOptions& options, std::stop_token stop = {},
                                               ThreadPool* pool = nullptr);

}  // namespace sebo
