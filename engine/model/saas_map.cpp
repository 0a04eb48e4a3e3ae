#include "model/saas_map.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "core/format.h"
#include "core/portable_random.h"
#include "core/thread_pool.h"

namespace sebo {

namespace {

std::optional<std::string> ordered_positive(const std::string& low_field, double low, const std::string& high_field,
                                            double high) {
    for (const auto& [field, value] : {std::pair{&low_field, low}, {&high_field, high}})
        if (!(std::isfinite(value) && value > 0.0))
            return *field + ": " + format_number(value) + " is not a finite positive number";
    if (!(low < high)) return high_field + ": " + format_number(high) + " is not above " + low_field + " " + format_number(low);
    return std::nullopt;
}

}  // namespace

std::optional<std::string> SaasMapOptions::validate() const {
    if (auto e = prior.validate()) return "prior." + *e;
    if (global_shrinkages.empty()) return "global_shrinkages: empty";
    for (std::size_t i = 0; i < global_shrinkages.size(); ++i)
        if (!(std::isfinite(global_shrinkages[i]) && global_shrinkages[i] > 0.0))
            return "global_shrinkages[" + std::to_string(i) + "]: " + format_number(global_shrinkages[i]) +
                   " is not a finite positive number";
    if (restarts < 1) return "restarts: " + std::to_string(restarts) + " is not positive";
    if (auto e = optimizer.validate()) return "optimizer." + *e;
    if (auto e = ordered_positive("min_inverse_squared_lengthscale", min_inverse_squared_lengthscale,
                                  "max_inverse_squared_lengthscale", max_inverse_squared_lengthscale))
        return e;
    if (auto e = ordered_positive("min_output_scale", min_output_scale, "max_output_scale", max_output_scale)) return e;
    if (auto e = ordered_positive("min_noise_excess", min_noise_excess, "max_noise_excess", max_noise_excess)) return e;
    if (!(std::isfinite(max_abs_mean) && max_abs_mean > 0.0))
        return "max_abs_mean: " + format_number(max_abs_mean) + " is not a finite positive number";
    return std::nullopt;
}

SaasMapObjective::SaasMapObjective(std::shared_ptr<const LikelihoodData> data, SaasPriorOptions prior,
                                   double global_shrinkage)
    : density_(std::move(data), prior),
      log_global_shrinkage_(std::log(global_shrinkage)),
      full_theta_(density_.layout().size()),
      full_gradient_(density_.layout().size()) {
    assert(global_shrinkage > 0.0);
}

Eigen::VectorXd SaasMapObjective::saas_theta(const Eigen::VectorXd& theta) const {
    assert(theta.size() == size());
    Eigen::VectorXd full(theta.size() + 1);
    full[SaasLayout::global_shrinkage_index()] = log_global_shrinkage_;
    full.tail(theta.size()) = theta;
    return full;
}

GpHyperparameters SaasMapObjective::hyperparameters(const Eigen::VectorXd& theta) const {
    return density_.hyperparameters(saas_theta(theta));
}

double SaasMapObjective::operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
    assert(theta.size() == size());
    // The SAAS log density in log coordinates minus its log-Jacobians (log τ, log λ_d, log σ²,
    // log(noise − floor)), which are the coordinates themselves: their derivatives are 1.
    const SaasLayout& layout = density_.layout();
    full_theta_[SaasLayout::global_shrinkage_index()] = log_global_shrinkage_;
    full_theta_.tail(theta.size()) = theta;
    const double value = density_(full_theta_, full_gradient_);
    gradient.resize(theta.size());
    if (!std::isfinite(value)) {
        gradient.setZero();
        return value;
    }
    const int jacobian_entries = layout.mean_index() - 1;  // λ_1 … λ_D, σ², noise: θ' indices 0 … mean−1
    gradient = full_gradient_.tail(theta.size());
    gradient.head(jacobian_entries).array() -= 1.0;
    return value - log_global_shrinkage_ - theta.head(jacobian_entries).sum();
}

