// The likelihood kernel's copies (model/likelihood_kernel.h): the AVX2 + FMA copy and the
// baseline one compute the same log marginal likelihood, gradient and jitter (to rounding),
// including the recursive blocks above 50 points and a covariance that needs jitter; the copy
// in use follows the CPU and SEBO_SIMD. CTest runs this file, and test_gp_fit's finite-difference
// checks, once more with SEBO_SIMD=generic, so both copies are checked on machines with AVX2.

#include <cmath>
#include <cstdlib>
#include <string>

#include "model/likelihood_kernel.h"
#include "model/marginal_likelihood.h"
#include "model_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_likelihood_kernel {

namespace {

using sebo::LikelihoodData;
using sebo::LmlWorkspace;
namespace kernel = sebo::likelihood_kernel;

// Shorter lengthscales and smaller noise than test_gp_fit's, so that K is less well conditioned.
Eigen::VectorXd random_theta(const sebo::UnconstrainedLayout& layout, sebo::PortableRandom& random) {
    return sebo::test::random_theta(layout, random, 0.05, 1e-4);
}

struct Evaluation {
    kernel::Result result;
    Eigen::VectorXd gradient;
};

Evaluation evaluate(kernel::Evaluate copy, const LikelihoodData& data, const Eigen::VectorXd& theta) {
    LmlWorkspace ws(data);
    Evaluation e{{}, Eigen::VectorXd(theta.size())};
    e.result = copy(sebo::kernel_buffers(data, ws), theta.data(), e.gradient.data());
    return e;
}

bool avx2_runs_here() { return kernel::avx2::built() && kernel::avx2::supported(); }

}  // namespace

class TestLikelihoodKernel : public QObject {
    Q_OBJECT

private slots:
    void the_copy_in_use_follows_the_cpu_and_the_environment() {
        const char* forced = std::getenv("SEBO_SIMD");
        const bool generic = (forced && std::string(forced) == "generic") || !avx2_runs_here();
        QCOMPARE(std::string(kernel::selected_name()), std::string(generic ? "generic" : "avx2+fma"));
        QVERIFY(kernel::selected() == (generic ? &kernel::generic::evaluate : &kernel::avx2::evaluate));
        qInfo("likelihood kernel in use: %s", kernel::selected_name());
    }

    void copies_agree_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("dimension");
        QTest::addColumn<bool>("known_noise");
        QTest::newRow("n=9 D=3 inferred noise") << 9 << 3 << false;
        QTest::newRow("n=70 D=12 inferred noise") << 70 << 12 << false;  // n > 50: the recursive blocks
        QTest::newRow("n=70 D=12 known noise") << 70 << 12 << true;
        QTest::newRow("n=130 D=5 inferred noise") << 130 << 5 << false;  // two levels of recursion
    }
    void copies_agree() {
        if (!avx2_runs_here()) QSKIP("this processor (or build) has no AVX2 + FMA copy to compare");
        QFETCH(int, n);
        QFETCH(int, dimension);
        QFETCH(bool, known_noise);
        sebo::PortableRandom random(static_cast<std::uint64_t>(100 + n + dimension));
        const LikelihoodData data(sebo::test::make_random_data(n, dimension, random, known_noise));
        for (int trial = 0; trial < 3; ++trial) {
            const Eigen::VectorXd theta = random_theta(data.layout(), random);
            const Evaluation a = evaluate(&kernel::generic::evaluate, data, theta);
            const Evaluation b = evaluate(&kernel::avx2::evaluate, data, theta);
            QVERIFY(a.result.cholesky.ok && b.result.cholesky.ok);
            QCOMPARE(b.result.cholesky.attempts, a.result.cholesky.attempts);
            SEBO_COMPARE_NEAR(b.result.value, a.result.value, 1e-11 * std::abs(a.result.value));
            const double error = sebo::test::max_relative_error(b.gradient, a.gradient, 1e-6);
            QVERIFY2(error < 1e-9, qPrintable(QString("gradient relative error %1").arg(error)));
        }
    }

    // Coincident points without noise: K is singular and both copies need the same jitter.
    void copies_agree_on_jitter() {
        if (!avx2_runs_here()) QSKIP("this processor (or build) has no AVX2 + FMA copy to compare");
        sebo::PortableRandom random(7);
        sebo::TrainingData d = sebo::test::make_random_data(60, 4, random, true);
        for (int i = 30; i < 60; ++i) {
            d.inputs.row(i) = d.inputs.row(i - 30);
            d.targets[i] = d.targets[i - 30];
        }
        d.noise_variances.setZero();
        const LikelihoodData data(d);
        const Eigen::VectorXd theta = random_theta(data.layout(), random);
        const Evaluation a = evaluate(&kernel::generic::evaluate, data, theta);
        const Evaluation b = evaluate(&kernel::avx2::evaluate, data, theta);
        QVERIFY(a.result.cholesky.ok && a.result.cholesky.jitter > 0.0);
        QCOMPARE(b.result.cholesky.ok, a.result.cholesky.ok);
        QCOMPARE(b.result.cholesky.attempts, a.result.cholesky.attempts);
        QCOMPARE(b.result.cholesky.jitter, a.result.cholesky.jitter);
        SEBO_COMPARE_NEAR(b.result.value, a.result.value, 1e-6 * std::abs(a.result.value));
    }

    // The AVX2 copy's gradient against central finite differences of its own value.
    void avx2_gradient_matches_finite_differences() {
        if (!avx2_runs_here()) QSKIP("this processor (or build) has no AVX2 + FMA copy");
        sebo::PortableRandom random(8);
        const LikelihoodData data(sebo::test::make_random_data(64, 7, random, false));
        const Eigen::VectorXd theta = random_theta(data.layout(), random);
        const Evaluation e = evaluate(&kernel::avx2::evaluate, data, theta);
        const Eigen::VectorXd fd = sebo::test::finite_difference_gradient(
            [&](const Eigen::VectorXd& t) { return evaluate(&kernel::avx2::evaluate, data, t).result.value; }, theta, 1e-4);
        const double error = sebo::test::max_relative_error(e.gradient, fd, 1e-8);
        QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
    }
};

SEBO_TEST_MAIN(TestLikelihoodKernel)
}  // namespace test_likelihood_kernel
#include "test_likelihood_kernel.moc"
