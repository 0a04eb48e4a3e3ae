// The pieces NUTS (engine/model/nuts*.h) is built from, each against hand-computed values: option
// validation, the warm-up windows, dual averaging of the step size, the diagonal and dense metric
// estimators and the Euclidean metric's kinetic energy, velocity and momentum draws. The sampler
// as a whole is checked against known distributions in test_nuts.cpp.

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "model/nuts.h"
#include "model/nuts_metric.h"
#include "model/nuts_step_size.h"
#include "model/nuts_warmup_windows.h"
#include "test_main.h"
#include "test_support.h"

namespace test_nuts_building_blocks {

namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

}  // namespace

class TestNutsBuildingBlocks : public QObject {
    Q_OBJECT

private slots:
    void optionsValidate() {
        QVERIFY(!sebo::NutsOptions{}.validate());
        sebo::NutsOptions o;
        o.thinning = 0;
        QVERIFY(o.validate()->find("nuts.thinning: 0") == 0);
        o = {};
        o.max_tree_depth = 0;
        QVERIFY(o.validate()->find("nuts.max_tree_depth") == 0);
        o = {};
        o.step_size.kappa = 0.0;
        QVERIFY(o.validate()->find("nuts.step_size.kappa") == 0);
        o = {};
        o.step_size.target_acceptance = 1.0;
        QVERIFY(o.validate()->find("nuts.step_size.target_acceptance") == 0);
        o = {};
        o.windows.base_window = 1;
        QVERIFY(o.validate()->find("nuts.windows.base_window") == 0);
        o = {};
        o.max_energy_error = std::numeric_limits<double>::infinity();
        QVERIFY(o.validate()->find("nuts.max_energy_error") == 0);
        o = {};
        o.initial_step_size = std::nan("");
        QVERIFY(o.validate()->find("nuts.initial_step_size") == 0);
        o = {};
        o.metric = static_cast<sebo::NutsMetric>(7);
        QVERIFY(o.validate()->find("nuts.metric: 7") == 0);
        o.metric = sebo::NutsMetric::Dense;
        QVERIFY(!o.validate());
        o.dense_min_draws_per_dimension = -1.0;
        QVERIFY(o.validate()->find("nuts.dense_min_draws_per_dimension: -1") == 0);
        // The paper's defaults (Eriksson & Jankowiak 2021 via SEBO §6).
        const sebo::NutsOptions d;
        QCOMPARE(d.warmup, 512);
        QCOMPARE(d.samples, 256);
        QCOMPARE(d.thinning, 16);
        QCOMPARE(d.max_tree_depth, 6);
        QCOMPARE(d.metric, sebo::NutsMetric::Diagonal);
        QCOMPARE(std::string(sebo::to_string(sebo::NutsMetric::Dense)), std::string("dense"));
    }

    // Hand-derived from Stan's windowed adaptation: init buffer 75, windows 25, 50, 100 and the
    // last one stretched to the terminal buffer of 50.
    void warmupWindowsDefault() {
        using W = sebo::AdaptationWindow;
        const sebo::WarmupWindowOptions o;
        QCOMPARE(sebo::metric_adaptation_windows(512, o), (std::vector<W>{{75, 100}, {100, 150}, {150, 250}, {250, 462}}));
        QCOMPARE(sebo::metric_adaptation_windows(1000, o),
                 (std::vector<W>{{75, 100}, {100, 150}, {150, 250}, {250, 450}, {450, 950}}));
        // Exactly fits: one window.
        QCOMPARE(sebo::metric_adaptation_windows(150, o), (std::vector<W>{{75, 100}}));
    }

    // For every warm-up length, the windows tile the slow phase between the (possibly scaled)
    // buffers and none is shorter than the base window, so each has ≥ 2 draws for a variance.
    void warmupWindowsTile() {
        for (const sebo::WarmupWindowOptions o :
             {sebo::WarmupWindowOptions{}, sebo::WarmupWindowOptions{10, 5, 2}, sebo::WarmupWindowOptions{0, 0, 7}}) {
            for (int warmup = 20; warmup <= 3000; ++warmup) {
                const std::vector<sebo::AdaptationWindow> w = sebo::metric_adaptation_windows(warmup, o);
                QVERIFY(!w.empty());
                const bool scaled = o.init_buffer + o.base_window + o.term_buffer > warmup;
                const int init = scaled ? static_cast<int>(0.15 * warmup) : o.init_buffer;
                const int term = scaled ? static_cast<int>(0.1 * warmup) : o.term_buffer;
                const int base = scaled ? warmup - init - term : o.base_window;
                QCOMPARE(w.front().begin, init);
                QCOMPARE(w.back().end, warmup - term);
                for (std::size_t i = 0; i < w.size(); ++i) {
                    QVERIFY(w[i].end - w[i].begin >= base);
                    if (i > 0) QCOMPARE(w[i].begin, w[i - 1].end);
                }
            }
        }
    }

