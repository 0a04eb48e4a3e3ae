// Log marginal likelihood and MAP fit of the standard GP: values against the hand-checked GP,
// analytic gradients against finite differences, and fits that recover known structure.

#include <cmath>
#include <memory>
#include <numbers>
#include <stop_token>

#include "design/sobol.h"
#include "model/gaussian_process.h"
#include "model/gp_map_fit.h"
#include "model/marginal_likelihood.h"
#include "core/portable_random.h"
#include "model/standardizer.h"
#include "model_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_gp_fit {

namespace {

using sebo::GpHyperparameters;
using sebo::TrainingData;
using sebo::test::finite_difference_gradient;
using sebo::test::make_random_data;
using sebo::test::max_relative_error;

Eigen::VectorXd random_theta(const sebo::UnconstrainedLayout& layout, sebo::PortableRandom& random) {
    return sebo::test::random_theta(layout, random, 0.5, 1e-3);
}

// Sobol design in [0,1]^D with y = f(x), standardized.
template <class F>
TrainingData sobol_data(int n, int dimension, std::uint64_t seed, F&& f) {
    const auto points = sebo::ScrambledSobol(dimension, seed).points(0, n);
    TrainingData d;
    d.inputs.resize(n, dimension);
    Eigen::VectorXd y(n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < dimension; ++j) d.inputs(i, j) = points[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
        y[i] = f(d.inputs.row(i));
    }
    d.targets = sebo::Standardizer(y).transform(y);
    return d;
}

}  // namespace

class TestGpFit : public QObject {
    Q_OBJECT
private slots:
    void unconstrained_round_trip() {
        GpHyperparameters h;
        h.inverse_squared_lengthscales = Eigen::Vector3d(0.5, 2.0, 30.0);
        h.output_scale = 1.7;
        h.noise = 0.03;
        h.mean = -0.4;
        const sebo::UnconstrainedLayout layout{3, true};
        const Eigen::VectorXd theta = sebo::to_unconstrained(h, layout);
        QCOMPARE(theta.size(), 6);
        SEBO_COMPARE_NEAR(theta[1], std::log(2.0), 1e-15);
        SEBO_COMPARE_NEAR(theta[layout.noise_index()], std::log(0.03), 1e-15);
        const GpHyperparameters back = sebo::from_unconstrained(theta, layout);
        SEBO_COMPARE_NEAR((back.inverse_squared_lengthscales - h.inverse_squared_lengthscales).norm(), 0.0, 1e-13);
        SEBO_COMPARE_NEAR(back.output_scale, 1.7, 1e-15);
        SEBO_COMPARE_NEAR(back.noise, 0.03, 1e-16);
        SEBO_COMPARE_NEAR(back.mean, -0.4, 0.0);
        SEBO_COMPARE_NEAR(back.lengthscales()[0], 1.0 / std::sqrt(0.5), 1e-14);
        // Known noise: no noise entry, and the mean moves up one place.
        const sebo::UnconstrainedLayout fixed{3, false};
        QCOMPARE(fixed.size(), 5);
        QCOMPARE(fixed.mean_index(), 4);
        QCOMPARE(sebo::from_unconstrained(sebo::to_unconstrained(h, fixed), fixed).noise, 0.0);
        h.noise = -1.0;
        QVERIFY(h.validate().has_value());
        QVERIFY(h.validate()->find("noise") != std::string::npos);
    }

    void likelihood_matches_the_gaussian_process() {
        // The hot-path evaluation (pairwise-difference matrix, in-place factor) agrees with the
        // plain GaussianProcess, whose value test_gp checks against a hand-computed case.
        for (const bool known : {false, true}) {
            sebo::PortableRandom random(3);
            const TrainingData data = make_random_data(20, 4, random, known);
            const sebo::LikelihoodData ld(data);
            sebo::LmlWorkspace ws(ld);
            const Eigen::VectorXd theta = random_theta(ld.layout(), random);
            const sebo::LmlResult r = sebo::log_marginal_likelihood(ld, theta, nullptr, ws);
            QVERIFY(r.cholesky.ok);
            const sebo::GaussianProcess gp(std::make_shared<const TrainingData>(data),
                                           sebo::from_unconstrained(theta, ld.layout()));
            SEBO_COMPARE_NEAR(r.value, gp.log_marginal_likelihood(), 1e-10 * std::abs(r.value));
            // Asking for the gradient does not change the value.
            Eigen::VectorXd g;
            SEBO_COMPARE_NEAR(sebo::log_marginal_likelihood(ld, theta, &g, ws).value, r.value, 0.0);
        }
    }

