#include "model/credible_interval.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace sebo {

double mixture_quantile(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double p) {
    assert(mean.size() > 0 && mean.size() == var.size() && p > 0.0 && p < 1.0);
    const Eigen::VectorXd sd = var.cwiseMax(0.0).cwiseSqrt();
    const double spread = std::max(sd.maxCoeff(), 1e-12);
    double lo = mean.minCoeff() - 10.0 * spread, hi = mean.maxCoeff() + 10.0 * spread;
    const auto cdf = [&](double z) {
        double total = 0.0;
        for (Eigen::Index s = 0; s < mean.size(); ++s)
            total += sd[s] > 0.0 ? 0.5 * std::erfc(-(z - mean[s]) / (sd[s] * std::sqrt(2.0))) : (z >= mean[s] ? 1.0 : 0.0);
        return total / static_cast<double>(mean.size());
    };
    for (int i = 0; i < 200 && hi - lo > 1e-12 * std::max(1.0, std::abs(lo) + std::abs(hi)); ++i) {
        const double mid = 0.5 * (lo + hi);
        (cdf(mid) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

}  // namespace sebo
