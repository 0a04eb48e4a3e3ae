#pragma once
// Multi-start L-BFGS-B for MAP estimates of hyperparameters (SPEC §2: "hyperparameters by MAP
// with multi-start L-BFGS-B and analytic gradients"). Maximizes a log density over a box in
// its unconstrained parameterization with LBFGSpp's LBFGSBSolver, from each start in turn,
// and says how every run ended. Shared by the standard GP fit (model/gp_map_fit.h) and the
// SAAS-MAP fit (model/saas_map.h).

#include <Eigen/Core>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace sebo {

// How a fit ended.
enum class FitStatus {
    Converged,      // the projected gradient or the relative decrease fell below tolerance
    MaxIterations,  // stopped at max_iterations; the best point so far is kept
    Stalled,        // the line search could not make progress (or met a non-finite value);
                    // the best point evaluated is kept — usually at or near an optimum
    Failed,         // no finite value at any start
    Cancelled       // the stop token fired before every start had run (results, if any, are
                    // the best of the runs that finished)
};
const char* to_string(FitStatus status);

// f(θ, gradient) → log density, writing ∇ into `gradient` (already sized like θ). A value
// that is −∞ or NaN (e.g. a covariance that does not factor) ends the run at the best point
// so far.
using ObjectiveWithGradient = std::function<double(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient)>;

struct MapOptimizerOptions {
    int max_iterations = 200;           // per start
    double gradient_tolerance = 1e-5;   // on the projected gradient's ∞-norm (LBFGSpp epsilon)
    double relative_tolerance = 1e-10;  // on the decrease over one iteration (LBFGSpp delta, past = 1)
    int memory = 10;                    // L-BFGS correction pairs

    // Empty when valid; otherwise a message naming the field.
    std::optional<std::string> validate() const;
};

struct MapOptimizerRun {
    Eigen::VectorXd theta;  // best point of the run (the start when the run failed)
    double value = 0.0;     // f at theta (−∞ when the run failed)
    FitStatus status = FitStatus::Failed;
    int iterations = 0;   // L-BFGS-B iterations (0 when the line search ended the run)
    int evaluations = 0;  // calls of f
    std::string message;
};

struct MultiStartResult {
    std::vector<MapOptimizerRun> runs;  // one per start that was run, in order
    int best = -1;                      // index into runs of the highest finite value; −1 if none
    bool cancelled = false;             // the stop token fired (checked before each start)
};

// Maximizes f over lower ≤ θ ≤ upper from each start (projected into the box). Deterministic.
MultiStartResult maximize_multistart(const ObjectiveWithGradient& f, const std::vector<Eigen::VectorXd>& starts,
                                     const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                                     const MapOptimizerOptions& options, std::stop_token stop = {});

}  // namespace sebo
