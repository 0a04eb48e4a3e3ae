#include "model/gp_map_fit.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "core/format.h"
#include "core/portable_random.h"
#include "model/scalar_priors.h"

namespace sebo {

namespace {

std::optional<std::string> positive(const std::string& field, double value) {
    if (std::isfinite(value) && value > 0.0) return std::nullopt;
    return field + ": " + format_number(value) + " is not a finite positive number";
}

std::optional<std::string> ordered(const std::string& low_field, double low, const std::string& high_field,
                                   double high) {
    if (auto e = positive(low_field, low)) return e;
    if (auto e = positive(high_field, high)) return e;
    if (low < high) return std::nullopt;
    return high_field + ": " + format_number(high) + " is not above " + low_field + " " + format_number(low);
}

}  // namespace

std::optional<std::string> GpMapPriors::validate() const {
    if (!std::isfinite(lengthscale_location_offset))
        return "lengthscale_location_offset: " + format_number(lengthscale_location_offset) + " is not finite";
    for (const auto& [field, value] : {std::pair{"lengthscale_log_scale", lengthscale_log_scale},
                                       {"output_scale_shape", output_scale_shape},
                                       {"output_scale_rate", output_scale_rate},
                                       {"noise_shape", noise_shape},
                                       {"noise_rate", noise_rate},
                                       {"mean_stddev", mean_stddev}})
        if (auto e = positive(field, value)) return e;
    return std::nullopt;
}

std::optional<std::string> GpMapOptions::validate() const {
    if (auto e = priors.validate()) return "priors." + *e;
    if (restarts < 1) return "restarts: " + std::to_string(restarts) + " is not positive";
    if (auto e = optimizer.validate()) return "optimizer." + *e;
    if (auto e = ordered("min_lengthscale", min_lengthscale, "max_lengthscale", max_lengthscale)) return e;
    if (auto e = ordered("min_output_scale", min_output_scale, "max_output_scale", max_output_scale)) return e;
    if (auto e = ordered("min_noise", min_noise, "max_noise", max_noise)) return e;
    if (auto e = positive("max_abs_mean", max_abs_mean)) return e;
    return std::nullopt;
}

GpMapObjective::GpMapObjective(std::shared_ptr<const LikelihoodData> data, GpMapPriors priors)
    : data_(std::move(data)),
      priors_(priors),
      lengthscale_location_(priors.lengthscale_location_offset + 0.5 * std::log(static_cast<double>(data_->dimension()))),
      workspace_(*data_),
      prior_gradient_(data_->layout().size()) {
    assert(!priors_.validate());
}

double GpMapObjective::log_prior(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) const {
    const UnconstrainedLayout layout = data_->layout();
    assert(theta.size() == layout.size());
    gradient.resize(theta.size());
    double value = 0.0;
    for (int d = 0; d < layout.dimension; ++d) {
        // ℓ = exp(−θ_d / 2), so d/dθ_d = d/dℓ · (−ℓ/2).
        const double lengthscale = std::exp(-0.5 * theta[d]);
        const ScalarLogDensity p =
            log_normal_log_density(lengthscale, lengthscale_location_, priors_.lengthscale_log_scale);
        value += p.value;
        gradient[d] = -0.5 * lengthscale * p.derivative;
    }
    const double output_scale = std::exp(theta[layout.output_scale_index()]);
    const ScalarLogDensity ps = gamma_log_density(output_scale, priors_.output_scale_shape, priors_.output_scale_rate);
    value += ps.value;
    gradient[layout.output_scale_index()] = ps.derivative * output_scale;
    if (layout.noise_inferred) {
        const double noise = std::exp(theta[layout.noise_index()]);
        const ScalarLogDensity pn = gamma_log_density(noise, priors_.noise_shape, priors_.noise_rate);
        value += pn.value;
        gradient[layout.noise_index()] = pn.derivative * noise;
    }
    const ScalarLogDensity pm = normal_log_density(theta[layout.mean_index()], 0.0, priors_.mean_stddev);
    value += pm.value;
    gradient[layout.mean_index()] = pm.derivative;
    return value;
}

double GpMapObjective::operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
    const LmlResult lml = log_marginal_likelihood(*data_, theta, &gradient, workspace_);
    if (!std::isfinite(lml.value)) return lml.value;
    const double prior = log_prior(theta, prior_gradient_);
    gradient += prior_gradient_;
    return lml.value + prior;
}

