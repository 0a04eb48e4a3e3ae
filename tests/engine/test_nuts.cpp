// NUTS (engine/model/nuts*.h) against known distributions: Monte Carlo moments are compared with
// the exact ones within 5 standard errors, the standard errors coming from an effective sample
// size (Geyer's initial monotone sequence estimator). All runs use fixed seeds, so the checks
// are deterministic; the tolerances say how far an unlucky but correct sampler could land.

#include <Eigen/Dense>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numbers>
#include <random>
#include <stop_token>
#include <vector>

#include "model/nuts.h"
#include "model/nuts_metric.h"
#include "model/nuts_step_size.h"
#include "model/nuts_warmup_windows.h"
#include "test_main.h"
#include "test_support.h"

namespace test_nuts {

// Counts heap allocations so a test can show that the transition loop allocates nothing. Eigen
// allocates with std::malloc (not operator new), so malloc itself is interposed; this needs
// glibc's __libc_malloc and is left out under sanitizers, which interpose malloc themselves.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SEBO_TEST_COUNT_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SEBO_TEST_COUNT_MALLOC 0
#endif
#endif
#if !defined(SEBO_TEST_COUNT_MALLOC) && defined(__GLIBC__)
#define SEBO_TEST_COUNT_MALLOC 1
#elif !defined(SEBO_TEST_COUNT_MALLOC)
#define SEBO_TEST_COUNT_MALLOC 0
#endif

namespace {
std::atomic<long long> g_allocations{0};
}  // namespace

#if SEBO_TEST_COUNT_MALLOC
extern "C" void* __libc_malloc(std::size_t size);
extern "C" void* malloc(std::size_t size) noexcept {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return __libc_malloc(size);
}
#endif

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// Effective sample size of one chain (Geyer 1992, initial monotone sequence), capped at n so that
// antithetic chains never make a tolerance tighter than for independent draws.
double effective_sample_size(const std::vector<double>& x) {
    const int n = static_cast<int>(x.size());
    double mean = 0.0;
    for (double v : x) mean += v;
    mean /= n;
    auto autocovariance = [&](int lag) {
        double s = 0.0;
        for (int t = 0; t + lag < n; ++t) s += (x[static_cast<std::size_t>(t)] - mean) * (x[static_cast<std::size_t>(t + lag)] - mean);
        return s / n;
    };
    const double c0 = autocovariance(0);
    if (!(c0 > 0.0)) return n;
    double tau = -1.0;
    double previous_pair = std::numeric_limits<double>::infinity();
    for (int m = 0; 2 * m + 1 < n; ++m) {
        double pair = (autocovariance(2 * m) + autocovariance(2 * m + 1)) / c0;
        if (pair <= 0.0) break;
        pair = std::min(pair, previous_pair);
        tau += 2.0 * pair;
        previous_pair = pair;
    }
    return std::min(static_cast<double>(n), n / std::max(tau, 1e-12));
}

std::vector<double> column(const MatrixXd& draws, int j) {
    std::vector<double> out(static_cast<std::size_t>(draws.rows()));
    for (Eigen::Index i = 0; i < draws.rows(); ++i) out[static_cast<std::size_t>(i)] = draws(i, j);
    return out;
}

struct MomentCheck {
    double estimate = 0.0;
    double standard_error = 0.0;
};

// Sample mean of a series and its Monte Carlo standard error sd/√ESS.
MomentCheck mean_with_error(const std::vector<double>& x) {
    const double n = static_cast<double>(x.size());
    double mean = 0.0;
    for (double v : x) mean += v;
    mean /= n;
    double var = 0.0;
    for (double v : x) var += (v - mean) * (v - mean);
    var /= n - 1.0;
    return {mean, std::sqrt(var / effective_sample_size(x))};
}

// (x − x̄)(y − ȳ) series, whose mean is the covariance (its MC error is that of this series).
std::vector<double> centred_products(const std::vector<double>& x, const std::vector<double>& y) {
    const double n = static_cast<double>(x.size());
    double mx = 0.0, my = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    std::vector<double> out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = (x[i] - mx) * (y[i] - my);
    return out;
}

// Gaussian N(mean, diag(scale²)) without heap allocation in the log density.
sebo::LogDensity diagonal_gaussian(const VectorXd& mean, const VectorXd& scale) {
    return [mean, precision = VectorXd(scale.array().square().inverse())](const VectorXd& x, VectorXd& grad) {
        grad = -(precision.array() * (x - mean).array()).matrix();
        return -0.5 * ((x - mean).array().square() * precision.array()).sum();
    };
}

// Neal's funnel: v ~ N(0, 3²), x_i | v ~ N(0, e^v), i = 1..k (θ = (v, x_1..x_k)).
double funnel(const VectorXd& theta, VectorXd& grad) {
    const double v = theta[0];
    const int k = static_cast<int>(theta.size()) - 1;
    const double inv = std::exp(-v);
    const double sq = theta.tail(k).squaredNorm();
    grad[0] = -v / 9.0 + 0.5 * sq * inv - 0.5 * k;
    grad.tail(k) = -theta.tail(k) * inv;
    return -v * v / 18.0 - 0.5 * sq * inv - 0.5 * k * v;
}

sebo::NutsOptions accuracy_options(int samples) {
    sebo::NutsOptions options;
    options.samples = samples;
    options.thinning = 1;
    return options;
}

void report(const char* name, const sebo::NutsResult& r) {
    qInfo("%s: status %s, step size %.4g, mean tree depth %.3g, mean acceptance %.3f, E-BFMI %.3g, divergences "
          "%d warm-up / %d sampling, %lld gradient evaluations",
          name, sebo::to_string(r.status), r.step_size, r.mean_tree_depth, r.mean_acceptance, r.energy_bfmi,
          r.divergences_warmup, r.divergences_sampling, r.gradient_evaluations);
}

// Gaussian N(mean, covariance) with a dense covariance, allocation-free in the log density.
struct DenseGaussian {
    VectorXd mean;
    MatrixXd precision;
    VectorXd diff;
    double operator()(const VectorXd& x, VectorXd& grad) {
        diff = x - mean;
        grad.noalias() = -precision * diff;
        return 0.5 * diff.dot(grad);
    }
};

sebo::LogDensity dense_gaussian(const VectorXd& mean, const MatrixXd& covariance) {
    return DenseGaussian{mean, covariance.inverse(), VectorXd::Zero(mean.size())};
}

// A covariance Q·diag(λ)·Qᵀ with eigenvalues log-spaced over [smallest, largest] and a random
// orthogonal Q (QR of a matrix of uniforms from a fixed mt19937_64 stream, so portable).
MatrixXd random_covariance(int d, double smallest, double largest, std::uint64_t seed) {
    std::mt19937_64 engine(seed);
    MatrixXd a(d, d);
    for (int j = 0; j < d; ++j)
        for (int i = 0; i < d; ++i) a(i, j) = 2.0 * (static_cast<double>(engine() >> 11) * 0x1p-53) - 1.0;
    const MatrixXd q = Eigen::HouseholderQR<MatrixXd>(a).householderQ();
    VectorXd eigenvalues(d);
    for (int i = 0; i < d; ++i) eigenvalues[i] = smallest * std::pow(largest / smallest, static_cast<double>(i) / (d - 1));
    MatrixXd covariance = q * eigenvalues.asDiagonal() * q.transpose();
    return 0.5 * (covariance + covariance.transpose());
}

// Eigenvalues of L⁻¹ A L⁻ᵀ with L Lᵀ = reference: all 1 when A = reference; their spread is how
// far a metric A is from preconditioning a target of covariance `reference` perfectly.
VectorXd whitened_eigenvalues(const MatrixXd& a, const MatrixXd& reference) {
    const Eigen::LLT<MatrixXd> llt(reference);
    const MatrixXd l_inv = llt.matrixL().solve(MatrixXd::Identity(a.rows(), a.cols()));
    return Eigen::SelfAdjointEigenSolver<MatrixXd>(l_inv * a * l_inv.transpose()).eigenvalues();
}

double mean_sampling_leapfrogs(const sebo::NutsResult& r) {
    double sum = 0.0;
    int count = 0;
    for (const sebo::NutsIteration& it : r.iterations) {
        if (it.phase != sebo::NutsPhase::Sampling) continue;
        sum += it.leapfrog_steps;
        ++count;
    }
    return sum / count;
}

// Means and every covariance entry of the draws within 5 Monte Carlo standard errors of the
// exact ones; returns the largest |z|.
double check_gaussian_moments(const sebo::NutsResult& r, const VectorXd& mean, const MatrixXd& covariance) {
    const int d = static_cast<int>(mean.size());
    double worst = 0.0;
    for (int i = 0; i < d; ++i) {
        const std::vector<double> x = column(r.draws, i);
        const MomentCheck m = mean_with_error(x);
        if (!(std::abs(m.estimate - mean[i]) <= 5.0 * m.standard_error)) return std::numeric_limits<double>::infinity();
        worst = std::max(worst, std::abs(m.estimate - mean[i]) / m.standard_error);
        for (int j = 0; j <= i; ++j) {
            const MomentCheck c = mean_with_error(centred_products(x, column(r.draws, j)));
            if (!(std::abs(c.estimate - covariance(i, j)) <= 5.0 * c.standard_error))
                return std::numeric_limits<double>::infinity();
            worst = std::max(worst, std::abs(c.estimate - covariance(i, j)) / c.standard_error);
        }
    }
    return worst;
}

}  // namespace

