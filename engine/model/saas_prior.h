#pragma once
// The sparse axis-aligned subspace (SAAS) prior of Eriksson & Jankowiak (2021), the model of
// SEBO (paper §2: "τ ~ HC(α), ρ_i ~ HC(τ)"; §6: "we use the same hyperparameters as suggested
// by Eriksson & Jankowiak"), with the reference implementation's hyperpriors (SPEC §9):
//
//     τ   ~ HalfCauchy(0.1)                   global shrinkage
//     λ_d ~ HalfCauchy(1),  ρ_d = τ λ_d       inverse squared lengthscales (ρ_d ~ HC(τ))
//     σ²  ~ Gamma(2, rate 0.15)               output scale
//     noise = 1e-4 + ε,  ε ~ Gamma(0.9, rate 10)   (only when the noise is inferred)
//     m   ~ N(0, 1)                           constant mean
//
// The half-Cauchy priors put most mass near zero and heavy tails above it, so dimensions the
// data do not support are switched off (ρ_d → 0, an infinite lengthscale) while the few that
// matter can take large values — which is what makes the SAAS GP work with 50 parameters and
// 20 observations.
//
// SaasLogDensity is the log posterior density in the unconstrained coordinates
//     θ = [log τ, log λ_1 … log λ_D, log σ², log(noise − 1e-4), m]
// (the noise entry only when it is inferred), including the log-Jacobians of those
// transformations, so that a sampler in θ (model/nuts.h) targets the SAAS posterior.

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>

#include "model/gp_hyperparameters.h"
#include "model/marginal_likelihood.h"

namespace sebo {

struct SaasPriorOptions {
    double global_shrinkage_scale = 0.1;  // τ ~ HalfCauchy(scale); λ_d ~ HalfCauchy(1) is fixed
    double output_scale_shape = 2.0;      // σ² ~ Gamma(shape, rate)
    double output_scale_rate = 0.15;
    double noise_shape = 0.9;  // noise − floor ~ Gamma(shape, rate)
    double noise_rate = 10.0;
    double noise_floor = 1e-4;
    double mean_stddev = 1.0;  // m ~ N(0, stddev²)

    // Empty when valid; otherwise a message naming the field.
    std::optional<std::string> validate() const;
};

// Positions in θ.
struct SaasLayout {
    int dimension = 0;
    bool noise_inferred = true;

    int size() const { return dimension + (noise_inferred ? 4 : 3); }
    static constexpr int global_shrinkage_index() { return 0; }
    static constexpr int local_shrinkage_index(int d) { return 1 + d; }
    int output_scale_index() const { return dimension + 1; }
    int noise_index() const { return dimension + 2; }  // only meaningful when noise_inferred
    int mean_index() const { return dimension + (noise_inferred ? 3 : 2); }
};

// log p(θ | y) up to the evidence, with its gradient: a LogDensity for model/nuts.h. Holds its
// own workspace: copies are independent (one per thread) and share the read-only data.
class SaasLogDensity {
public:
    SaasLogDensity(std::shared_ptr<const LikelihoodData> data, SaasPriorOptions options = {});

    const SaasLayout& layout() const { return layout_; }
    const SaasPriorOptions& options() const { return options_; }
    const LikelihoodData& data() const { return *data_; }

    // Writes ∇ into `gradient` (resized to θ's size). −∞ (with a zero gradient) where the
    // hyperparameters overflow or the covariance does not factor even with jitter.
    double operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& gradient);

    // The GP hyperparameters θ stands for: ρ_d = τ λ_d, σ², noise = floor + ε (0 when the noise
    // is known), m.
    GpHyperparameters hyperparameters(const Eigen::VectorXd& theta) const;

    // A central starting point for samplers and optimizers: τ = 0.1, λ_d = 1, σ² = 1,
    // noise = floor + 0.01, m = 0.
    Eigen::VectorXd initial_point() const;

private:
    std::shared_ptr<const LikelihoodData> data_;
    SaasPriorOptions options_;
    SaasLayout layout_;
    LmlWorkspace workspace_;
    Eigen::VectorXd gp_theta_;     // the standard layout θ of the likelihood
    Eigen::VectorXd gp_gradient_;  // ∂L/∂(that θ)
};

}  // namespace sebo
