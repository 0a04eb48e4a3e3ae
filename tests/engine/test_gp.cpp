// Exact GP posterior: a hand-computed three-point case, input gradients against finite
// differences, jitter escalation on duplicated inputs, and the ensemble posterior.

#include <cmath>
#include <memory>
#include <numbers>

#include "model/ensemble_posterior.h"
#include "model/gaussian_process.h"
#include "model/jittered_cholesky.h"
#include "core/portable_random.h"
#include "test_main.h"
#include "test_support.h"

namespace test_gp {

namespace {

using sebo::GaussianProcess;
using sebo::GpHyperparameters;
using sebo::TrainingData;

// Hand-written Matérn-5/2: σ² (1 + √5 r + 5r²/3) exp(−√5 r), r² = Σ ρ_d (a_d − b_d)².
double reference_kernel(const double* a, const double* b, const double* rho, int dimension, double variance) {
    double r2 = 0.0;
    for (int d = 0; d < dimension; ++d) r2 += rho[d] * (a[d] - b[d]) * (a[d] - b[d]);
    const double r = std::sqrt(r2);
    return variance * (1.0 + std::sqrt(5.0) * r + 5.0 * r2 / 3.0) * std::exp(-std::sqrt(5.0) * r);
}

// Inverse and determinant of a symmetric 3×3 matrix by cofactors.
struct Inverse3 {
    double inv[3][3];
    double det;
};
Inverse3 invert3(const double m[3][3]) {
    const double a = m[0][0], b = m[0][1], c = m[0][2], d = m[1][1], e = m[1][2], f = m[2][2];
    Inverse3 r;
    r.det = a * (d * f - e * e) - b * (b * f - c * e) + c * (b * e - c * d);
    const double adj[3][3] = {{d * f - e * e, c * e - b * f, b * e - c * d},
                              {c * e - b * f, a * f - c * c, b * c - a * e},
                              {b * e - c * d, b * c - a * e, a * d - b * b}};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r.inv[i][j] = adj[i][j] / r.det;
    return r;
}

struct ReferencePosterior {
    double mean[2];
    double variance[2];
    double log_marginal_likelihood;
};

// Posterior at two test points from three training points, all by hand.
ReferencePosterior reference_posterior(const double X[3][2], const double y[3], const double diagonal_noise[3],
                                       const double rho[2], double variance, double mean, const double T[2][2]) {
    double K[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            K[i][j] = reference_kernel(X[i], X[j], rho, 2, variance) + (i == j ? diagonal_noise[i] : 0.0);
    const Inverse3 Ki = invert3(K);
    double alpha[3];
    for (int i = 0; i < 3; ++i) {
        alpha[i] = 0.0;
        for (int j = 0; j < 3; ++j) alpha[i] += Ki.inv[i][j] * (y[j] - mean);
    }
    ReferencePosterior out;
    for (int t = 0; t < 2; ++t) {
        double k[3];
        for (int i = 0; i < 3; ++i) k[i] = reference_kernel(T[t], X[i], rho, 2, variance);
        out.mean[t] = mean;
        double quadratic = 0.0;
        for (int i = 0; i < 3; ++i) {
            out.mean[t] += k[i] * alpha[i];
            for (int j = 0; j < 3; ++j) quadratic += k[i] * Ki.inv[i][j] * k[j];
        }
        out.variance[t] = variance - quadratic;
    }
    double fit = 0.0;
    for (int i = 0; i < 3; ++i) fit += (y[i] - mean) * alpha[i];
    out.log_marginal_likelihood = -0.5 * fit - 0.5 * std::log(Ki.det) - 1.5 * std::log(2.0 * std::numbers::pi);
    return out;
}

const double kX[3][2] = {{0.1, 0.2}, {0.4, 0.7}, {0.8, 0.3}};
const double kY[3] = {0.5, -1.0, 0.8};
const double kRho[2] = {2.0, 0.5};
const double kTest[2][2] = {{0.3, 0.5}, {0.9, 0.9}};

std::shared_ptr<const TrainingData> three_points(const Eigen::VectorXd& noise_variances = {}) {
    TrainingData d;
    d.inputs.resize(3, 2);
    d.targets.resize(3);
    for (int i = 0; i < 3; ++i) {
        d.inputs(i, 0) = kX[i][0];
        d.inputs(i, 1) = kX[i][1];
        d.targets[i] = kY[i];
    }
    d.noise_variances = noise_variances;
    return std::make_shared<const TrainingData>(std::move(d));
}

GpHyperparameters hyperparameters(Eigen::VectorXd rho, double variance, double noise, double mean) {
    GpHyperparameters h;
    h.inverse_squared_lengthscales = std::move(rho);
    h.output_scale = variance;
    h.noise = noise;
    h.mean = mean;
    return h;
}

Eigen::MatrixXd test_points() {
    Eigen::MatrixXd T(2, 2);
    T << kTest[0][0], kTest[0][1], kTest[1][0], kTest[1][1];
    return T;
}

std::shared_ptr<const TrainingData> make_random_data(int n, int dimension, sebo::PortableRandom& random) {
    TrainingData d;
    d.inputs.resize(n, dimension);
    d.targets.resize(n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < dimension; ++j) d.inputs(i, j) = random.uniform();
        d.targets[i] = std::sin(3.0 * d.inputs(i, 0)) + 0.3 * random.normal();
    }
    return std::make_shared<const TrainingData>(std::move(d));
}

GpHyperparameters random_hyperparameters(int dimension, sebo::PortableRandom& random) {
    Eigen::VectorXd rho(dimension);
    for (int j = 0; j < dimension; ++j) rho[j] = std::exp(random.uniform(std::log(0.5), std::log(20.0)));
    return hyperparameters(rho, std::exp(random.uniform(-0.5, 0.5)), std::exp(random.uniform(std::log(1e-3), std::log(0.1))),
                           random.uniform(-0.5, 0.5));
}

// Largest |a − b| / max(|b|, floor) over the entries.
double max_relative_error(const Eigen::MatrixXd& analytic, const Eigen::MatrixXd& reference, double floor) {
    return ((analytic - reference).array().abs() / reference.array().abs().max(floor)).maxCoeff();
}

}  // namespace

class TestGaussianProcess : public QObject {
    Q_OBJECT
private slots:
    void posterior_matches_hand_computed_three_point_case() {
        const GaussianProcess gp(three_points(), hyperparameters(Eigen::Vector2d(kRho[0], kRho[1]), 1.5, 0.1, 0.2));
        QVERIFY(gp.status().ok);
        QCOMPARE(gp.status().jitter, 0.0);
        const double noise[3] = {0.1, 0.1, 0.1};
        const ReferencePosterior ref = reference_posterior(kX, kY, noise, kRho, 1.5, 0.2, kTest);
        const sebo::PosteriorMoments p = gp.predict(test_points());
        for (int t = 0; t < 2; ++t) {
            SEBO_COMPARE_NEAR(p.mean[t], ref.mean[t], 1e-12);
            SEBO_COMPARE_NEAR(p.variance[t], ref.variance[t], 1e-12);
        }
        SEBO_COMPARE_NEAR(gp.log_marginal_likelihood(), ref.log_marginal_likelihood, 1e-12);
        // An empty batch is allowed.
        QCOMPARE(gp.predict(Eigen::MatrixXd(0, 2)).mean.size(), 0);
        QCOMPARE(gp.predict_with_gradients(Eigen::MatrixXd(0, 2)).mean_gradient.rows(), 0);
        // The batch with gradients gives the same moments.
        const sebo::PosteriorMomentsWithGradients g = gp.predict_with_gradients(test_points());
        for (int t = 0; t < 2; ++t) {
            SEBO_COMPARE_NEAR(g.mean[t], ref.mean[t], 1e-12);
            SEBO_COMPARE_NEAR(g.variance[t], ref.variance[t], 1e-12);
        }
    }

