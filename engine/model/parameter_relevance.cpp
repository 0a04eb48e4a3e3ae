#include "model/parameter_relevance.h"

#include <algorithm>
#include <cassert>

namespace sebo {

std::vector<ParameterRelevance> parameter_relevance(const std::vector<GpHyperparameters>& samples, double low_quantile,
                                                    double high_quantile) {
    assert(!samples.empty() && 0.0 <= low_quantile && low_quantile <= high_quantile && high_quantile <= 1.0);
    const int dimension = samples.front().dimension();
    std::vector<ParameterRelevance> out;
    out.reserve(static_cast<std::size_t>(dimension));
    std::vector<double> rho(samples.size());
    for (int d = 0; d < dimension; ++d) {
        for (std::size_t s = 0; s < samples.size(); ++s) {
            assert(samples[s].dimension() == dimension);
            rho[s] = samples[s].inverse_squared_lengthscales[d];
        }
        out.push_back({d, quantile(rho, 0.5), quantile(rho, low_quantile), quantile(rho, high_quantile)});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ParameterRelevance& a, const ParameterRelevance& b) { return a.median > b.median; });
    return out;
}

}  // namespace sebo
