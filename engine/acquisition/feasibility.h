#pragma once
// The posterior probability that a point satisfies the outcome constraints (SPEC §10; Gardner et
// al. 2014, "Bayesian optimization with inequality constraints", eq. 4; Gelbart, Snoek & Adams
// 2014), in log space with its gradient.
//
// A constraint bounds one metric: metric ≤ bound or metric ≥ bound, in the units the metric is
// modelled in (the caller maps user bounds through the same standardization and warp as the
// values; both are increasing, so the inequality keeps its direction). The bounds on one metric
// are intersected into an interval [lo, hi], and under one Gaussian N(μ, σ²) the metric lies in it
// with probability Φ((hi − μ)/σ) − Φ((lo − μ)/σ) — one probability, not a product, when a metric
// has two bounds (10 ≤ latency ≤ 50).
//
// Each constrained metric has its own model, an equally weighted mixture of S_j Gaussians, fitted
// independently of the others, so the joint predictive distribution is the product of the
// mixtures and the probability that every constraint holds is exactly
//     PoF = Π_j (1/S_j) Σ_s P(metric_j ∈ [lo_j, hi_j] | sample s),
// a product over metrics of per-metric averages (no pairing of samples across metrics is needed,
// and metrics may have different S; cf. acquisition/box_ehvi.h). log PoF = Σ_j log-sum-exp, with
// log Φ differences from acquisition/gaussian_interval.h, so it stays finite and its gradient
// informative far inside the infeasible region — where it is maximized while no trial is
// feasible yet.

#include <span>
#include <string>
#include <vector>

#include "acquisition/mixture_moments.h"

namespace sebo {

enum class BoundSense { AtMost, AtLeast };

struct OutcomeBound {
    int metric = 0;  // index into the constrained metrics' moments
    BoundSense sense = BoundSense::AtMost;
    double bound = 0.0;
};

// Empty when the bounds can be used with metric_count metrics; otherwise a message naming the
// first bad bound (an index out of range, a non-finite bound, or bounds on one metric that no
// value satisfies).
std::string validate_outcome_bounds(const std::vector<OutcomeBound>& bounds, int metric_count);

class FeasibilityProbability {
public:
    // bounds must pass validate_outcome_bounds(bounds, metric_count); metrics without a bound
    // are allowed and ignored.
    FeasibilityProbability(const std::vector<OutcomeBound>& bounds, int metric_count);

    // log PoF for metrics[j] = the mixture predicting constrained metric j (size metric_count).
    // gradient (optional): per metric, w.r.t. every sample's mean and variance (zero for metrics
    // without a bound, and for a variance below the floor 1e-12).
    double log_value(std::span<const MixtureMoments> metrics, std::vector<MixtureGradient>* gradient) const;

    int metric_count() const { return static_cast<int>(lower_.size()); }
    // The interval of metric j (±∞ where unbounded).
    double lower(int j) const { return lower_[static_cast<std::size_t>(j)]; }
    double upper(int j) const { return upper_[static_cast<std::size_t>(j)]; }

private:
    std::vector<double> lower_, upper_;
};

}  // namespace sebo
