#pragma once
// Hyperparameters of the GP surrogate (SPEC §2 "Models"): a Matérn-5/2 ARD kernel with an
// output scale, a constant mean and Gaussian noise, over inputs in the unit cube and a
// standardized objective.
//
// Lengthscales are stored as inverse squared lengthscales ρ_d = 1/ℓ_d², the parameterization
// of the SAAS prior (SEBO paper §2; Eriksson & Jankowiak 2021): an irrelevant dimension is
// ρ_d → 0 (finite) rather than ℓ_d → ∞, and the kernel depends on ρ linearly through
// r² = Σ_d ρ_d (x_d − x'_d)², which makes the likelihood gradient one matrix–vector product.

#include <Eigen/Core>
#include <optional>
#include <string>

namespace sebo {

struct GpHyperparameters {
    Eigen::VectorXd inverse_squared_lengthscales;  // ρ_d = 1/ℓ_d² ≥ 0, one per input dimension
    double output_scale = 1.0;                     // σ² > 0, the prior variance of f
    // Homoscedastic noise variance ≥ 0. When the training data carries known per-point noise
    // variances it is added to them (and is 0 unless extra noise is wanted).
    double noise = 1e-4;
    double mean = 0.0;  // constant prior mean

    int dimension() const { return static_cast<int>(inverse_squared_lengthscales.size()); }
    // ℓ_d = 1/√ρ_d (+∞ where ρ_d = 0).
    Eigen::VectorXd lengthscales() const;
    // Empty when usable; otherwise a message naming the field ("noise: -1 is negative").
    std::optional<std::string> validate() const;
};

// The unconstrained vector in which the marginal likelihood is differentiated and the MAP fit
// optimizes: θ = [log ρ_1 … log ρ_D, log σ², log noise, mean], where the log-noise entry is
// present only when the noise is inferred (no known per-point variances).
struct UnconstrainedLayout {
    int dimension = 0;
    bool noise_inferred = true;

    int size() const { return dimension + (noise_inferred ? 3 : 2); }
    int output_scale_index() const { return dimension; }
    int noise_index() const { return dimension + 1; }  // only meaningful when noise_inferred
    int mean_index() const { return dimension + (noise_inferred ? 2 : 1); }
};

// h → θ. Requires h.dimension() == layout.dimension, ρ_d > 0, σ² > 0 and (when inferred) noise > 0.
Eigen::VectorXd to_unconstrained(const GpHyperparameters& h, const UnconstrainedLayout& layout);
// θ → h; noise is 0 when it is not inferred.
GpHyperparameters from_unconstrained(const Eigen::VectorXd& theta, const UnconstrainedLayout& layout);

}  // namespace sebo