class TestNuts : public QObject {
    Q_OBJECT

private slots:
    // --- accuracy -----------------------------------------------------------------------------

    // Correlated 2-D Gaussian (ρ = 0.9, scales 1 and 2, mean (1, −2)).
    void correlatedGaussian() {
        const double rho = 0.9, s1 = 1.0, s2 = 2.0;
        Eigen::Matrix2d cov;
        cov << s1 * s1, rho * s1 * s2, rho * s1 * s2, s2 * s2;
        const Eigen::Matrix2d precision = cov.inverse();
        const Eigen::Vector2d mean(1.0, -2.0);
        auto logp = [&](const VectorXd& x, VectorXd& grad) {
            const Eigen::Vector2d d = x - mean;
            grad = -(precision * d);
            return -0.5 * d.dot(precision * d);
        };
        const sebo::NutsResult r = sebo::run_nuts(logp, VectorXd::Zero(2), accuracy_options(4000), 2024);
        report("correlated 2-D Gaussian", r);
        QCOMPARE(r.status, sebo::NutsResult::Status::Completed);
        QCOMPARE(r.draws.rows(), Eigen::Index(4000));
        QCOMPARE(r.divergences_sampling, 0);

        const std::vector<double> x = column(r.draws, 0), y = column(r.draws, 1);
        qInfo("  ESS: x %.0f, y %.0f of %zu", effective_sample_size(x), effective_sample_size(y), x.size());
        for (int j = 0; j < 2; ++j) {
            const MomentCheck m = mean_with_error(column(r.draws, j));
            SEBO_COMPARE_NEAR(m.estimate, mean[j], 5.0 * m.standard_error);
        }
        const MomentCheck vx = mean_with_error(centred_products(x, x));
        const MomentCheck vy = mean_with_error(centred_products(y, y));
        const MomentCheck cxy = mean_with_error(centred_products(x, y));
        qInfo("  var x %.4f ± %.4f, var y %.4f ± %.4f, cov %.4f ± %.4f", vx.estimate, vx.standard_error, vy.estimate,
              vy.standard_error, cxy.estimate, cxy.standard_error);
        SEBO_COMPARE_NEAR(vx.estimate, cov(0, 0), 5.0 * vx.standard_error);
        SEBO_COMPARE_NEAR(vy.estimate, cov(1, 1), 5.0 * vy.standard_error);
        SEBO_COMPARE_NEAR(cxy.estimate, cov(0, 1), 5.0 * cxy.standard_error);
        // Dual averaging drives the mean acceptance of the iterations since its last restart
        // (the 50-iteration terminal buffer) to δ: that mean equals δ − γ(μ − x_t)(t + t₀)/t^{3/2}
        // exactly, i.e. 0.8 − 0.0085·log(10ε₀/ε_t) here, within 0.05 unless the step size moved
        // by a factor above 15. Sampling with the averaged step exp(x̄), which lies below the
        // fluctuating iterates, accepts more (as in Stan), but not less.
        double term_acceptance = 0.0;
        for (int i = 462; i < 512; ++i) term_acceptance += r.iterations[static_cast<std::size_t>(i)].acceptance / 50.0;
        qInfo("  mean acceptance over the terminal buffer %.3f", term_acceptance);
        SEBO_COMPARE_NEAR(term_acceptance, 0.8, 0.05);
        QVERIFY(r.mean_acceptance >= 0.8 && r.mean_acceptance < 0.99);
        QVERIFY(r.mean_tree_depth >= 1.0 && r.mean_tree_depth <= 6.0);
        // No false alarm from the energy diagnostic on a Gaussian (E-BFMI ≈ 1).
        QVERIFY(r.energy_bfmi > 0.3);
    }

