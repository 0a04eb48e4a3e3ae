#include "model/scalar_priors.h"

#include <math.h>  // lgamma_r

#include <cassert>
#include <cmath>
#include <numbers>

namespace sebo {

namespace {
const double kHalfLogTwoPi = 0.5 * std::log(2.0 * std::numbers::pi);
}

ScalarLogDensity normal_log_density(double x, double mean, double stddev) {
    assert(stddev > 0.0);
    const double z = (x - mean) / stddev;
    return {-0.5 * z * z - std::log(stddev) - kHalfLogTwoPi, -z / stddev};
}

ScalarLogDensity log_normal_log_density(double x, double mu, double sigma) {
    assert(x > 0.0 && sigma > 0.0);
    const double log_x = std::log(x);
    const double z = (log_x - mu) / sigma;
    return {-0.5 * z * z - log_x - std::log(sigma) - kHalfLogTwoPi, (-z / sigma - 1.0) / x};
}

ScalarLogDensity gamma_log_density(double x, double shape, double rate) {
    assert(x > 0.0 && shape > 0.0 && rate > 0.0);
    // lgamma_r, not std::lgamma: lgamma also writes the global `signgam`, a data race when NUTS
    // chains evaluate the prior on several threads (ThreadSanitizer reported it). glibc computes
    // both with the same code, so the values are the same to the last bit.
    int sign = 0;
    const double log_gamma_shape = ::lgamma_r(shape, &sign);
    return {shape * std::log(rate) - log_gamma_shape + (shape - 1.0) * std::log(x) - rate * x,
            (shape - 1.0) / x - rate};
}

ScalarLogDensity half_cauchy_log_density(double x, double scale) {
    assert(x >= 0.0 && scale > 0.0);
    const double u = x / scale;
    return {std::log(2.0 / (std::numbers::pi * scale)) - std::log1p(u * u), -2.0 * u / (scale * (1.0 + u * u))};
}

}  // namespace sebo
