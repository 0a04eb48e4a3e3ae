#include "model/power_transform.h"

#include <algorithm>
#include <cmath>

namespace sebo {

double PowerTransform::yeo_johnson(double y, double lambda) {
    constexpr double eps = 1e-10;
    if (y >= 0) {
        if (std::abs(lambda) < eps) return std::log1p(y);
        return (std::pow(1.0 + y, lambda) - 1.0) / lambda;
    }
    if (std::abs(lambda - 2.0) < eps) return -std::log1p(-y);
    return -(std::pow(1.0 - y, 2.0 - lambda) - 1.0) / (2.0 - lambda);
}

namespace {

// Gaussian profile log-likelihood of the transformed data, including the log-Jacobian
// (λ − 1) Σ sign(y) log(1 + |y|).
double profile_log_likelihood(const Eigen::VectorXd& y, double lambda) {
    const Eigen::Index n = y.size();
    Eigen::VectorXd t(n);
    double jacobian = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        t[i] = PowerTransform::yeo_johnson(y[i], lambda);
        jacobian += std::copysign(std::log1p(std::abs(y[i])), y[i]);
    }
    const double variance = (t.array() - t.mean()).square().mean();
    if (!(variance > 0) || !std::isfinite(variance)) return -std::numeric_limits<double>::infinity();
    return -0.5 * static_cast<double>(n) * std::log(variance) + (lambda - 1.0) * jacobian;
}

}  // namespace

PowerTransform::PowerTransform(const Eigen::VectorXd& raw, bool compress_upper_tail) {
    if (raw.size() < 2 || !((raw.array() - raw.mean()).abs().maxCoeff() > 0)) return;
    // Scale-free: the transform acts on standardized values, so λ does not depend on the units
    // (Ax standardizes before its power transform for the same reason).
    mean_ = raw.mean();
    scale_ = std::sqrt((raw.array() - mean_).square().sum() / static_cast<double>(raw.size() - 1));
    const Eigen::VectorXd y = (raw.array() - mean_) / scale_;
    double best = profile_log_likelihood(y, 1.0), best_lambda = 1.0;
    for (int k = compress_upper_tail ? -60 : 20; k <= 60; ++k) {
        const double lambda = 0.05 * k;
        const double value = profile_log_likelihood(y, lambda);
        if (value > best + 1e-12) {
            best = value;
            best_lambda = lambda;
        }
    }
    lambda_ = best_lambda;
}

double PowerTransform::apply(double y) const { return yeo_johnson((y - mean_) / scale_, lambda_); }

Eigen::VectorXd PowerTransform::apply(const Eigen::VectorXd& y) const {
    Eigen::VectorXd out(y.size());
    for (Eigen::Index i = 0; i < y.size(); ++i) out[i] = apply(y[i]);
    return out;
}

double PowerTransform::derivative(double raw) const {
    const double y = (raw - mean_) / scale_;
    return (y >= 0 ? std::pow(1.0 + y, lambda_ - 1.0) : std::pow(1.0 - y, 1.0 - lambda_)) / scale_;
}

double PowerTransform::inverse(double z, double centre, double scale) const {
    double width = std::max(scale, 1e-12);
    double lo = centre - width, hi = centre + width;
    for (int k = 0; k < 80 && apply(lo) > z; ++k) lo -= (width *= 2.0);
    width = std::max(scale, 1e-12);
    for (int k = 0; k < 80 && apply(hi) < z; ++k) hi += (width *= 2.0);
    for (int k = 0; k < 200 && hi - lo > 1e-13 * (1.0 + std::abs(lo) + std::abs(hi)); ++k) {
        const double mid = 0.5 * (lo + hi);
        (apply(mid) < z ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

}  // namespace sebo
