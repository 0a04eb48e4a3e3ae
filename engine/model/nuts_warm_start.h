#pragma once
// What one NUTS fit hands to the next so that the next can skip most of its warm-up (issue 15):
// where each chain ended, the adapted step size, and the inverse metric. Between two steps of an
// optimization the data gain one point, the posterior barely moves, and a chain started from the
// previous draws with the previous adaptation is already in the typical set with a good metric;
// only the step size is re-tuned (model/saas_nuts_fit.h says how, and when it falls back to a
// full warm-up).
//
// The metric handed on is estimated from the draws of all chains after the first half of their
// warm-up — the windowed adaptation of each chain (model/nuts_warmup_windows.h) sees only its own
// draws, while here the chains pool theirs — and regularized as Stan does (model/nuts_metric.h).

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "model/nuts.h"
#include "model/nuts_metric.h"

namespace sebo {

struct NutsWarmStart {
    Eigen::MatrixXd positions;  // one row per chain of the earlier fit: its last position
    double step_size = 0.0;
    NutsMetric metric = NutsMetric::Diagonal;
    // The inverse metric M⁻¹: d × d for the dense kind, d × 1 (its diagonal) for the diagonal kind.
    Eigen::MatrixXd inverse_metric;

    bool empty() const { return positions.size() == 0; }
    int dimension() const { return static_cast<int>(positions.cols()); }

    // Empty when the state can start chains on a density of `dimension` coordinates whose metric
    // is of kind `kind`; otherwise why not ("the stored state has 53 coordinates, the model 54").
    // Checks sizes, finiteness, a step size in (0, 1e7], positive variances and, for the dense
    // kind, symmetry and a Cholesky factorization.
    std::optional<std::string> check(int dimension, NutsMetric kind) const;
};

// The warm start after a fit whose chains are `chains` (each run with keep_trace, all with the
// same dimension and at least one iteration): their last positions, the geometric mean of their
// final step sizes, and the inverse metric of kind `kind` estimated from every chain's positions
// from iteration `first_iteration` on. A dense estimate from fewer than
// `dense_min_draws_per_dimension` · d draws, or one that does not factor, is replaced by its
// diagonal (still of the dense kind).
NutsWarmStart warm_start_from_chains(const std::vector<NutsResult>& chains, NutsMetric kind, int first_iteration,
                                     double dense_min_draws_per_dimension);

}  // namespace sebo
