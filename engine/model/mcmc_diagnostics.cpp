#include "model/mcmc_diagnostics.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace sebo {

namespace {

constexpr double kNotANumber = std::numeric_limits<double>::quiet_NaN();

bool all_equal(const Eigen::MatrixXd& x) { return x.size() == 0 || (x.array() == x(0, 0)).all(); }

// Sample variance (divisor n − 1) of a column.
double sample_variance(const Eigen::Ref<const Eigen::VectorXd>& x) {
    const double mean = x.mean();
    return (x.array() - mean).square().sum() / static_cast<double>(x.size() - 1);
}

// Biased autocovariances (divisor N, as Geyer 1992 recommends) of one chain at lags 0 … N − 1.
// Chains here are a few hundred draws long, so the direct O(N²) sum is as fast as an FFT.
Eigen::VectorXd autocovariance(const Eigen::Ref<const Eigen::VectorXd>& x) {
    const Eigen::Index n = x.size();
    const Eigen::VectorXd centred = x.array() - x.mean();
    Eigen::VectorXd acov(n);
    for (Eigen::Index lag = 0; lag < n; ++lag)
        acov[lag] = centred.head(n - lag).dot(centred.tail(n - lag)) / static_cast<double>(n);
    return acov;
}

}  // namespace

Eigen::MatrixXd split_chains(const Eigen::MatrixXd& draws) {
    const Eigen::Index n = draws.rows(), m = draws.cols();
    if (n < 2) return draws;
    const Eigen::Index half = n / 2;
    Eigen::MatrixXd split(half, 2 * m);
    split.leftCols(m) = draws.topRows(half);
    split.rightCols(m) = draws.bottomRows(half);  // skips the middle row when n is odd
    return split;
}

Eigen::MatrixXd rank_normalize(const Eigen::MatrixXd& draws) {
    const Eigen::Index s = draws.size();
    Eigen::MatrixXd z(draws.rows(), draws.cols());
    if (s == 0) return z;
    std::vector<Eigen::Index> order(static_cast<std::size_t>(s));
    std::iota(order.begin(), order.end(), Eigen::Index{0});
    const double* value = draws.data();
    std::stable_sort(order.begin(), order.end(), [value](Eigen::Index a, Eigen::Index b) { return value[a] < value[b]; });
    const boost::math::normal_distribution<double> normal;
    const double denominator = static_cast<double>(s) + 0.25;
    for (std::size_t first = 0; first < order.size();) {
        std::size_t last = first + 1;
        while (last < order.size() && value[order[last]] == value[order[first]]) ++last;
        // Ranks first+1 … last share their average.
        const double rank = 0.5 * static_cast<double>(first + 1 + last);
        const double score = boost::math::quantile(normal, (rank - 0.375) / denominator);
        for (std::size_t k = first; k < last; ++k) z.data()[order[k]] = score;
        first = last;
    }
    return z;
}

double basic_rhat(const Eigen::MatrixXd& chains) {
    const Eigen::Index n = chains.rows(), m = chains.cols();
    if (n < 2 || m < 1 || !chains.allFinite()) return kNotANumber;
    if (all_equal(chains)) return 1.0;
    Eigen::VectorXd means(m), variances(m);
    for (Eigen::Index j = 0; j < m; ++j) {
        means[j] = chains.col(j).mean();
        variances[j] = sample_variance(chains.col(j));
    }
    const double within = variances.mean();
    const double between_over_n = m > 1 ? sample_variance(means) : 0.0;  // B/N
    const double nd = static_cast<double>(n);
    return std::sqrt(((nd - 1.0) / nd * within + between_over_n) / within);
}

double effective_sample_size(const Eigen::MatrixXd& chains) {
    const Eigen::Index n = chains.rows(), m = chains.cols();
    if (n < 3 || m < 1 || !chains.allFinite()) return kNotANumber;
    const double total = static_cast<double>(n * m);
    if (all_equal(chains)) return total;
    const double nd = static_cast<double>(n);
    Eigen::MatrixXd acov(n, m);
    Eigen::VectorXd means(m);
    for (Eigen::Index j = 0; j < m; ++j) {
        acov.col(j) = autocovariance(chains.col(j));
        means[j] = chains.col(j).mean();
    }
    const double mean_variance = acov.row(0).mean() * nd / (nd - 1.0);  // W
    double var_plus = mean_variance * (nd - 1.0) / nd;
    if (m > 1) var_plus += sample_variance(means);
    auto rho = [&](Eigen::Index lag) { return 1.0 - (mean_variance - acov.row(lag).mean()) / var_plus; };

    // Geyer's initial positive sequence: sums of adjacent pairs of autocorrelations, kept while
    // positive.
    Eigen::VectorXd rho_hat = Eigen::VectorXd::Zero(n);
    Eigen::Index t = 0;
    double rho_even = 1.0, rho_odd = rho(1);
    rho_hat[0] = rho_even;
    rho_hat[1] = rho_odd;
    while (t < n - 5 && !std::isnan(rho_even + rho_odd) && rho_even + rho_odd > 0.0) {
        t += 2;
        rho_even = rho(t);
        rho_odd = rho(t + 1);
        if (rho_even + rho_odd >= 0.0) {
            rho_hat[t] = rho_even;
            rho_hat[t + 1] = rho_odd;
        }
    }
    const Eigen::Index max_t = t;
    // The first even lag that ended the sequence still enters the improved estimate.
    if (rho_even > 0.0) rho_hat[max_t] = rho_even;

    // Geyer's initial monotone sequence: each pair sum at most the previous one.
    t = 0;
    while (t <= max_t - 4) {
        t += 2;
        if (rho_hat[t] + rho_hat[t + 1] > rho_hat[t - 2] + rho_hat[t - 1]) {
            rho_hat[t] = 0.5 * (rho_hat[t - 2] + rho_hat[t - 1]);
            rho_hat[t + 1] = rho_hat[t];
        }
    }
    const double tau = -1.0 + 2.0 * rho_hat.head(max_t).sum() + rho_hat[max_t];
    // Antithetic chains can make τ̂ tiny; cap the ESS at M·N·log10(M·N).
    return total / std::max(tau, 1.0 / std::log10(total));
}

double split_rank_normalized_rhat(const Eigen::MatrixXd& draws) {
    if (draws.size() == 0 || !draws.allFinite()) return kNotANumber;
    const double bulk = basic_rhat(rank_normalize(split_chains(draws)));
    std::vector<double> sorted(draws.data(), draws.data() + draws.size());
    const std::size_t half = sorted.size() / 2;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(half), sorted.end());
    double median = sorted[half];
    if (sorted.size() % 2 == 0) median = 0.5 * (median + *std::max_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(half)));
    const Eigen::MatrixXd folded = (draws.array() - median).abs().matrix();
    const double tail = basic_rhat(rank_normalize(split_chains(folded)));
    if (std::isnan(bulk) || std::isnan(tail)) return kNotANumber;
    return std::max(bulk, tail);
}

double bulk_effective_sample_size(const Eigen::MatrixXd& draws) {
    if (!draws.allFinite()) return kNotANumber;  // ranks of NaN are undefined
    return effective_sample_size(rank_normalize(split_chains(draws)));
}

}  // namespace sebo
