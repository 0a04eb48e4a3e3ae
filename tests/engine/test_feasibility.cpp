// Probability of feasibility (acquisition/feasibility.h) and the constrained acquisitions
// (acquisition/feasibility_weighted.h): hand-computed probabilities, Monte Carlo over the product of
// the metrics' mixtures with a fixed seed, gradients against central finite differences, values far
// inside the infeasible region, and the bad-bound messages.

#include <cmath>
#include <limits>
#include <random>

#include "acquisition/acquisition.h"
#include "acquisition/feasibility.h"
#include "acquisition/feasibility_weighted.h"
#include "acquisition/gaussian.h"
#include "test_main.h"
#include "test_support.h"

namespace test_feasibility {

using namespace sebo;

namespace {

MixtureMoments mixture(std::vector<double> mean, std::vector<double> sd) {
    MixtureMoments m;
    m.mean = Eigen::Map<Eigen::VectorXd>(mean.data(), Eigen::Index(mean.size()));
    m.var.resize(Eigen::Index(sd.size()));
    for (std::size_t s = 0; s < sd.size(); ++s) m.var[Eigen::Index(s)] = sd[s] * sd[s];
    return m;
}

// A draw from one metric's mixture: a component, then a Gaussian value.
double draw(const MixtureMoments& m, std::mt19937_64& rng) {
    std::uniform_int_distribution<Eigen::Index> pick(0, m.mean.size() - 1);
    const Eigen::Index s = pick(rng);
    return m.mean[s] + std::sqrt(m.var[s]) * std::normal_distribution<double>()(rng);
}

// Worst relative error of the analytic gradient of f against central differences.
template <class F>
double gradient_error(std::vector<MixtureMoments> metrics, const std::vector<MixtureGradient>& gradient, F f) {
    double worst = 0.0;
    const double h = 1e-6;
    for (std::size_t j = 0; j < metrics.size(); ++j)
        for (Eigen::Index s = 0; s < metrics[j].mean.size(); ++s)
            for (int which = 0; which < 2; ++which) {
                auto plus = metrics, minus = metrics;
                (which == 0 ? plus[j].mean : plus[j].var)[s] += h;
                (which == 0 ? minus[j].mean : minus[j].var)[s] -= h;
                const double fd = (f(plus) - f(minus)) / (2 * h);
                const double analytic = which == 0 ? gradient[j].dmean[s] : gradient[j].dvar[s];
                worst = std::max(worst, std::abs(analytic - fd) / std::max(1e-3, std::abs(fd)));
            }
    return worst;
}

}  // namespace

class TestFeasibility : public QObject {
    Q_OBJECT

private slots:
    void badBoundsAreNamed() {
        QCOMPARE(QString::fromStdString(
                     validate_outcome_bounds({{0, BoundSense::AtMost, 1.0}, {1, BoundSense::AtLeast, 0.5}}, 2)),
                 QString());
        QCOMPARE(QString::fromStdString(validate_outcome_bounds({{2, BoundSense::AtMost, 1.0}}, 2)),
                 QString("outcome bound 0: metric index 2 is not in [0, 2)"));
        QVERIFY(QString::fromStdString(
                    validate_outcome_bounds({{0, BoundSense::AtMost, 1.0}, {0, BoundSense::AtMost, NAN}}, 1))
                    .startsWith("outcome bound 1: bound "));
        QCOMPARE(QString::fromStdString(
                     validate_outcome_bounds({{0, BoundSense::AtMost, 1.0}, {0, BoundSense::AtLeast, 2.0}}, 1)),
                 QString("outcome bounds on metric 0: no value is both >= 2 and <= 1"));
    }

