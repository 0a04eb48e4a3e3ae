// L-BFGS-B in the unit box (optimize/multistart.h): the tail compression keeps every start's
// optimum and value, and a start near the maximum reaches it where the plain line search gives up.
#include <cmath>

#include "acquisition/gaussian.h"
#include "optimize/multistart.h"
#include "test_main.h"
#include "test_support.h"

namespace test_multistart {

using namespace sebo;

namespace {

constexpr double kLogSqrt2Pi = 0.91893853320467274178;

// log Φ((0.7 − x1)/0.001) − (x1 − 0.6)² − (x2 − 0.3)² − 0.4 (x0 − 0.5)²: a shallow concave bowl at
// (0.5, 0.6, 0.3) next to a sharp "constraint" at x1 = 0.7, beyond which the value falls as −z²/2
// (about −5000 at x1 = 0.8, −45 000 at 1): the shape of log(EHVI × PoF) for a nearly noise-free
// constrained metric.
double steep_tail(const Eigen::VectorXd& x, Eigen::VectorXd* grad, int* evaluations) {
    ++*evaluations;
    const double z = (0.7 - x[1]) / 0.001;
    const double log_p = log_normal_cdf(z);
    const double v = log_p - (x[1] - 0.6) * (x[1] - 0.6) - (x[2] - 0.3) * (x[2] - 0.3) - 0.4 * (x[0] - 0.5) * (x[0] - 0.5);
    if (grad) {
        grad->resize(3);
        const double ratio = std::exp(-0.5 * z * z - kLogSqrt2Pi - log_p);  // φ(z)/Φ(z)
        (*grad)[0] = -0.8 * (x[0] - 0.5);
        (*grad)[1] = -ratio / 0.001 - 2.0 * (x[1] - 0.6);
        (*grad)[2] = -2.0 * (x[2] - 0.3);
    }
    return v;
}

}  // namespace

class TestMultistart : public QObject {
    Q_OBJECT
private slots:
    void tail_compression_keeps_the_optimum() {
        // Starts far from the maximum: both ways reach it, with the objective's own value.
        const std::vector<Eigen::VectorXd> starts = {Eigen::Vector3d(0.3, 0.2, 0.8), Eigen::Vector3d(0.9, 0.1, 0.1),
                                                     Eigen::Vector3d(0.1, 0.65, 0.5)};
        LbfgsbOptions plain, compressed;
        compressed.tail_compression = 1.0;
        int evaluations = 0;
        const SmoothObjective f = [&](const Eigen::VectorXd& x, Eigen::VectorXd* g) { return steep_tail(x, g, &evaluations); };
        const auto a = maximize_in_unit_box(f, starts, plain);
        const auto b = maximize_in_unit_box(f, starts, compressed);
        QCOMPARE(a.size(), starts.size());
        QCOMPARE(b.size(), starts.size());
        for (std::size_t k = 0; k < starts.size(); ++k) {
            for (const LocalOptimum* o : {&a[k], &b[k]}) {
                // x1 = 0.6 is 100 σ inside the constraint: log Φ(100) is 0 to rounding.
                SEBO_COMPARE_NEAR(o->x[0], 0.5, 1e-5);
                SEBO_COMPARE_NEAR(o->x[1], 0.6, 1e-5);
                SEBO_COMPARE_NEAR(o->x[2], 0.3, 1e-5);
                // The value returned is the objective's own, not the compressed one.
                QCOMPARE(o->value, steep_tail(o->x, nullptr, &evaluations));
            }
            SEBO_COMPARE_NEAR(b[k].value, a[k].value, 1e-9);
        }
    }

