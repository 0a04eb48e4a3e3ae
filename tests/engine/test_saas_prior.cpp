// The SAAS prior: scalar prior densities against closed forms, the log posterior density
// against a hand-assembled sum, its gradient (and the SAAS-MAP objective's) against finite
// differences, and SAAS-MAP finding the two effective dimensions of a 20-dimensional function.

#include <algorithm>
#include <cmath>
#include <functional>
#include <type_traits>
#include <memory>
#include <numbers>
#include <numeric>
#include <stop_token>

#include "design/sobol.h"
#include "model/gaussian_process.h"
#include "core/portable_random.h"
#include "core/thread_pool.h"
#include "model/saas_map.h"
#include "model/saas_prior.h"
#include "model/scalar_priors.h"
#include "model/standardizer.h"
#include "model_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_saas_prior {

namespace {

using sebo::TrainingData;
using sebo::test::finite_difference_gradient;
using sebo::test::make_random_data;
using sebo::test::max_relative_error;

// A point in SAAS coordinates with every hyperparameter in a typical range.
Eigen::VectorXd random_saas_theta(const sebo::SaasLayout& layout, sebo::PortableRandom& random) {
    Eigen::VectorXd theta(layout.size());
    theta[sebo::SaasLayout::global_shrinkage_index()] = random.uniform(std::log(0.02), std::log(0.5));
    for (int d = 0; d < layout.dimension; ++d)
        theta[sebo::SaasLayout::local_shrinkage_index(d)] = random.uniform(std::log(0.3), std::log(30.0));
    theta[layout.output_scale_index()] = random.uniform(-0.5, 0.5);
    if (layout.noise_inferred) theta[layout.noise_index()] = random.uniform(std::log(1e-3), std::log(0.1));
    theta[layout.mean_index()] = random.uniform(-0.5, 0.5);
    return theta;
}

// Hand-written log densities.
double log_half_cauchy(double x, double scale) {
    return std::log(2.0) - std::log(std::numbers::pi * scale) - std::log(1.0 + (x / scale) * (x / scale));
}
double log_gamma_density(double x, double shape, double rate) {
    return shape * std::log(rate) - std::lgamma(shape) + (shape - 1.0) * std::log(x) - rate * x;
}
double log_std_normal(double x) { return -0.5 * x * x - 0.5 * std::log(2.0 * std::numbers::pi); }

// The indices of the k largest entries, largest first.
std::vector<int> top_indices(const Eigen::VectorXd& v, int k) {
    std::vector<int> order(static_cast<std::size_t>(v.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return v[a] > v[b]; });
    order.resize(static_cast<std::size_t>(k));
    return order;
}

// 40 scrambled Sobol points in [0,1]^20 of a function of x3 and x12 only, standardized.
TrainingData two_of_twenty() {
    const auto points = sebo::ScrambledSobol(20, 5).points(0, 40);
    TrainingData d;
    d.inputs.resize(40, 20);
    Eigen::VectorXd y(40);
    for (int i = 0; i < 40; ++i) {
        for (int j = 0; j < 20; ++j) d.inputs(i, j) = points[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
        y[i] = std::sin(5.0 * d.inputs(i, 3)) + std::cos(4.0 * d.inputs(i, 12));
    }
    d.targets = sebo::Standardizer(y).transform(y);
    return d;
}

// The NUTS sampler takes any std::function<double(const VectorXd&, VectorXd&)>.
static_assert(std::is_convertible_v<sebo::SaasLogDensity, std::function<double(const Eigen::VectorXd&, Eigen::VectorXd&)>>);

}  // namespace

class TestSaasPrior : public QObject {
    Q_OBJECT
private slots:
    void scalar_priors_match_closed_forms() {
        // HalfCauchy(0.1) at 0.1: 2 / (π · 0.1 · 2) = 1/(0.1π).
        SEBO_COMPARE_NEAR(sebo::half_cauchy_log_density(0.1, 0.1).value, std::log(1.0 / (0.1 * std::numbers::pi)), 1e-14);
        // Gamma(2, 0.15) at 1: 0.15² e^{−0.15}.
        SEBO_COMPARE_NEAR(sebo::gamma_log_density(1.0, 2.0, 0.15).value, std::log(0.0225 * std::exp(-0.15)), 1e-14);
        // N(0, 1) at 1: e^{−1/2}/√(2π).
        SEBO_COMPARE_NEAR(sebo::normal_log_density(1.0, 0.0, 1.0).value, std::log(std::exp(-0.5) / std::sqrt(2.0 * std::numbers::pi)),
                          1e-14);
        // LogNormal(0, 1) at e: e^{−1/2} / (e √(2π)).
        SEBO_COMPARE_NEAR(sebo::log_normal_log_density(std::exp(1.0), 0.0, 1.0).value,
                          -0.5 - 1.0 - 0.5 * std::log(2.0 * std::numbers::pi), 1e-14);
        // Derivatives against central differences.
        const auto check = [](auto density, double x) {
            const double h = 1e-5 * x;
            const double fd = (density(x + h).value - density(x - h).value) / (2.0 * h);
            return std::abs(density(x).derivative - fd) <= 1e-7 * std::max(1.0, std::abs(fd));
        };
        for (double x : {0.05, 0.7, 3.0}) {
            QVERIFY(check([](double v) { return sebo::half_cauchy_log_density(v, 0.1); }, x));
            QVERIFY(check([](double v) { return sebo::gamma_log_density(v, 0.9, 10.0); }, x));
            QVERIFY(check([](double v) { return sebo::log_normal_log_density(v, 1.2, 1.7); }, x));
            QVERIFY(check([](double v) { return sebo::normal_log_density(v, 0.3, 2.0); }, x));
        }
    }

