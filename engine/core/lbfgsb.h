#pragma once
// L-BFGS-B from LBFGSpp, with the two defects of LBFGSpp 0.1.0 (Debian 12's) worked around as its
// later versions fixed them — the one entry point of the engine's box-constrained minimizations
// (the candidate search's local optimizations, optimize/multistart.h, and the MAP fits,
// model/map_optimizer.h; it sits in core/ because both use it):
//  1. Its L-BFGS-B can take a subspace minimization's point as the next direction when that does
//     not descend; its line search then throws "the moving direction does not decrease" (LBFGSpp
//     issue #15; 0.2.0 takes the Cauchy direction instead and clears the memory). Here a run that
//     throws it after making progress is continued from its best point by a fresh solver, whose
//     first direction is the Cauchy point's, at most `max_restarts` times.
//  2. Its Moré–Thuente line search throws when its trials run out before one meets the strong
//     Wolfe conditions, even when one decreased the value enough (0.3.0 takes that step). Here the
//     trial with the lowest value becomes the step when it meets the Armijo condition.
// The other failures — no trial that decreases the value enough — end the minimization.
// docs/performance.md, "The local searches' failures", has the measurements.

#include <Eigen/Core>
#include <functional>
#include <stop_token>
#include <string>

namespace sebo {

// LBFGSpp's parameters, as its LBFGSBParam names them.
struct LbfgsbSettings {
    int m = 10;               // correction pairs
    int max_iterations = 100; // per solver run
    double epsilon = 1e-5;    // projected-gradient ∞-norm tolerance
    double epsilon_rel = 0.0; // the same, relative to |x|
    int past = 1;             // iterations back for the relative-decrease test
    double delta = 1e-10;     // relative decrease tolerance (also "progress" for a restart)
    int max_linesearch = 20;  // trials per line search
    int max_restarts = 5;     // fresh solvers after a direction that did not descend
};

struct LbfgsbOutcome {
    int iterations = 0;            // summed over the solver runs
    int restarts = 0;              // fresh solvers started after a direction that did not descend
    bool iteration_limit = false;  // the last run returned at max_iterations
    bool failed = false;           // the last run ended in a line-search exception
    std::string failure;           // its message
};

// Minimizes f(x, gradient) → value from x within [lower, upper]. x is left at the last run's
// point; callers that want the best point evaluated track it in f. Exceptions that f throws
// (other than through LBFGSpp) propagate. `stop` is checked before every restart.
LbfgsbOutcome minimize_lbfgsb(const std::function<double(const Eigen::VectorXd&, Eigen::VectorXd&)>& f,
                              Eigen::VectorXd& x, const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                              const LbfgsbSettings& settings, std::stop_token stop = {});

}  // namespace sebo
