#pragma once
// Quantiles of a model's predictive distribution at a point: an equally weighted mixture of
// Gaussians, one per model sample (S = 1 for a MAP GP, 16 for the SAAS samples). The credible
// intervals of recommendations (experiment/recommendations.h) are its 2.5 % and 97.5 % quantiles.

#include <Eigen/Core>

namespace sebo {

// The p-quantile (0 < p < 1) of (1/S) Σ_s N(mean_s, var_s), by bisection on the mixture's CDF to a
// relative 1e-12; a sample with zero variance is a point mass.
double mixture_quantile(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double p);

}  // namespace sebo