    void log_density_matches_hand_assembled_sum() {
        sebo::PortableRandom random(1);
        const TrainingData data = make_random_data(12, 3, random, false);
        auto ld = std::make_shared<const sebo::LikelihoodData>(data);
        sebo::SaasLogDensity density(ld);
        const sebo::SaasLayout& layout = density.layout();
        QCOMPARE(layout.size(), 3 + 4);
        const Eigen::VectorXd theta = random_saas_theta(layout, random);

        const double tau = std::exp(theta[0]);
        const double variance = std::exp(theta[layout.output_scale_index()]);
        const double noise_excess = std::exp(theta[layout.noise_index()]);
        const sebo::GpHyperparameters h = density.hyperparameters(theta);
        for (int d = 0; d < 3; ++d)
            SEBO_COMPARE_NEAR(h.inverse_squared_lengthscales[d], tau * std::exp(theta[1 + d]), 1e-14 * h.inverse_squared_lengthscales[d]);
        SEBO_COMPARE_NEAR(h.output_scale, variance, 0.0);
        SEBO_COMPARE_NEAR(h.noise, 1e-4 + noise_excess, 1e-17);
        SEBO_COMPARE_NEAR(h.mean, theta[layout.mean_index()], 0.0);

        // log p(y | h) + log p(τ) + Σ log p(λ_d) + log p(σ²) + log p(noise − 1e-4) + log p(m)
        // + the log-Jacobians Σ θ_i of the exp transforms.
        double expected = sebo::GaussianProcess(std::make_shared<const TrainingData>(data), h).log_marginal_likelihood();
        expected += log_half_cauchy(tau, 0.1) + theta[0];
        for (int d = 0; d < 3; ++d) expected += log_half_cauchy(std::exp(theta[1 + d]), 1.0) + theta[1 + d];
        expected += log_gamma_density(variance, 2.0, 0.15) + theta[layout.output_scale_index()];
        expected += log_gamma_density(noise_excess, 0.9, 10.0) + theta[layout.noise_index()];
        expected += log_std_normal(theta[layout.mean_index()]);
        Eigen::VectorXd gradient;
        SEBO_COMPARE_NEAR(density(theta, gradient), expected, 1e-10 * std::abs(expected));
    }

    void log_density_gradient_matches_finite_differences_data() {
        QTest::addColumn<int>("dimension");
        QTest::addColumn<bool>("known_noise");
        QTest::newRow("D=1 inferred noise") << 1 << false;
        QTest::newRow("D=3 inferred noise") << 3 << false;
        QTest::newRow("D=10 inferred noise") << 10 << false;
        QTest::newRow("D=1 known noise") << 1 << true;
        QTest::newRow("D=3 known noise") << 3 << true;
        QTest::newRow("D=10 known noise") << 10 << true;
    }
    void log_density_gradient_matches_finite_differences() {
        QFETCH(int, dimension);
        QFETCH(bool, known_noise);
        sebo::PortableRandom random(200 + static_cast<std::uint64_t>(dimension));
        auto ld = std::make_shared<const sebo::LikelihoodData>(make_random_data(16, dimension, random, known_noise));
        sebo::SaasLogDensity density(ld);
        QCOMPARE(density.layout().size(), dimension + (known_noise ? 3 : 4));
        for (int trial = 0; trial < 3; ++trial) {
            const Eigen::VectorXd theta = random_saas_theta(density.layout(), random);
            Eigen::VectorXd gradient, scratch;
            QVERIFY(std::isfinite(density(theta, gradient)));
            const Eigen::VectorXd fd =
                finite_difference_gradient([&](const Eigen::VectorXd& t) { return density(t, scratch); }, theta, 1e-4);
            const double error = max_relative_error(gradient, fd, 1e-8);
            QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
        }
    }

