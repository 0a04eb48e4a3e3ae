// Yeo–Johnson power transform of the objective (model/power_transform.h).
#include <cmath>
#include <random>

#include "model/power_transform.h"
#include "test_support.h"

using namespace sebo;

class TestPowerTransform : public QObject {
    Q_OBJECT
private slots:
    void formula_hand_computed() {
        // λ = 1 is the identity on both sides.
        QCOMPARE(PowerTransform::yeo_johnson(2.5, 1.0), 2.5);
        SEBO_COMPARE_NEAR(PowerTransform::yeo_johnson(-2.5, 1.0), -2.5, 1e-15);
        // λ = 0: log(1 + y) for y ≥ 0; λ = 2: −log(1 − y) for y < 0.
        SEBO_COMPARE_NEAR(PowerTransform::yeo_johnson(3.0, 0.0), std::log(4.0), 1e-15);
        SEBO_COMPARE_NEAR(PowerTransform::yeo_johnson(-3.0, 2.0), -std::log(4.0), 1e-15);
        // λ = 0.5, y = 3: ((4)^0.5 − 1)/0.5 = 2; y = −3: −((4)^1.5 − 1)/1.5 = −14/3.
        SEBO_COMPARE_NEAR(PowerTransform::yeo_johnson(3.0, 0.5), 2.0, 1e-15);
        SEBO_COMPARE_NEAR(PowerTransform::yeo_johnson(-3.0, 0.5), -14.0 / 3.0, 1e-14);
    }

    void fitted_transform_is_increasing_with_the_right_slope() {
        // Branin-like utilities: most near 0, a few catastrophic ones.
        Eigen::VectorXd y(8);
        y << -0.5, -1.2, -3.9, -5.1, -17.5, -58.0, -111.5, -308.1;
        const PowerTransform t(y);
        QVERIFY2(t.lambda() > 1.0, qPrintable(QString::number(t.lambda())));  // compresses the lower tail
        for (double a = -400; a < 10; a += 3.7) {
            QVERIFY(t.apply(a + 1.0) > t.apply(a));
            const double h = 1e-5;
            SEBO_COMPARE_NEAR(t.derivative(a), (t.apply(a + h) - t.apply(a - h)) / (2 * h), 1e-6 * std::max(1.0, std::abs(t.derivative(a))));
        }
    }

    void gaussian_data_is_left_nearly_alone() {
        std::mt19937_64 rng(4);
        std::normal_distribution<double> normal(3.0, 2.0);
        Eigen::VectorXd y(400);
        for (auto& v : y) v = normal(rng);
        const PowerTransform t(y);
        QVERIFY2(std::abs(t.lambda() - 1.0) <= 0.3, qPrintable(QString::number(t.lambda())));
    }

    void constant_data_gives_the_identity() {
        const PowerTransform t(Eigen::VectorXd::Constant(5, 2.0));
        QCOMPARE(t.lambda(), 1.0);
        QCOMPARE(t.apply(7.0), 7.0);
    }
};

QTEST_GUILESS_MAIN(TestPowerTransform)
#include "test_power_transform.moc"