    // The same target with the dense metric. Its adapted M⁻¹ estimates Σ (from the last slow
    // window's 212 draws), which turns the target into a standard normal for the dynamics, so a
    // trajectory U-turns after about π/ε steps; the diagonal metric leaves the correlation
    // (condition number 1.9/0.1 = 19 after rescaling) and needs longer trajectories for the same
    // acceptance: up to √19 ≈ 4.4 times as many steps in theory, 1.5–2.8 times over 30 seeds.
    void correlatedGaussianDense() {
        const double rho = 0.9, s1 = 1.0, s2 = 2.0;
        MatrixXd cov(2, 2);
        cov << s1 * s1, rho * s1 * s2, rho * s1 * s2, s2 * s2;
        const VectorXd mean = Eigen::Vector2d(1.0, -2.0);
        sebo::NutsOptions o = accuracy_options(4000);
        o.metric = sebo::NutsMetric::Dense;
        const sebo::NutsResult r = sebo::run_nuts(dense_gaussian(mean, cov), VectorXd::Zero(2), o, 2024);
        report("correlated 2-D Gaussian, dense metric", r);
        QCOMPARE(r.status, sebo::NutsResult::Status::Completed);
        QVERIFY(r.message.find("diagonal was used") == std::string::npos);
        QCOMPARE(r.divergences_sampling, 0);
        const double worst_z = check_gaussian_moments(r, mean, cov);
        qInfo("  worst |z| over means and covariances %.2f", worst_z);
        QVERIFY(worst_z <= 5.0);
        QVERIFY(r.energy_bfmi > 0.3);

        // Entry (i, j) of a sample covariance of n draws has standard deviation
        // √((Σ_ij² + Σ_ii Σ_jj)/n); with autocorrelated draws n_eff ≥ n/2 is assumed. Then the
        // shrinkage n/(n+5) and the 1e-3 · 5/(n+5) ridge.
        const double n = 212.0;
        QCOMPARE(r.inverse_metric_dense.rows(), Eigen::Index(2));
        QCOMPARE(r.inverse_metric, VectorXd(r.inverse_metric_dense.diagonal()));
        QCOMPARE(r.inverse_metric_dense(0, 1), r.inverse_metric_dense(1, 0));
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j <= i; ++j) {
                const double expected = n / (n + 5.0) * cov(i, j) + (i == j ? 1e-3 * 5.0 / (n + 5.0) : 0.0);
                const double sd = std::sqrt((cov(i, j) * cov(i, j) + cov(i, i) * cov(j, j)) / (n / 2.0));
                qInfo("  inverse metric (%d, %d): %.4f, expected %.4f ± %.4f", i, j, r.inverse_metric_dense(i, j), expected, sd);
                SEBO_COMPARE_NEAR(r.inverse_metric_dense(i, j), expected, 5.0 * sd);
            }
        }

        o.metric = sebo::NutsMetric::Diagonal;
        const sebo::NutsResult diagonal = sebo::run_nuts(dense_gaussian(mean, cov), VectorXd::Zero(2), o, 2024);
        report("correlated 2-D Gaussian, diagonal metric", diagonal);
        QCOMPARE(diagonal.inverse_metric_dense.size(), Eigen::Index(0));
        const double ratio = mean_sampling_leapfrogs(diagonal) / mean_sampling_leapfrogs(r);
        qInfo("  leapfrog steps per sampling iteration: diagonal %.2f, dense %.2f, ratio %.2f",
              mean_sampling_leapfrogs(diagonal), mean_sampling_leapfrogs(r), ratio);
        QVERIFY(ratio > 1.5);
    }

    // 10-D Gaussian with a random dense covariance of condition number 10³ (eigenvalues 0.03 …
    // 30, random eigenvectors). The dense metric recovers the covariance well enough that the
    // whitened target L⁻¹ M⁻¹ L⁻ᵀ (L Lᵀ = Σ) has eigenvalues near 1 — within the sampling spread
    // (1 ± √(d/n_eff))² ≈ [0.32, 2.06] of a covariance estimated from 212 draws with n_eff ≥ n/4
    // (Marchenko–Pastur; 30 seeds gave 0.45 … 1.86) — whereas no diagonal metric can: its whitened
    // spread stays large (0.18 … 150 here) and its trajectories nearly saturate the tree depth.
    // Over 30 seeds the diagonal metric needed 7.0–8.2 times more leapfrog steps per sampling
    // iteration, and on the 2-D target above 1.5–2.8 times.
    void denseGaussian10d() {
        const int d = 10;
        const MatrixXd cov = random_covariance(d, 0.03, 30.0, 5);
        const VectorXd mean = VectorXd::LinSpaced(d, -1.0, 2.0);
        sebo::NutsOptions o = accuracy_options(4000);
        o.metric = sebo::NutsMetric::Dense;
        const sebo::NutsResult r = sebo::run_nuts(dense_gaussian(mean, cov), VectorXd::Zero(d), o, 77);
        report("10-D dense Gaussian, condition 1e3, dense metric", r);
        QCOMPARE(r.status, sebo::NutsResult::Status::Completed);
        QCOMPARE(r.divergences_sampling, 0);
        const double worst_z = check_gaussian_moments(r, mean, cov);
        qInfo("  worst |z| over 10 means and 55 covariances %.2f", worst_z);
        QVERIFY(worst_z <= 5.0);

        const VectorXd dense_spread = whitened_eigenvalues(r.inverse_metric_dense, cov);
        qInfo("  dense metric, whitened eigenvalues %.3f … %.3f", dense_spread.minCoeff(), dense_spread.maxCoeff());
        QVERIFY(dense_spread.minCoeff() > 0.32 && dense_spread.maxCoeff() < 2.06);
        QCOMPARE(r.inverse_metric, VectorXd(r.inverse_metric_dense.diagonal()));

        o.metric = sebo::NutsMetric::Diagonal;
        const sebo::NutsResult diagonal = sebo::run_nuts(dense_gaussian(mean, cov), VectorXd::Zero(d), o, 77);
        report("10-D dense Gaussian, condition 1e3, diagonal metric", diagonal);
        const VectorXd diagonal_spread = whitened_eigenvalues(MatrixXd(diagonal.inverse_metric.asDiagonal()), cov);
        qInfo("  diagonal metric, whitened eigenvalues %.3f … %.3f", diagonal_spread.minCoeff(), diagonal_spread.maxCoeff());
        QVERIFY(diagonal_spread.maxCoeff() / diagonal_spread.minCoeff() > 50.0);
        const double ratio = mean_sampling_leapfrogs(diagonal) / mean_sampling_leapfrogs(r);
        qInfo("  leapfrog steps per sampling iteration: diagonal %.2f, dense %.2f, ratio %.2f",
              mean_sampling_leapfrogs(diagonal), mean_sampling_leapfrogs(r), ratio);
        QVERIFY(ratio > 5.0);
    }

    // 50-D Gaussian (condition number 100, random eigenvectors) with the default warm-up: Stan's
    // first two windows hold 25 and 50 draws, fewer than the dimension, so their dense estimates
    // are singular up to the 1e-3 ridge and the third (100 draws) is still far too small in its
    // smallest eigenvalues; the chain crawls along those directions at full tree depth, as on the
    // SAAS posterior. Pooling windows until they hold 2·d draws skips those estimates (the
    // diagonal serves meanwhile). Over 20 seeds Stan's rule needed 1.65–1.87 times the gradients.
    void denseMetricPoolsShortWindows() {
        const int d = 50;
        const MatrixXd cov = random_covariance(d, 1.0, 100.0, 5);
        sebo::NutsOptions o;
        o.metric = sebo::NutsMetric::Dense;
        const sebo::NutsResult stan = sebo::run_nuts(dense_gaussian(VectorXd::Zero(d), cov), VectorXd::Zero(d), o, 1);
        report("50-D dense Gaussian, dense metric, a covariance from every window", stan);
        o.dense_min_draws_per_dimension = 2.0;
        const sebo::NutsResult pooled = sebo::run_nuts(dense_gaussian(VectorXd::Zero(d), cov), VectorXd::Zero(d), o, 1);
        report("50-D dense Gaussian, dense metric, windows pooled to 100 draws", pooled);
        QCOMPARE(stan.status, sebo::NutsResult::Status::Completed);
        QCOMPARE(pooled.status, sebo::NutsResult::Status::Completed);
        // Nothing to report: the last window has 212 ≥ 100 draws and every estimate factored.
        QVERIFY(pooled.message.find("diagonal was used") == std::string::npos);
        QVERIFY(stan.message.find("diagonal was used") == std::string::npos);
        const double ratio = static_cast<double>(stan.gradient_evaluations) / static_cast<double>(pooled.gradient_evaluations);
        qInfo("  gradient evaluations: every window %lld, pooled %lld, ratio %.2f", stan.gradient_evaluations,
              pooled.gradient_evaluations, ratio);
        QVERIFY(ratio > 1.4);
    }

    // When even all slow windows together hold fewer than the minimum, the draws of all of them
    // (462 − 75 = 387 for the default schedule) are pooled and the final metric is their
    // diagonal — reported in the message, with the variances (Var of a sample variance:
    // 2σ⁴/n_eff, n_eff ≥ n/2 assumed) within 5 standard deviations.
    void denseMetricPoolsAllWindows() {
        MatrixXd cov(2, 2);
        cov << 1.0, 1.8, 1.8, 4.0;
        sebo::NutsOptions o;
        o.metric = sebo::NutsMetric::Dense;
        o.dense_min_draws_per_dimension = 500.0;
        const sebo::NutsResult r = sebo::run_nuts(dense_gaussian(VectorXd::Zero(2), cov), VectorXd::Zero(2), o, 3);
        report("correlated 2-D Gaussian, dense metric pooled over all windows", r);
        qInfo("  %s", r.message.c_str());
        QCOMPARE(r.status, sebo::NutsResult::Status::Completed);
        QVERIFY(r.message.find("rests on only 387 warm-up draws") != std::string::npos);
        QCOMPARE(r.inverse_metric_dense(0, 1), 0.0);
        QCOMPARE(r.inverse_metric_dense(1, 0), 0.0);
        const double n = 387.0;
        for (int i = 0; i < 2; ++i) {
            const double expected = n / (n + 5.0) * cov(i, i) + 1e-3 * 5.0 / (n + 5.0);
            SEBO_COMPARE_NEAR(r.inverse_metric_dense(i, i), expected, 5.0 * std::sqrt(2.0 / (n / 2.0)) * cov(i, i));
        }
    }

    // The kernel alone (no warm-up, a fixed step size inside the leapfrog stability limit
    // ε·√(curvature) < 2) leaves a skewed target invariant: θ = log G with G ~ Gamma(2, 1),
    // density ∝ exp(2θ − e^θ) (curvature e^θ, 2 at the mode), mean ψ(2) = 1 − γ_E and variance
    // ψ'(2) = π²/6 − 1; and the standard normal's fourth moment is 3.
    void kernelWithoutAdaptation() {
        auto log_gamma = [](const VectorXd& x, VectorXd& grad) {
            grad[0] = 2.0 - std::exp(x[0]);
            return 2.0 * x[0] - std::exp(x[0]);
        };
        sebo::NutsOptions o;
        o.warmup = 0;
        o.samples = 10000;
        o.thinning = 1;
        o.tune_initial_step_size = false;
        o.initial_step_size = 0.9;
        const sebo::NutsResult r = sebo::run_nuts(log_gamma, VectorXd::Zero(1), o, 31);
        QCOMPARE(r.step_size, 0.9);
        for (const sebo::NutsIteration& it : r.iterations) QCOMPARE(it.step_size, 0.9);
        report("log Gamma(2), no adaptation", r);
        QCOMPARE(r.status, sebo::NutsResult::Status::Completed);
        const std::vector<double> x = column(r.draws, 0);
        const MomentCheck m = mean_with_error(x);
        const MomentCheck v = mean_with_error(centred_products(x, x));
        qInfo("  mean %.4f ± %.4f (exact %.4f), variance %.4f ± %.4f (exact %.4f)", m.estimate, m.standard_error,
              1.0 - std::numbers::egamma, v.estimate, v.standard_error, std::numbers::pi * std::numbers::pi / 6.0 - 1.0);
        SEBO_COMPARE_NEAR(m.estimate, 1.0 - std::numbers::egamma, 5.0 * m.standard_error);
        SEBO_COMPARE_NEAR(v.estimate, std::numbers::pi * std::numbers::pi / 6.0 - 1.0, 5.0 * v.standard_error);

        o.initial_step_size = 1.2;
        const sebo::NutsResult n = sebo::run_nuts(diagonal_gaussian(VectorXd::Zero(1), VectorXd::Ones(1)), VectorXd::Zero(1), o, 32);
        QCOMPARE(n.divergences_sampling, 0);
        std::vector<double> fourth(static_cast<std::size_t>(n.draws.rows()));
        for (Eigen::Index i = 0; i < n.draws.rows(); ++i) fourth[static_cast<std::size_t>(i)] = std::pow(n.draws(i, 0), 4);
        const MomentCheck k = mean_with_error(fourth);
        qInfo("  standard normal: step size %.3f, E[x^4] %.3f ± %.3f (exact 3)", n.step_size, k.estimate, k.standard_error);
        SEBO_COMPARE_NEAR(k.estimate, 3.0, 5.0 * k.standard_error);
    }

    // 10-D Gaussian with scales 0.01 … 10 (log-spaced): only a well-adapted diagonal metric lets a
    // single step size serve every coordinate.
    void scaledGaussian10d() {
        const int d = 10;
        VectorXd scale(d), mean(d);
        for (int i = 0; i < d; ++i) {
            scale[i] = std::pow(10.0, -2.0 + 3.0 * i / (d - 1));
            mean[i] = 1.0 - 0.2 * i;
        }
        const sebo::NutsResult r = sebo::run_nuts(diagonal_gaussian(mean, scale), VectorXd::Zero(d), accuracy_options(2000), 99);
        report("10-D Gaussian, scales 0.01-10", r);
        QCOMPARE(r.status, sebo::NutsResult::Status::Completed);
        QCOMPARE(r.divergences_sampling, 0);

        double worst_mean_z = 0.0, worst_var_z = 0.0, worst_metric = 0.0, min_ess = 1e9;
        // The metric comes from the last slow window (212 draws for a 512 warm-up) and is shrunk
        // towards 1e-3; its log relative error has sd ≈ √(2/n_eff). n_eff ≥ n/2 → 5 sd ≈ 0.69.
        const double n_window = 212.0;
        const double metric_tolerance = 5.0 * std::sqrt(2.0 / (n_window / 2.0));
        for (int i = 0; i < d; ++i) {
            const std::vector<double> x = column(r.draws, i);
            min_ess = std::min(min_ess, effective_sample_size(x));
            const MomentCheck m = mean_with_error(x);
            SEBO_COMPARE_NEAR(m.estimate, mean[i], 5.0 * m.standard_error);
            const MomentCheck v = mean_with_error(centred_products(x, x));
            SEBO_COMPARE_NEAR(v.estimate, scale[i] * scale[i], 5.0 * v.standard_error);
            worst_mean_z = std::max(worst_mean_z, std::abs(m.estimate - mean[i]) / m.standard_error);
            worst_var_z = std::max(worst_var_z, std::abs(v.estimate - scale[i] * scale[i]) / v.standard_error);

            const double expected_metric =
                n_window / (n_window + 5.0) * scale[i] * scale[i] + 1e-3 * 5.0 / (n_window + 5.0);
            const double log_ratio = std::log(r.inverse_metric[i] / expected_metric);
            worst_metric = std::max(worst_metric, std::abs(log_ratio));
            SEBO_COMPARE_NEAR(log_ratio, 0.0, metric_tolerance);
        }
        qInfo("  worst |z|: mean %.2f, variance %.2f; worst |log(metric/expected)| %.3f; min ESS %.0f of %lld",
              worst_mean_z, worst_var_z, worst_metric, min_ess, static_cast<long long>(r.draws.rows()));
    }

    // Neal's funnel (v ~ N(0, 3²), 9 x's): the neck is too narrow for any one step size, which
    // NUTS must report as divergences (and a low E-BFMI) instead of returning a silently biased
    // sample. Explored with 10 seeds × 5000 draws: 1 to 58 sampling divergences per chain and
    // E-BFMI 0.06–0.10 in every chain; three chains are checked here.
    void funnelReportsDivergences() {
        const int d = 10;
        VectorXd start = VectorXd::Zero(d);
        start[0] = 1.0;
        sebo::NutsOptions o = accuracy_options(5000);
        o.warmup = 1000;
        int divergences = 0;
        for (std::uint64_t seed : {1u, 2u, 3u}) {
            const sebo::NutsResult r = sebo::run_nuts(funnel, start, o, seed);
            report("Neal's funnel, 10-D", r);
            QCOMPARE(r.status, sebo::NutsResult::Status::Completed);
            QVERIFY(r.draws.allFinite());
            int flagged = 0;
            for (const sebo::NutsIteration& it : r.iterations) flagged += it.divergent && it.phase == sebo::NutsPhase::Sampling;
            QCOMPARE(flagged, r.divergences_sampling);
            QVERIFY(r.energy_bfmi < 0.3);
            divergences += r.divergences_sampling;
            const double v_mean = r.draws.col(0).mean();
            const double below = static_cast<double>((r.draws.col(0).array() < -3.0).count()) / static_cast<double>(r.draws.rows());
            qInfo("  v: mean %.2f (exact 0), min %.2f, P(v < -3) %.3f (exact 0.159)", v_mean, r.draws.col(0).minCoeff(), below);
        }
        QVERIFY(divergences > 0);
    }

    // Density NaN for x₀ < 0 (gradient NaN too): the half-normal × normal. Points in the
    // invalid region end the trajectory as divergences; the draws stay in the valid region and
    // have the half-normal mean √(2/π) and variance 1 − 2/π.
    void nanRegionIsDivergence() {
        auto logp = [](const VectorXd& x, VectorXd& grad) {
            if (x[0] < 0.0) {
                grad.setConstant(std::nan(""));
                return std::nan("");
            }
            grad = -x;
            return -0.5 * x.squaredNorm();
        };
        VectorXd start(2);
        start << 0.5, 0.0;
        const sebo::NutsResult r = sebo::run_nuts(logp, start, accuracy_options(3000), 11);
        report("half-normal via NaN region", r);
        QCOMPARE(r.status, sebo::NutsResult::Status::Completed);
        QVERIFY(r.divergences_sampling > 0);
        QVERIFY(r.draws.col(0).minCoeff() >= 0.0);
        const MomentCheck m = mean_with_error(column(r.draws, 0));
        SEBO_COMPARE_NEAR(m.estimate, std::sqrt(2.0 / std::numbers::pi), 5.0 * m.standard_error);
        const std::vector<double> x = column(r.draws, 0);
        const MomentCheck v = mean_with_error(centred_products(x, x));
        SEBO_COMPARE_NEAR(v.estimate, 1.0 - 2.0 / std::numbers::pi, 5.0 * v.standard_error);
        const MomentCheck m1 = mean_with_error(column(r.draws, 1));
        SEBO_COMPARE_NEAR(m1.estimate, 0.0, 5.0 * m1.standard_error);
    }

    // A log density of −∞ (zero density) behaves the same way; at the initial point it fails.
    void invalidInitialPointFails() {
        auto logp = [](const VectorXd& x, VectorXd& grad) {
            grad = -x;
            return x[0] > 1.0 ? -std::numeric_limits<double>::infinity() : -0.5 * x.squaredNorm();
        };
        const sebo::NutsResult bad = sebo::run_nuts(logp, VectorXd::Constant(1, 2.0), sebo::NutsOptions{}, 1);
        QCOMPARE(bad.status, sebo::NutsResult::Status::Failed);
        QVERIFY(!bad.message.empty());
        QCOMPARE(bad.draws.rows(), Eigen::Index(0));
        QCOMPARE(bad.gradient_evaluations, 1LL);

        const sebo::NutsResult ok = sebo::run_nuts(logp, VectorXd::Constant(1, 0.0), sebo::NutsOptions{}, 1);
        QCOMPARE(ok.status, sebo::NutsResult::Status::Completed);
        QVERIFY(ok.draws.maxCoeff() <= 1.0);
    }

    // --- contract -----------------------------------------------------------------------------

    // The paper's defaults: 512 + 256 iterations, every 16th kept → 16 draws; at most 63
    // gradient evaluations per iteration at depth 6, and every evaluation is counted.
    void defaultsAndGradientBudget() {
        const int d = 5;
        long long calls = 0;
        const sebo::LogDensity gaussian = diagonal_gaussian(VectorXd::Zero(d), VectorXd::LinSpaced(d, 0.1, 3.0));
        auto logp = [&](const VectorXd& x, VectorXd& grad) {
            ++calls;
            return gaussian(x, grad);
        };
        std::vector<sebo::NutsProgress> reports;
        const sebo::NutsResult r = sebo::run_nuts(logp, VectorXd::Ones(d), sebo::NutsOptions{}, 3,
                                                  [&](const sebo::NutsProgress& p) { reports.push_back(p); });
        report("5-D Gaussian, paper defaults", r);
        QCOMPARE(r.status, sebo::NutsResult::Status::Completed);
        QCOMPARE(r.draws.rows(), Eigen::Index(16));
        QCOMPARE(r.draws.cols(), Eigen::Index(d));
        QCOMPARE(r.log_density.size(), Eigen::Index(16));
        QCOMPARE(r.iterations.size(), std::size_t(768));
        QCOMPARE(r.gradient_evaluations, calls);
        long long leapfrogs = 0;
        for (const sebo::NutsIteration& it : r.iterations) {
            QVERIFY(it.tree_depth >= 0 && it.tree_depth <= 6);
            QVERIFY(it.leapfrog_steps >= 1 && it.leapfrog_steps <= 63);
            QVERIFY(it.acceptance >= 0.0 && it.acceptance <= 1.0);
            leapfrogs += it.leapfrog_steps;
        }
        // The rest are the initial evaluation and the step-size heuristic (start + 4 windows).
        QVERIFY(leapfrogs < calls);
        QVERIFY(calls - leapfrogs <= 1 + 5 * 40);
        // Kept draws are sampling iterations 0, 16, …, 240 and carry their log density.
        for (int k = 0; k < 16; ++k) {
            const sebo::NutsIteration& it = r.iterations[static_cast<std::size_t>(512 + 16 * k)];
            QCOMPARE(r.log_density[k], it.log_density);
            VectorXd grad(d);
            QCOMPARE(gaussian(r.draws.row(k).transpose(), grad), it.log_density);
        }
        // Progress after every iteration, phases switching after warm-up.
        QCOMPARE(reports.size(), std::size_t(768));
        for (std::size_t i = 0; i < reports.size(); ++i) {
            QCOMPARE(reports[i].iteration, int(i) + 1);
            QCOMPARE(reports[i].total, 768);
            QCOMPARE(reports[i].phase, i < 512 ? sebo::NutsPhase::Warmup : sebo::NutsPhase::Sampling);
            QCOMPARE(reports[i].step_size, r.iterations[i].step_size);
        }
        // Sampling uses one fixed (adapted) step size, the one reported.
        for (std::size_t i = 512; i < 768; ++i) QCOMPARE(r.iterations[i].step_size, r.step_size);
    }

    void deterministicPerSeed() {
        const sebo::LogDensity logp = diagonal_gaussian(VectorXd::Constant(3, 0.5), VectorXd::LinSpaced(3, 0.5, 2.0));
        sebo::NutsOptions o;
        o.warmup = 150;
        o.samples = 100;
        o.thinning = 1;
        const sebo::NutsResult a = sebo::run_nuts(logp, VectorXd::Zero(3), o, 7);
        const sebo::NutsResult b = sebo::run_nuts(logp, VectorXd::Zero(3), o, 7);
        const sebo::NutsResult c = sebo::run_nuts(logp, VectorXd::Zero(3), o, 8);
        QVERIFY(a.draws == b.draws);  // bit for bit
        QVERIFY(a.log_density == b.log_density);
        QCOMPARE(a.step_size, b.step_size);
        QVERIFY(a.inverse_metric == b.inverse_metric);
        QCOMPARE(a.gradient_evaluations, b.gradient_evaluations);
        QVERIFY((a.draws - c.draws).cwiseAbs().maxCoeff() > 0.1);
        QVERIFY(a.step_size != c.step_size);

        // The same for the dense metric, on a correlated target.
        MatrixXd cov(3, 3);
        cov << 1.0, 0.5, 0.2, 0.5, 2.0, -0.4, 0.2, -0.4, 0.7;
        o.metric = sebo::NutsMetric::Dense;
        const sebo::NutsResult da = sebo::run_nuts(dense_gaussian(VectorXd::Zero(3), cov), VectorXd::Ones(3), o, 7);
        const sebo::NutsResult db = sebo::run_nuts(dense_gaussian(VectorXd::Zero(3), cov), VectorXd::Ones(3), o, 7);
        const sebo::NutsResult dc = sebo::run_nuts(dense_gaussian(VectorXd::Zero(3), cov), VectorXd::Ones(3), o, 8);
        QVERIFY(da.draws == db.draws);
        QVERIFY(da.inverse_metric_dense == db.inverse_metric_dense);
        QCOMPARE(da.step_size, db.step_size);
        QCOMPARE(da.gradient_evaluations, db.gradient_evaluations);
        QVERIFY((da.draws - dc.draws).cwiseAbs().maxCoeff() > 0.1);
        QVERIFY(da.inverse_metric_dense != dc.inverse_metric_dense);
    }

    // The stop token is polled before every gradient evaluation: a stop requested from inside
    // the log density (mid-trajectory) means no further evaluation at all.
    void cancellationWithinIteration() {
        std::stop_source source;
        long long calls = 0;
        const sebo::LogDensity gaussian = diagonal_gaussian(VectorXd::Zero(4), VectorXd::Constant(4, 1.0));
        auto logp = [&](const VectorXd& x, VectorXd& grad) {
            if (++calls == 1000) source.request_stop();
            return gaussian(x, grad);
        };
        const sebo::NutsResult r = sebo::run_nuts(logp, VectorXd::Zero(4), sebo::NutsOptions{}, 1, {}, source.get_token());
        QCOMPARE(r.status, sebo::NutsResult::Status::Cancelled);
        QCOMPARE(calls, 1000LL);
        QCOMPARE(r.gradient_evaluations, 1000LL);
        QVERIFY(r.iterations.size() < 768);
        QVERIFY(r.message.find("cancelled") == 0);
        qInfo("cancelled after %zu complete iterations: %s", r.iterations.size(), r.message.c_str());
    }

    void cancellationFromProgressAndBeforeStart() {
        std::stop_source source;
        const sebo::LogDensity logp = diagonal_gaussian(VectorXd::Zero(2), VectorXd::Ones(2));
        const sebo::NutsResult r = sebo::run_nuts(
            logp, VectorXd::Zero(2), sebo::NutsOptions{}, 1,
            [&](const sebo::NutsProgress& p) {
                if (p.iteration == 530) source.request_stop();
            },
            source.get_token());
        QCOMPARE(r.status, sebo::NutsResult::Status::Cancelled);
        QCOMPARE(r.iterations.size(), std::size_t(530));
        // Draws kept so far (sampling iterations 0 and 16) are returned with the status.
        QCOMPARE(r.draws.rows(), Eigen::Index(2));

        std::stop_source stopped;
        stopped.request_stop();
        const sebo::NutsResult s = sebo::run_nuts(logp, VectorXd::Zero(2), sebo::NutsOptions{}, 1, {}, stopped.get_token());
        QCOMPARE(s.status, sebo::NutsResult::Status::Cancelled);
        QCOMPARE(s.gradient_evaluations, 0LL);
        QVERIFY(s.iterations.empty());
    }

    // Heap allocations do not grow with the number of iterations: the transitions (tree
    // building, leapfrog, adaptation) reuse their vectors.
    void noAllocationPerIteration() {
        if (!SEBO_TEST_COUNT_MALLOC) QSKIP("malloc cannot be counted in this build");
        const sebo::LogDensity logp = diagonal_gaussian(VectorXd::Zero(6), VectorXd::LinSpaced(6, 0.2, 2.0));
        const sebo::LogDensity correlated = dense_gaussian(VectorXd::Zero(6), random_covariance(6, 0.1, 10.0, 3));
        auto count = [&](int samples, sebo::NutsMetric metric) {
            sebo::NutsOptions o;
            o.samples = samples;
            o.metric = metric;
            // Dense: 60 draws minimum, so the first window (25 draws) is pooled into the second —
            // both update paths run.
            o.dense_min_draws_per_dimension = 10.0;
            const VectorXd start = VectorXd::Zero(6);
            const long long before = g_allocations.load();
            const sebo::NutsResult r = sebo::run_nuts(metric == sebo::NutsMetric::Dense ? correlated : logp, start, o, 4);
            const long long used = g_allocations.load() - before;
            return r.status == sebo::NutsResult::Status::Completed ? used : -1LL;
        };
        for (const sebo::NutsMetric metric : {sebo::NutsMetric::Diagonal, sebo::NutsMetric::Dense}) {
            const long long short_run = count(200, metric);
            const long long long_run = count(3200, metric);
            qInfo("%s metric, heap allocations per run: %lld (712 iterations), %lld (3712 iterations)",
                  sebo::to_string(metric), short_run, long_run);
            QVERIFY(short_run > 0);
            QCOMPARE(long_run, short_run);
        }
    }
};

SEBO_TEST_MAIN(TestNuts)
}  // namespace test_nuts
#include "test_nuts.moc"
