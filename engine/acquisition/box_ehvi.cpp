#include "acquisition/box_ehvi.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "acquisition/gaussian_interval.h"

namespace sebo {

namespace {

constexpr double kMinVariance = 1e-12;  // as acquisition/sparse_ehvi.cpp
constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace

// Per-thread work arrays, reused across calls (no allocation once warm).
struct BoxEhvi::Scratch {
    std::vector<std::vector<char>> used;                  // per objective: side used by a weighted group
    std::vector<char> boundary_used;                      // of the objective at hand
    std::vector<double> sigma, log_sigma;                 // of the objective at hand, per sample
    std::vector<GaussianBoundary> log_boundary;           // boundary × sample
    std::vector<GaussianBoundaryValues> linear_boundary;  // boundary × sample
    std::vector<double> log_psi, psi, dmean, dsigma;      // per sample, for the side at hand
    std::vector<std::vector<double>> log_mixture;         // per objective, per side: log ψ̄
    std::vector<std::vector<double>> share_dmean;         // per objective, side × sample: ∂ log ψ̄/∂μ_s
    std::vector<std::vector<double>> share_dsigma;        // per objective, side × sample: ∂ log ψ̄/∂σ_s
    std::vector<std::vector<double>> sigmas;              // per objective, per sample
    std::vector<double> term;                             // per box: log w_g + Σ_d log ψ̄_d
    std::vector<std::vector<double>> side_share;          // per objective, per side: Σ of its boxes' shares
};

BoxEhvi::BoxEhvi(int objectives)
    : objectives_(objectives),
      boundaries_(static_cast<std::size_t>(objectives)),
      sides_(static_cast<std::size_t>(objectives)),
      boundary_index_(static_cast<std::size_t>(objectives)),
      side_index_(static_cast<std::size_t>(objectives)) {
    assert(objectives >= 1 && objectives <= 4);
}

void BoxEhvi::add_group(const NondominatedBoxes& boxes) {
    assert(boxes.objectives() == objectives_);
    group_start_.push_back(box_sides_.size() / static_cast<std::size_t>(objectives_));
    auto boundary = [&](std::size_t d, double value) {
        const auto [it, added] = boundary_index_[d].try_emplace(value, static_cast<int>(boundaries_[d].size()));
        if (added) boundaries_[d].push_back(value);
        return it->second;
    };
    for (std::size_t b = 0; b < boxes.size(); ++b)
        for (std::size_t d = 0; d < static_cast<std::size_t>(objectives_); ++d) {
            const double lo = boxes.lower(b)[d], hi = boxes.upper(b)[d];
            const int l = boundary(d, lo);
            const int u = hi == kInfinity ? -1 : boundary(d, hi);
            const auto [it, added] = side_index_[d].try_emplace({l, u}, static_cast<int>(sides_[d].size()));
            if (added) sides_[d].push_back({l, u, hi == kInfinity ? 0.0 : hi - lo});
            box_sides_.push_back(it->second);
        }
}

bool BoxEhvi::side_mixtures_linear(std::size_t d, const MixtureMoments& moments, bool derivatives, Scratch& w) const {
    const auto samples = static_cast<std::size_t>(moments.mean.size());
    const std::size_t boundary_count = boundaries_[d].size();
    w.linear_boundary.resize(boundary_count * samples);
    for (std::size_t k = 0; k < boundary_count; ++k) {
        if (!w.boundary_used[k]) continue;
        for (std::size_t s = 0; s < samples; ++s) {
            const double z = (moments.mean[Eigen::Index(s)] - boundaries_[d][k]) / w.sigma[s];
            if (!(z >= kLinearTailZ)) return false;
            w.linear_boundary[k * samples + s] = gaussian_boundary_values(z);
        }
    }
    w.psi.resize(samples);
    w.dmean.resize(samples);
    w.dsigma.resize(samples);
    const GaussianBoundaryValues infinity;
    for (std::size_t i = 0; i < sides_[d].size(); ++i) {
        if (!w.used[d][i]) continue;
        const Side& side = sides_[d][i];
        double sum = 0.0;
        for (std::size_t s = 0; s < samples; ++s) {
            const GaussianBoundaryValues& lower = w.linear_boundary[static_cast<std::size_t>(side.lower) * samples + s];
            const GaussianBoundaryValues& upper =
                side.upper < 0 ? infinity : w.linear_boundary[static_cast<std::size_t>(side.upper) * samples + s];
            const IntervalMoments im = interval_moments(lower, upper, side.width / w.sigma[s]);
            // ψ_s = σ_s (h(z_l) − h(z_u)), ∂ψ_s/∂μ = Φ(z_l) − Φ(z_u), ∂ψ_s/∂σ = φ(z_l) − φ(z_u).
            w.psi[s] = w.sigma[s] * im.h_difference;
            if (!(w.psi[s] > 0.0)) return false;
            w.dmean[s] = im.cdf_difference;
            w.dsigma[s] = im.pdf_difference;
            sum += w.psi[s];
        }
        if (!std::isfinite(sum)) return false;
        w.log_mixture[d][i] = std::log(sum) - std::log(static_cast<double>(samples));
        if (derivatives)
            for (std::size_t s = 0; s < samples; ++s) {
                w.share_dmean[d][i * samples + s] = w.dmean[s] / sum;
                w.share_dsigma[d][i * samples + s] = w.dsigma[s] / sum;
            }
    }
    return true;
}

void BoxEhvi::side_mixtures_log(std::size_t d, const MixtureMoments& moments, bool derivatives, Scratch& w) const {
    const auto samples = static_cast<std::size_t>(moments.mean.size());
    const std::size_t boundary_count = boundaries_[d].size();
    w.log_boundary.resize(boundary_count * samples);
    for (std::size_t k = 0; k < boundary_count; ++k)
        if (w.boundary_used[k])
            for (std::size_t s = 0; s < samples; ++s)
                w.log_boundary[k * samples + s] =
                    gaussian_boundary((moments.mean[Eigen::Index(s)] - boundaries_[d][k]) / w.sigma[s]);
    w.log_psi.resize(samples);
    w.dmean.resize(samples);
    w.dsigma.resize(samples);
    const GaussianBoundary infinity;
    for (std::size_t i = 0; i < sides_[d].size(); ++i) {
        if (!w.used[d][i]) continue;
        const Side& side = sides_[d][i];
        double largest = -kInfinity;
        for (std::size_t s = 0; s < samples; ++s) {
            const GaussianBoundary& lower = w.log_boundary[static_cast<std::size_t>(side.lower) * samples + s];
            const GaussianBoundary& upper =
                side.upper < 0 ? infinity : w.log_boundary[static_cast<std::size_t>(side.upper) * samples + s];
            const LogIntervalMoments im = log_interval_moments(lower, upper, side.width / w.sigma[s], derivatives);
            w.log_psi[s] = w.log_sigma[s] + im.log_h_difference;
            if (derivatives) {
                // ∂ log ψ_s/∂μ = (Φ(z_l) − Φ(z_u))/ψ_s, ∂ log ψ_s/∂σ = (φ(z_l) − φ(z_u))/ψ_s.
                w.dmean[s] = std::exp(im.log_cdf_difference - im.log_h_difference) / w.sigma[s];
                w.dsigma[s] =
                    im.pdf_difference_sign * std::exp(im.log_abs_pdf_difference - im.log_h_difference) / w.sigma[s];
            }
            largest = std::max(largest, w.log_psi[s]);
        }
        double sum = 0.0;
        for (std::size_t s = 0; s < samples; ++s) sum += std::exp(w.log_psi[s] - largest);
        const double log_sum = largest + std::log(sum);
        w.log_mixture[d][i] = log_sum - std::log(static_cast<double>(samples));
        if (derivatives)
            for (std::size_t s = 0; s < samples; ++s) {
                const double share = std::exp(w.log_psi[s] - log_sum);
                w.share_dmean[d][i * samples + s] = share * w.dmean[s];
                w.share_dsigma[d][i * samples + s] = share * w.dsigma[s];
            }
    }
}

double BoxEhvi::log_value(std::span<const MixtureMoments> moments, std::span<const double> log_weights,
                          std::vector<MixtureGradient>* gradient, std::vector<double>* dlog_weights) const {
    const auto m = static_cast<std::size_t>(objectives_);
    assert(moments.size() == m && log_weights.size() == groups());
    const std::size_t box_count = box_sides_.size() / m;
    auto group_end = [&](std::size_t g) { return g + 1 < groups() ? group_start_[g + 1] : box_count; };
    const bool derivatives = gradient != nullptr;
    thread_local Scratch scratch;
    Scratch& w = scratch;

    // Which sides the boxes of the weighted groups use.
    w.used.resize(m);
    for (std::size_t d = 0; d < m; ++d) w.used[d].assign(sides_[d].size(), 0);
    for (std::size_t g = 0; g < groups(); ++g) {
        if (log_weights[g] == -kInfinity) continue;
        for (std::size_t b = group_start_[g]; b < group_end(g); ++b)
            for (std::size_t d = 0; d < m; ++d) w.used[d][static_cast<std::size_t>(box_sides_[b * m + d])] = 1;
    }

    // Per objective and used side: log ψ̄ and the samples' shares of its derivatives.
    w.log_mixture.resize(m);
    w.share_dmean.resize(m);
    w.share_dsigma.resize(m);
    w.sigmas.resize(m);
    for (std::size_t d = 0; d < m; ++d) {
        const auto samples = static_cast<std::size_t>(moments[d].mean.size());
        assert(samples > 0 && static_cast<std::size_t>(moments[d].var.size()) == samples);
        w.sigma.resize(samples);
        w.log_sigma.resize(samples);
        for (std::size_t s = 0; s < samples; ++s) {
            w.sigma[s] = std::sqrt(std::max(moments[d].var[Eigen::Index(s)], kMinVariance));
            w.log_sigma[s] = std::log(w.sigma[s]);
        }
        w.sigmas[d] = w.sigma;
        w.boundary_used.assign(boundaries_[d].size(), 0);
        for (std::size_t i = 0; i < sides_[d].size(); ++i)
            if (w.used[d][i]) {
                w.boundary_used[static_cast<std::size_t>(sides_[d][i].lower)] = 1;
                if (sides_[d][i].upper >= 0) w.boundary_used[static_cast<std::size_t>(sides_[d][i].upper)] = 1;
            }
        w.log_mixture[d].assign(sides_[d].size(), -kInfinity);
        if (derivatives) {
            w.share_dmean[d].assign(sides_[d].size() * samples, 0.0);
            w.share_dsigma[d].assign(sides_[d].size() * samples, 0.0);
        }
        if (!side_mixtures_linear(d, moments[d], derivatives, w)) side_mixtures_log(d, moments[d], derivatives, w);
    }

    // Box terms log w_g + Σ_d log ψ̄_d, then log-sum-exp.
    w.term.assign(box_count, -kInfinity);
    double largest = -kInfinity;
    for (std::size_t g = 0; g < groups(); ++g) {
        if (log_weights[g] == -kInfinity) continue;
        for (std::size_t b = group_start_[g]; b < group_end(g); ++b) {
            double t = log_weights[g];
            for (std::size_t d = 0; d < m; ++d) t += w.log_mixture[d][static_cast<std::size_t>(box_sides_[b * m + d])];
            w.term[b] = t;
            largest = std::max(largest, t);
        }
    }
    assert(largest > -kInfinity);
    double total = 0.0;
    for (std::size_t b = 0; b < box_count; ++b)
        if (w.term[b] > -kInfinity) total += std::exp(w.term[b] - largest);
    const double value = largest + std::log(total);

    if (dlog_weights) dlog_weights->assign(groups(), 0.0);
    if (!gradient && !dlog_weights) return value;
    // Each box's share of the total, summed per side (for the moments) and per group (weights).
    w.side_share.resize(m);
    for (std::size_t d = 0; d < m; ++d) w.side_share[d].assign(sides_[d].size(), 0.0);
    for (std::size_t g = 0; g < groups(); ++g) {
        if (log_weights[g] == -kInfinity) continue;
        for (std::size_t b = group_start_[g]; b < group_end(g); ++b) {
            const double share = std::exp(w.term[b] - value);
            if (dlog_weights) (*dlog_weights)[g] += share;
            for (std::size_t d = 0; d < m; ++d)
                w.side_share[d][static_cast<std::size_t>(box_sides_[b * m + d])] += share;
        }
    }
    if (!gradient) return value;
    gradient->resize(m);
    for (std::size_t d = 0; d < m; ++d) {
        const auto samples = static_cast<std::size_t>(moments[d].mean.size());
        MixtureGradient& out = (*gradient)[d];
        out.dmean.setZero(Eigen::Index(samples));
        out.dvar.setZero(Eigen::Index(samples));
        for (std::size_t i = 0; i < sides_[d].size(); ++i) {
            if (w.side_share[d][i] == 0.0) continue;
            for (std::size_t s = 0; s < samples; ++s) {
                out.dmean[Eigen::Index(s)] += w.side_share[d][i] * w.share_dmean[d][i * samples + s];
                out.dvar[Eigen::Index(s)] += w.side_share[d][i] * w.share_dsigma[d][i * samples + s];
            }
        }
        // dσ/dvar = 1/(2σ), zero below the variance floor.
        for (std::size_t s = 0; s < samples; ++s)
            out.dvar[Eigen::Index(s)] = moments[d].var[Eigen::Index(s)] > kMinVariance
                                            ? out.dvar[Eigen::Index(s)] / (2.0 * w.sigmas[d][s])
                                            : 0.0;
    }
    return value;
}

}  // namespace sebo
