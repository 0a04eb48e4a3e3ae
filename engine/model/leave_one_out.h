#pragma once
// Leave-one-out predictive checks of a fitted GP or GP ensemble, in closed form (Rasmussen &
// Williams 2006, "Gaussian Processes for Machine Learning", §5.4.2, eqs. 5.10–5.12): with
// K = σ² C(X, X) + noise (the training covariance, as factored by GaussianProcess) and
// α = K⁻¹ (y − m), the predictive distribution of y_i given the other n − 1 observations is
//     y_i | y_−i ~ N(μ_i, σ_i²),   μ_i = y_i − α_i / [K⁻¹]_ii,   σ_i² = 1 / [K⁻¹]_ii,
// which costs one inverse of K instead of n refits. The hyperparameters are held fixed at the
// fitted values (they were chosen with y_i included), so these are slightly optimistic
// estimates of out-of-sample accuracy — what the formulas give, not a refit cross-validation.
// For an ensemble the prediction is the equally weighted mixture over the members, as the
// acquisitions average over them (ensemble_posterior.h).

#include <Eigen/Core>

#include "model/ensemble_posterior.h"
#include "model/gaussian_process.h"

namespace sebo {

// Per training point i: the predictive distribution of the observation y_i (noise included)
// given the others, in the data's (standardized) units.
struct LeaveOneOutPredictions {
    Eigen::VectorXd mean;      // μ_i
    Eigen::VectorXd variance;  // σ_i² > 0
};

// Requires gp.status().ok. Uses the same covariance (and jitter) as the GP's factorization.
LeaveOneOutPredictions leave_one_out(const GaussianProcess& gp);

struct LeaveOneOutScore {
    Eigen::VectorXd mean;     // mixture mean of each y_i given the others
    double rmse = 0.0;        // root mean squared error of those means, standardized units
    // (1/n) Σ_i log( (1/S) Σ_s N(y_i; μ_si, σ_si²) ), standardized units (the density of the
    // objective in its own units is this minus log(standardizer scale)).
    double mean_log_predictive_density = 0.0;
};

// Requires !posterior.empty().
LeaveOneOutScore leave_one_out_score(const EnsemblePosterior& posterior);

}  // namespace sebo
