#pragma once
// A posterior made of several GPs over the same data — the SAAS GP's hyperparameter samples
// (NUTS keeps 16 by default) or a SAAS-MAP ensemble — acting as an equally weighted mixture.
// Acquisitions are averaged over the members (SPEC §2: "The acquisition is averaged over the
// samples"; Eriksson & Jankowiak 2021, §4), so the per-member moments are what is returned:
// for m points and S members, m×S matrices, and per member the m×D input gradients. A single
// MAP GP is an ensemble of one.

#include <Eigen/Core>
#include <memory>
#include <mutex>
#include <vector>

#include "model/gaussian_process.h"
#include "model/gp_hyperparameters.h"
#include "model/training_data.h"

namespace sebo {

struct EnsembleMoments {
    Eigen::MatrixXd mean;      // m×S: column s is member s's posterior mean of f
    Eigen::MatrixXd variance;  // m×S, clamped at 0
};

struct EnsembleMomentsWithGradients {
    Eigen::MatrixXd mean;      // m×S
    Eigen::MatrixXd variance;  // m×S
    std::vector<Eigen::MatrixXd> mean_gradient;      // S matrices m×D: ∂μ_s/∂x, one row per point
    std::vector<Eigen::MatrixXd> variance_gradient;  // S matrices m×D: ∂σ²_s/∂x
};

class EnsemblePosterior {
public:
    // Conditions one GP per hyperparameter set on `data` (valid). A set whose covariance does
    // not factor even with the largest jitter is left out and counted in dropped_members();
    // check empty() before predicting. When data->encoding is set (choice parameters), the members
    // are conditioned on the encoded inputs and every prediction encodes its points: callers
    // give and get unit-cube points (and gradients with respect to them) all the same.
    EnsemblePosterior(std::shared_ptr<const TrainingData> data, const std::vector<GpHyperparameters>& samples);

    int size() const { return static_cast<int>(members_.size()); }
    bool empty() const { return members_.empty(); }
    int dropped_members() const { return dropped_; }
    int dimension() const { return data_->dimension(); }
    const TrainingData& data() const { return *data_; }
    // What the members are conditioned on: data() itself, or its encoded copy.
    const TrainingData& model_data() const { return *model_data_; }
    const std::vector<GaussianProcess>& members() const { return members_; }

    // Per-member posterior of f at the rows of X (m×D). Requires !empty().
    EnsembleMoments predict(const Eigen::MatrixXd& X) const;

    // One point, every member at once — what an acquisition's local optimization asks for, point by
    // point. The members share the training inputs, so the squared differences x − x_i are formed
    // once and every member's scaled distances are one product with the stacked lengthscales
    // (n×F times F×S); the gradient is the chain rule in reverse, one product (n×S times S×F) for
    // all members, instead of each member's D-vector gradients of mean and variance.
    struct PointWorkspace {
        Eigen::VectorXd x;           // the point as the members see it (encoded)
        Eigen::MatrixXd difference;  // n×F: x − x_i
        Eigen::MatrixXd dk;          // n×S: dk_s/ds at (x, x_i)
        Eigen::MatrixXd beta;        // n×S: K_s⁻¹ k_s(x)
        Eigen::VectorXd variance_live;  // S: 1 where the variance was not clamped at 0, else 0
    };
    // mean, var: length S. With `workspace`, what gradient() needs.
    void moments_at(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var,
                    PointWorkspace* workspace = nullptr) const;
    // ∂/∂x (unit cube) of Σ_s (dmean_s mean_s(x) + dvar_s var_s(x)) at the workspace's point.
    Eigen::VectorXd gradient(const PointWorkspace& workspace, const Eigen::VectorXd& dmean, const Eigen::VectorXd& dvar) const;
    EnsembleMomentsWithGradients predict_with_gradients(const Eigen::MatrixXd& X) const;

    // Mean and variance of the equally weighted mixture (law of total variance: the average
    // member variance plus the variance of the member means) — for display, not acquisitions.
    PosteriorMoments mixture(const Eigen::MatrixXd& X) const;

    // Per member, the joint posterior covariance of f at the rows of X (r×r each).
    std::vector<Eigen::MatrixXd> covariances(const Eigen::MatrixXd& X) const;
    // Member s's joint posterior of f at the rows of X: its mean (r) and covariance (r×r).
    void member_joint(int s, const Eigen::MatrixXd& X, Eigen::VectorXd& mean, Eigen::MatrixXd& covariance) const;

private:
    std::shared_ptr<const TrainingData> data_;
    std::shared_ptr<const TrainingData> model_data_;
    std::vector<GaussianProcess> members_;
    int dropped_ = 0;
    // The members side by side (moments_at): inverse squared lengthscales F×S, K_s⁻¹ (y − m_s) n×S,
    // output scales and constant means S.
    Eigen::MatrixXd rho_, alpha_;
    // L_s⁻¹ per member (lower triangle), for moments_at: formed on first use, once, whichever
    // restart's thread asks first — an ensemble only displayed or rebuilt never pays for it.
    const Eigen::MatrixXd& inverse_factor(Eigen::Index s) const;
    mutable std::vector<Eigen::MatrixXd> inverse_factors_;
    std::unique_ptr<std::once_flag[]> inverse_once_;
    Eigen::VectorXd output_scale_, constant_mean_;
};

}  // namespace sebo