    void log_density_is_minus_infinity_where_hyperparameters_overflow() {
        sebo::PortableRandom random(2);
        auto ld = std::make_shared<const sebo::LikelihoodData>(make_random_data(8, 2, random, false));
        sebo::SaasLogDensity density(ld);
        Eigen::VectorXd theta = density.initial_point();
        Eigen::VectorXd gradient;
        QVERIFY(std::isfinite(density(theta, gradient)));
        theta[0] = 800.0;  // τ = e^800
        const double value = density(theta, gradient);
        QVERIFY(std::isinf(value) && value < 0.0);
        SEBO_COMPARE_NEAR(gradient.norm(), 0.0, 0.0);
    }

    void initial_point_is_the_documented_centre() {
        sebo::PortableRandom random(3);
        auto ld = std::make_shared<const sebo::LikelihoodData>(make_random_data(8, 2, random, false));
        const sebo::SaasLogDensity density(ld);
        const sebo::GpHyperparameters h = density.hyperparameters(density.initial_point());
        SEBO_COMPARE_NEAR(h.inverse_squared_lengthscales[0], 0.1, 1e-15);
        SEBO_COMPARE_NEAR(h.output_scale, 1.0, 0.0);
        SEBO_COMPARE_NEAR(h.noise, 1e-4 + 0.01, 1e-15);
        SEBO_COMPARE_NEAR(h.mean, 0.0, 0.0);
    }

    void map_objective_is_the_density_without_jacobians_data() {
        QTest::addColumn<int>("dimension");
        QTest::addColumn<bool>("known_noise");
        QTest::newRow("D=1") << 1 << false;
        QTest::newRow("D=3") << 3 << false;
        QTest::newRow("D=10") << 10 << false;
        QTest::newRow("D=3 known noise") << 3 << true;
    }
    void map_objective_is_the_density_without_jacobians() {
        QFETCH(int, dimension);
        QFETCH(bool, known_noise);
        sebo::PortableRandom random(300 + static_cast<std::uint64_t>(dimension));
        auto ld = std::make_shared<const sebo::LikelihoodData>(make_random_data(14, dimension, random, known_noise));
        sebo::SaasLogDensity density(ld);
        const double tau = 0.07;
        sebo::SaasMapObjective objective(ld, sebo::SaasPriorOptions{}, tau);
        QCOMPARE(objective.size(), density.layout().size() - 1);
        for (int trial = 0; trial < 3; ++trial) {
            const Eigen::VectorXd full = [&] {
                Eigen::VectorXd t = random_saas_theta(density.layout(), random);
                t[0] = std::log(tau);
                return t;
            }();
            const Eigen::VectorXd theta = full.tail(full.size() - 1);
            Eigen::VectorXd gradient, scratch;
            const double value = objective(theta, gradient);
            // Value: the SAAS log density minus the log-Jacobians (log τ and every log-scale θ entry).
            const double jacobians = full.head(density.layout().mean_index()).sum();
            SEBO_COMPARE_NEAR(value, density(full, scratch) - jacobians, 1e-10 * std::abs(value));
            const Eigen::VectorXd fd =
                finite_difference_gradient([&](const Eigen::VectorXd& t) { return objective(t, scratch); }, theta, 1e-4);
            const double error = max_relative_error(gradient, fd, 1e-8);
            QVERIFY2(error < 1e-5, qPrintable(QString("relative error %1").arg(error)));
        }
    }

    void saas_map_ranks_the_two_effective_dimensions_first() {
        const TrainingData data = two_of_twenty();
        sebo::SaasMapOptions options;
        options.ensemble = sebo::SaasMapEnsemble::All;
        const sebo::SaasMapResult result = sebo::fit_saas_map(data, options);
        QVERIFY2(result.status != sebo::FitStatus::Failed, result.message.c_str());
        QCOMPARE(static_cast<int>(result.fits.size()), 4);
        QCOMPARE(static_cast<int>(result.ensemble.size()), 4);
        for (const sebo::SaasMapFit& fit : result.fits) {
            QVERIFY2(fit.status != sebo::FitStatus::Failed, fit.message.c_str());
            const Eigen::VectorXd& rho = fit.hyperparameters.inverse_squared_lengthscales;
            std::vector<int> top = top_indices(rho, 3);
            std::vector<int> two(top.begin(), top.begin() + 2);
            std::sort(two.begin(), two.end());
            QVERIFY2(two[0] == 3 && two[1] == 12,
                     qPrintable(QString("tau %1: top dims %2, %3").arg(fit.global_shrinkage).arg(top[0]).arg(top[1])));
            // The other 18 are switched off (seen: ρ ≈ 0.57 and 0.38, the rest at the 1e-6 bound).
            QVERIFY(rho[top[2]] < 0.01 * rho[top[1]]);
        }
        // Best keeps the fit with the highest joint density, which is one of the above.
        options.ensemble = sebo::SaasMapEnsemble::Best;
        const sebo::SaasMapResult best = sebo::fit_saas_map(data, options);
        QCOMPARE(static_cast<int>(best.ensemble.size()), 1);
        double highest = -std::numeric_limits<double>::infinity();
        for (const sebo::SaasMapFit& fit : best.fits) highest = std::max(highest, fit.log_joint_density);
        bool found = false;
        for (const sebo::SaasMapFit& fit : best.fits)
            if (fit.log_joint_density == highest)
                found = fit.hyperparameters.inverse_squared_lengthscales == best.ensemble[0].inverse_squared_lengthscales;
        QVERIFY(found);
    }

