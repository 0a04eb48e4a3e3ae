#pragma once
// MAP fit of the standard GP (SPEC §2 "Standard GP … hyperparameters by MAP with multi-start
// L-BFGS-B and analytic gradients"; the GPEI baseline of the SEBO paper, §6): maximizes
//     log p(y | θ) + log p(θ)
// over θ = [log ρ_1 … log ρ_D, log σ², log noise (when inferred), mean] in a box.
//
// Priors (GpMapPriors), each a density on the hyperparameter itself (not on its logarithm),
// as BoTorch evaluates its priors; the MAP is therefore the mode of the posterior density over
// (ℓ, σ², noise, m), found in log coordinates:
//   - lengthscales ℓ_d = ρ_d^(−1/2) ~ LogNormal(√2 + log(D)/2, √3), the dimension-scaled prior
//     of Hvarfner, Hellsten & Nardi (2024, "Vanilla Bayesian optimization performs great in
//     high dimensions"), which BoTorch adopted as its default in 2024: its scale grows like √D so the
//     prior expected complexity of f does not grow with D;
//   - output scale σ² ~ Gamma(2, rate 0.15), BoTorch's classic output-scale prior (the same
//     as the SAAS model's), weak for standardized y;
//   - noise variance ~ Gamma(1.1, rate 0.05), BoTorch's classic noise prior, with a floor
//     (GpMapOptions::min_noise) that keeps K well conditioned for noise-free objectives;
//   - constant mean m ~ N(0, 1), matching the standardized y.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <numbers>
#include <optional>
#include <stop_token>
#include <string>

#include "model/gp_hyperparameters.h"
#include "model/map_optimizer.h"
#include "model/marginal_likelihood.h"
#include "model/training_data.h"

namespace sebo {

struct GpMapPriors {
    // ℓ_d ~ LogNormal(μ, σ) with μ = lengthscale_location_offset + log(D)/2 and σ = lengthscale_log_scale.
    double lengthscale_location_offset = std::numbers::sqrt2;
    double lengthscale_log_scale = std::numbers::sqrt3;
    double output_scale_shape = 2.0;  // σ² ~ Gamma(shape, rate)
    double output_scale_rate = 0.15;
    double noise_shape = 1.1;  // noise ~ Gamma(shape, rate)
    double noise_rate = 0.05;
    double mean_stddev = 1.0;  // m ~ N(0, mean_stddev²)

    std::optional<std::string> validate() const;
};

struct GpMapOptions {
    GpMapPriors priors;
    int restarts = 5;  // L-BFGS-B starts: the first at the prior's mode, the others random
    MapOptimizerOptions optimizer;
    // The box of the search, in natural units (the optimizer works on their logarithms).
    double min_lengthscale = 0.01;
    double max_lengthscale = 1000.0;
    double min_output_scale = 0.01;
    double max_output_scale = 100.0;
    // Noise floor (inferred noise only). Lower than BoTorch's 1e-4 so that the GP can
    // interpolate noise-free benchmark objectives closely; K stays well conditioned at 1e-6
    // for standardized data (and jitter covers the rest).
    double min_noise = 1e-6;
    double max_noise = 10.0;
    double max_abs_mean = 10.0;
    std::uint64_t seed = 0;  // random starts

    // Empty when valid; otherwise a message naming the field ("gp_map.restarts: 0 is not positive").
    std::optional<std::string> validate() const;
};

struct GpMapResult {
    // Of the best run; Failed when no run gave a finite value, Cancelled when the stop token
    // fired before every restart had run.
    FitStatus status = FitStatus::Failed;
    GpHyperparameters hyperparameters;  // the best run's (empty when no run gave a finite value)
    double log_posterior = 0.0;            // log p(y | θ) + log p(θ) at the optimum
    double log_marginal_likelihood = 0.0;  // log p(y | θ) at the optimum
    int iterations = 0;                    // of the best run
    int evaluations = 0;                   // over all runs
    int restarts_run = 0;
    int restarts_failed = 0;
    std::string message;  // the best run's solver message, or why the fit failed
};

// The MAP objective log p(y | θ) + log p(θ) with its gradient, as a callable over θ laid out as
// data->layout(). Holds its own workspace: copies are independent, one copy per thread.
class GpMapObjective {
public:
    GpMapObjective(std::shared_ptr<const LikelihoodData> data, GpMapPriors priors);

    double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient);
    // log p(θ) alone, with its gradient.
    double log_prior(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) const;

    const LikelihoodData& data() const { return *data_; }

private:
    std::shared_ptr<const LikelihoodData> data_;
    GpMapPriors priors_;
    double lengthscale_location_;  // μ of the lengthscale prior for this D
    LmlWorkspace workspace_;
    Eigen::VectorXd prior_gradient_;
};

// Fits the hyperparameters to data (valid; y standardized). Deterministic for options.seed.
// Checks the stop token between restarts.
GpMapResult fit_gp_map(const TrainingData& data, const GpMapOptions& options, std::stop_token stop = {});

}  // namespace sebo