    void tail_compression_spares_the_line_search() {
        // Starts near the maximum, as a homotopy stage's starts are (the previous stage's optima):
        // the gradient is small, the first trial step (length 1 in the box, cut at the bound) lands
        // at x1 ≈ 1, ~45 000 below, and Moré–Thuente's cubic step from there is tiny. Without the
        // compression it regrows ×2.1 per evaluation and runs out of line-search iterations short of
        // the maximum (LBFGSpp 0.2/0.3 as in Debian 12); with it every start reaches the maximum.
        const std::vector<Eigen::VectorXd> starts = {Eigen::Vector3d(0.5, 0.59, 0.3), Eigen::Vector3d(0.49, 0.59, 0.31),
                                                     Eigen::Vector3d(0.45, 0.55, 0.35)};
        LbfgsbOptions plain, compressed;
        compressed.tail_compression = 1.0;
        int plain_evaluations = 0, compressed_evaluations = 0;
        const auto a = maximize_in_unit_box(
            [&](const Eigen::VectorXd& x, Eigen::VectorXd* g) { return steep_tail(x, g, &plain_evaluations); }, starts, plain);
        const auto b = maximize_in_unit_box(
            [&](const Eigen::VectorXd& x, Eigen::VectorXd* g) { return steep_tail(x, g, &compressed_evaluations); },
            starts, compressed);
        QCOMPARE(b.size(), starts.size());
        for (const LocalOptimum& o : b) {
            SEBO_COMPARE_NEAR(o.x[0], 0.5, 1e-5);
            SEBO_COMPARE_NEAR(o.x[1], 0.6, 1e-5);
            SEBO_COMPARE_NEAR(o.x[2], 0.3, 1e-5);
        }
        QCOMPARE(a.size(), starts.size());
        QVERIFY(a[0].line_search_failed);
        QVERIFY2(std::abs(a[0].x[1] - 0.6) > 1e-3, qPrintable(QString("plain x1 = %1").arg(a[0].x[1])));
        QVERIFY(b[0].value > a[0].value);
        qInfo("evaluations: %d plain, %d compressed", plain_evaluations, compressed_evaluations);
    }

    // Each optimum says how its run ended (issue 34's counters): a line-search failure, the
    // iteration limit, or a convergence test.
    void every_start_says_how_it_ended() {
        int evaluations = 0;
        const SmoothObjective f = [&](const Eigen::VectorXd& x, Eigen::VectorXd* g) { return steep_tail(x, g, &evaluations); };
        const std::vector<Eigen::VectorXd> far = {Eigen::Vector3d(0.3, 0.2, 0.8)};
        LbfgsbOptions options;
        const LocalOptimum converged = maximize_in_unit_box(f, far, options).front();
        QVERIFY(!converged.line_search_failed);
        QVERIFY(!converged.iteration_limit);
        QVERIFY(converged.iterations > 1 && converged.iterations < options.max_iterations);
        options.max_iterations = converged.iterations - 1;
        const LocalOptimum stopped = maximize_in_unit_box(f, far, options).front();
        QVERIFY(stopped.iteration_limit);
        QVERIFY(!stopped.line_search_failed);
        QCOMPARE(stopped.iterations, options.max_iterations);
        // The plain line search's failure near the maximum (tail_compression_spares_the_line_search).
        const LocalOptimum failed = maximize_in_unit_box(f, {Eigen::Vector3d(0.5, 0.59, 0.3)}, LbfgsbOptions{}).front();
        QVERIFY(failed.line_search_failed);
        QVERIFY(!failed.iteration_limit);
    }

    void tail_compression_is_validated() {
        LbfgsbOptions o;
        QVERIFY(!o.validate());
        o.tail_compression = -1.0;
        QVERIFY(o.validate() && o.validate()->find("tail_compression") != std::string::npos);
        o.tail_compression = std::nan("");
        QVERIFY(o.validate() && o.validate()->find("tail_compression") != std::string::npos);
        o.tail_compression = 2.0;
        QVERIFY(!o.validate());
    }
};

SEBO_TEST_MAIN(TestMultistart)
}  // namespace test_multistart
#include "test_multistart.moc"
