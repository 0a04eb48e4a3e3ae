#pragma once
// Expected hypervolume improvement for m = 1..4 objectives (SPEC §10, issue 13 item 4), exact for
// independent Gaussian mixtures (acquisition/box_ehvi.h). All objectives maximized, in the units
// of the moments passed in (standardized by the caller, as for acquisition/sparse_ehvi.h).
//
// MultiEhvi: the plain EHVI of (f_1, …, f_m) against the front of the observations — the
// non-sparse baseline that EI-based strategies use with several objectives.
//
// SparseMultiEhvi: SEBO's EHVI of (f_1, …, f_m, −ξ) with the sparsity penalty ξ deterministic
// (paper §4, eq. 7, with m objectives). With P(t) the front of the observations with ξ_i ≤ t, a
// candidate at penalty ξ_c with objectives y improves the hypervolume by
//     HVI(y) = ∫_{ξ_c}^{r_ξ} HVI_m(y | P(t)) dt.
// P(t) is constant between the ξ values at which the front changes, so the integral splits into
// strips [lo_j, hi_j) on which P(t) = P_j, and
//     EHVI = Σ_j (hi_j − max(lo_j, ξ_c))_+ · EHVI_m(P_j),
// each EHVI_m exact over the box decomposition of P_j (acquisition/box_decomposition.h). The first
// strip, (−∞, smallest ξ), has the empty front. With m = 1 this is acquisition/sparse_ehvi.h's
// closed form (which stays the m = 1 code; the two agree to rounding, tests/engine/test_multi_ehvi.cpp).
// The gradient w.r.t. ξ comes from the first strip's width alone.
//
// Observations not strictly better than the reference in every objective, or with ξ ≥ r_ξ, or
// non-finite, add no volume and are ignored.

#include <limits>
#include <span>
#include <vector>

#include "acquisition/box_ehvi.h"
#include "acquisition/mixture_moments.h"

namespace sebo {

class MultiEhvi {
public:
    // observed: f vectors (size m = reference.size(), 1 <= m <= 4) of completed trials.
    MultiEhvi(const std::vector<std::vector<double>>& observed, const std::vector<double>& reference);

    // log EHVI for objectives[d] = the mixture predicting f_d; gradient (optional) per objective.
    double log_ehvi(std::span<const MixtureMoments> objectives, std::vector<MixtureGradient>* gradient) const;

    // The hypervolume of the observations themselves (pareto/hypervolume_nd.h), for diagnostics.
    double hypervolume() const { return hypervolume_; }
    // The non-dominated observations that count (strictly better than the reference, finite).
    const std::vector<std::vector<double>>& front() const { return front_; }
    const NondominatedBoxes& boxes() const { return boxes_; }

private:
    std::vector<std::vector<double>> front_;
    NondominatedBoxes boxes_;
    BoxEhvi ehvi_;
    double hypervolume_;
};

class SparseMultiEhvi {
public:
    struct Observation {
        std::vector<double> f;  // m objectives, maximized
        double xi = 0.0;        // sparsity penalty, minimized
    };
    // ξ-strip [lo, hi) on which the front is `front` (lo = −∞ for the first).
    struct Strip {
        double lo = 0.0, hi = 0.0;
        std::vector<std::vector<double>> front;
    };

    SparseMultiEhvi(const std::vector<Observation>& observed, std::vector<double> reference_f, double reference_xi);

    // log EHVI at penalty xi; gradients (optional) per objective and w.r.t. xi. kLogZero (with zero
    // gradients) when xi ≥ r_ξ.
    double log_ehvi(std::span<const MixtureMoments> objectives, double xi, std::vector<MixtureGradient>* gradient,
                    double* dxi) const;

    // The hypervolume of the observations in (f, −ξ), for diagnostics.
    double hypervolume() const;
    const std::vector<Strip>& strips() const { return strips_; }
    int objectives() const { return static_cast<int>(reference_f_.size()); }

    // log 0, −∞, as SparseEhviFront::kLogZero.
    static constexpr double kLogZero = -std::numeric_limits<double>::infinity();

private:
    std::vector<double> reference_f_;
    double reference_xi_;
    std::vector<Strip> strips_;  // covering (−∞, r_ξ), ascending
    BoxEhvi ehvi_;               // one group per strip
};

}  // namespace sebo
