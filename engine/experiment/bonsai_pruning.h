#pragma once
// BONSAI's pruning of one candidate (Daulton et al. 2026, arXiv 2602.07144; issue 16): the
// candidate maximizing log-EI (found without any sparsity term) is pruned greedily towards the
// target (optimize/greedy_reset.h): each step resets the still-changed parameter whose reset loses
// the least of the candidate's *incremental* expected improvement — EI above the largest EI of the
// configurations already observed or pending (the posterior's data, fantasies included) — and the
// pruning stops before a step would lose more than the tolerance (default 20 %) of the dense
// candidate's incremental value, or when one changed parameter is left.

#include <Eigen/Core>
#include <functional>

#include "acquisition/acquisition.h"
#include "optimize/greedy_reset.h"

namespace sebo {

// BONSAI's defaults: a relative tolerance of 0.2, and never below one changed parameter.
GreedyResetOptions bonsai_options(double tolerance = 0.2);

// The pruning path of `dense` (unit cube). `acquisition` gives log values (LogExpectedImprovement);
// `known` holds the observed and pending configurations, one per row. The values on the path are
// EI relative to the dense candidate's (exp(log α(x) − log α(dense))), so the dense value is 1 and
// the reference is the best known configuration's on that scale.
GreedyResetPath bonsai_prune(const AcquisitionFunction& acquisition, const Eigen::MatrixXd& known,
                             const Eigen::VectorXd& dense, const Eigen::VectorXd& target,
                             const GreedyResetOptions& options, const std::function<bool()>& stop_requested = {});

}  // namespace sebo
