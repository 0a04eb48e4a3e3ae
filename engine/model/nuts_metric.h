#pragma once
// Estimate of a diagonal inverse metric (the inverse mass matrix M⁻¹ of HMC) from the draws of
// one warm-up window. With M⁻¹ ≈ the posterior variances the Hamiltonian dynamics see a
// roughly unit-scale target, so one step size suits every coordinate (Neal 2011, "MCMC using
// Hamiltonian dynamics", §4.1; Betancourt 2017, §4).
//
// The variances are accumulated with Welford's update (numerically stable in one pass) and
// shrunk towards a small constant as in Stan:
//     M⁻¹_i = n/(n+5) · var_i + 1e-3 · 5/(n+5),
// which keeps the metric positive and bounded when a window is short or a coordinate barely
// moved (e.g. while the chain is still stuck).

#include <Eigen/Core>

namespace sebo {

class DiagonalMetricEstimator {
public:
    explicit DiagonalMetricEstimator(int dimension);

    // Adds one draw; allocates nothing.
    void add(const Eigen::VectorXd& draw);
    int count() const { return count_; }
    // Forgets every draw (a new window starts).
    void restart();

    // The regularized variance estimate above, written into `inverse_metric` (resized to the
    // dimension). Requires count() ≥ 2.
    void regularized_variance(Eigen::VectorXd& inverse_metric) const;

private:
    int count_ = 0;
    Eigen::VectorXd mean_;
    Eigen::VectorXd m2_;     // sums of squared deviations from the running mean
    Eigen::VectorXd delta_;  // scratch, so add() does not allocate
};

}  // namespace sebo