    void likelihood_gradient_matches_finite_differences_data() {
        QTest::addColumn<int>("dimension");
        QTest::addColumn<bool>("known_noise");
        QTest::newRow("D=1 inferred noise") << 1 << false;
        QTest::newRow("D=3 inferred noise") << 3 << false;
        QTest::newRow("D=10 inferred noise") << 10 << false;
        QTest::newRow("D=1 known noise") << 1 << true;
        QTest::newRow("D=3 known noise") << 3 << true;
        QTest::newRow("D=10 known noise") << 10 << true;
    }
    void likelihood_gradient_matches_finite_differences() {
        QFETCH(int, dimension);
        QFETCH(bool, known_noise);
        sebo::PortableRandom random(40 + static_cast<std::uint64_t>(dimension));
        const sebo::LikelihoodData ld(make_random_data(18, dimension, random, known_noise));
        sebo::LmlWorkspace ws(ld);
        for (int trial = 0; trial < 3; ++trial) {
            const Eigen::VectorXd theta = random_theta(ld.layout(), random);
            Eigen::VectorXd gradient;
            sebo::log_marginal_likelihood(ld, theta, &gradient, ws);
            QCOMPARE(gradient.size(), theta.size());
            const Eigen::VectorXd fd = finite_difference_gradient(
                [&](const Eigen::VectorXd& t) { return sebo::log_marginal_likelihood(ld, t, nullptr, ws).value; }, theta,
                1e-4);
            const double error = max_relative_error(gradient, fd, 1e-8);
            QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
        }
    }

    void likelihood_is_minus_infinity_when_the_covariance_cannot_factor() {
        sebo::PortableRandom random(5);
        const sebo::LikelihoodData ld(make_random_data(6, 2, random, false));
        sebo::LmlWorkspace ws(ld);
        Eigen::VectorXd theta = random_theta(ld.layout(), random);
        theta[0] = 800.0;  // ρ = e^800 overflows: the kernel is NaN off the diagonal
        Eigen::VectorXd gradient;
        const sebo::LmlResult r = sebo::log_marginal_likelihood(ld, theta, &gradient, ws);
        QVERIFY(!r.cholesky.ok);
        QVERIFY(std::isinf(r.value) && r.value < 0.0);
        QCOMPARE(gradient.size(), theta.size());
        SEBO_COMPARE_NEAR(gradient.norm(), 0.0, 0.0);
    }

    void map_objective_gradient_matches_finite_differences_data() {
        QTest::addColumn<int>("dimension");
        QTest::addColumn<bool>("known_noise");
        QTest::newRow("D=1") << 1 << false;
        QTest::newRow("D=3") << 3 << false;
        QTest::newRow("D=10") << 10 << false;
        QTest::newRow("D=3 known noise") << 3 << true;
    }
    void map_objective_gradient_matches_finite_differences() {
        QFETCH(int, dimension);
        QFETCH(bool, known_noise);
        sebo::PortableRandom random(60 + static_cast<std::uint64_t>(dimension));
        auto ld = std::make_shared<const sebo::LikelihoodData>(make_random_data(16, dimension, random, known_noise));
        sebo::GpMapObjective objective(ld, sebo::GpMapPriors{});
        for (int trial = 0; trial < 3; ++trial) {
            const Eigen::VectorXd theta = random_theta(ld->layout(), random);
            Eigen::VectorXd gradient(theta.size()), scratch(theta.size());
            objective(theta, gradient);
            const Eigen::VectorXd fd = finite_difference_gradient(
                [&](const Eigen::VectorXd& t) { return objective(t, scratch); }, theta, 1e-4);
            const double error = max_relative_error(gradient, fd, 1e-8);
            QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
        }
    }

