#pragma once
// What an acquisition needs from a fitted model: for a point in the unit cube, the posterior mean
// and variance of the (standardized) objective under each of S model samples — S = 1 for a MAP
// GP, 16 for the paper's SAAS ensemble — with gradients w.r.t. the point, plus a batched form
// for screening many raw samples at once. Acquisitions average over the samples (a mixture).

#include <Eigen/Core>
#include <functional>

namespace sebo {

class PosteriorView {
public:
    virtual ~PosteriorView() = default;
    virtual int dimension() const = 0;
    virtual int sample_count() const = 0;
    // mean, var: length S. dmean, dvar (optional): D×S, column s = gradient for sample s.
    virtual void moments(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var, Eigen::MatrixXd* dmean,
                         Eigen::MatrixXd* dvar) const = 0;
    // Rows of X (m×D) → mean and var (m×S).
    virtual void batch_moments(const Eigen::MatrixXd& X, Eigen::MatrixXd& mean, Eigen::MatrixXd& var) const = 0;

    // The chain rule of an acquisition in one pass: the moments at x, then the acquisition's
    // derivatives with respect to them (`weights`: mean, var → dmean, dvar), then the returned
    // ∂/∂x Σ_s (dmean_s mean_s(x) + dvar_s var_s(x)). The default forms it from moments()'
    // per-sample gradients; a posterior whose samples share most of their work (the baseline draws
    // of model/fantasy_posterior.h) overrides it to avoid forming them.
    using MomentWeights = std::function<void(const Eigen::VectorXd& mean, const Eigen::VectorXd& var,
                                             Eigen::VectorXd& dmean, Eigen::VectorXd& dvar)>;
    virtual Eigen::VectorXd moments_with_gradient(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var,
                                                  const MomentWeights& weights) const {
        Eigen::MatrixXd dmean_x, dvar_x;
        moments(x, mean, var, &dmean_x, &dvar_x);
        Eigen::VectorXd dmean, dvar;
        weights(mean, var, dmean, dvar);
        return dmean_x * dmean + dvar_x * dvar;
    }
};

}  // namespace sebo
