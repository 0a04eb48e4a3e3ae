#pragma once
// How noisy a fitted model says the measurements are (issue 30): the noise standard deviation in
// the model's standardized units, where the training values have standard deviation 1 — so it is
// the noise as a share of the objective's spread. Below kNegligibleNoise the measured values are
// trusted as they are (today's acquisitions, the raw frontier); at or above it the noisy
// acquisitions and the model's estimates are used (MethodSettings::noisy_acquisition "auto",
// docs/method.md "Noisy measurements").

#include "model/ensemble_posterior.h"

namespace sebo {

inline constexpr double kNegligibleNoise = 0.05;

// sqrt of the members' mean noise variance: each member's inferred noise plus the mean of the
// known noise variances of the data (observations reported with a standard error).
double noise_sd(const EnsemblePosterior& posterior);

inline bool noise_negligible(const EnsemblePosterior& posterior) { return noise_sd(posterior) < kNegligibleNoise; }

}  // namespace sebo
