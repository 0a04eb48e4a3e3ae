#include "model/surrogate.h"

#include <chrono>

#include "model/input_encoding.h"

namespace sebo {

std::optional<std::string> SurrogateOptions::validate() const {
    switch (kind) {
    case SurrogateKind::Gp: return gp.validate();
    case SurrogateKind::SaasNuts: return saas_nuts.validate();
    case SurrogateKind::SaasMap: return saas_map.validate();
    }
    return std::nullopt;
}

SurrogateFit fit_surrogate(std::shared_ptr<const TrainingData> data, const SurrogateOptions& options, std::uint64_t seed,
                           const std::function<void(int, int)>& progress, std::stop_token stop, ThreadPool* pool,
                           const NutsWarmStart* warm) {
    const auto start = std::chrono::steady_clock::now();
    SurrogateFit fit;
    // The hyperparameters are fitted to the GP's inputs: the features of the points when the
    // space has choices (model/input_encoding.h), the points themselves otherwise.
    const std::shared_ptr<const TrainingData> model_data = data->encoding ? encoded_training_data(*data) : data;
    auto finish = [&](SurrogateFit::Status status, std::string message) {
        fit.status = status;
        fit.message = std::move(message);
        fit.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (status == SurrogateFit::Status::Ok) {
            auto posterior = std::make_shared<const EnsemblePosterior>(data, fit.samples);
            if (posterior->empty()) {
                fit.status = SurrogateFit::Status::Failed;
                fit.message = "no hyperparameter sample gave a factorizable covariance";
            } else {
                fit.posterior = std::move(posterior);
            }
        }
        return fit;
    };
    switch (options.kind) {
    case SurrogateKind::Gp: {
        GpMapOptions gp = options.gp;
        gp.seed = seed;
        if (progress) progress(0, 1);
        const GpMapResult r = fit_gp_map(*model_data, gp, stop);
        fit.map_status = r.status;
        if (r.status == FitStatus::Cancelled || stop.stop_requested()) return finish(SurrogateFit::Status::Cancelled, "cancelled");
        if (r.status == FitStatus::Failed) return finish(SurrogateFit::Status::Failed, "GP fit failed: " + r.message);
        fit.samples = {r.hyperparameters};
        return finish(SurrogateFit::Status::Ok, r.message);
    }
    case SurrogateKind::SaasMap: {
        SaasMapOptions o = options.saas_map;
        o.seed = seed;
        if (progress) progress(0, 1);
        const SaasMapResult r = fit_saas_map(*model_data, o, stop, pool);
        fit.map_status = r.status;
        if (r.status == FitStatus::Cancelled || stop.stop_requested()) return finish(SurrogateFit::Status::Cancelled, "cancelled");
        if (r.status == FitStatus::Failed || r.ensemble.empty())
            return finish(SurrogateFit::Status::Failed, "SAAS-MAP fit failed: " + r.message);
        fit.samples = r.ensemble;
        return finish(SurrogateFit::Status::Ok, r.message);
    }
    case SurrogateKind::SaasNuts: {
        auto likelihood = std::make_shared<const LikelihoodData>(*model_data);
        const NutsProgressCallback nuts_progress = [&](const NutsProgress& p) {
            if (progress) progress(p.iteration, p.total);
        };
        SaasNutsFit r = fit_saas_nuts(likelihood, options.saas_nuts, seed, nuts_progress, stop, pool, warm);
        fit.sampled = true;
        fit.chains = static_cast<int>(r.chains.size());
        fit.warmup = r.warmup;
        fit.start = r.start;
        fit.cold_start_reason = r.cold_start_reason;
        fit.gradient_evaluations = r.gradient_evaluations;
        if (!r.chains.empty()) {
            double depth = 0.0, acceptance = 0.0;
            for (const NutsResult& chain : r.chains) {
                depth += chain.mean_tree_depth;
                acceptance += chain.mean_acceptance;
            }
            fit.mean_tree_depth = depth / static_cast<double>(r.chains.size());
            fit.mean_acceptance = acceptance / static_cast<double>(r.chains.size());
        }
        fit.step_size = r.next.step_size;
        fit.divergences = r.diagnostics.divergences;
        fit.diagnostics = std::move(r.diagnostics);
        fit.next = std::move(r.next);
        if (r.status == NutsResult::Status::Cancelled || stop.stop_requested())
            return finish(SurrogateFit::Status::Cancelled, "cancelled");
        if (r.status != NutsResult::Status::Completed || r.samples.empty())
            return finish(SurrogateFit::Status::Failed, "NUTS failed: " + r.message);
        fit.samples = std::move(r.samples);
        return finish(SurrogateFit::Status::Ok, r.message);
    }
    }
    return finish(SurrogateFit::Status::Failed, "unknown model");
}

void EnsemblePosteriorView::moments(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var,
                                    Eigen::MatrixXd* dmean, Eigen::MatrixXd* dvar) const {
    if (!dmean && !dvar) {
        posterior_->moments_at(x, mean, var);
        return;
    }
    const Eigen::MatrixXd X = x.transpose();
    const EnsembleMomentsWithGradients m = posterior_->predict_with_gradients(X);
    mean = m.mean.row(0).transpose();
    var = m.variance.row(0).transpose();
    const Eigen::Index s_count = m.mean.cols(), d = x.size();
    if (dmean) {
        dmean->resize(d, s_count);
        for (Eigen::Index s = 0; s < s_count; ++s) dmean->col(s) = m.mean_gradient[static_cast<std::size_t>(s)].row(0).transpose();
    }
    if (dvar) {
        dvar->resize(d, s_count);
        for (Eigen::Index s = 0; s < s_count; ++s) dvar->col(s) = m.variance_gradient[static_cast<std::size_t>(s)].row(0).transpose();
    }
}

PosteriorView::MomentsPullback EnsemblePosteriorView::moments_with_pullback(const Eigen::VectorXd& x, Eigen::VectorXd& mean,
                                                                          Eigen::VectorXd& var) const {
    auto workspace = std::make_shared<EnsemblePosterior::PointWorkspace>();
    posterior_->moments_at(x, mean, var, workspace.get());
    return [posterior = posterior_, workspace](const Eigen::VectorXd& dmean, const Eigen::VectorXd& dvar) {
        return posterior->gradient(*workspace, dmean, dvar);
    };
}

void EnsemblePosteriorView::batch_moments(const Eigen::MatrixXd& X, Eigen::MatrixXd& mean, Eigen::MatrixXd& var) const {
    EnsembleMoments m = posterior_->predict(X);
    mean = std::move(m.mean);
    var = std::move(m.variance);
}

}  // namespace sebo
