#include "core/robust_spread.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "core/quantile.h"

namespace sebo {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// a − k·s and a + k·s without NaN: an overflow gives ±inf, which every comparison handles.
double step_down(double a, double s) { return s == kInfinity ? -kInfinity : a - kFarOutFactor * s; }
double step_up(double a, double s) { return s == kInfinity ? kInfinity : a + kFarOutFactor * s; }

}  // namespace

double RobustSpread::lower_fence() const { return step_down(lower_quartile, scale); }
double RobustSpread::upper_fence() const { return step_up(upper_quartile, scale); }

double RobustSpread::distance(double value) const {
    // value − median of two finite doubles is finite or ±inf; so is the quotient (scale > 0).
    return std::abs(value - median) / scale;
}

std::optional<RobustSpread> robust_spread(std::vector<double> values) {
    if (static_cast<int>(values.size()) < kRobustMinimumCount) return std::nullopt;
    assert(std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); }));
    std::sort(values.begin(), values.end());
    RobustSpread spread;
    spread.count = static_cast<int>(values.size());
    spread.median = sorted_quantile(values, 0.5);
    spread.lower_quartile = sorted_quantile(values, 0.25);
    spread.upper_quartile = sorted_quantile(values, 0.75);
    // Q3 − Q1 of finite values is finite or +inf (never NaN).
    double scale = spread.upper_quartile - spread.lower_quartile;
    if (!(scale > 0.0)) scale = std::abs(spread.median);
    if (!(scale > 0.0)) return std::nullopt;
    spread.scale = scale;
    return spread;
}

}  // namespace sebo
