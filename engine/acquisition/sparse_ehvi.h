#pragma once
// Closed-form expected hypervolume improvement for SEBO (paper §4, eq. 7) with two objectives,
// f (Gaussian posterior, maximized) and the sparsity penalty ξ (deterministic, minimized).
//
// Because ξ is deterministic, the hypervolume improvement of a candidate with penalty ξ_c is
//     HVI(y) = ∫_{ξ_c}^{r_ξ} (y − c(t))_+ dt,   c(t) = max(r_f, max{f_i : ξ_i ≤ t}),
// where c is a non-decreasing step function of the current front. Splitting [ξ_c, r_ξ) into the
// strips where c is constant gives EHVI = Σ_j w_j · EI(μ, σ; c_j), a finite sum of Gaussian
// expected improvements. Averaged over S posterior samples (a mixture). We work with its
// logarithm, log Σ_{s,j} w_j σ_s h(z_sj) − log S, evaluated with log-sum-exp so that it stays
// finite and informative far below the front (see acquisition/gaussian.h).

#include <Eigen/Core>
#include <limits>
#include <utility>
#include <vector>

namespace sebo {

class SparseEhviFront {
public:
    // observed: (f, ξ) of completed trials, f standardized; reference (r_f, r_ξ): points with
    // f ≤ r_f or ξ ≥ r_ξ add no volume.
    SparseEhviFront(const std::vector<std::pair<double, double>>& observed, double reference_f, double reference_xi);

    // log EHVI for the mixture of N(mean_s, var_s) at penalty xi. Gradients (optional) w.r.t.
    // each mean_s, var_s and xi. Returns kLogZero (with zero gradients) when xi ≥ r_ξ.
    double log_ehvi(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double xi, Eigen::VectorXd* dmean,
                    Eigen::VectorXd* dvar, double* dxi) const;

    // log of (1/S) Σ_s EHVI(N(mean_s, var_s); fronts[s]): a front per sample — the baseline draws of
    // a noisy acquisition (model/fantasy_posterior.h), each sample against the front of its own
    // draw. fronts.size() == mean.size(), every front with the same reference ξ; gradients as
    // log_ehvi's. With every front equal it is log_ehvi.
    static double log_ehvi_per_sample(const std::vector<SparseEhviFront>& fronts, const Eigen::VectorXd& mean,
                                      const Eigen::VectorXd& var, double xi, Eigen::VectorXd* dmean, Eigen::VectorXd* dvar,
                                      double* dxi);

    // The hypervolume of the current front itself (same units); for tests and diagnostics.
    double hypervolume() const;

    struct Strip {
        double lo, hi, cover;  // c(t) = cover on [lo, hi)
    };
    const std::vector<Strip>& strips() const { return strips_; }
    double reference_f() const { return reference_f_; }
    double reference_xi() const { return reference_xi_; }

    // log 0: a candidate at or beyond the sparsity reference improves nothing. −∞ rather than a
    // finite sentinel, which a real but tiny EHVI can undercut (log h(z) ≈ −z²/2 is −10⁶ at
    // z ≈ −1414, reachable with σ at its floor): every caller handles it — the local optimizers
    // treat a non-finite value as the worst point (optimize/multistart.cpp), the final choice
    // takes any finite value over it (optimize/homotopy.cpp).
    static constexpr double kLogZero = -std::numeric_limits<double>::infinity();

private:
    template <class FrontOf>
    static double log_ehvi_of(FrontOf front_of, const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double xi,
                              Eigen::VectorXd* dmean, Eigen::VectorXd* dvar, double* dxi);

    double reference_f_, reference_xi_;
    std::vector<Strip> strips_;  // covering (−∞, r_ξ), ascending, adjacent covers distinct
};

}  // namespace sebo