    void posterior_with_known_noise_matches_hand_computed_case() {
        Eigen::VectorXd known(3);
        known << 0.05, 0.2, 0.01;
        // Known variances plus 0.02 extra inferred noise on every point.
        const GaussianProcess gp(three_points(known), hyperparameters(Eigen::Vector2d(kRho[0], kRho[1]), 0.8, 0.02, -0.1));
        QVERIFY(gp.status().ok);
        const double noise[3] = {0.07, 0.22, 0.03};
        const ReferencePosterior ref = reference_posterior(kX, kY, noise, kRho, 0.8, -0.1, kTest);
        const sebo::PosteriorMoments p = gp.predict(test_points());
        for (int t = 0; t < 2; ++t) {
            SEBO_COMPARE_NEAR(p.mean[t], ref.mean[t], 1e-12);
            SEBO_COMPARE_NEAR(p.variance[t], ref.variance[t], 1e-12);
        }
        SEBO_COMPARE_NEAR(gp.log_marginal_likelihood(), ref.log_marginal_likelihood, 1e-12);
    }

    void input_gradients_match_finite_differences_data() {
        QTest::addColumn<int>("dimension");
        QTest::newRow("D=1") << 1;
        QTest::newRow("D=3") << 3;
        QTest::newRow("D=10") << 10;
    }
    void input_gradients_match_finite_differences() {
        QFETCH(int, dimension);
        sebo::PortableRandom random(100 + static_cast<std::uint64_t>(dimension));
        const GaussianProcess gp(make_random_data(15, dimension, random), random_hyperparameters(dimension, random));
        QVERIFY(gp.status().ok);
        Eigen::MatrixXd X(4, dimension);
        for (int t = 0; t < 4; ++t)
            for (int d = 0; d < dimension; ++d) X(t, d) = random.uniform(0.05, 0.95);
        const sebo::PosteriorMomentsWithGradients g = gp.predict_with_gradients(X);
        QCOMPARE(g.mean_gradient.rows(), 4);
        QCOMPARE(g.mean_gradient.cols(), dimension);

        // Five-point central differences of the batch prediction, one coordinate at a time.
        const double h = 1e-4;
        Eigen::MatrixXd fd_mean(4, dimension), fd_variance(4, dimension);
        for (int d = 0; d < dimension; ++d) {
            auto shifted = [&](double step) {
                Eigen::MatrixXd Y = X;
                Y.col(d).array() += step;
                return gp.predict(Y);
            };
            const auto p2 = shifted(2 * h), p1 = shifted(h), m1 = shifted(-h), m2 = shifted(-2 * h);
            fd_mean.col(d) = (-p2.mean + 8.0 * p1.mean - 8.0 * m1.mean + m2.mean) / (12.0 * h);
            fd_variance.col(d) = (-p2.variance + 8.0 * p1.variance - 8.0 * m1.variance + m2.variance) / (12.0 * h);
        }
        const double mean_error = max_relative_error(g.mean_gradient, fd_mean, 1e-8);
        const double variance_error = max_relative_error(g.variance_gradient, fd_variance, 1e-8);
        QVERIFY2(mean_error < 1e-5, qPrintable(QString("mean gradient relative error %1").arg(mean_error)));
        QVERIFY2(variance_error < 1e-5, qPrintable(QString("variance gradient relative error %1").arg(variance_error)));
    }

