#pragma once
// Log densities of the scalar priors used by the GP fits (model/gp_map_fit.h,
// model/saas_prior.h), each with its derivative with respect to the variable, so that prior
// gradients compose with the likelihood gradient by the chain rule. All are normalized.

namespace sebo {

struct ScalarLogDensity {
    double value = 0.0;       // log p(x)
    double derivative = 0.0;  // d log p / dx
};

// N(mean, stddev²).
ScalarLogDensity normal_log_density(double x, double mean, double stddev);
// LogNormal(μ, σ): log x ~ N(μ, σ²); x > 0.
ScalarLogDensity log_normal_log_density(double x, double mu, double sigma);
// Gamma(shape, rate): p(x) ∝ x^(shape−1) exp(−rate·x); x > 0.
ScalarLogDensity gamma_log_density(double x, double shape, double rate);
// HalfCauchy(scale): p(x) = 2 / (π scale (1 + (x/scale)²)); x ≥ 0.
ScalarLogDensity half_cauchy_log_density(double x, double scale);

}  // namespace sebo
