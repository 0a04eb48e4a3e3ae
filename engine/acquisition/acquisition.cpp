#include "acquisition/acquisition.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "acquisition/gaussian.h"

namespace sebo {

namespace {

constexpr double kMinVariance = 1e-12;
constexpr double kLogSqrt2Pi = 0.91893853320467274178;

// Mixture-averaged EI (linear scale) with gradients w.r.t. the per-sample moments; sample s
// improves over best_of(s).
template <class BestOf>
double mixture_ei_of(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, BestOf best_of, Eigen::VectorXd* dmean,
                     Eigen::VectorXd* dvar) {
    const Eigen::Index samples = mean.size();
    double total = 0.0;
    if (dmean) dmean->resize(samples);
    if (dvar) dvar->resize(samples);
    for (Eigen::Index s = 0; s < samples; ++s) {
        const double sigma = std::sqrt(std::max(var[s], kMinVariance));
        const double z = (mean[s] - best_of(s)) / sigma;
        total += sigma * expected_improvement_h(z);
        if (dmean) (*dmean)[s] = normal_cdf(z) / static_cast<double>(samples);
        if (dvar) (*dvar)[s] = var[s] > kMinVariance ? normal_pdf(z) / (2.0 * sigma) / static_cast<double>(samples) : 0.0;
    }
    return total / static_cast<double>(samples);
}

template <class BestOf>
double log_mixture_ei_of(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, BestOf best_of, Eigen::VectorXd* dmean,
                         Eigen::VectorXd* dvar) {
    const Eigen::Index samples = mean.size();
    Eigen::VectorXd log_term(samples), g_mu(samples), g_sigma(samples), sigma(samples);
    double largest = -std::numeric_limits<double>::infinity();
    for (Eigen::Index s = 0; s < samples; ++s) {
        sigma[s] = std::sqrt(std::max(var[s], kMinVariance));
        const double z = (mean[s] - best_of(s)) / sigma[s];
        const double log_h = log_expected_improvement_h(z);
        log_term[s] = std::log(sigma[s]) + log_h;
        g_mu[s] = std::exp(log_normal_cdf(z) - log_h) / sigma[s];
        g_sigma[s] = std::exp(-0.5 * z * z - kLogSqrt2Pi - log_h) / sigma[s];
        largest = std::max(largest, log_term[s]);
    }
    const Eigen::VectorXd weights = (log_term.array() - largest).exp();
    const double total = weights.sum();
    if (dmean || dvar) {
        const Eigen::VectorXd w = weights / total;
        if (dmean) *dmean = w.cwiseProduct(g_mu);
        if (dvar)
            *dvar = (w.cwiseProduct(g_sigma).array() / (2.0 * sigma.array()) *
                     (var.array() > kMinVariance).cast<double>())
                        .matrix();
    }
    return largest + std::log(total) - std::log(static_cast<double>(samples));
}

double mixture_ei(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double best, Eigen::VectorXd* dmean,
                  Eigen::VectorXd* dvar) {
    return mixture_ei_of(mean, var, [best](Eigen::Index) { return best; }, dmean, dvar);
}

}  // namespace

double log_mixture_ei(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double best, Eigen::VectorXd* dmean,
                      Eigen::VectorXd* dvar) {
    return log_mixture_ei_of(mean, var, [best](Eigen::Index) { return best; }, dmean, dvar);
}

double log_mixture_ei(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, const Eigen::VectorXd& best,
                      Eigen::VectorXd* dmean, Eigen::VectorXd* dvar) {
    assert(best.size() == mean.size());
    return log_mixture_ei_of(mean, var, [&best](Eigen::Index s) { return best[s]; }, dmean, dvar);
}

double mixture_ei(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, const Eigen::VectorXd& best,
                  Eigen::VectorXd* dmean, Eigen::VectorXd* dvar) {
    assert(best.size() == mean.size());
    return mixture_ei_of(mean, var, [&best](Eigen::Index s) { return best[s]; }, dmean, dvar);
}

Eigen::VectorXd AcquisitionFunction::batch_values(const Eigen::MatrixXd& X, double a) const {
    Eigen::VectorXd out(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) out[i] = value(X.row(i).transpose(), a, nullptr);
    return out;
}

// ---- EI ---------------------------------------------------------------------------------------

LogExpectedImprovement::LogExpectedImprovement(std::shared_ptr<const PosteriorView> posterior, double best)
    : posterior_(std::move(posterior)), best_(best) {
    assert(posterior_ && std::isfinite(best));
}

double LogExpectedImprovement::value(const Eigen::VectorXd& x, double, Eigen::VectorXd* grad) const {
    Eigen::VectorXd mean, var;
    if (!grad) {
        posterior_->moments(x, mean, var, nullptr, nullptr);
        return log_mixture_ei(mean, var, best_, nullptr, nullptr);
    }
    double v = 0.0;
    *grad = posterior_->moments_with_gradient(x, mean, var, [&](const Eigen::VectorXd& m, const Eigen::VectorXd& s2,
                                                                Eigen::VectorXd& dmean, Eigen::VectorXd& dvar) {
        v = log_mixture_ei(m, s2, best_, &dmean, &dvar);
    });
    return v;
}

Eigen::VectorXd LogExpectedImprovement::batch_values(const Eigen::MatrixXd& X, double) const {
    Eigen::MatrixXd mean, var;
    posterior_->batch_moments(X, mean, var);
    Eigen::VectorXd out(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i)
        out[i] = log_mixture_ei(mean.row(i).transpose(), var.row(i).transpose(), best_, nullptr, nullptr);
    return out;
}

// ---- penalized acquisitions -------------------------------------------------------------------

PenalizedAcquisition::PenalizedAcquisition(std::shared_ptr<const PosteriorView> posterior, SparsityPenalty penalty)
    : posterior_(std::move(posterior)), penalty_(std::move(penalty)) {
    assert(posterior_ && posterior_->dimension() == penalty_.dimension());
}

double PenalizedAcquisition::value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const {
    Eigen::VectorXd dxi;
    const double xi = penalty_.smooth(x, a, grad ? &dxi : nullptr);
    return evaluate(x, xi, &dxi, grad);
}

double PenalizedAcquisition::exact_value(const Eigen::VectorXd& x) const {
    return evaluate(x, penalty_.exact(x), nullptr, nullptr);
}

// ---- SEBO EHVI --------------------------------------------------------------------------------

SeboEhvi::SeboEhvi(std::shared_ptr<const PosteriorView> posterior, SparsityPenalty penalty, SparseEhviFront front)
    : PenalizedAcquisition(std::move(posterior), std::move(penalty)), front_(std::move(front)) {}

double SeboEhvi::evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx,
                          Eigen::VectorXd* grad) const {
    Eigen::VectorXd mean, var;
    if (!grad) {
        posterior_->moments(x, mean, var, nullptr, nullptr);
        return front_.log_ehvi(mean, var, xi, nullptr, nullptr, nullptr);
    }
    double v = 0.0, dxi = 0.0;
    *grad = posterior_->moments_with_gradient(x, mean, var, [&](const Eigen::VectorXd& m, const Eigen::VectorXd& s2,
                                                                Eigen::VectorXd& dmean, Eigen::VectorXd& dvar) {
        v = front_.log_ehvi(m, s2, xi, &dmean, &dvar, &dxi);
    });
    *grad += dxi * *dxi_dx;
    return v;
}

