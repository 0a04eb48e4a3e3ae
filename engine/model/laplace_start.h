#pragma once
// A start for NUTS from the mode of the log density (issue 15): the maximum a posteriori point θ*
// (multi-start L-BFGS-B, model/map_optimizer.h) and, as the inverse metric, the covariance of the
// Laplace approximation there, Σ = (−∇²log p(θ*))⁻¹, with the Hessian from central differences
// of the analytic gradient. For the SAAS posterior this is the metric NUTS otherwise spends most
// of a cold warm-up learning: the dense coupling of log τ with every relevant log λ_d (Betancourt
// 2017, §4.2: the metric should approximate the posterior covariance). The fast fit starts its
// chains from independent draws θ* + L z of this approximation (overdispersed enough for R̂ to
// see chains that have not mixed) and only tunes the step size (model/saas_nuts_fit.h); the
// approximation is never used as the posterior itself.
//
// Eigenvalues of −∇²log p below `curvature_floor` (flat or wrong-way directions, far from a
// Gaussian) are raised to it, so no direction gets a variance above 1/curvature_floor and the
// metric is positive definite whatever the Hessian.

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>

#include "model/map_optimizer.h"
#include "model/nuts.h"
#include "model/nuts_warm_start.h"

namespace sebo {

class ThreadPool;

struct LaplaceStartOptions {
    MapOptimizerOptions optimizer;
    double bound = 25.0;              // the mode is searched in the box [−bound, bound]^d
    int restarts = 2;                 // further L-BFGS-B runs from the best point when a run stalls
    double step = 1e-4;               // central-difference step of the Hessian
    double curvature_floor = 0.25;    // variances at most 4 in every direction

    std::optional<std::string> validate() const;
};

struct LaplaceStart {
    bool ok = false;
    std::string message;  // why there is no start (ok false), or how the mode was found
    NutsWarmStart state;  // positions: one draw per chain; step_size 1 (to be tuned); the metric
    Eigen::VectorXd mode;
    FitStatus status = FitStatus::Failed;  // how the search for the mode ended
    long long evaluations = 0;  // of the log density, the Hessian included
};

// A start for `chains` chains with a metric of kind `kind` (the diagonal kind keeps the
// covariance's diagonal), the draws from seed `seed`. With `pool` and `make_copy` (a log density
// with a workspace of its own, for each task) the Hessian's columns are computed side by side;
// the result is the same.
LaplaceStart laplace_start(const LogDensity& log_density, const Eigen::VectorXd& initial, int chains, NutsMetric kind,
                           std::uint64_t seed, const LaplaceStartOptions& options = {}, std::stop_token stop = {},
                           ThreadPool* pool = nullptr, const std::function<LogDensity()>& make_copy = {});

}  // namespace sebo