    void duplicated_inputs_without_noise_need_jitter() {
        // Two identical inputs, σ² = 1, no noise: K has two equal rows and its Cholesky meets an
        // exactly zero pivot (1 − 1·1), so the first jitter level, 1e-8 × mean diagonal, is used.
        auto data = std::make_shared<TrainingData>();
        data->inputs.resize(3, 1);
        data->inputs << 0.3, 0.3, 0.7;
        data->targets.resize(3);
        data->targets << 1.0, 0.6, -0.5;
        const GaussianProcess gp(data, hyperparameters(Eigen::VectorXd::Constant(1, 4.0), 1.0, 0.0, 0.0));
        QVERIFY(gp.status().ok);
        QCOMPARE(gp.status().attempts, 2);
        SEBO_COMPARE_NEAR(gp.status().jitter, 1e-8, 1e-22);
        // The jitter acts as a tiny noise: the posterior at the duplicated input averages the
        // two observations and is almost certain.
        Eigen::MatrixXd x(1, 1);
        x << 0.3;
        const sebo::PosteriorMoments p = gp.predict(x);
        SEBO_COMPARE_NEAR(p.mean[0], 0.8, 1e-6);
        QVERIFY(p.variance[0] >= 0.0 && p.variance[0] < 1e-7);
        QVERIFY(std::isfinite(gp.log_marginal_likelihood()));
    }

