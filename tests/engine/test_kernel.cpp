// Matérn-5/2 kernel and the objective standardizer, against hand-written formulas.

#include <cmath>

#include "model/matern52_kernel.h"
#include "model/standardizer.h"
#include "test_main.h"
#include "test_support.h"

namespace test_kernel {

namespace {

// σ² (1 + √5 d/ℓ + 5d²/(3ℓ²)) exp(−√5 d/ℓ) in the textbook lengthscale form
// (Rasmussen & Williams 2006, eq. 4.17), for one dimension.
double textbook_matern52(double distance, double lengthscale, double variance) {
    const double a = std::sqrt(5.0) * distance / lengthscale;
    return variance * (1.0 + a + a * a / 3.0) * std::exp(-a);
}

}  // namespace

class TestKernel : public QObject {
    Q_OBJECT
private slots:
    void correlation_at_known_points() {
        // c(0) = 1 and dc/ds(0) = −5/6 (the kernel is twice differentiable at the origin).
        SEBO_COMPARE_NEAR(sebo::matern52(0.0).value, 1.0, 1e-15);
        SEBO_COMPARE_NEAR(sebo::matern52(0.0).derivative, -5.0 / 6.0, 1e-15);
        // r = 1: (1 + √5 + 5/3) e^{−√5} = 0.523994...
        const double expected = (1.0 + std::sqrt(5.0) + 5.0 / 3.0) * std::exp(-std::sqrt(5.0));
        SEBO_COMPARE_NEAR(expected, 0.52399411, 1e-8);
        SEBO_COMPARE_NEAR(sebo::matern52(1.0).value, expected, 1e-15);
        // r = 2 (s = 4): (1 + 2√5 + 20/3) e^{−2√5}.
        SEBO_COMPARE_NEAR(sebo::matern52(4.0).value,
                          (1.0 + 2.0 * std::sqrt(5.0) + 20.0 / 3.0) * std::exp(-2.0 * std::sqrt(5.0)), 1e-15);
    }

    void derivative_matches_finite_differences() {
        for (double s : {1e-4, 0.01, 0.3, 1.0, 2.5, 9.0}) {
            const double h = 1e-4 * s;
            const double fd = (sebo::matern52(s + h).value - sebo::matern52(s - h).value) / (2.0 * h);
            const double analytic = sebo::matern52(s).derivative;
            QVERIFY2(std::abs(analytic - fd) <= 1e-6 * std::abs(fd),
                     qPrintable(QString("s = %1: %2 vs %3").arg(s).arg(analytic).arg(fd)));
        }
    }

    void covariance_matches_textbook_form_per_dimension() {
        // With one dimension active at a time the ARD kernel is the textbook Matérn-5/2 with
        // ℓ = 1/√ρ.
        Eigen::MatrixXd A(2, 2), B(3, 2);
        A << 0.1, 0.9, 0.5, 0.5;
        B << 0.3, 0.2, 0.0, 1.0, 0.75, 0.4;
        Eigen::VectorXd rho(2);
        rho << 4.0, 0.0;  // dimension 1 switched off
        const Eigen::MatrixXd K = sebo::matern52_covariance(A, B, rho, 2.5);
        QCOMPARE(K.rows(), 2);
        QCOMPARE(K.cols(), 3);
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 3; ++j)
                SEBO_COMPARE_NEAR(K(i, j), textbook_matern52(std::abs(A(i, 0) - B(j, 0)), 0.5, 2.5), 1e-14);
    }

    void covariance_of_a_hand_computed_two_dimensional_pair() {
        // x = (0.2, 0.7), x' = (0.6, 0.1), ρ = (3, 0.5), σ² = 1.7:
        // r² = 3·0.16 + 0.5·0.36 = 0.66, r = 0.812404, √5 r = 1.816590,
        // k = 1.7 (1 + √5 r + 1.1) e^{−√5 r} = 1.7 · 3.916590 · 0.162585 = 1.082485.
        Eigen::MatrixXd A(1, 2), B(1, 2);
        A << 0.2, 0.7;
        B << 0.6, 0.1;
        Eigen::VectorXd rho(2);
        rho << 3.0, 0.5;
        const double r = std::sqrt(0.66);
        const double expected = 1.7 * (1.0 + std::sqrt(5.0) * r + 5.0 * 0.66 / 3.0) * std::exp(-std::sqrt(5.0) * r);
        SEBO_COMPARE_NEAR(sebo::scaled_squared_distances(A, B, rho)(0, 0), 0.66, 1e-15);
        SEBO_COMPARE_NEAR(sebo::matern52_covariance(A, B, rho, 1.7)(0, 0), expected, 1e-15);
        SEBO_COMPARE_NEAR(expected, 1.082485, 1e-6);
        // Symmetric, and σ² on the diagonal.
        SEBO_COMPARE_NEAR(sebo::matern52_covariance(B, A, rho, 1.7)(0, 0), expected, 1e-15);
        SEBO_COMPARE_NEAR(sebo::matern52_covariance(A, A, rho, 1.7)(0, 0), 1.7, 1e-15);
    }

    void standardizer_uses_the_sample_standard_deviation() {
        Eigen::VectorXd y(4);
        y << 1.0, 2.0, 3.0, 4.0;
        const sebo::Standardizer s(y);
        SEBO_COMPARE_NEAR(s.mean(), 2.5, 1e-15);
        SEBO_COMPARE_NEAR(s.scale(), std::sqrt(5.0 / 3.0), 1e-15);  // Σ(y − 2.5)² = 5, n − 1 = 3
        const Eigen::VectorXd z = s.transform(y);
        SEBO_COMPARE_NEAR(z.mean(), 0.0, 1e-15);
        SEBO_COMPARE_NEAR(z.squaredNorm() / 3.0, 1.0, 1e-14);
        SEBO_COMPARE_NEAR((s.untransform(z) - y).cwiseAbs().maxCoeff(), 0.0, 1e-14);
        Eigen::VectorXd sem(1);
        sem << 0.5;
        SEBO_COMPARE_NEAR(s.transform_sem(sem)[0], 0.5 / std::sqrt(5.0 / 3.0), 1e-15);
        Eigen::VectorXd v(1);
        v << 0.2;
        SEBO_COMPARE_NEAR(s.untransform_variance(v)[0], 0.2 * 5.0 / 3.0, 1e-15);
    }

    void standardizer_only_centres_constant_data() {
        Eigen::VectorXd y = Eigen::VectorXd::Constant(3, 7.0);
        const sebo::Standardizer s(y);
        SEBO_COMPARE_NEAR(s.mean(), 7.0, 0.0);
        SEBO_COMPARE_NEAR(s.scale(), 1.0, 0.0);
        Eigen::VectorXd one(1);
        one << 3.0;
        SEBO_COMPARE_NEAR(sebo::Standardizer(one).scale(), 1.0, 0.0);
        SEBO_COMPARE_NEAR(sebo::Standardizer(one).transform(one)[0], 0.0, 0.0);
    }
};

SEBO_TEST_MAIN(TestKernel)
}  // namespace test_kernel
#include "test_kernel.moc"
