#include "acquisition/gaussian.h"

#include <cmath>
#include <numbers>

namespace sebo {

namespace {

constexpr double kLogSqrt2Pi = 0.91893853320467274178;  // log √(2π)
constexpr double kTail = -8.0;

// Σ_k (−1)^k (2k−1)!! / z^{2k}, k = 0..10: the asymptotic series of Φ(z)/(φ(z)/|z|) for z → −∞.
double mills_series(double z) {
    const double inv = 1.0 / (z * z);
    double term = 1.0, sum = 1.0;
    for (int k = 1; k <= 10; ++k) {
        term *= -(2.0 * k - 1.0) * inv;
        sum += term;
    }
    return sum;
}

// h(z)/(φ(z)/z²) for z → −∞: Σ_k (−1)^k (2k+1)!! / z^{2k}... obtained from h = φ + zΦ with the
// series above: h(z) = φ(z)/z² · Σ_{k≥0} (−1)^k (2k+1)!!/z^{2k}.
double h_series(double z) {
    const double inv = 1.0 / (z * z);
    double term = 1.0, sum = 1.0;
    for (int k = 1; k <= 10; ++k) {
        term *= -(2.0 * k + 1.0) * inv;
        sum += term;
    }
    return sum;
}

}  // namespace

double normal_pdf(double z) { return std::exp(-0.5 * z * z - kLogSqrt2Pi); }

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

double log_normal_cdf(double z) {
    if (z > kTail) return std::log(normal_cdf(z));
    // Φ(z) = φ(z)/|z| · series
    return -0.5 * z * z - kLogSqrt2Pi - std::log(-z) + std::log(mills_series(z));
}

double expected_improvement_h(double z) {
    if (z > kTail) return normal_pdf(z) + z * normal_cdf(z);
    return std::exp(log_expected_improvement_h(z));
}

double log_expected_improvement_h(double z) {
    if (z > kTail) return std::log(normal_pdf(z) + z * normal_cdf(z));
    return -0.5 * z * z - kLogSqrt2Pi - 2.0 * std::log(-z) + std::log(h_series(z));
}

HAndCdf expected_improvement_h_and_cdf(double z) {
    const double pdf = normal_pdf(z);
    if (z > kTail) {
        const double cdf = normal_cdf(z);
        return {pdf + z * cdf, cdf, pdf};
    }
    return {pdf / (z * z) * h_series(z), pdf / -z * mills_series(z), pdf};
}

LogHAndCdf log_expected_improvement_h_and_cdf(double z) {
    if (z > kTail) {
        const double cdf = normal_cdf(z);
        return {std::log(normal_pdf(z) + z * cdf), std::log(cdf)};
    }
    const double log_pdf = -0.5 * z * z - kLogSqrt2Pi, log_minus_z = std::log(-z);
    return {log_pdf - 2.0 * log_minus_z + std::log(h_series(z)), log_pdf - log_minus_z + std::log(mills_series(z))};
}

}  // namespace sebo
