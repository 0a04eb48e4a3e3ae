#include "model/saas_nuts_fit.h"

#include <chrono>

namespace sebo {

std::optional<std::string> SaasNutsOptions::validate() const {
    if (auto e = nuts.validate()) return e;
    if (auto e = prior.validate()) return e;
    return std::nullopt;
}

SaasNutsFit fit_saas_nuts(std::shared_ptr<const LikelihoodData> data, const SaasNutsOptions& options, std::uint64_t seed,
                          const NutsProgressCallback& progress, std::stop_token stop) {
    const auto start = std::chrono::steady_clock::now();
    SaasNutsFit fit;
    SaasLogDensity density(std::move(data), options.prior);
    // The sampler calls the density sequentially; SaasLogDensity keeps its workspace inside, so
    // one instance serves the whole run without allocations.
    const LogDensity log_density = [&density](const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
        return density(theta, gradient);
    };
    NutsOptions nuts = options.nuts;
    if (options.automatic_metric) {
        const bool dense = density.data().num_points() >= 50;
        nuts.metric = dense ? NutsMetric::Dense : NutsMetric::Diagonal;
        nuts.dense_min_draws_per_dimension = dense ? 2.0 : 0.0;
    }
    fit.sampler = run_nuts(log_density, density.initial_point(), nuts, seed, progress, stop);
    fit.status = fit.sampler.status;
    fit.message = fit.sampler.message;
    if (fit.status == NutsResult::Status::Completed) {
        for (Eigen::Index k = 0; k < fit.sampler.draws.rows(); ++k)
            fit.samples.push_back(density.hyperparameters(fit.sampler.draws.row(k).transpose()));
    }
    fit.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return fit;
}

}  // namespace sebo
