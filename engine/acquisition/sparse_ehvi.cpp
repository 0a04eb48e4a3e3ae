#include "acquisition/sparse_ehvi.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "acquisition/gaussian.h"

namespace sebo {

namespace {
constexpr double kMinVariance = 1e-12;
}

SparseEhviFront::SparseEhviFront(const std::vector<std::pair<double, double>>& observed, double reference_f,
                                 double reference_xi)
    : reference_f_(reference_f), reference_xi_(reference_xi) {
    std::vector<std::pair<double, double>> useful;  // (ξ, f) that add volume
    for (const auto& [f, xi] : observed)
        if (f > reference_f && xi < reference_xi && std::isfinite(f) && std::isfinite(xi)) useful.emplace_back(xi, f);
    std::sort(useful.begin(), useful.end());
    double lo = -std::numeric_limits<double>::infinity();
    double cover = reference_f;
    for (const auto& [xi, f] : useful) {
        if (f <= cover) continue;  // dominated: the cover does not rise here
        if (xi > lo) strips_.push_back({lo, xi, cover});
        lo = xi;
        cover = f;
    }
    strips_.push_back({lo, reference_xi, cover});
}

double SparseEhviFront::hypervolume() const {
    double volume = 0.0;
    for (const Strip& s : strips_)
        if (std::isfinite(s.lo)) volume += (s.hi - s.lo) * (s.cover - reference_f_);
    return volume;
}

double SparseEhviFront::log_ehvi(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double xi,
                                 Eigen::VectorXd* dmean, Eigen::VectorXd* dvar, double* dxi) const {
    const Eigen::Index samples = mean.size();
    if (dmean) dmean->setZero(samples);
    if (dvar) dvar->setZero(samples);
    if (dxi) *dxi = 0.0;
    if (!(xi < reference_xi_)) return kLogZero;

    // The first strip that overlaps [xi, r_ξ).
    std::size_t first = 0;
    while (first < strips_.size() && strips_[first].hi <= xi) ++first;
    const std::size_t strip_count = strips_.size() - first;

    // Log terms log(w_j) + log EI_sj and their partial derivatives.
    thread_local std::vector<double> log_term, dlog_mu, dlog_sigma;
    const std::size_t terms = static_cast<std::size_t>(samples) * strip_count;
    log_term.resize(terms);
    dlog_mu.resize(terms);
    dlog_sigma.resize(terms);
    double largest = -std::numeric_limits<double>::infinity();
    for (Eigen::Index s = 0; s < samples; ++s) {
        const double sigma = std::sqrt(std::max(var[s], kMinVariance));
        const double log_sigma = std::log(sigma);
        for (std::size_t j = 0; j < strip_count; ++j) {
            const Strip& strip = strips_[first + j];
            const double width = strip.hi - std::max(strip.lo, xi);
            const double z = (mean[s] - strip.cover) / sigma;
            const double log_h = log_expected_improvement_h(z);
            const std::size_t k = static_cast<std::size_t>(s) * strip_count + j;
            log_term[k] = std::log(width) + log_sigma + log_h;
            // d log EI/dμ = Φ(z)/(σ h(z)); d log EI/dσ = φ(z)/(σ h(z)).
            dlog_mu[k] = std::exp(log_normal_cdf(z) - log_h) / sigma;
            dlog_sigma[k] = std::exp(-0.5 * z * z - 0.91893853320467274178 - log_h) / sigma;
            largest = std::max(largest, log_term[k]);
        }
    }
    double total = 0.0;
    for (std::size_t k = 0; k < terms; ++k) total += std::exp(log_term[k] - largest);
    const double value = largest + std::log(total) - std::log(static_cast<double>(samples));

    for (Eigen::Index s = 0; s < samples; ++s) {
        const double sigma = std::sqrt(std::max(var[s], kMinVariance));
        double g_mu = 0.0, g_sigma = 0.0;
        for (std::size_t j = 0; j < strip_count; ++j) {
            const std::size_t k = static_cast<std::size_t>(s) * strip_count + j;
            const double weight = std::exp(log_term[k] - largest) / total;
            g_mu += weight * dlog_mu[k];
            g_sigma += weight * dlog_sigma[k];
            // Only the first strip's width depends on xi: w = hi − xi (when xi is inside it).
            if (j == 0 && dxi && xi > strips_[first].lo) *dxi -= weight / (strips_[first].hi - xi);
        }
        if (dmean) (*dmean)[s] = g_mu;
        // dσ/dvar = 1/(2σ); zero below the variance floor.
        if (dvar) (*dvar)[s] = var[s] > kMinVariance ? g_sigma / (2.0 * sigma) : 0.0;
    }
    return value;
}

}  // namespace sebo
