#include "acquisition/sparse_ehvi.h"

#include <algorithm>
#include <cassert>
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

template <class FrontOf>
double SparseEhviFront::log_ehvi_of(FrontOf front_of, const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double xi,
                                    Eigen::VectorXd* dmean, Eigen::VectorXd* dvar, double* dxi) {
    const Eigen::Index samples = mean.size();
    if (dmean) dmean->setZero(samples);
    if (dvar) dvar->setZero(samples);
    if (dxi) *dxi = 0.0;
    if (samples == 0 || !(xi < front_of(0).reference_xi_)) return kLogZero;

    // Log terms log(w_j) + log EI_sj and their partial derivatives, sample by sample over the
    // strips of its front that overlap [xi, r_ξ) (from first[s]; offset[s] is its first term).
    thread_local std::vector<double> log_term, dlog_mu, dlog_sigma;
    thread_local std::vector<std::size_t> first, offset;
    first.resize(static_cast<std::size_t>(samples));
    offset.resize(static_cast<std::size_t>(samples) + 1);
    offset[0] = 0;
    for (Eigen::Index s = 0; s < samples; ++s) {
        const std::vector<Strip>& strips = front_of(s).strips_;
        std::size_t f = 0;
        while (f < strips.size() && strips[f].hi <= xi) ++f;
        first[static_cast<std::size_t>(s)] = f;
        offset[static_cast<std::size_t>(s) + 1] = offset[static_cast<std::size_t>(s)] + (strips.size() - f);
    }
    const std::size_t terms = offset.back();
    log_term.resize(terms);
    dlog_mu.resize(terms);
    dlog_sigma.resize(terms);
    double largest = -std::numeric_limits<double>::infinity();
    for (Eigen::Index s = 0; s < samples; ++s) {
        const std::vector<Strip>& strips = front_of(s).strips_;
        const double sigma = std::sqrt(std::max(var[s], kMinVariance));
        const double log_sigma = std::log(sigma);
        for (std::size_t k = offset[static_cast<std::size_t>(s)], j = first[static_cast<std::size_t>(s)];
             k < offset[static_cast<std::size_t>(s) + 1]; ++k, ++j) {
            const Strip& strip = strips[j];
            const double width = strip.hi - std::max(strip.lo, xi);
            const double z = (mean[s] - strip.cover) / sigma;
            const double log_h = log_expected_improvement_h(z);
            log_term[k] = std::log(width) + log_sigma + log_h;
            // d log EI/dμ = Φ(z)/(σ h(z)); d log EI/dσ = φ(z)/(σ h(z)).
            dlog_mu[k] = std::exp(log_normal_cdf(z) - log_h) / sigma;
            dlog_sigma[k] = std::exp(-0.5 * z * z - 0.91893853320467274178 - log_h) / sigma;
            largest = std::max(largest, log_term[k]);
        }
    }
    if (terms == 0) return kLogZero;
    double total = 0.0;
    for (std::size_t k = 0; k < terms; ++k) total += std::exp(log_term[k] - largest);
    const double value = largest + std::log(total) - std::log(static_cast<double>(samples));

    for (Eigen::Index s = 0; s < samples; ++s) {
        const std::vector<Strip>& strips = front_of(s).strips_;
        const double sigma = std::sqrt(std::max(var[s], kMinVariance));
        double g_mu = 0.0, g_sigma = 0.0;
        const std::size_t begin = offset[static_cast<std::size_t>(s)], f = first[static_cast<std::size_t>(s)];
        for (std::size_t k = begin; k < offset[static_cast<std::size_t>(s) + 1]; ++k) {
            const double weight = std::exp(log_term[k] - largest) / total;
            g_mu += weight * dlog_mu[k];
            g_sigma += weight * dlog_sigma[k];
            // Only the first strip's width depends on xi: w = hi − xi (when xi is inside it).
            if (k == begin && dxi && xi > strips[f].lo) *dxi -= weight / (strips[f].hi - xi);
        }
        if (dmean) (*dmean)[s] = g_mu;
        // dσ/dvar = 1/(2σ); zero below the variance floor.
        if (dvar) (*dvar)[s] = var[s] > kMinVariance ? g_sigma / (2.0 * sigma) : 0.0;
    }
    return value;
}

double SparseEhviFront::log_ehvi(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double xi,
                                 Eigen::VectorXd* dmean, Eigen::VectorXd* dvar, double* dxi) const {
    return log_ehvi_of([this](Eigen::Index) -> const SparseEhviFront& { return *this; }, mean, var, xi, dmean, dvar, dxi);
}

double SparseEhviFront::log_ehvi_per_sample(const std::vector<SparseEhviFront>& fronts, const Eigen::VectorXd& mean,
                                            const Eigen::VectorXd& var, double xi, Eigen::VectorXd* dmean,
                                            Eigen::VectorXd* dvar, double* dxi) {
    assert(fronts.size() == static_cast<std::size_t>(mean.size()));
    return log_ehvi_of([&fronts](Eigen::Index s) -> const SparseEhviFront& { return fronts[static_cast<std::size_t>(s)]; },
                       mean, var, xi, dmean, dvar, dxi);
}

}  // namespace sebo
