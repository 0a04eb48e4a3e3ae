#pragma once
// Sample quantiles, interpolated linearly between order statistics (the "type 7" rule of R and
// NumPy, Hyndman & Fan 1996). The interpolation is std::lerp, so a quantile of finite values is
// finite even when the values span ±1e308 (b − a would overflow).

#include <vector>

namespace sebo {

// The q-quantile of `values` (non-empty; taken by value and sorted), 0 ≤ q ≤ 1.
double quantile(std::vector<double> values, double q);

// The same for values already sorted ascending (non-empty); no copy.
double sorted_quantile(const std::vector<double>& sorted, double q);

}  // namespace sebo
