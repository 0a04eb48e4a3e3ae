#pragma once
// How much each input matters to a fitted surrogate: its inverse squared lengthscale
// ρ_d = 1/ℓ_d², the quantity the SAAS prior shrinks towards zero for irrelevant inputs (SEBO
// paper §2; Eriksson & Jankowiak 2021, §4, who rank inputs by the posterior median of ρ_d).
// Over a set of hyperparameter samples (NUTS draws, a MAP ensemble, or a single MAP fit) the
// relevance is the median of ρ_d, with a lower and an upper quantile as its spread.

#include <vector>

#include "core/quantile.h"
#include "model/gp_hyperparameters.h"

namespace sebo {

struct ParameterRelevance {
    int parameter = 0;    // input index d
    double median = 0.0;  // median of ρ_d over the samples
    double low = 0.0;     // the low quantile of ρ_d
    double high = 0.0;    // the high quantile of ρ_d
};

// One entry per input, sorted by decreasing median (ties by index). Quantiles interpolate
// linearly between order statistics (core/quantile.h); 0 ≤ low_quantile ≤
// high_quantile ≤ 1. Requires at least one sample, all of the same dimension.
std::vector<ParameterRelevance> parameter_relevance(const std::vector<GpHyperparameters>& samples,
                                                    double low_quantile = 0.1, double high_quantile = 0.9);

}  // namespace sebo
