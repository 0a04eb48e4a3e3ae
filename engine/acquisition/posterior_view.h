#pragma once
// What an acquisition needs from a fitted model: for a point in the unit cube, the posterior mean
// and variance of the (standardized) objective under each of S model samples — S = 1 for a MAP
// GP, 16 for the paper's SAAS ensemble — with gradients w.r.t. the point, plus a batched form
// for screening many raw samples at once. Acquisitions average over the samples (a mixture).

#include <Eigen/Core>

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
};

}  // namespace sebo
