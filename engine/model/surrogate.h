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

#include "model/posterior_view.h"
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
    // NUTS diagnostics (SAAS-NUTS only), over all chains of the run that made the samples.
    bool sampled = false;
    double step_size = 0.0;        // geometric mean of the chains' adapted step sizes
    double mean_tree_depth = 0.0;
    double mean_acceptance = 0.0;
    int divergences = 0;           // after warm-up
    long long gradient_evaluations = 0;
    int chains = 0;
    int warmup = 0;                // warm-up iterations of each chain
    SaasNutsStart start = SaasNutsStart::Full;  // where the chains started
    std::string cold_start_reason;  // why shorter starts were passed over
    SaasNutsDiagnostics diagnostics;  // R-hat and bulk-ESS
    NutsWarmStart next;               // the state for the next fit's warm start
    // MAP fits (GP and SAAS-MAP) only: how the optimization ended (GpMapResult / SaasMapResult status).
    FitStatus map_status = FitStatus::Converged;
};

// progress(iteration, total) is called during NUTS sampling (per iteration, all chains added up)
// and per MAP start, on the calling thread. `pool` runs NUTS chains side by side; `warm` is the
// state an earlier SAAS-NUTS fit left (model/saas_nuts_fit.h); both are optional.
SurrogateFit fit_surrogate(std::shared_ptr<const TrainingData> data, const SurrogateOptions& options, std::uint64_t seed,
                           const std::function<void(int, int)>& progress = {}, std::stop_token stop = {},
                           ThreadPool* pool = nullptr, const NutsWarmStart* warm = nullptr);

// The ensemble as the acquisition functions see it (model/posterior_view.h).
class EnsemblePosteriorView final : public PosteriorView {
public:
    explicit EnsemblePosteriorView(std::shared_ptr<const EnsemblePosterior> posterior) : posterior_(std::move(posterior)) {}
    int dimension() const override { return posterior_->dimension(); }
    int sample_count() const override { return posterior_->size(); }
    void moments(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var, Eigen::MatrixXd* dmean,
                 Eigen::MatrixXd* dvar) const override;
    void batch_moments(const Eigen::MatrixXd& X, Eigen::MatrixXd& mean, Eigen::MatrixXd& var) const override;
    MomentsPullback moments_with_pullback(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var) const override;
    const EnsemblePosterior& posterior() const { return *posterior_; }

private:
    std::shared_ptr<const EnsemblePosterior> posterior_;
};

}  // namespace sebo