GpMapResult fit_gp_map(const TrainingData& data, const GpMapOptions& options, std::stop_token stop) {
    assert(!data.validate() && !options.validate());
    auto likelihood_data = std::make_shared<const LikelihoodData>(data);
    const UnconstrainedLayout layout = likelihood_data->layout();
    const int D = layout.dimension;

    Eigen::VectorXd lower(layout.size()), upper(layout.size());
    lower.head(D).setConstant(-2.0 * std::log(options.max_lengthscale));
    upper.head(D).setConstant(-2.0 * std::log(options.min_lengthscale));
    lower[layout.output_scale_index()] = std::log(options.min_output_scale);
    upper[layout.output_scale_index()] = std::log(options.max_output_scale);
    if (layout.noise_inferred) {
        lower[layout.noise_index()] = std::log(options.min_noise);
        upper[layout.noise_index()] = std::log(options.max_noise);
    }
    lower[layout.mean_index()] = -options.max_abs_mean;
    upper[layout.mean_index()] = options.max_abs_mean;

    // First start: every lengthscale at the mode of its prior, exp(μ − σ²) (≈ 0.2 √D), unit
    // output scale, small noise, zero mean. Later starts scatter the lengthscales by a factor
    // of e (one standard deviation of log ℓ) around it and draw the rest over typical ranges
    // for standardized data.
    const double log_mode = options.priors.lengthscale_location_offset + 0.5 * std::log(static_cast<double>(D)) -
                            options.priors.lengthscale_log_scale * options.priors.lengthscale_log_scale;
    PortableRandom random(options.seed);
    std::vector<Eigen::VectorXd> starts;
    for (int r = 0; r < options.restarts; ++r) {
        Eigen::VectorXd theta(layout.size());
        const bool first = r == 0;
        for (int d = 0; d < D; ++d) theta[d] = -2.0 * (log_mode + (first ? 0.0 : random.normal()));
        theta[layout.output_scale_index()] = first ? 0.0 : random.uniform(std::log(0.3), std::log(3.0));
        if (layout.noise_inferred) {
            const double low = std::log(std::max(options.min_noise, 1e-4));
            theta[layout.noise_index()] = first ? std::log(std::max(options.min_noise, 1e-2))
                                                : random.uniform(low, std::max(low, std::log(0.3)));
        }
        theta[layout.mean_index()] = first ? 0.0 : 0.5 * random.normal();
        starts.push_back(theta.cwiseMax(lower).cwiseMin(upper));
    }

    GpMapObjective objective(likelihood_data, options.priors);
    const ObjectiveWithGradient f = [&objective](const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
        return objective(theta, gradient);
    };
    const MultiStartResult runs = maximize_multistart(f, starts, lower, upper, options.optimizer, stop);

    GpMapResult result;
    result.restarts_run = static_cast<int>(runs.runs.size());
    for (const MapOptimizerRun& run : runs.runs) {
        result.evaluations += run.evaluations;
        if (run.status == FitStatus::Failed) ++result.restarts_failed;
    }
    if (runs.best < 0) {
        result.status = runs.cancelled ? FitStatus::Cancelled : FitStatus::Failed;
        result.message = runs.cancelled ? "cancelled before a restart finished"
                                        : "the marginal likelihood was not finite at any start";
        return result;
    }
    const MapOptimizerRun& best = runs.runs[static_cast<std::size_t>(runs.best)];
    result.status = runs.cancelled ? FitStatus::Cancelled : best.status;
    result.hyperparameters = from_unconstrained(best.theta, layout);
    result.log_posterior = best.value;
    Eigen::VectorXd unused;
    result.log_marginal_likelihood = best.value - objective.log_prior(best.theta, unused);
    result.iterations = best.iterations;
    result.message = best.message;
    return result;
}

}  // namespace sebo