    // Short warm-up: 15 % / 10 % buffers and one window in between; none below 20 iterations.
    void warmupWindowsShort() {
        using W = sebo::AdaptationWindow;
        const sebo::WarmupWindowOptions o;
        QCOMPARE(sebo::metric_adaptation_windows(100, o), (std::vector<W>{{15, 90}}));
        QCOMPARE(sebo::metric_adaptation_windows(20, o), (std::vector<W>{{3, 18}}));
        QVERIFY(sebo::metric_adaptation_windows(19, o).empty());
        QVERIFY(sebo::metric_adaptation_windows(0, o).empty());
    }

    // One update at the target acceptance leaves H̄ = 0, so x = μ = log(10 ε₀); with an
    // acceptance that falls with the step size as exp(−ε), the averaged iterate converges to the
    // root of exp(−ε) = 0.8.
    void dualAveraging() {
        sebo::DualAveraging a(sebo::DualAveragingOptions{}, 0.3);
        QCOMPARE(a.final_step_size(), 0.3);
        SEBO_COMPARE_NEAR(a.update(0.8), 3.0, 1e-12);
        SEBO_COMPARE_NEAR(a.final_step_size(), 3.0, 1e-12);  // x̄₁ = x₁ (weight 1⁻ᵏ = 1)
        a.restart(0.5);
        double eps = 0.5;
        for (int t = 0; t < 5000; ++t) eps = a.update(std::exp(-eps));
        SEBO_COMPARE_NEAR(a.final_step_size(), -std::log(0.8), 0.01 * -std::log(0.8));
    }

    // Draws 1, 2, 3, 4: variance 5/3, n = 4 → 4/9 · 5/3 + 1e-3 · 5/9.
    void metricEstimator() {
        sebo::DiagonalMetricEstimator e(2);
        for (double v : {1.0, 2.0, 3.0, 4.0}) e.add(VectorXd::Constant(2, v).cwiseProduct(VectorXd::LinSpaced(2, 1.0, 10.0)));
        VectorXd m;
        e.regularized_variance(m);
        QCOMPARE(m.size(), Eigen::Index(2));
        SEBO_COMPARE_NEAR(m[0], 4.0 / 9.0 * 5.0 / 3.0 + 1e-3 * 5.0 / 9.0, 1e-14);
        SEBO_COMPARE_NEAR(m[1], 4.0 / 9.0 * 500.0 / 3.0 + 1e-3 * 5.0 / 9.0, 1e-12);
        e.restart();
        QCOMPARE(e.count(), 0);
    }

    // Draws (1, 2), (2, 1), (3, 5), (4, 4): means 2.5 and 3, deviations (−1.5, −0.5, 0.5, 1.5) and
    // (−1, −2, 2, 1), so var x = 5/3, var y = 10/3, cov = 5/3; n = 4 → 4/9 · S + 1e-3 · 5/9 · I.
    // The diagonal agrees with the diagonal estimator on the same draws.
    void denseMetricEstimator() {
        sebo::DenseMetricEstimator e(2);
        sebo::DiagonalMetricEstimator diagonal(2);
        for (const auto& [x, y] : {std::pair{1.0, 2.0}, {2.0, 1.0}, {3.0, 5.0}, {4.0, 4.0}}) {
            e.add(Eigen::Vector2d(x, y));
            diagonal.add(Eigen::Vector2d(x, y));
        }
        QCOMPARE(e.count(), 4);
        MatrixXd m;
        e.regularized_covariance(m);
        QCOMPARE(m.rows(), Eigen::Index(2));
        QCOMPARE(m.cols(), Eigen::Index(2));
        const double shrink = 1e-3 * 5.0 / 9.0;
        SEBO_COMPARE_NEAR(m(0, 0), 4.0 / 9.0 * 5.0 / 3.0 + shrink, 1e-14);
        SEBO_COMPARE_NEAR(m(1, 1), 4.0 / 9.0 * 10.0 / 3.0 + shrink, 1e-14);
        SEBO_COMPARE_NEAR(m(0, 1), 4.0 / 9.0 * 5.0 / 3.0, 1e-14);
        QCOMPARE(m(1, 0), m(0, 1));
        VectorXd v;
        diagonal.regularized_variance(v);
        SEBO_COMPARE_NEAR((m.diagonal() - v).cwiseAbs().maxCoeff(), 0.0, 1e-14);
        // A new window forgets the old draws: (0, 0) and (2, 2) alone give S = [[2, 2], [2, 2]].
        e.restart();
        QCOMPARE(e.count(), 0);
        e.add(Eigen::Vector2d(0.0, 0.0));
        e.add(Eigen::Vector2d(2.0, 2.0));
        e.regularized_covariance(m);
        SEBO_COMPARE_NEAR(m(0, 1), 2.0 / 7.0 * 2.0, 1e-14);
        SEBO_COMPARE_NEAR(m(0, 0), 2.0 / 7.0 * 2.0 + 1e-3 * 5.0 / 7.0, 1e-14);
    }