SaasMapResult fit_saas_map(const TrainingData& data, const SaasMapOptions& options, std::stop_token stop, ThreadPool* pool) {
    assert(!data.validate() && !options.validate());
    auto likelihood_data = std::make_shared<const LikelihoodData>(data);
    const SaasLayout layout{data.dimension(), data.noise_inferred()};
    const int D = layout.dimension;
    const int size = layout.size() - 1;
    // Index of each hyperparameter in θ' (the SAAS layout without τ).
    const int output_scale_index = layout.output_scale_index() - 1;
    const int noise_index = layout.noise_index() - 1;
    const int mean_index = layout.mean_index() - 1;

    // Every τ's starts are drawn first, in the grid's order, so that the fits — side by side on
    // the pool — are the same whichever thread runs them.
    PortableRandom random(options.seed);
    const std::size_t taus = options.global_shrinkages.size();
    std::vector<Eigen::VectorXd> lowers, uppers;
    std::vector<std::vector<Eigen::VectorXd>> starts(taus);
    for (std::size_t t = 0; t < taus; ++t) {
        const double tau = options.global_shrinkages[t];
        Eigen::VectorXd lower(size), upper(size);
        lower.head(D).setConstant(std::log(options.min_inverse_squared_lengthscale / tau));
        upper.head(D).setConstant(std::log(options.max_inverse_squared_lengthscale / tau));
        lower[output_scale_index] = std::log(options.min_output_scale);
        upper[output_scale_index] = std::log(options.max_output_scale);
        if (layout.noise_inferred) {
            lower[noise_index] = std::log(options.min_noise_excess);
            upper[noise_index] = std::log(options.max_noise_excess);
        }
        lower[mean_index] = -options.max_abs_mean;
        upper[mean_index] = options.max_abs_mean;

        // First start at the prior's scale (λ_d = 1, so ρ_d = τ), unit output scale, noise
        // excess 0.01, zero mean; the others scatter log λ_d by N(0, 1) and draw the rest over
        // typical ranges for standardized data.
        for (int r = 0; r < options.restarts; ++r) {
            const bool first = r == 0;
            Eigen::VectorXd theta(size);
            for (int d = 0; d < D; ++d) theta[d] = first ? 0.0 : random.normal();
            theta[output_scale_index] = first ? 0.0 : random.uniform(std::log(0.3), std::log(3.0));
            if (layout.noise_inferred)
                theta[noise_index] = first ? std::log(0.01) : random.uniform(std::log(1e-4), std::log(0.3));
            theta[mean_index] = first ? 0.0 : 0.5 * random.normal();
            starts[t].push_back(theta.cwiseMax(lower).cwiseMin(upper));
        }
        lowers.push_back(std::move(lower));
        uppers.push_back(std::move(upper));
    }

    SaasMapResult result;
    result.fits.resize(taus);
    std::vector<char> cancelled(taus, 0);
    const auto fit_tau = [&](int i) {
        const auto t = static_cast<std::size_t>(i);
        SaasMapFit& fit = result.fits[t];
        fit.global_shrinkage = options.global_shrinkages[t];
        if (stop.stop_requested()) {
            cancelled[t] = 1;
            return;
        }
        SaasMapObjective objective(likelihood_data, options.prior, fit.global_shrinkage);
        const ObjectiveWithGradient f = [&objective](const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
            return objective(theta, gradient);
        };
        const MultiStartResult runs = maximize_multistart(f, starts[t], lowers[t], uppers[t], options.optimizer, stop);
        if (runs.cancelled) {
            cancelled[t] = 1;
            return;
        }
        for (const MapOptimizerRun& run : runs.runs) fit.evaluations += run.evaluations;
        if (runs.best < 0) {
            fit.log_joint_density = -std::numeric_limits<double>::infinity();
            fit.message = runs.runs.empty() ? "no start was run" : runs.runs.front().message;
            return;
        }
        const MapOptimizerRun& best = runs.runs[static_cast<std::size_t>(runs.best)];
        fit.status = best.status;
        fit.hyperparameters = objective.hyperparameters(best.theta);
        fit.log_joint_density = best.value;
        LmlWorkspace lml_workspace(*likelihood_data);
        fit.log_marginal_likelihood =
            log_marginal_likelihood(*likelihood_data, to_unconstrained(fit.hyperparameters, likelihood_data->layout()),
                                    nullptr, lml_workspace)
                .value;
        fit.iterations = best.iterations;
        fit.message = best.message;
    };
    if (pool) {
        pool->parallel_for(static_cast<int>(taus), fit_tau);
    } else {
        for (std::size_t t = 0; t < taus; ++t) fit_tau(static_cast<int>(t));
    }
    const bool was_cancelled = std::find(cancelled.begin(), cancelled.end(), 1) != cancelled.end();

    int best = -1;
    for (std::size_t i = 0; i < result.fits.size(); ++i) {
        const SaasMapFit& fit = result.fits[i];
        if (fit.status == FitStatus::Failed) continue;
        if (best < 0 || fit.log_joint_density > result.fits[static_cast<std::size_t>(best)].log_joint_density)
            best = static_cast<int>(i);
    }
    if (was_cancelled) {
        result.fits.clear();
        result.status = FitStatus::Cancelled;
        result.message = "cancelled";
        return result;
    }
    if (best < 0) {
        result.status = FitStatus::Failed;
        result.message = "the SAAS posterior was not finite at any start";
        return result;
    }
    result.status = FitStatus::Converged;
    const auto keep = [&result](const SaasMapFit& fit) {
        result.ensemble.push_back(fit.hyperparameters);
        if (result.status == FitStatus::Converged && fit.status != FitStatus::Converged) {
            result.status = fit.status;
            result.message = "tau " + format_number(fit.global_shrinkage) + ": " + fit.message;
        }
    };
    if (options.ensemble == SaasMapEnsemble::Best) {
        keep(result.fits[static_cast<std::size_t>(best)]);
    } else {
        for (const SaasMapFit& fit : result.fits)
            if (fit.status != FitStatus::Failed) keep(fit);
    }
    return result;
}

}  // namespace sebo
