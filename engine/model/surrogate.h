#pragma once
// One entry point for fitting the surrogate of a step: the standard GP (MAP), the SAAS GP
// sampled with NUTS (the paper's model), or SAAS-MAP — always as an EnsemblePosterior (a MAP
// fit is an ensemble of one), with the diagnostics a user or log needs.

#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

#include "acquisition/posterior_view.h"
#include "model/ensemble_posterior.h"
#include "model/gp_map_fit.h"
#include "model/saas_map.h"
#include "model/saas_nuts_fit.h"
#include "model/training_data.h"

namespace sebo {

enum class SurrogateKind { Gp, SaasNuts, SaasMap };

struct SurrogateOptions {
    SurrogateKind kind = SurrogateKind::SaasNuts;
    GpMapOptions gp;
    SaasNutsOptions saas_nuts;
    SaasMapOptions saas_map;

    std::optional<std::string> validate() const;
};

struct SurrogateFit {
    enum class Status { Ok, Cancelled, Failed };
    Status status = Status::Failed;
    std::string message;
    std::shared_ptr<const EnsemblePosterior> posterior;
    std::vector<GpHyperparameters> samples;
    double seconds = 0.0;
    // NUTS diagnostics (SAAS-NUTS only).
    bool sampled = false;
    double step_size = 0.0;
    double mean_tree_depth = 0.0;
    double mean_acceptance = 0.0;
    int divergences = 0;
    long long gradient_evaluations = 0;
    // MAP fits (GP and SAAS-MAP) only: how the optimization ended (GpMapResult / SaasMapResult status).
    FitStatus map_status = FitStatus::Converged;
};

// progress(iteration, total) is called during NUTS sampling (per iteration) and per MAP start.
SurrogateFit fit_surrogate(std::shared_ptr<const TrainingData> data, const SurrogateOptions& options, std::uint64_t seed,
                           const std::function<void(int, int)>& progress = {}, std::stop_token stop = {});

// The ensemble as the acquisition functions see it (acquisition/posterior_view.h).
class EnsemblePosteriorView final : public PosteriorView {
public:
    explicit EnsemblePosteriorView(std::shared_ptr<const EnsemblePosterior> posterior) : posterior_(std::move(posterior)) {}
    int dimension() const override { return posterior_->dimension(); }
    int sample_count() const override { return posterior_->size(); }
    void moments(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var, Eigen::MatrixXd* dmean,
                 Eigen::MatrixXd* dvar) const override;
    void batch_moments(const Eigen::MatrixXd& X, Eigen::MatrixXd& mean, Eigen::MatrixXd& var) const override;
    const EnsemblePosterior& posterior() const { return *posterior_; }

private:
    std::shared_ptr<const EnsemblePosterior> posterior_;
};

}  // namespace sebo