    void map_prior_matches_hand_written_densities() {
        // D = 4: ℓ ~ LogNormal(√2 + log(4)/2, √3), σ² ~ Gamma(2, 0.15), noise ~ Gamma(1.1, 0.05),
        // m ~ N(0, 1), each a density in the natural parameter.
        sebo::PortableRandom random(9);
        auto ld = std::make_shared<const sebo::LikelihoodData>(make_random_data(5, 4, random, false));
        const sebo::GpMapObjective objective(ld, sebo::GpMapPriors{});
        const Eigen::VectorXd theta = random_theta(ld->layout(), random);
        double expected = 0.0;
        const double mu = std::sqrt(2.0) + 0.5 * std::log(4.0), s = std::sqrt(3.0);
        for (int d = 0; d < 4; ++d) {
            const double l = std::exp(-0.5 * theta[d]);
            expected += -std::log(l * s * std::sqrt(2.0 * std::numbers::pi)) -
                        (std::log(l) - mu) * (std::log(l) - mu) / (2.0 * s * s);
        }
        const auto gamma = [](double x, double a, double b) {
            return a * std::log(b) - std::lgamma(a) + (a - 1.0) * std::log(x) - b * x;
        };
        expected += gamma(std::exp(theta[4]), 2.0, 0.15) + gamma(std::exp(theta[5]), 1.1, 0.05);
        expected += -0.5 * theta[6] * theta[6] - 0.5 * std::log(2.0 * std::numbers::pi);
        Eigen::VectorXd g;
        SEBO_COMPARE_NEAR(objective.log_prior(theta, g), expected, 1e-12);
    }

    void map_fit_gives_an_irrelevant_dimension_a_long_lengthscale() {
        // f depends on x0 (a fast oscillation) and x1 (a slower one), not at all on x2.
        const TrainingData data = sobol_data(30, 3, 11, [](const Eigen::RowVectorXd& x) {
            return std::sin(6.0 * x[0]) + 0.8 * std::cos(3.0 * x[1]);
        });
        sebo::GpMapOptions options;
        options.seed = 1;
        const sebo::GpMapResult fit = sebo::fit_gp_map(data, options);
        QVERIFY2(fit.status == sebo::FitStatus::Converged || fit.status == sebo::FitStatus::Stalled,
                 sebo::to_string(fit.status));
        QCOMPARE(fit.restarts_run, options.restarts);
        QCOMPARE(fit.restarts_failed, 0);
        // Seen: ℓ = (0.81, 1.80, 55).
        const Eigen::VectorXd l = fit.hyperparameters.lengthscales();
        QVERIFY2(l[0] < l[1] && l[1] < 5.0, qPrintable(QString("lengthscales %1 %2").arg(l[0]).arg(l[1])));
        QVERIFY2(l[2] > 10.0 && l[2] > 5.0 * l[1], qPrintable(QString("irrelevant lengthscale %1").arg(l[2])));
        QVERIFY(fit.hyperparameters.noise < 1e-2);
        // The reported values are those of the returned hyperparameters.
        auto ld = std::make_shared<const sebo::LikelihoodData>(data);
        sebo::LmlWorkspace ws(*ld);
        const Eigen::VectorXd theta = sebo::to_unconstrained(fit.hyperparameters, ld->layout());
        SEBO_COMPARE_NEAR(sebo::log_marginal_likelihood(*ld, theta, nullptr, ws).value, fit.log_marginal_likelihood,
                          1e-9);
        sebo::GpMapObjective objective(ld, options.priors);
        Eigen::VectorXd g(theta.size());
        SEBO_COMPARE_NEAR(objective(theta, g), fit.log_posterior, 1e-9);
    }