Eigen::VectorXd SeboEhvi::batch_values(const Eigen::MatrixXd& X, double a) const {
    Eigen::MatrixXd mean, var;
    posterior_->batch_moments(X, mean, var);
    Eigen::VectorXd out(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const double xi = penalty_.smooth(X.row(i).transpose(), a, nullptr);
        out[i] = front_.log_ehvi(mean.row(i).transpose(), var.row(i).transpose(), xi, nullptr, nullptr, nullptr);
    }
    return out;
}

// ---- EI-ER ------------------------------------------------------------------------------------

EiExternalRegularization::EiExternalRegularization(std::shared_ptr<const PosteriorView> posterior, double best,
                                                   SparsityPenalty penalty, double lambda)
    : PenalizedAcquisition(std::move(posterior), std::move(penalty)), best_(best), lambda_(lambda) {
    assert(lambda_ >= 0.0);
}

double EiExternalRegularization::evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx,
                                          Eigen::VectorXd* grad) const {
    Eigen::VectorXd mean, var;
    if (!grad) {
        posterior_->moments(x, mean, var, nullptr, nullptr);
        return mixture_ei(mean, var, best_, nullptr, nullptr) - lambda_ * xi;
    }
    double ei = 0.0;
    *grad = posterior_->moments_with_gradient(x, mean, var, [&](const Eigen::VectorXd& m, const Eigen::VectorXd& s2,
                                                                Eigen::VectorXd& dmean, Eigen::VectorXd& dvar) {
        ei = mixture_ei(m, s2, best_, &dmean, &dvar);
    });
    *grad -= lambda_ * *dxi_dx;
    return ei - lambda_ * xi;
}

// ---- EI-IR ------------------------------------------------------------------------------------

EiInternalRegularization::EiInternalRegularization(std::shared_ptr<const PosteriorView> posterior, double best_g,
                                                   SparsityPenalty penalty, double lambda)
    : PenalizedAcquisition(std::move(posterior), std::move(penalty)), best_g_(best_g), lambda_(lambda) {
    assert(lambda_ >= 0.0);
}

double EiInternalRegularization::evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx,
                                          Eigen::VectorXd* grad) const {
    // g = f − λξ shifts every sample's mean.
    Eigen::VectorXd mean, var;
    if (!grad) {
        posterior_->moments(x, mean, var, nullptr, nullptr);
        return log_mixture_ei((mean.array() - lambda_ * xi).matrix(), var, best_g_, nullptr, nullptr);
    }
    double v = 0.0, dmean_sum = 0.0;
    *grad = posterior_->moments_with_gradient(x, mean, var, [&](const Eigen::VectorXd& m, const Eigen::VectorXd& s2,
                                                                Eigen::VectorXd& dmean, Eigen::VectorXd& dvar) {
        v = log_mixture_ei((m.array() - lambda_ * xi).matrix(), s2, best_g_, &dmean, &dvar);
        dmean_sum = dmean.sum();
    });
    *grad -= lambda_ * dmean_sum * *dxi_dx;
    return v;
}

}  // namespace sebo