    // The dense metric's operations against their definitions: p♯ = Σp, K = ½ pᵀΣp, and momenta
    // p = L⁻ᵀz, i.e. P = [p(e₁) … p(e_d)] = L⁻ᵀ with P Pᵀ = Σ⁻¹ = M (so p(z) ~ N(0, M) for
    // z ~ N(0, I)) and K(p(z)) = ½ zᵀz. The diagonal kind is the special case with Σ diagonal.
    void euclideanMetric() {
        MatrixXd sigma(3, 3);
        sigma << 4.0, 1.2, 0.0, 1.2, 1.0, -0.3, 0.0, -0.3, 0.5;
        sebo::EuclideanMetric dense(sebo::NutsMetric::Dense, 3);
        QCOMPARE(dense.inverse_dense(), MatrixXd(MatrixXd::Identity(3, 3)));
        QVERIFY(dense.set_dense(sigma));
        QCOMPARE(dense.inverse_dense(), sigma);
        QCOMPARE(dense.inverse_diagonal(), VectorXd(sigma.diagonal()));
        SEBO_COMPARE_NEAR((dense.cholesky_factor() * dense.cholesky_factor().transpose() - sigma).norm(), 0.0, 1e-14);
        const Eigen::Vector3d p(0.7, -1.1, 2.0);
        VectorXd velocity(3);
        dense.velocity(p, velocity);
        SEBO_COMPARE_NEAR((velocity - sigma * p).norm(), 0.0, 1e-14);
        velocity.setZero();
        SEBO_COMPARE_NEAR(dense.kinetic_energy(p, velocity), 0.5 * p.dot(sigma * p), 1e-14);
        SEBO_COMPARE_NEAR((velocity - sigma * p).norm(), 0.0, 1e-14);
        MatrixXd momenta = MatrixXd::Identity(3, 3);
        for (int i = 0; i < 3; ++i) {
            VectorXd z = momenta.col(i);
            dense.momentum_from_standard_normal(z);
            momenta.col(i) = z;
        }
        SEBO_COMPARE_NEAR((momenta * momenta.transpose() - sigma.inverse()).norm(), 0.0, 1e-12);
        VectorXd z = p;
        dense.momentum_from_standard_normal(z);
        SEBO_COMPARE_NEAR(dense.kinetic_energy(z, velocity), 0.5 * p.squaredNorm(), 1e-12);

        // Not positive definite (eigenvalues 3 and −1): set_dense refuses and changes nothing;
        // set_from_covariance falls back to the diagonal; a NaN keeps the previous metric.
        MatrixXd indefinite(3, 3);
        indefinite << 1.0, 2.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 0.25;
        QVERIFY(!dense.set_dense(indefinite));
        QCOMPARE(dense.inverse_dense(), sigma);
        QCOMPARE(dense.set_from_covariance(indefinite), sebo::EuclideanMetric::CovarianceUpdate::Diagonal);
        QCOMPARE(dense.inverse_dense(), MatrixXd(Eigen::Vector3d(1.0, 1.0, 0.25).asDiagonal()));
        QCOMPARE(dense.cholesky_factor(), MatrixXd(Eigen::Vector3d(1.0, 1.0, 0.5).asDiagonal()));
        MatrixXd not_finite = sigma;
        not_finite(2, 2) = std::nan("");
        QCOMPARE(dense.set_from_covariance(not_finite), sebo::EuclideanMetric::CovarianceUpdate::Kept);
        QCOMPARE(dense.inverse_dense(), MatrixXd(Eigen::Vector3d(1.0, 1.0, 0.25).asDiagonal()));
        QCOMPARE(dense.set_from_covariance(sigma), sebo::EuclideanMetric::CovarianceUpdate::Full);
        QCOMPARE(dense.inverse_dense(), sigma);

        sebo::EuclideanMetric diagonal(sebo::NutsMetric::Diagonal, 3);
        QCOMPARE(diagonal.inverse_dense().size(), Eigen::Index(0));
        const Eigen::Vector3d m(4.0, 1.0, 0.25);
        diagonal.set_diagonal(m);
        QCOMPARE(diagonal.inverse_diagonal(), VectorXd(m));
        SEBO_COMPARE_NEAR(diagonal.kinetic_energy(p, velocity), 0.5 * p.dot(m.cwiseProduct(p)), 1e-14);
        SEBO_COMPARE_NEAR((velocity - m.cwiseProduct(p)).norm(), 0.0, 1e-14);
        z = p;
        diagonal.momentum_from_standard_normal(z);
        SEBO_COMPARE_NEAR((z - Eigen::Vector3d(0.35, -1.1, 4.0)).norm(), 0.0, 1e-14);
    }
};

SEBO_TEST_MAIN(TestNutsBuildingBlocks)
}  // namespace test_nuts_building_blocks
#include "test_nuts_building_blocks.moc"
