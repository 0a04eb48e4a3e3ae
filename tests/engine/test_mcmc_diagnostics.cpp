// R-hat and effective sample size (engine/model/mcmc_diagnostics.h) against values computed
// independently: small cases worked by hand, three fixed sets of draws whose reference values come
// from tests/engine/reference/mcmc_diagnostics.py (a separate Python implementation of Vehtari et
// al. 2021 with the standard library's normal quantile, not Boost's), and long AR(1) chains
// whose effective sample size is known in closed form.

#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "model/mcmc_diagnostics.h"
#include "core/portable_random.h"
#include "test_main.h"
#include "test_support.h"

namespace test_mcmc_diagnostics {

using namespace sebo;
using Eigen::MatrixXd;

namespace {

// Rows are iterations, columns chains (the python script lists chains).
MatrixXd chains_from(std::initializer_list<std::initializer_list<double>> lists) {
    const auto m = static_cast<Eigen::Index>(lists.size());
    const auto n = static_cast<Eigen::Index>(lists.begin()->size());
    MatrixXd x(n, m);
    Eigen::Index c = 0;
    for (const auto& chain : lists) {
        Eigen::Index i = 0;
        for (double v : chain) x(i++, c) = v;
        ++c;
    }
    return x;
}

MatrixXd draws_a() {
    return chains_from({{0.12, -0.45, 1.30, 0.88, -1.10, 0.05, 0.67, -0.32, 1.95},
                        {0.40, 0.81, 1.22, 1.75, 0.93, 1.41, 2.08, 1.13, 0.57},
                        {-0.90, -0.21, 0.34, -1.48, -0.66, 0.18, -0.05, -1.02, 0.29}});
}

MatrixXd draws_b() {
    return chains_from({{1.0, 1.2, 1.1, 1.4, 1.3, 1.5, 1.2, 1.6, 1.4, 1.7, 1.5, 1.8},
                        {0.9, 0.7, 1.0, 0.8, 1.1, 0.9, 1.2, 1.0, 1.3, 1.1, 1.4, 1.2},
                        {2.0, 1.1, 1.9, 1.2, 1.8, 1.3, 1.7, 1.4, 1.6, 1.5, 1.2, 1.0},
                        {0.5, 0.6, 0.55, 0.7, 0.65, 0.8, 0.75, 0.9, 0.85, 1.0, 0.95, 1.1}});
}

// sin(0.37 t (c + 1)) + 0.1 c + ((7 t + 3 c) mod 11) / 11, t = 0 … 40, c = 0 … 3.
MatrixXd draws_c() {
    MatrixXd x(41, 4);
    for (int c = 0; c < 4; ++c)
        for (int t = 0; t < 41; ++t) x(t, c) = std::sin(0.37 * t * (c + 1)) + 0.1 * c + ((7 * t + 3 * c) % 11) / 11.0;
    return x;
}

// M chains of an AR(1) process x_t = φ x_{t−1} + √(1 − φ²) ε_t, started in its stationary law,
// plus `shift` added to chain 0.
MatrixXd ar1_chains(int m, int n, double phi, double shift, std::uint64_t seed) {
    PortableRandom random(seed);
    MatrixXd x(n, m);
    for (int c = 0; c < m; ++c) {
        double v = random.normal();
        for (int t = 0; t < n; ++t) {
            v = phi * v + std::sqrt(1.0 - phi * phi) * random.normal();
            x(t, c) = v + (c == 0 ? shift : 0.0);
        }
    }
    return x;
}

}  // namespace

class TestMcmcDiagnostics : public QObject {
    Q_OBJECT
private slots:
    // Two chains 1,2,3 and 4,5,6: W = 1, B/N = var(2, 5) = 4.5, so R = √((2/3 · 1 + 4.5) / 1) = √(31/6).
    void basicRhatByHand() {
        SEBO_COMPARE_NEAR(basic_rhat(chains_from({{1, 2, 3}, {4, 5, 6}})), 2.273030282830976, 1e-12);
        // Identical chains: no between-chain variance, R = √((N − 1)/N).
        SEBO_COMPARE_NEAR(basic_rhat(chains_from({{1, 2, 3}, {1, 2, 3}})), std::sqrt(2.0 / 3.0), 1e-12);
    }

    // One chain 1, −1, 1, −1, 1, −1: autocovariances (1/6)(6, −5, 4, −3, 2, −1); ρ̂₁ = −1.0333, so
    // Geyer's sequence stops at once, τ̂ = 0 is raised to 1/log10(6): ESS = 6 log10(6).
    void essOfAntitheticChainByHand() {
        SEBO_COMPARE_NEAR(effective_sample_size(chains_from({{1, -1, 1, -1, 1, -1}})), 4.668907502301861, 1e-12);
    }

    // 3, 1, 2, 2 in one chain: ranks 4, 1, 2.5, 2.5 (ties share their average), normal scores
    // Φ⁻¹((r − 3/8)/(4 + 1/4)): ±Φ⁻¹(0.852941…) = ±1.04913… and exactly 0 for the tie.
    void rankNormalizationByHand() {
        const MatrixXd z = rank_normalize(chains_from({{3, 1, 2, 2}}));
        SEBO_COMPARE_NEAR(z(0, 0), 1.0491313979639711, 1e-12);
        SEBO_COMPARE_NEAR(z(1, 0), -1.0491313979639711, 1e-12);
        SEBO_COMPARE_NEAR(z(2, 0), 0.0, 1e-15);
        SEBO_COMPARE_NEAR(z(3, 0), 0.0, 1e-15);
    }

