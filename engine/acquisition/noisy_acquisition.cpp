#include "acquisition/noisy_acquisition.h"

#include <cassert>
#include <cmath>

namespace sebo {

NoisyLogExpectedImprovement::NoisyLogExpectedImprovement(std::shared_ptr<const PosteriorView> components, Eigen::VectorXd best)
    : components_(std::move(components)), best_(std::move(best)) {
    assert(components_ && best_.size() == components_->sample_count() && best_.allFinite());
}

double NoisyLogExpectedImprovement::value(const Eigen::VectorXd& x, double, Eigen::VectorXd* grad) const {
    Eigen::VectorXd mean, var;
    if (!grad) {
        components_->moments(x, mean, var, nullptr, nullptr);
        return log_mixture_ei(mean, var, best_, nullptr, nullptr);
    }
    double v = 0.0;
    *grad = components_->moments_with_gradient(
        x, mean, var, [&](const Eigen::VectorXd& m, const Eigen::VectorXd& s2, Eigen::VectorXd& dmean, Eigen::VectorXd& dvar) {
            v = log_mixture_ei(m, s2, best_, &dmean, &dvar);
        });
    return v;
}

Eigen::VectorXd NoisyLogExpectedImprovement::batch_values(const Eigen::MatrixXd& X, double) const {
    Eigen::MatrixXd mean, var;
    components_->batch_moments(X, mean, var);
    Eigen::VectorXd out(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        out[i] = log_mixture_ei(mean.row(i).transpose(), var.row(i).transpose(), best_, nullptr, nullptr);
    return out;
}

NoisySeboEhvi::NoisySeboEhvi(std::shared_ptr<const PosteriorView> components, SparsityPenalty penalty,
                             std::vector<SparseEhviFront> fronts)
    : PenalizedAcquisition(std::move(components), std::move(penalty)), fronts_(std::move(fronts)) {
    assert(fronts_.size() == static_cast<std::size_t>(posterior_->sample_count()));
}

double NoisySeboEhvi::evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx, Eigen::VectorXd* grad) const {
    Eigen::VectorXd mean, var;
    if (!grad) {
        posterior_->moments(x, mean, var, nullptr, nullptr);
        return SparseEhviFront::log_ehvi_per_sample(fronts_, mean, var, xi, nullptr, nullptr, nullptr);
    }
    double v = 0.0, dxi = 0.0;
    *grad = posterior_->moments_with_gradient(
        x, mean, var, [&](const Eigen::VectorXd& m, const Eigen::VectorXd& s2, Eigen::VectorXd& dmean, Eigen::VectorXd& dvar) {
            v = SparseEhviFront::log_ehvi_per_sample(fronts_, m, s2, xi, &dmean, &dvar, &dxi);
        });
    *grad += dxi * *dxi_dx;
    return v;
}

Eigen::VectorXd NoisySeboEhvi::batch_values(const Eigen::MatrixXd& X, double a) const {
    Eigen::MatrixXd mean, var;
    posterior_->batch_moments(X, mean, var);
    Eigen::VectorXd out(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const double xi = penalty_.smooth(X.row(i).transpose(), a, nullptr);
        out[i] = SparseEhviFront::log_ehvi_per_sample(fronts_, mean.row(i).transpose(), var.row(i).transpose(), xi, nullptr,
                                                      nullptr, nullptr);
    }
    return out;
}

NoisyEiExternalRegularization::NoisyEiExternalRegularization(std::shared_ptr<const PosteriorView> components,
                                                             Eigen::VectorXd best, SparsityPenalty penalty, double lambda)
    : PenalizedAcquisition(std::move(components), std::move(penalty)), best_(std::move(best)), lambda_(lambda) {
    assert(lambda_ >= 0.0 && best_.size() == posterior_->sample_count());
}

double NoisyEiExternalRegularization::evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx,
                                               Eigen::VectorXd* grad) const {
    Eigen::VectorXd mean, var;
    if (!grad) {
        posterior_->moments(x, mean, var, nullptr, nullptr);
        return mixture_ei(mean, var, best_, nullptr, nullptr) - lambda_ * xi;
    }
    double ei = 0.0;
    *grad = posterior_->moments_with_gradient(
        x, mean, var, [&](const Eigen::VectorXd& m, const Eigen::VectorXd& s2, Eigen::VectorXd& dmean, Eigen::VectorXd& dvar) {
            ei = mixture_ei(m, s2, best_, &dmean, &dvar);
        });
    *grad -= lambda_ * *dxi_dx;
    return ei - lambda_ * xi;
}

NoisyEiInternalRegularization::NoisyEiInternalRegularization(std::shared_ptr<const PosteriorView> components,
                                                             Eigen::VectorXd best_g, SparsityPenalty penalty, double lambda)
    : PenalizedAcquisition(std::move(components), std::move(penalty)), best_g_(std::move(best_g)), lambda_(lambda) {
    assert(lambda_ >= 0.0 && best_g_.size() == posterior_->sample_count());
}

double NoisyEiInternalRegularization::evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx,
                                               Eigen::VectorXd* grad) const {
    Eigen::VectorXd mean, var;
    // g = f − λξ shifts every component's mean.
    if (!grad) {
        posterior_->moments(x, mean, var, nullptr, nullptr);
        mean.array() -= lambda_ * xi;
        return log_mixture_ei(mean, var, best_g_, nullptr, nullptr);
    }
    double v = 0.0, dmean_sum = 0.0;
    *grad = posterior_->moments_with_gradient(
        x, mean, var, [&](const Eigen::VectorXd& m, const Eigen::VectorXd& s2, Eigen::VectorXd& dmean, Eigen::VectorXd& dvar) {
            const Eigen::VectorXd shifted = m.array() - lambda_ * xi;
            v = log_mixture_ei(shifted, s2, best_g_, &dmean, &dvar);
            dmean_sum = dmean.sum();
        });
    *grad -= lambda_ * dmean_sum * *dxi_dx;
    return v;
}

}  // namespace sebo
