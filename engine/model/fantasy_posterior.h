#pragma once
// Noisy observations taken at their posterior, not at their measured values (issue 30): the
// baseline draws of the noisy expected improvement (NEI; Letham, Karrer, Ottoni & Bakshy 2019,
// "Constrained Bayesian optimization with noisy experiments", §4) and of qNEHVI (Daulton, Balandat
// & Bakshy 2021).
//
// For every member s of an ensemble posterior (a SAAS sample, or the one MAP GP) and J draws j:
//  - f_sj, the latent objective at the baseline U — the distinct configurations the posterior was
//    conditioned on (observations and fantasies) — drawn jointly from member s's posterior
//    N(μ_s(U), Σ_s(U, U));
//  - member s's GP conditioned on f_sj as exact observations: the posterior of f(x) given the
//    latent values at the baseline. Given f(U), the noisy measurements at U say nothing more, so
//    this is the joint posterior's conditional, and an acquisition that averages over the S·J
//    components — each against the incumbent or front of its own draw — integrates over what
//    the baseline really is instead of trusting its luckiest measurement:
//        mean_sj(x) = c_s + k_s(x, U) K_s⁻¹ (f_sj − c_s),
//        var_s(x)   = σ_s² − k_s(x, U) K_s⁻¹ k_s(U, x),          K_s = K_s(U, U) + δ I,
//    with δ = 1e-8 σ_s² (escalated like every factorization here when needed). The J components of
//    a member share K_s's factor and the variance; a component costs one dot product more.
// When the noise is negligible, f_sj → the measured values, the conditioned GP → member s's GP,
// and an acquisition over the components → the same acquisition over the measurements
// (tests/engine/test_noisy_acquisition.cpp).
//
// The draws are f_sj = μ_s(U) + L_s z_j with L_s the factor of Σ_s(U, U) (+ the same jitter) and
// standard normal vectors z_j in antithetic pairs (z, −z: the draws' mean is μ_s(U) exactly, and
// an odd J adds one unpaired draw); the same z_j for every member, deterministic for the seed
// (core/portable_random.h). Component t = s·J + j.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/posterior_view.h"
#include "model/ensemble_posterior.h"

namespace sebo {

struct FantasyOptions {
    int draws_per_member = 8;  // J
    std::uint64_t seed = 0;
};

class FantasyPosterior {
public:
    // posterior: non-empty. draws_per_member >= 1. The baseline is the data's configurations.
    FantasyPosterior(std::shared_ptr<const EnsemblePosterior> posterior, const FantasyOptions& options);
    // The baseline begins with the rows of `leading` (distinct points of the unit cube, in that
    // order) and goes on with the data's configurations not among them: the points of a front
    // built elsewhere (a step with several metrics draws every metric at the same points, some of
    // which a metric's data may lack), and every configuration the posterior was conditioned on,
    // so that the conditioned GP is still the posterior of f(x) given the latent values at the
    // baseline.
    FantasyPosterior(std::shared_ptr<const EnsemblePosterior> posterior, const Eigen::MatrixXd& leading,
                     const FantasyOptions& options);

    int size() const { return members() * draws_per_member_; }  // components
    int members() const { return static_cast<int>(members_.size()); }
    int draws_per_member() const { return draws_per_member_; }
    int member_of(int component) const { return component / draws_per_member_; }
    int dimension() const { return posterior_->dimension(); }
    const EnsemblePosterior& posterior() const { return *posterior_; }

    // The baseline: the `leading` rows, then the distinct rows of the posterior's data inputs not
    // among them (unit cube), m×D, in order of first appearance; baseline_of_row()[i] is the
    // baseline point of data row i.
    const Eigen::MatrixXd& baseline() const { return baseline_; }
    const std::vector<int>& baseline_of_row() const { return baseline_of_row_; }
    // Column t: component t's draw of f at the baseline (standardized units), m×size().
    const Eigen::MatrixXd& baseline_draws() const { return draws_; }

    // What gradient() needs of one evaluation: the encoded point and, per member, dk/ds at the
    // baseline and K_s⁻¹ k_s(U, x).
    struct Workspace {
        Eigen::RowVectorXd x;
        std::vector<Eigen::RowVectorXd> dk, beta;
    };
    // Every component's mean and variance of f at x (length size()); with `workspace`, what
    // gradient() needs.
    void moments(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& variance,
                 Workspace* workspace = nullptr) const;
    // ∂/∂x of Σ_t (dmean_t mean_t(x) + dvariance_t var_t(x)) at the point of `workspace`: the
    // chain rule of an acquisition at the cost of one gradient pass per member.
    Eigen::VectorXd gradient(const Workspace& workspace, const Eigen::VectorXd& dmean, const Eigen::VectorXd& dvariance) const;
    // Rows of X (r×D) → mean and variance (r×size()), for screening.
    void batch_moments(const Eigen::MatrixXd& X, Eigen::MatrixXd& mean, Eigen::MatrixXd& variance) const;

private:
    struct Member {
        GpHyperparameters hyperparameters;
        Eigen::MatrixXd factor;   // L of K_s(U, U) + δ I
        Eigen::MatrixXd weights;  // K_s⁻¹ (f_sj − c_s), m×J
    };
    Eigen::MatrixXd encoded(const Eigen::MatrixXd& X) const;

    std::shared_ptr<const EnsemblePosterior> posterior_;
    int draws_per_member_ = 1;
    Eigen::MatrixXd baseline_;          // unit cube
    Eigen::MatrixXd baseline_encoded_;  // as the members see it
    std::vector<int> baseline_of_row_;
    Eigen::MatrixXd draws_;
    std::vector<Member> members_;
};

// The components as the acquisition functions see them: S·J samples (model/posterior_view.h),
// whose chain rule costs one gradient pass per member (moments_with_pullback).
class FantasyPosteriorView final : public PosteriorView {
public:
    explicit FantasyPosteriorView(std::shared_ptr<const FantasyPosterior> fantasies) : fantasies_(std::move(fantasies)) {}
    int dimension() const override { return fantasies_->dimension(); }
    int sample_count() const override { return fantasies_->size(); }
    // Per-component gradients (D×size()): correct, and size() times the work of
    // moments_with_pullback; the acquisitions use the latter.
    void moments(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var, Eigen::MatrixXd* dmean,
                 Eigen::MatrixXd* dvar) const override;
    void batch_moments(const Eigen::MatrixXd& X, Eigen::MatrixXd& mean, Eigen::MatrixXd& var) const override {
        fantasies_->batch_moments(X, mean, var);
    }
    MomentsPullback moments_with_pullback(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var) const override;
    const FantasyPosterior& fantasies() const { return *fantasies_; }

private:
    std::shared_ptr<const FantasyPosterior> fantasies_;
};

}  // namespace sebo