    void cholesky_reports_failure_on_non_finite_matrix() {
        Eigen::MatrixXd A = Eigen::MatrixXd::Identity(3, 3);
        A(2, 1) = A(1, 2) = std::numeric_limits<double>::quiet_NaN();
        Eigen::MatrixXd L;
        const sebo::CholeskyStatus s = sebo::jittered_cholesky(A, L);
        QVERIFY(!s.ok);
        QCOMPARE(s.attempts, 1 + static_cast<int>(std::size(sebo::kJitterLevels)));
        // A well-conditioned matrix factors as is, and L Lᵀ reproduces it.
        A << 4, 2, 0.4, 2, 3, 0.5, 0.4, 0.5, 2;
        const sebo::CholeskyStatus ok = sebo::jittered_cholesky(A, L);
        QVERIFY(ok.ok);
        QCOMPARE(ok.attempts, 1);
        const Eigen::MatrixXd lower = L.triangularView<Eigen::Lower>();
        SEBO_COMPARE_NEAR((lower * lower.transpose() - A).cwiseAbs().maxCoeff(), 0.0, 1e-14);
    }

    void ensemble_returns_member_moments_and_their_mixture() {
        sebo::PortableRandom random(7);
        const auto data = make_random_data(12, 3, random);
        const std::vector<GpHyperparameters> samples = {random_hyperparameters(3, random),
                                                        random_hyperparameters(3, random),
                                                        random_hyperparameters(3, random)};
        const sebo::EnsemblePosterior ensemble(data, samples);
        QCOMPARE(ensemble.size(), 3);
        QCOMPARE(ensemble.dropped_members(), 0);
        Eigen::MatrixXd X(5, 3);
        for (int t = 0; t < 5; ++t)
            for (int d = 0; d < 3; ++d) X(t, d) = random.uniform();
        const sebo::EnsembleMomentsWithGradients e = ensemble.predict_with_gradients(X);
        QCOMPARE(e.mean.rows(), 5);
        QCOMPARE(e.mean.cols(), 3);
        QCOMPARE(static_cast<int>(e.mean_gradient.size()), 3);
        for (int s = 0; s < 3; ++s) {
            const GaussianProcess gp(data, samples[static_cast<std::size_t>(s)]);
            const sebo::PosteriorMomentsWithGradients p = gp.predict_with_gradients(X);
            SEBO_COMPARE_NEAR((e.mean.col(s) - p.mean).cwiseAbs().maxCoeff(), 0.0, 0.0);
            SEBO_COMPARE_NEAR((e.variance.col(s) - p.variance).cwiseAbs().maxCoeff(), 0.0, 0.0);
            SEBO_COMPARE_NEAR((e.mean_gradient[s] - p.mean_gradient).cwiseAbs().maxCoeff(), 0.0, 0.0);
            SEBO_COMPARE_NEAR((e.variance_gradient[s] - p.variance_gradient).cwiseAbs().maxCoeff(), 0.0, 0.0);
        }
        // Equally weighted mixture: mean of means; mean variance plus variance of the means.
        const sebo::PosteriorMoments mix = ensemble.mixture(X);
        for (int t = 0; t < 5; ++t) {
            const double m = (e.mean(t, 0) + e.mean(t, 1) + e.mean(t, 2)) / 3.0;
            double v = 0.0;
            for (int s = 0; s < 3; ++s) v += (e.variance(t, s) + (e.mean(t, s) - m) * (e.mean(t, s) - m)) / 3.0;
            SEBO_COMPARE_NEAR(mix.mean[t], m, 1e-14);
            SEBO_COMPARE_NEAR(mix.variance[t], v, 1e-14);
        }
    }
};

SEBO_TEST_MAIN(TestGaussianProcess)
}  // namespace test_gp
#include "test_gp.moc"