    void saas_map_is_deterministic_and_cancellable() {
        sebo::PortableRandom random(8);
        const TrainingData data = make_random_data(15, 4, random, true);
        sebo::SaasMapOptions options;
        options.seed = 3;
        const sebo::SaasMapResult a = sebo::fit_saas_map(data, options);
        const sebo::SaasMapResult b = sebo::fit_saas_map(data, options);
        QVERIFY(a.status != sebo::FitStatus::Failed);
        QCOMPARE(a.ensemble.size(), b.ensemble.size());
        QVERIFY(a.ensemble[0].inverse_squared_lengthscales == b.ensemble[0].inverse_squared_lengthscales);
        QCOMPARE(a.ensemble[0].noise, 0.0);  // known noise: nothing inferred
        std::stop_source source;
        source.request_stop();
        const sebo::SaasMapResult c = sebo::fit_saas_map(data, options, source.get_token());
        QCOMPARE(c.status, sebo::FitStatus::Cancelled);
        QVERIFY(c.ensemble.empty());
    }

    void saas_map_fits_side_by_side_are_the_same_fits() {
        // The τ values fitted on a pool of two threads give the fits of one thread, bit for bit,
        // with the noise inferred and every τ's fit kept.
        const TrainingData data = two_of_twenty();
        sebo::SaasMapOptions options;
        options.ensemble = sebo::SaasMapEnsemble::All;
        options.seed = 5;
        const sebo::SaasMapResult serial = sebo::fit_saas_map(data, options);
        sebo::ThreadPool pool(2);
        const sebo::SaasMapResult parallel = sebo::fit_saas_map(data, options, {}, &pool);
        QCOMPARE(parallel.status, serial.status);
        QCOMPARE(parallel.fits.size(), serial.fits.size());
        QCOMPARE(static_cast<int>(serial.fits.size()), 4);
        for (std::size_t i = 0; i < serial.fits.size(); ++i) {
            const sebo::SaasMapFit& a = serial.fits[i];
            const sebo::SaasMapFit& b = parallel.fits[i];
            QCOMPARE(b.global_shrinkage, a.global_shrinkage);
            QCOMPARE(b.log_joint_density, a.log_joint_density);
            QCOMPARE(b.log_marginal_likelihood, a.log_marginal_likelihood);
            QCOMPARE(b.evaluations, a.evaluations);
            QVERIFY(b.hyperparameters.inverse_squared_lengthscales == a.hyperparameters.inverse_squared_lengthscales);
            QCOMPARE(b.hyperparameters.noise, a.hyperparameters.noise);
            QVERIFY(a.hyperparameters.noise > 0.0);
        }
        QCOMPARE(parallel.ensemble.size(), serial.ensemble.size());
        // A stop requested before the fits: cancelled on the pool too.
        std::stop_source source;
        source.request_stop();
        const sebo::SaasMapResult cancelled = sebo::fit_saas_map(data, options, source.get_token(), &pool);
        QCOMPARE(cancelled.status, sebo::FitStatus::Cancelled);
        QVERIFY(cancelled.ensemble.empty());
    }

    void saas_options_name_the_bad_field() {
        sebo::SaasMapOptions options;
        QVERIFY(!options.validate());
        options.global_shrinkages = {0.1, -1.0};
        QVERIFY(options.validate() && options.validate()->find("global_shrinkages[1]") != std::string::npos);
        options = {};
        options.prior.noise_floor = -1e-4;
        QVERIFY(options.validate() && options.validate()->find("prior.noise_floor") != std::string::npos);
        options = {};
        options.max_output_scale = 0.001;
        QVERIFY(options.validate() && options.validate()->find("max_output_scale") != std::string::npos);
    }
};

SEBO_TEST_MAIN(TestSaasPrior)
}  // namespace test_saas_prior
#include "test_saas_prior.moc"
