#pragma once
// An exact GP conditioned on training data with fixed hyperparameters (SPEC §2 "Models"): the
// posterior of the latent objective f at a batch of points, with analytic gradients with
// respect to the points, for the acquisition optimizer's L-BFGS-B (SPEC §2 "Homotopy
// continuation … with analytic gradients").
//
// Construction factors K = σ² C(X, X) + diag(noise) once (model/jittered_cholesky.h) and
// precomputes α = K⁻¹ (y − m); predictions at m points then cost two matrix products and one
// triangular solve with m right-hand sides:
//     μ(x)  = m + k(x)ᵀ α,
//     σ²(x) = σ² − ‖L⁻¹ k(x)‖²,
//     ∂μ/∂x_d  =  Σ_i α_i ∂k(x, x_i)/∂x_d,
//     ∂σ²/∂x_d = −2 Σ_i β_i ∂k(x, x_i)/∂x_d,   β = K⁻¹ k(x),
// with ∂k(x, x_i)/∂x_d = 2 ρ_d (x_d − x_id) dk/ds (model/matern52_kernel.h).

#include <Eigen/Core>
#include <memory>

#include "model/gp_hyperparameters.h"
#include "model/jittered_cholesky.h"
#include "model/training_data.h"

namespace sebo {

// Posterior of the latent f (without observation noise) at m points.
struct PosteriorMoments {
    Eigen::VectorXd mean;      // m
    Eigen::VectorXd variance;  // m, clamped at 0 (rounding can make it slightly negative)
};

struct PosteriorMomentsWithGradients {
    Eigen::VectorXd mean;               // m
    Eigen::VectorXd variance;           // m, clamped at 0
    Eigen::MatrixXd mean_gradient;      // m×D: row t is ∂μ/∂x at point t
    Eigen::MatrixXd variance_gradient;  // m×D: row t is ∂σ²/∂x at point t (0 where clamped)
};

class GaussianProcess {
public:
    // Factors the training covariance. `data` must be valid and `hyperparameters` valid with
    // the data's dimension; check status().ok before predicting (a failure means even 1e-2
    // relative jitter did not make K factor, e.g. non-finite hyperparameters).
    GaussianProcess(std::shared_ptr<const TrainingData> data, GpHyperparameters hyperparameters);

    const CholeskyStatus& status() const { return status_; }
    const GpHyperparameters& hyperparameters() const { return hyperparameters_; }
    const TrainingData& data() const { return *data_; }
    const std::shared_ptr<const TrainingData>& shared_data() const { return data_; }
    int dimension() const { return data_->dimension(); }
    // L (lower triangle) of K + jitter·I and K⁻¹ (y − m): what a prediction needs (EnsemblePosterior
    // stacks them to predict at one point with all its members at once). Require status().ok.
    const Eigen::MatrixXd& factor() const { return factor_; }
    const Eigen::VectorXd& alpha() const { return alpha_; }

    // log p(y | X, hyperparameters) of the training data (with the jitter that was needed).
    double log_marginal_likelihood() const { return log_marginal_likelihood_; }

    // Posterior at the rows of X (m×D, any m ≥ 0). Requires status().ok.
    PosteriorMoments predict(const Eigen::MatrixXd& X) const;
    PosteriorMomentsWithGradients predict_with_gradients(const Eigen::MatrixXd& X) const;
    // The joint posterior covariance of f at the rows of X (m×m): σ² C(X, X) − k(X)ᵀ K⁻¹ k(X).
    Eigen::MatrixXd posterior_covariance(const Eigen::MatrixXd& X) const;

private:
    // Cross covariance Kx (m×n) and, when wanted, dk/ds at every pair (m×n).
    void cross_covariance(const Eigen::MatrixXd& X, Eigen::MatrixXd& Kx, Eigen::MatrixXd* dKx) const;

    std::shared_ptr<const TrainingData> data_;
    GpHyperparameters hyperparameters_;
    CholeskyStatus status_;
    Eigen::MatrixXd factor_;  // L (lower triangle) of K + jitter·I
    Eigen::VectorXd alpha_;   // K⁻¹ (y − m)
    double log_marginal_likelihood_ = 0.0;
};

}  // namespace sebo
