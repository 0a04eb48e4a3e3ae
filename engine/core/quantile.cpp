#include "core/quantile.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace sebo {

double sorted_quantile(const std::vector<double>& sorted, double q) {
    assert(!sorted.empty() && q >= 0.0 && q <= 1.0);
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    return std::lerp(sorted[below], sorted[above], position - static_cast<double>(below));
}

double quantile(std::vector<double> values, double q) {
    std::sort(values.begin(), values.end());
    return sorted_quantile(values, q);
}

}  // namespace sebo