    // Odd lengths drop the middle iteration: 9 → halves of 4 (iterations 0–3 and 5–8).
    void splitChainsDropsTheMiddle() {
        const MatrixXd split = split_chains(draws_a());
        QCOMPARE(split.rows(), Eigen::Index{4});
        QCOMPARE(split.cols(), Eigen::Index{6});
        QCOMPARE(split(0, 0), 0.12);
        QCOMPARE(split(3, 0), 0.88);
        QCOMPARE(split(0, 3), 0.05);  // second half of chain 0 starts at iteration 5
        QCOMPARE(split(3, 5), 0.29);
    }

    // Reference values: python3 tests/engine/reference/mcmc_diagnostics.py.
    void matchesIndependentImplementation_data() {
        QTest::addColumn<int>("set");
        QTest::addColumn<double>("basic");
        QTest::addColumn<double>("ess");
        QTest::addColumn<double>("rhat");
        QTest::addColumn<double>("bulk");
        QTest::newRow("A: 3 chains x 9") << 0 << 1.4079910897622483 << 6.509550736053408 << 1.2666582513083828
                                        << 33.12506980107854;
        QTest::newRow("B: 4 chains x 12, ties") << 1 << 1.6135168267993283 << 4.658359817385594 << 1.863677657574979
                                               << 15.663563215295659;
        QTest::newRow("C: 4 chains x 41") << 2 << 0.9953567238021517 << 89.97325662429273 << 0.9916063473449571
                                         << 95.84272890368239;
    }
    void matchesIndependentImplementation() {
        QFETCH(int, set);
        QFETCH(double, basic);
        QFETCH(double, ess);
        QFETCH(double, rhat);
        QFETCH(double, bulk);
        const MatrixXd x = set == 0 ? draws_a() : set == 1 ? draws_b() : draws_c();
        SEBO_COMPARE_NEAR(basic_rhat(x), basic, 1e-12);
        SEBO_COMPARE_NEAR(effective_sample_size(x), ess, 1e-9 * ess);
        // The two normal quantiles (Boost's and AS 241) agree to ~1e-15 relative.
        SEBO_COMPARE_NEAR(split_rank_normalized_rhat(x), rhat, 1e-12);
        SEBO_COMPARE_NEAR(bulk_effective_sample_size(x), bulk, 1e-9 * bulk);
    }

    void firstRankNormalizedColumnMatches() {
        const MatrixXd z = rank_normalize(split_chains(draws_b()));
        const double expected[] = {-0.40005070486247524, 0.15648889946539304, -0.13024441341851123,
                                   0.6067129134535182,   0.40005070486247524, 0.8434734103184328};
        for (int i = 0; i < 6; ++i) SEBO_COMPARE_NEAR(z(i, 0), expected[i], 1e-12);
    }

    // AR(1) with φ: τ = (1 + φ)/(1 − φ), so 4 × 4000 draws with φ = 0.5 have ESS ≈ 16000/3; mixed
    // chains have R-hat near 1, a chain shifted by one standard deviation is flagged.
    void ar1ChainsAgainstTheory() {
        const MatrixXd mixed = ar1_chains(4, 4000, 0.5, 0.0, 11);
        const double expected = 16000.0 / 3.0;
        const double ess = bulk_effective_sample_size(mixed);
        QVERIFY2(std::abs(ess - expected) < 0.1 * expected, qPrintable(QString::number(ess)));
        QVERIFY2(std::abs(effective_sample_size(mixed) - expected) < 0.1 * expected,
                 qPrintable(QString::number(effective_sample_size(mixed))));
        QVERIFY(split_rank_normalized_rhat(mixed) < 1.005);
        const MatrixXd shifted = ar1_chains(4, 4000, 0.5, 1.0, 11);
        QVERIFY2(split_rank_normalized_rhat(shifted) > 1.05, qPrintable(QString::number(split_rank_normalized_rhat(shifted))));
        // R-hat is rank based: a monotone transform of every draw leaves it unchanged.
        SEBO_COMPARE_NEAR(split_rank_normalized_rhat(shifted.array().exp().matrix()), split_rank_normalized_rhat(shifted), 1e-14);
    }

    // A chain whose spread differs: only the folded (tail) R-hat sees it.
    void foldingSeesScaleDifferences() {
        MatrixXd x = ar1_chains(4, 2000, 0.0, 0.0, 5);
        x.col(1) *= 3.0;
        const double bulk = basic_rhat(rank_normalize(split_chains(x)));
        QVERIFY2(bulk < 1.01, qPrintable(QString::number(bulk)));
        QVERIFY2(split_rank_normalized_rhat(x) > 1.05, qPrintable(QString::number(split_rank_normalized_rhat(x))));
    }

    void undefinedCases() {
        MatrixXd x = draws_a();
        x(2, 1) = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(std::isnan(split_rank_normalized_rhat(x)));
        QVERIFY(std::isnan(bulk_effective_sample_size(x)));
        const MatrixXd constant = MatrixXd::Constant(10, 2, 3.5);
        QCOMPARE(basic_rhat(constant), 1.0);
        QCOMPARE(effective_sample_size(constant), 20.0);
        QVERIFY(std::isnan(basic_rhat(MatrixXd(1, 3))));
        QVERIFY(std::isnan(effective_sample_size(MatrixXd::Random(2, 3))));
    }
};

SEBO_TEST_MAIN(TestMcmcDiagnostics)
}  // namespace test_mcmc_diagnostics
#include "test_mcmc_diagnostics.moc"
