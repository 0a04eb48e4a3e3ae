#pragma once
// SAAS-MAP: a fast alternative to sampling the SAAS posterior with NUTS (SPEC §2: "A fast MAP
// variant of SAAS is an option, not a replacement"). For each global shrinkage τ on a small
// grid, the mode of the SAAS posterior over the remaining hyperparameters is found with
// multi-start L-BFGS-B; the fits are then either all kept as an equally weighted ensemble
// (as BoTorch's MAP-SAAS ensembles do) or the single best is kept.
//
// The modes are those of the posterior density over the natural hyperparameters
// (λ_d, σ², noise excess, m) — no log-Jacobians, unlike SaasLogDensity. This matters: the
// half-Cauchy density of λ_d is largest at 0, so the mode switches irrelevant dimensions off,
// whereas the density of log λ_d (with its Jacobian) peaks at λ_d = 1 and would not. The value
// maximized is the joint density log p(y, τ, λ, σ², noise, m) at fixed τ, which is what ranks
// fits of different τ.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "model/gp_hyperparameters.h"
#include "model/map_optimizer.h"
#include "model/marginal_likelihood.h"
#include "model/saas_prior.h"
#include "model/training_data.h"

namespace sebo {

class ThreadPool;

enum class SaasMapEnsemble {
    Best,  // keep the fit with the highest joint density
    All    // keep every τ's fit, equally weighted
};

struct SaasMapOptions {
    SaasPriorOptions prior;
    // Values of τ to fit at; the default spans the bulk of τ's HalfCauchy(0.1) prior
    // (its quartiles are 0.04, 0.1 and 0.24).
    std::vector<double> global_shrinkages = {0.01, 0.03, 0.1, 0.3};
    SaasMapEnsemble ensemble = SaasMapEnsemble::Best;
    int restarts = 3;  // L-BFGS-B starts per τ: the first at λ_d = 1, the others random
    MapOptimizerOptions optimizer;
    // The box of the search in natural units (the optimizer works on logarithms; λ_d's bounds
    // follow from ρ_d = τ λ_d).
    double min_inverse_squared_lengthscale = 1e-6;
    double max_inverse_squared_lengthscale = 1e4;
    double min_output_scale = 0.01;
    double max_output_scale = 100.0;
    double min_noise_excess = 1e-6;  // noise − prior.noise_floor (inferred noise only)
    double max_noise_excess = 10.0;
    double max_abs_mean = 10.0;
    std::uint64_t seed = 0;  // random starts

    // Empty when valid; otherwise a message naming the field.
    std::optional<std::string> validate() const;
};

// One τ's fit.
struct SaasMapFit {
    double global_shrinkage = 0.0;
    GpHyperparameters hyperparameters;
    double log_joint_density = 0.0;        // the maximized value (−∞ when the fit failed)
    double log_marginal_likelihood = 0.0;  // log p(y | hyperparameters)
    FitStatus status = FitStatus::Failed;
    int iterations = 0;   // of the best start
    int evaluations = 0;  // over all starts
    std::string message;
};

struct SaasMapResult {
    // Failed when no τ gave a finite value; Cancelled when the stop token fired first;
    // otherwise Converged, or the status of the first kept fit that did not converge.
    FitStatus status = FitStatus::Failed;
    std::vector<GpHyperparameters> ensemble;  // what to condition the GPs on
    std::vector<SaasMapFit> fits;             // every τ that was fitted, in the order of the grid
    std::string message;
};

// The MAP objective at fixed τ over θ' = [log λ_1 … log λ_D, log σ², log(noise − floor), m]
// (the noise entry only when inferred): log p(y | ·) + log p(τ) + Σ log p(λ_d) + log p(σ²)
// + log p(noise − floor) + log p(m), with its gradient. Holds its own workspace.
class SaasMapObjective {
public:
    SaasMapObjective(std::shared_ptr<const LikelihoodData> data, SaasPriorOptions prior, double global_shrinkage);

    int size() const { return density_.layout().size() - 1; }
    double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient);
    // The SAAS coordinates [log τ, θ'] of θ'.
    Eigen::VectorXd saas_theta(const Eigen::VectorXd& theta) const;
    GpHyperparameters hyperparameters(const Eigen::VectorXd& theta) const;

private:
    SaasLogDensity density_;
    double log_global_shrinkage_;
    Eigen::VectorXd full_theta_;
    Eigen::VectorXd full_gradient_;
};

// Fits data (valid; y standardized). Deterministic for options.seed; checks the stop token
// between restarts. With a pool the τ values are fitted side by side, with the same results.
SaasMapResult fit_saas_map(const TrainingData& data, const SaasMapOptions& options, std::stop_token stop = {},
                           ThreadPool* pool = nullptr);

}  // namespace sebo