    void handComputedProbabilities() {
        // One sample, metric ≤ 1 with N(0.5, 0.5²): Φ(1).
        const FeasibilityProbability at_most({{0, BoundSense::AtMost, 1.0}}, 1);
        const std::vector<MixtureMoments> one = {mixture({0.5}, {0.5})};
        SEBO_COMPARE_NEAR(at_most.log_value(one, nullptr), std::log(normal_cdf(1.0)), 1e-15);
        // metric ≥ 1: Φ(−1).
        const FeasibilityProbability at_least({{0, BoundSense::AtLeast, 1.0}}, 1);
        SEBO_COMPARE_NEAR(at_least.log_value(one, nullptr), std::log(normal_cdf(-1.0)), 1e-15);
        // 0 ≤ metric ≤ 1, two bounds on one metric: Φ(1) − Φ(−1), not the product Φ(1)Φ(1).
        const FeasibilityProbability band({{0, BoundSense::AtLeast, 0.0}, {0, BoundSense::AtMost, 1.0}}, 1);
        SEBO_COMPARE_NEAR(band.log_value(one, nullptr), std::log(normal_cdf(1.0) - normal_cdf(-1.0)), 1e-15);
        QCOMPARE(band.lower(0), 0.0);
        QCOMPARE(band.upper(0), 1.0);
        // Two samples: the average; two metrics: the product of their averages; an unbounded metric: 1.
        const FeasibilityProbability two({{0, BoundSense::AtMost, 0.0}, {2, BoundSense::AtLeast, 0.0}}, 3);
        const std::vector<MixtureMoments> metrics = {mixture({0.0, 1.0}, {1.0, 1.0}), mixture({5.0}, {1.0}),
                                                     mixture({1.0}, {2.0})};
        const double expected = 0.5 * (0.5 + normal_cdf(-1.0)) * normal_cdf(0.5);
        SEBO_COMPARE_NEAR(two.log_value(metrics, nullptr), std::log(expected), 1e-15);
    }

    void againstMonteCarlo() {
        // Three metrics with 3, 1 and 2 samples; a band on the first, one bound on the third.
        const FeasibilityProbability pof(
            {{0, BoundSense::AtLeast, -0.3}, {0, BoundSense::AtMost, 0.8}, {2, BoundSense::AtMost, 1.1}}, 3);
        const std::vector<std::vector<MixtureMoments>> cases = {
            {mixture({0.0, 0.5, 1.2}, {0.4, 0.3, 0.6}), mixture({0.0}, {1.0}), mixture({0.9, 1.5}, {0.5, 0.2})},
            {mixture({-1.0, 2.0, 0.3}, {0.2, 0.2, 0.1}), mixture({3.0}, {0.1}), mixture({0.0, 0.2}, {1.0, 0.8})},
        };
        std::mt19937_64 rng(4242);
        double worst_z = 0.0;
        for (const auto& metrics : cases) {
            const double p = std::exp(pof.log_value(metrics, nullptr));
            const int n = 400000;
            int hits = 0;
            for (int i = 0; i < n; ++i) {
                const double y0 = draw(metrics[0], rng), y2 = draw(metrics[2], rng);
                hits += y0 >= -0.3 && y0 <= 0.8 && y2 <= 1.1;
            }
            const double mc = double(hits) / n, se = std::sqrt(mc * (1 - mc) / n);
            worst_z = std::max(worst_z, std::abs(p - mc) / se);
            QVERIFY2(std::abs(p - mc) <= 4 * se, qPrintable(QString("PoF %1 vs MC %2 ± %3").arg(p).arg(mc).arg(se)));
        }
        qInfo("PoF vs Monte Carlo: largest deviation %.2f standard errors", worst_z);
    }

    void gradientsMatchFiniteDifferences() {
        const FeasibilityProbability pof({{0, BoundSense::AtLeast, -0.3},
                                          {0, BoundSense::AtMost, 0.8},
                                          {1, BoundSense::AtMost, 1.1},
                                          {2, BoundSense::AtLeast, 0.4}},
                                         3);
        const std::vector<std::vector<MixtureMoments>> cases = {
            {mixture({0.0, 0.5, 1.2}, {0.4, 0.3, 0.6}), mixture({0.9, 1.5}, {0.5, 0.2}), mixture({0.1}, {0.3})},
            // far outside: 30 standard deviations beyond the bounds
            {mixture({10.0, 9.0}, {0.3, 0.3}), mixture({10.0}, {0.3}), mixture({-8.6}, {0.3})},
        };
        double worst = 0.0;
        for (const auto& metrics : cases) {
            std::vector<MixtureGradient> gradient;
            const double v = pof.log_value(metrics, &gradient);
            QVERIFY(std::isfinite(v));
            const double err = gradient_error(
                metrics, gradient, [&](const std::vector<MixtureMoments>& m) { return pof.log_value(m, nullptr); });
            worst = std::max(worst, err);
            QVERIFY2(err < 1e-6, qPrintable(QString("relative error %1").arg(err)));
        }
        qInfo("PoF gradients vs central differences: worst relative error %.2e", worst);
        // Far inside the infeasible region the log stays finite and the gradient points back.
        const FeasibilityProbability at_most({{0, BoundSense::AtMost, 0.0}}, 1);
        std::vector<MixtureGradient> gradient;
        const double far = at_most.log_value(std::vector<MixtureMoments>{mixture({50.0}, {1.0})}, &gradient);
        SEBO_COMPARE_NEAR(far, log_normal_cdf(-50.0), 1e-9);
        QVERIFY(gradient[0].dmean[0] < -49.0);
    }

