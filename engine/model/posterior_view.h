#pragma once
// What an acquisition needs from a fitted model: for a point in the unit cube, the posterior mean
// and variance of the (standardized) objective under each of S model samples — S = 1 for a MAP
// GP, 16 for the paper's SAAS ensemble — with gradients w.r.t. the point, plus a batched form
// for screening many raw samples at once. Acquisitions average over the samples (a mixture).

#include <Eigen/Core>
#include <functional>
#include <memory>

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

    // The chain rule in two passes, for an acquisition of several posteriors whose derivatives with
    // respect to one posterior's moments need every posterior's moments first (outcome_acquisition.h):
    // the moments at x, and a pullback that maps the acquisition's derivatives (dmean, dvar: length S)
    // to ∂/∂x Σ_s (dmean_s mean_s(x) + dvar_s var_s(x)). The default keeps moments()' per-sample
    // gradients; a posterior whose samples share most of their work overrides it to avoid forming
    // them (the ensemble of model/surrogate.h, the baseline draws of model/fantasy_posterior.h).
    using MomentsPullback = std::function<Eigen::VectorXd(const Eigen::VectorXd& dmean, const Eigen::VectorXd& dvar)>;
    virtual MomentsPullback moments_with_pullback(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var) const {
        auto dmean_x = std::make_shared<Eigen::MatrixXd>(), dvar_x = std::make_shared<Eigen::MatrixXd>();
        moments(x, mean, var, dmean_x.get(), dvar_x.get());
        return [dmean_x, dvar_x](const Eigen::VectorXd& dmean, const Eigen::VectorXd& dvar) {
            return Eigen::VectorXd(*dmean_x * dmean + *dvar_x * dvar);
        };
    }

    // The same in one pass, for an acquisition of this posterior alone: the moments at x, then the
    // acquisition's derivatives with respect to them (`weights`: mean, var → dmean, dvar), then the
    // returned ∂/∂x Σ_s (dmean_s mean_s(x) + dvar_s var_s(x)).
    using MomentWeights = std::function<void(const Eigen::VectorXd& mean, const Eigen::VectorXd& var,
                                             Eigen::VectorXd& dmean, Eigen::VectorXd& dvar)>;
    Eigen::VectorXd moments_with_gradient(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var,
                                          const MomentWeights& weights) const {
        const MomentsPullback pullback = moments_with_pullback(x, mean, var);
        Eigen::VectorXd dmean, dvar;
        weights(mean, var, dmean, dvar);
        return pullback(dmean, dvar);
    }
};

}  // namespace sebo
