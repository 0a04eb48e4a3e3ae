#include "model/saas_prior.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "core/format.h"
#include "model/scalar_priors.h"

namespace sebo {

std::optional<std::string> SaasPriorOptions::validate() const {
    for (const auto& [field, value] : {std::pair{"global_shrinkage_scale", global_shrinkage_scale},
                                       {"output_scale_shape", output_scale_shape},
                                       {"output_scale_rate", output_scale_rate},
                                       {"noise_shape", noise_shape},
                                       {"noise_rate", noise_rate},
                                       {"mean_stddev", mean_stddev}})
        if (!(std::isfinite(value) && value > 0.0))
            return std::string(field) + ": " + format_number(value) + " is not a finite positive number";
    if (!(std::isfinite(noise_floor) && noise_floor >= 0.0))
        return "noise_floor: " + format_number(noise_floor) + " is not a finite non-negative number";
    return std::nullopt;
}

SaasLogDensity::SaasLogDensity(std::shared_ptr<const LikelihoodData> data, SaasPriorOptions options)
    : data_(std::move(data)),
      options_(options),
      layout_{data_->dimension(), data_->data().noise_inferred()},
      workspace_(*data_),
      gp_theta_(data_->layout().size()),
      gp_gradient_(data_->layout().size()) {
    assert(!options_.validate());
}

double SaasLogDensity::operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
    assert(theta.size() == layout_.size());
    const int D = layout_.dimension;
    const UnconstrainedLayout gp = data_->layout();
    gradient.setZero(theta.size());
    constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

    // Natural values; a sampler far in the tails can overflow or underflow them.
    const double log_tau = theta[SaasLayout::global_shrinkage_index()];
    const double tau = std::exp(log_tau);
    const double output_scale = std::exp(theta[layout_.output_scale_index()]);
    const double noise_excess = layout_.noise_inferred ? std::exp(theta[layout_.noise_index()]) : 1.0;
    if (!(tau > 0.0 && std::isfinite(tau) && output_scale > 0.0 && std::isfinite(output_scale) &&
          noise_excess > 0.0 && std::isfinite(noise_excess)))
        return kMinusInfinity;
    for (int d = 0; d < D; ++d) {
        const double lambda = std::exp(theta[SaasLayout::local_shrinkage_index(d)]);
        if (!(lambda > 0.0 && std::isfinite(lambda))) return kMinusInfinity;
        gp_theta_[d] = log_tau + theta[SaasLayout::local_shrinkage_index(d)];  // log ρ_d
    }
    gp_theta_[gp.output_scale_index()] = theta[layout_.output_scale_index()];
    const double noise = options_.noise_floor + noise_excess;
    if (gp.noise_inferred) gp_theta_[gp.noise_index()] = std::log(noise);
    gp_theta_[gp.mean_index()] = theta[layout_.mean_index()];

    const LmlResult lml = log_marginal_likelihood(*data_, gp_theta_, &gp_gradient_, workspace_);
    if (!std::isfinite(lml.value)) return kMinusInfinity;
    double value = lml.value;

    // Each positive quantity q = exp(u) contributes log p(q) + u (the log-Jacobian), whose
    // derivative in u is q · dlog p/dq + 1; the likelihood reaches log τ and log λ_d through
    // log ρ_d = log τ + log λ_d.
    const ScalarLogDensity p_tau = half_cauchy_log_density(tau, options_.global_shrinkage_scale);
    value += p_tau.value + log_tau;
    gradient[SaasLayout::global_shrinkage_index()] = gp_gradient_.head(D).sum() + tau * p_tau.derivative + 1.0;
    for (int d = 0; d < D; ++d) {
        const int i = SaasLayout::local_shrinkage_index(d);
        const double lambda = std::exp(theta[i]);
        const ScalarLogDensity p = half_cauchy_log_density(lambda, 1.0);
        value += p.value + theta[i];
        gradient[i] = gp_gradient_[d] + lambda * p.derivative + 1.0;
    }
    {
        const int i = layout_.output_scale_index();
        const ScalarLogDensity p = gamma_log_density(output_scale, options_.output_scale_shape, options_.output_scale_rate);
        value += p.value + theta[i];
        gradient[i] = gp_gradient_[gp.output_scale_index()] + output_scale * p.derivative + 1.0;
    }
    if (layout_.noise_inferred) {
        // The likelihood's gradient is in log noise: ∂L/∂z = ∂L/∂log noise · ε / noise.
        const int i = layout_.noise_index();
        const ScalarLogDensity p = gamma_log_density(noise_excess, options_.noise_shape, options_.noise_rate);
        value += p.value + theta[i];
        gradient[i] = gp_gradient_[gp.noise_index()] * noise_excess / noise + noise_excess * p.derivative + 1.0;
    }
    {
        const int i = layout_.mean_index();
        const ScalarLogDensity p = normal_log_density(theta[i], 0.0, options_.mean_stddev);
        value += p.value;
        gradient[i] = gp_gradient_[gp.mean_index()] + p.derivative;
    }
    return value;
}

GpHyperparameters SaasLogDensity::hyperparameters(const Eigen::VectorXd& theta) const {
    assert(theta.size() == layout_.size());
    const int D = layout_.dimension;
    GpHyperparameters h;
    h.inverse_squared_lengthscales =
        (theta[SaasLayout::global_shrinkage_index()] + theta.segment(SaasLayout::local_shrinkage_index(0), D).array())
            .exp();
    h.output_scale = std::exp(theta[layout_.output_scale_index()]);
    h.noise = layout_.noise_inferred ? options_.noise_floor + std::exp(theta[layout_.noise_index()]) : 0.0;
    h.mean = theta[layout_.mean_index()];
    return h;
}

Eigen::VectorXd SaasLogDensity::initial_point() const {
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(layout_.size());
    theta[SaasLayout::global_shrinkage_index()] = std::log(0.1);
    if (layout_.noise_inferred) theta[layout_.noise_index()] = std::log(0.01);
    return theta;
}

}  // namespace sebo