    void constrainedAcquisitionsFactorize() {
        // log(EI × PoF) against Monte Carlo of (Y − best)_+ · 1{feasible} with Y and the constrained
        // metric drawn independently from their mixtures.
        const FeasibilityProbability pof({{0, BoundSense::AtMost, 0.5}}, 1);
        const MixtureMoments objective = mixture({0.2, 0.6}, {0.5, 0.3});
        const std::vector<MixtureMoments> constrained = {mixture({0.3, 0.9, 0.1}, {0.4, 0.2, 0.3})};
        ConstrainedGradient gradient;
        const double value = log_ei_times_feasibility(objective, 0.4, pof, constrained, &gradient);
        SEBO_COMPARE_NEAR(
            value,
            log_mixture_ei(objective.mean, objective.var, 0.4, nullptr, nullptr) + pof.log_value(constrained, nullptr),
            1e-15);
        std::mt19937_64 rng(8);
        double sum = 0.0, sum2 = 0.0;
        const int n = 400000;
        for (int i = 0; i < n; ++i) {
            const double y = draw(objective, rng), c = draw(constrained[0], rng);
            const double v = c <= 0.5 ? std::max(0.0, y - 0.4) : 0.0;
            sum += v;
            sum2 += v * v;
        }
        const double mc = sum / n, se = std::sqrt((sum2 / n - mc * mc) / n);
        QVERIFY2(std::abs(std::exp(value) - mc) <= 4 * se,
                 qPrintable(QString("EI×PoF %1 vs MC %2 ± %3").arg(std::exp(value)).arg(mc).arg(se)));
        // Gradients side by side.
        const double h = 1e-6;
        for (Eigen::Index s = 0; s < 2; ++s) {
            MixtureMoments plus = objective, minus = objective;
            plus.mean[s] += h;
            minus.mean[s] -= h;
            const double fd = (log_ei_times_feasibility(plus, 0.4, pof, constrained, nullptr) -
                               log_ei_times_feasibility(minus, 0.4, pof, constrained, nullptr)) /
                              (2 * h);
            SEBO_COMPARE_NEAR(gradient.objectives[0].dmean[s], fd, 1e-6 * std::max(1.0, std::abs(fd)));
        }
        std::vector<MixtureGradient> pof_gradient;
        pof.log_value(constrained, &pof_gradient);
        QCOMPARE(gradient.constrained.size(), std::size_t{1});
        for (Eigen::Index s = 0; s < 3; ++s) QCOMPARE(gradient.constrained[0].dmean[s], pof_gradient[0].dmean[s]);

        // log(EHVI × PoF), sparse and plain: the sum of the parts, the ξ derivative the EHVI's.
        const SparseMultiEhvi sparse({{{0.5, 0.5}, 0.0}, {{1.0, 0.2}, 1.0}}, {0.0, 0.0}, 3.0);
        const MultiEhvi plain({{0.5, 0.5}, {1.0, 0.2}}, {0.0, 0.0});
        const std::vector<MixtureMoments> objectives = {mixture({0.8}, {0.3}), mixture({0.6, 0.4}, {0.2, 0.3})};
        double dxi = 0.0;
        const double sparse_value =
            log_sparse_ehvi_times_feasibility(sparse, objectives, 0.5, pof, constrained, &gradient);
        SEBO_COMPARE_NEAR(sparse_value,
                          sparse.log_ehvi(objectives, 0.5, nullptr, &dxi) + pof.log_value(constrained, nullptr), 1e-14);
        QCOMPARE(gradient.dxi, dxi);
        QCOMPARE(gradient.objectives.size(), std::size_t{2});
        const double plain_value = log_ehvi_times_feasibility(plain, objectives, pof, constrained, &gradient);
        SEBO_COMPARE_NEAR(plain_value, plain.log_ehvi(objectives, nullptr) + pof.log_value(constrained, nullptr),
                          1e-14);
        QCOMPARE(gradient.dxi, 0.0);
    }
};

SEBO_TEST_MAIN(TestFeasibility)
}  // namespace test_feasibility
#include "test_feasibility.moc"