    void map_fit_recovers_the_scale_of_a_one_dimensional_function() {
        // sin(4πx) has period 0.5; the fitted lengthscale should be a fraction of that.
        const TrainingData data =
            sobol_data(16, 1, 4, [](const Eigen::RowVectorXd& x) { return std::sin(4.0 * std::numbers::pi * x[0]); });
        const sebo::GpMapResult fit = sebo::fit_gp_map(data, sebo::GpMapOptions{});
        QVERIFY(fit.status != sebo::FitStatus::Failed);
        const double l = fit.hyperparameters.lengthscales()[0];  // seen: 0.30
        QVERIFY2(l > 0.05 && l < 0.4, qPrintable(QString("lengthscale %1").arg(l)));
        // The fitted GP interpolates: between the data its mean is close to f (standardized).
        Eigen::VectorXd raw(16);
        for (int i = 0; i < 16; ++i) raw[i] = std::sin(4.0 * std::numbers::pi * data.inputs(i, 0));
        const sebo::Standardizer standardizer(raw);
        const sebo::GaussianProcess gp(std::make_shared<const TrainingData>(data), fit.hyperparameters);
        Eigen::MatrixXd x(3, 1);
        x << 0.37, 0.61, 0.88;
        const sebo::PosteriorMoments p = gp.predict(x);
        for (int t = 0; t < 3; ++t) {
            Eigen::VectorXd truth(1);
            truth << std::sin(4.0 * std::numbers::pi * x(t, 0));
            SEBO_COMPARE_NEAR(p.mean[t], standardizer.transform(truth)[0], 0.1);
        }
    }

    void map_fit_is_deterministic_for_a_seed() {
        sebo::PortableRandom random(21);
        const TrainingData data = make_random_data(20, 3, random, false);
        sebo::GpMapOptions options;
        options.seed = 77;
        const sebo::GpMapResult a = sebo::fit_gp_map(data, options);
        const sebo::GpMapResult b = sebo::fit_gp_map(data, options);
        QCOMPARE(a.log_posterior, b.log_posterior);
        QVERIFY(a.hyperparameters.inverse_squared_lengthscales == b.hyperparameters.inverse_squared_lengthscales);
        QCOMPARE(a.hyperparameters.noise, b.hyperparameters.noise);
        QCOMPARE(a.evaluations, b.evaluations);
    }

    void map_fit_with_known_noise_infers_no_noise() {
        sebo::PortableRandom random(22);
        const TrainingData data = make_random_data(15, 2, random, true);
        const sebo::GpMapResult fit = sebo::fit_gp_map(data, sebo::GpMapOptions{});
        QVERIFY(fit.status != sebo::FitStatus::Failed);
        QCOMPARE(fit.hyperparameters.noise, 0.0);
        QCOMPARE(fit.hyperparameters.dimension(), 2);
    }

    void map_fit_stops_when_cancelled() {
        sebo::PortableRandom random(23);
        const TrainingData data = make_random_data(10, 2, random, false);
        std::stop_source source;
        source.request_stop();
        const sebo::GpMapResult fit = sebo::fit_gp_map(data, sebo::GpMapOptions{}, source.get_token());
        QCOMPARE(fit.status, sebo::FitStatus::Cancelled);
        QCOMPARE(fit.restarts_run, 0);
        QCOMPARE(fit.evaluations, 0);
    }

    void map_options_name_the_bad_field() {
        sebo::GpMapOptions options;
        QVERIFY(!options.validate());
        options.restarts = 0;
        QVERIFY(options.validate() && options.validate()->find("restarts") != std::string::npos);
        options = {};
        options.max_lengthscale = 0.001;
        QVERIFY(options.validate() && options.validate()->find("max_lengthscale") != std::string::npos);
        options = {};
        options.priors.noise_rate = -1.0;
        QVERIFY(options.validate() && options.validate()->find("priors.noise_rate") != std::string::npos);
        options = {};
        options.optimizer.max_iterations = 0;
        QVERIFY(options.validate() && options.validate()->find("optimizer.max_iterations") != std::string::npos);
    }
};

SEBO_TEST_MAIN(TestGpFit)
}  // namespace test_gp_fit
#include "test_gp_fit.moc"
