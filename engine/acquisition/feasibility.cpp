#include "acquisition/feasibility.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "acquisition/gaussian.h"
#include "acquisition/gaussian_interval.h"
#include "core/format.h"

namespace sebo {

namespace {

constexpr double kMinVariance = 1e-12;  // as acquisition/sparse_ehvi.cpp
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kLogSqrt2Pi = 0.91893853320467274178;

void intersect(const std::vector<OutcomeBound>& bounds, int metric_count, std::vector<double>& lower,
               std::vector<double>& upper) {
    lower.assign(static_cast<std::size_t>(metric_count), -kInfinity);
    upper.assign(static_cast<std::size_t>(metric_count), kInfinity);
    for (const OutcomeBound& b : bounds) {
        const auto j = static_cast<std::size_t>(b.metric);
        if (b.sense == BoundSense::AtMost)
            upper[j] = std::min(upper[j], b.bound);
        else
            lower[j] = std::max(lower[j], b.bound);
    }
}

}  // namespace

std::string validate_outcome_bounds(const std::vector<OutcomeBound>& bounds, int metric_count) {
    for (std::size_t i = 0; i < bounds.size(); ++i) {
        const OutcomeBound& b = bounds[i];
        const std::string where = "outcome bound " + std::to_string(i) + ": ";
        if (b.metric < 0 || b.metric >= metric_count)
            return where + "metric index " + std::to_string(b.metric) + " is not in [0, " +
                   std::to_string(metric_count) + ")";
        if (!std::isfinite(b.bound)) return where + "bound " + format_number(b.bound) + " is not a finite number";
    }
    std::vector<double> lower, upper;
    intersect(bounds, metric_count, lower, upper);
    for (int j = 0; j < metric_count; ++j)
        if (!(lower[static_cast<std::size_t>(j)] < upper[static_cast<std::size_t>(j)]))
            return "outcome bounds on metric " + std::to_string(j) +
                   ": no value is both >= " + format_number(lower[static_cast<std::size_t>(j)]) +
                   " and <= " + format_number(upper[static_cast<std::size_t>(j)]);
    return {};
}

FeasibilityProbability::FeasibilityProbability(const std::vector<OutcomeBound>& bounds, int metric_count) {
    assert(validate_outcome_bounds(bounds, metric_count).empty());
    intersect(bounds, metric_count, lower_, upper_);
}

double FeasibilityProbability::log_value(std::span<const MixtureMoments> metrics,
                                         std::vector<MixtureGradient>* gradient) const {
    assert(metrics.size() == lower_.size());
    if (gradient) gradient->resize(metrics.size());
    double value = 0.0;
    thread_local std::vector<double> log_p, dmean, dsigma;
    for (std::size_t j = 0; j < metrics.size(); ++j) {
        const MixtureMoments& mm = metrics[j];
        const auto samples = static_cast<std::size_t>(mm.mean.size());
        if (gradient) {
            (*gradient)[j].dmean.setZero(mm.mean.size());
            (*gradient)[j].dvar.setZero(mm.var.size());
        }
        if (lower_[j] == -kInfinity && upper_[j] == kInfinity) continue;
        log_p.resize(samples);
        dmean.resize(samples);
        dsigma.resize(samples);
        double largest = -kInfinity;
        for (std::size_t s = 0; s < samples; ++s) {
            const double sigma = std::sqrt(std::max(mm.var[Eigen::Index(s)], kMinVariance));
            const double mu = mm.mean[Eigen::Index(s)];
            // P = Φ(b) − Φ(a), a = (lo − μ)/σ, b = (hi − μ)/σ.
            const double a = lower_[j] == -kInfinity ? -kInfinity : (lower_[j] - mu) / sigma;
            const double b = upper_[j] == kInfinity ? kInfinity : (upper_[j] - mu) / sigma;
            if (b == kInfinity) {
                log_p[s] = log_normal_cdf(-a);  // 1 − Φ(a) = Φ(−a), from the lower tail
            } else {
                const GaussianBoundary lower = gaussian_boundary(b);
                const GaussianBoundary upper = a == -kInfinity ? GaussianBoundary{} : gaussian_boundary(a);
                log_p[s] = log_interval_moments(lower, upper, (upper_[j] - lower_[j]) / sigma).log_cdf_difference;
            }
            largest = std::max(largest, log_p[s]);
            if (gradient) {
                // ∂P/∂μ = (φ(a) − φ(b))/σ, ∂P/∂σ = (aφ(a) − bφ(b))/σ, each divided by P for the log.
                auto ratio = [&](double z) {  // φ(z)/P and zφ(z)/P; zero at ±∞
                    if (std::isinf(z)) return std::pair{0.0, 0.0};
                    const double r = std::exp(-0.5 * z * z - kLogSqrt2Pi - log_p[s]);
                    return std::pair{r, z * r};
                };
                const auto [pa, zpa] = ratio(a);
                const auto [pb, zpb] = ratio(b);
                dmean[s] = (pa - pb) / sigma;
                dsigma[s] = (zpa - zpb) / sigma;
            }
        }
        double sum = 0.0;
        for (std::size_t s = 0; s < samples; ++s) sum += std::exp(log_p[s] - largest);
        const double log_sum = largest + std::log(sum);
        value += log_sum - std::log(static_cast<double>(samples));
        if (gradient)
            for (std::size_t s = 0; s < samples; ++s) {
                const double share = std::exp(log_p[s] - log_sum);
                const double var = mm.var[Eigen::Index(s)];
                (*gradient)[j].dmean[Eigen::Index(s)] = share * dmean[s];
                (*gradient)[j].dvar[Eigen::Index(s)] =
                    var > kMinVariance ? share * dsigma[s] / (2.0 * std::sqrt(var)) : 0.0;
            }
    }
    return value;
}

}  // namespace sebo
