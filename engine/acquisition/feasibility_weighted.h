#pragma once
// The constrained acquisitions of SPEC §10 in log space: log(EHVI × PoF) for SEBO (sparse) and the
// non-sparse EHVI baseline, log(EI × PoF) for the EI-based strategies with one objective, and log
// PoF alone (FeasibilityProbability::log_value), which is what is maximized while no trial is
// feasible.
//
// Why a sum of logarithms is exact: every metric has its own, independently fitted model, so the
// joint predictive distribution of (objectives, constrained metrics) is the product of the metrics'
// mixtures. When the constrained metrics are not objectives, the improvement depends only on the
// objectives and feasibility only on the constrained metrics, so
//     E[HVI(f) · 1{constraints hold}] = E[HVI(f)] · P(constraints hold)
// (Gardner et al. 2014, eq. 4; Gelbart, Snoek & Adams 2014), and the log of the product is the sum
// of the logs, with the gradients side by side. A constraint on an objective metric itself breaks
// that independence (BoTorch's analytic ConstrainedExpectedImprovement refuses it); the caller
// either models the constrained copy as a separate metric or accepts the product as an
// approximation.

#include <span>
#include <vector>

#include "acquisition/feasibility.h"
#include "acquisition/mixture_moments.h"
#include "acquisition/multi_ehvi.h"

namespace sebo {

struct ConstrainedGradient {
    std::vector<MixtureGradient> objectives;   // per objective
    std::vector<MixtureGradient> constrained;  // per constrained metric
    double dxi = 0.0;                          // sparse EHVI only
};

// log(EHVI(f_1..f_m, −ξ) × PoF) at penalty xi; SparseMultiEhvi::kLogZero + log PoF when xi ≥ r_ξ.
double log_sparse_ehvi_times_feasibility(const SparseMultiEhvi& ehvi, std::span<const MixtureMoments> objectives,
                                         double xi, const FeasibilityProbability& feasibility,
                                         std::span<const MixtureMoments> constrained, ConstrainedGradient* gradient);

// log(EHVI(f_1..f_m) × PoF).
double log_ehvi_times_feasibility(const MultiEhvi& ehvi, std::span<const MixtureMoments> objectives,
                                  const FeasibilityProbability& feasibility,
                                  std::span<const MixtureMoments> constrained, ConstrainedGradient* gradient);

// log(EI(f; best) × PoF) with f one objective's mixture (EI as log_mixture_ei in acquisition.h).
double log_ei_times_feasibility(const MixtureMoments& objective, double best, const FeasibilityProbability& feasibility,
                                std::span<const MixtureMoments> constrained, ConstrainedGradient* gradient);

}  // namespace sebo
