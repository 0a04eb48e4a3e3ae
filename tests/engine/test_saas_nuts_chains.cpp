// Several NUTS chains for the SAAS model (engine/model/saas_nuts_fit.h, issue 15): the draws do
// not depend on the threads, one chain is exactly the paper's sampler, each start (warm, mode,
// full) is used when it applies, every fallback trigger of a warm start sends the fit to the next
// start with its reason, and a cancelled fit returns. Fixed seeds throughout; no timing.

#include <Eigen/Dense>
#include <atomic>
#include <cmath>
#include <memory>
#include <thread>

#include "core/thread_pool.h"
#include "model/laplace_start.h"
#include "model/mcmc_diagnostics.h"
#include "model/saas_nuts_fit.h"
#include "model_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_saas_nuts_chains {

using namespace sebo;
using Eigen::MatrixXd;
using Eigen::VectorXd;

namespace {

std::shared_ptr<const LikelihoodData> small_data(int n = 20, int dimension = 4) {
    PortableRandom random(42);
    return std::make_shared<const LikelihoodData>(test::make_random_data(n, dimension, random, false));
}

// Short chains: the tests check behaviour, not posterior accuracy.
SaasNutsOptions quick_options(int chains) {
    SaasNutsOptions o;
    o.nuts.warmup = 100;
    o.nuts.samples = 64;
    o.nuts.thinning = 8;
    o.nuts.max_tree_depth = 5;
    o.chains = chains;
    o.warm_warmup = 40;
    o.max_rhat = 1e9;  // the tests of the R-hat trigger lower it
    return o;
}

void require_identical(const SaasNutsFit& a, const SaasNutsFit& b) {
    QCOMPARE(a.samples.size(), b.samples.size());
    for (std::size_t k = 0; k < a.samples.size(); ++k) {
        QVERIFY(a.samples[k].inverse_squared_lengthscales == b.samples[k].inverse_squared_lengthscales);
        QCOMPARE(a.samples[k].output_scale, b.samples[k].output_scale);
        QCOMPARE(a.samples[k].noise, b.samples[k].noise);
        QCOMPARE(a.samples[k].mean, b.samples[k].mean);
    }
    QCOMPARE(a.gradient_evaluations, b.gradient_evaluations);
    QVERIFY(a.next.positions == b.next.positions);
    QVERIFY(a.next.inverse_metric == b.next.inverse_metric);
}

}  // namespace

class TestSaasNutsChains : public QObject {
    Q_OBJECT
private slots:
    // The same seed and chains give the same draws with no pool, one thread or three.
    void drawsDoNotDependOnThreads() {
        const auto data = small_data();
        const SaasNutsOptions options = quick_options(3);
        const SaasNutsFit serial = fit_saas_nuts(data, options, 7);
        QCOMPARE(serial.status, NutsResult::Status::Completed);
        ThreadPool one(1), three(3);
        require_identical(serial, fit_saas_nuts(data, options, 7, {}, {}, &one));
        require_identical(serial, fit_saas_nuts(data, options, 7, {}, {}, &three));
        require_identical(serial, fit_saas_nuts(data, options, 7, {}, {}, &three));
        // Another seed gives other draws.
        QVERIFY(fit_saas_nuts(data, options, 8, {}, {}, &three).samples[0].mean != serial.samples[0].mean);
    }

    // With one chain the fit is the single sampler of the paper, draw for draw.
    void oneChainIsThePapersSampler() {
        const auto data = small_data();
        const SaasNutsOptions options = quick_options(1);
        const SaasNutsFit fit = fit_saas_nuts(data, options, 11);
        SaasLogDensity density(data);
        const LogDensity log_density = [&](const VectorXd& t, VectorXd& g) { return density(t, g); };
        NutsOptions nuts = options.nuts;  // n = 20 < 50: the diagonal metric, as the fit chooses
        const NutsResult alone = run_nuts(log_density, density.initial_point(), nuts, 11);
        QCOMPARE(fit.chains.size(), std::size_t{1});
        QVERIFY(fit.chains[0].draws == alone.draws);
        QCOMPARE(fit.gradient_evaluations, alone.gradient_evaluations);
        QCOMPARE(fit.start, SaasNutsStart::Full);
    }

    // ⌈64/8⌉ = 8 kept draws over 3 chains: 3 + 3 + 2, pooled chain by chain.
    void chainsShareTheKeptDraws() {
        const SaasNutsFit fit = fit_saas_nuts(small_data(), quick_options(3), 3);
        QCOMPARE(fit.chains.size(), std::size_t{3});
        QCOMPARE(fit.chains[0].draws.rows(), Eigen::Index{3});
        QCOMPARE(fit.chains[1].draws.rows(), Eigen::Index{3});
        QCOMPARE(fit.chains[2].draws.rows(), Eigen::Index{2});
        QCOMPARE(fit.samples.size(), std::size_t{8});
        SaasNutsOptions too_many = quick_options(9);
        QVERIFY(too_many.validate().value_or("").find("nuts.chains: 9 chains cannot share 8 kept draws") == 0);
    }

    // The reported R-hat and ESS are those of the chains' sampling iterations.
    void diagnosticsAreOverTheSamplingIterations() {
        const SaasNutsFit fit = fit_saas_nuts(small_data(), quick_options(2), 5);
        const int n = fit.diagnostics.iterations;
        QCOMPARE(n, 32);
        MatrixXd lp(n, 2);
        for (int c = 0; c < 2; ++c)
            for (int i = 0; i < n; ++i)
                lp(i, c) = fit.chains[static_cast<std::size_t>(c)].iterations[static_cast<std::size_t>(100 + i)].log_density;
        QCOMPARE(fit.diagnostics.log_density.rhat, split_rank_normalized_rhat(lp));
        QCOMPARE(fit.diagnostics.log_density.ess_bulk, bulk_effective_sample_size(lp));
        QCOMPARE(fit.diagnostics.parameters.size(), std::size_t{4});
        QCOMPARE(fit.diagnostics.relevance_order.size(), std::size_t{4});
        for (const Convergence& c : fit.diagnostics.parameters) QVERIFY(std::isfinite(c.rhat) && c.ess_bulk > 0.0);
    }

    // A state from the previous fit is used: a short warm-up, far fewer gradient evaluations.
    void warmStartIsUsed() {
        const auto data = small_data();
        const SaasNutsOptions options = quick_options(2);
        const SaasNutsFit cold = fit_saas_nuts(data, options, 1);
        QCOMPARE(cold.start, SaasNutsStart::Full);
        QVERIFY(!cold.next.empty());
        QCOMPARE(cold.next.positions.rows(), Eigen::Index{2});
        const SaasNutsFit warm = fit_saas_nuts(data, options, 2, {}, {}, nullptr, &cold.next);
        QCOMPARE(warm.start, SaasNutsStart::Warm);
        QVERIFY2(warm.cold_start_reason.empty(), warm.cold_start_reason.c_str());
        QCOMPARE(warm.warmup, 40);
        QVERIFY(warm.gradient_evaluations < cold.gradient_evaluations);
    }

    // Each reason a warm start is not used, and where the fit goes instead.
    void warmStartFallbackTriggers_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("reason");
        QTest::newRow("other dimension") << "dimension" << "the stored sampler state does not fit: it has 9 coordinates, the model has 8";
        QTest::newRow("variance not positive") << "variance" << "does not fit: its inverse metric has a variance that is not positive";
        QTest::newRow("step size") << "step" << "does not fit: its step size 0 is not in (0, 1e7]";
        QTest::newRow("not finite") << "nan" << "does not fit: a chain position is not finite";
        QTest::newRow("chain cannot start") << "overflow" << "a chain could not start from the stored sampler state";
        QTest::newRow("R-hat") << "rhat" << "did not agree (R-hat";
        QTest::newRow("divergences") << "diverge" << "divergent transitions after warm-up";
    }
    void warmStartFallbackTriggers() {
        QFETCH(QString, change);
        QFETCH(QString, reason);
        const auto data = small_data();
        SaasNutsOptions options = quick_options(2);
        const SaasNutsFit cold = fit_saas_nuts(data, options, 1);
        NutsWarmStart state = cold.next;
        const Eigen::Index d = state.dimension();
        if (change == "dimension") {
            state.positions.conservativeResize(Eigen::NoChange, d + 1);
            state.positions.col(d).setZero();
        } else if (change == "variance") {
            state.inverse_metric(1, 0) = -1.0;
        } else if (change == "step") {
            state.step_size = 0.0;
        } else if (change == "nan") {
            state.positions(0, 2) = std::nan("");
        } else if (change == "overflow") {
            state.positions.col(0).setConstant(800.0);  // τ = e^800: the density is −∞ there
        } else if (change == "rhat") {
            options.max_rhat = 1.0 + 1e-12;  // no chains agree that well
        } else if (change == "diverge") {
            state.step_size = 1e3;  // no warm-up to tune it: every trajectory diverges
            options.warm_warmup = 0;
        }
        const SaasNutsFit fit = fit_saas_nuts(data, options, 2, {}, {}, nullptr, &state);
        QCOMPARE(fit.status, NutsResult::Status::Completed);
        QCOMPARE(fit.start, SaasNutsStart::Full);  // start_at_mode is off in these options
        QVERIFY2(fit.cold_start_reason.find(reason.toStdString()) != std::string::npos, fit.cold_start_reason.c_str());
        QCOMPARE(fit.warmup, 100);
        QCOMPARE(fit.samples.size(), std::size_t{8});
    }

    // Without a state, a fit may start at the posterior mode; a mode start that fails its
    // diagnostics goes on to the full warm-up.
    void modeStart() {
        const auto data = small_data();
        SaasNutsOptions options = quick_options(2);
        options.start_at_mode = true;
        options.warm_warmup = 100;
        // Whether a 100-iteration warm-up on this small data has a divergence depends on the
        // seed and on rounding (the mode start was kept at 30 of seeds 1–40 before the likelihood's
        // ρ-gradient became a symmetric product, 28 after; seed 4 lost it then): 5 keeps it.
        const SaasNutsFit fit = fit_saas_nuts(data, options, 5);
        QVERIFY2(fit.start == SaasNutsStart::Mode, fit.cold_start_reason.c_str());
        QCOMPARE(fit.warmup, 100);
        options.max_rhat = 1.0 + 1e-12;
        const SaasNutsFit strict = fit_saas_nuts(data, options, 5);
        QCOMPARE(strict.start, SaasNutsStart::Full);
        QVERIFY2(strict.cold_start_reason.find("the chains from the posterior mode did not agree") != std::string::npos,
                 strict.cold_start_reason.c_str());
    }

    // On a Gaussian the Laplace approximation is exact: the mode is the mean and the metric the
    // covariance (central differences of a linear gradient are exact up to rounding).
    void laplaceStartOnAGaussian() {
        MatrixXd covariance(3, 3);
        covariance << 2.0, 0.9, -0.3, 0.9, 1.0, 0.2, -0.3, 0.2, 0.5;
        const VectorXd mean = (VectorXd(3) << 1.0, -2.0, 0.5).finished();
        const MatrixXd precision = covariance.inverse();
        const LogDensity gaussian = [&](const VectorXd& x, VectorXd& g) {
            g = -precision * (x - mean);
            return -0.5 * (x - mean).dot(precision * (x - mean));
        };
        LaplaceStartOptions options;
        options.curvature_floor = 1e-3;
        const LaplaceStart start = laplace_start(gaussian, VectorXd::Zero(3), 4, NutsMetric::Dense, 9, options);
        QVERIFY2(start.ok, start.message.c_str());
        QVERIFY((start.mode - mean).cwiseAbs().maxCoeff() < 1e-4);
        QVERIFY((start.state.inverse_metric - covariance).cwiseAbs().maxCoeff() < 1e-6);
        QCOMPARE(start.state.positions.rows(), Eigen::Index{4});
        QVERIFY(!start.state.check(3, NutsMetric::Dense));
        // The floor caps the variance in flat directions.
        options.curvature_floor = 2.0;
        const LaplaceStart floored = laplace_start(gaussian, VectorXd::Zero(3), 1, NutsMetric::Diagonal, 9, options);
        QVERIFY(floored.ok);
        QVERIFY((floored.state.inverse_metric.array() <= 0.5 + 1e-9).all());
    }

    // The Hessian's columns on a pool, each task with its own copy of the SAAS density, give the
    // serial result exactly (same points, same arithmetic), so a fit does not depend on threads.
    void laplaceHessianOnAPoolIsTheSerialOne() {
        const auto data = small_data(30, 6);
        SaasLogDensity density(data);
        const LogDensity serial = [&density](const VectorXd& theta, VectorXd& g) { return density(theta, g); };
        const auto copy = [&density]() -> LogDensity {
            return [own = density](const VectorXd& theta, VectorXd& g) mutable { return own(theta, g); };
        };
        const LaplaceStart alone = laplace_start(serial, density.initial_point(), 2, NutsMetric::Dense, 5);
        QVERIFY2(alone.ok, alone.message.c_str());
        for (int threads : {2, 3}) {
            ThreadPool pool(threads);
            const LaplaceStart pooled =
                laplace_start(serial, density.initial_point(), 2, NutsMetric::Dense, 5, {}, {}, &pool, copy);
            QVERIFY2(pooled.ok, pooled.message.c_str());
            QVERIFY(pooled.state.inverse_metric == alone.state.inverse_metric);
            QVERIFY(pooled.state.positions == alone.state.positions);
            QCOMPARE(pooled.evaluations, alone.evaluations);
        }
    }

    // Cancelling during the chains returns promptly with nothing; progress only ever runs on the
    // calling thread (the GUI's and the CLI's callbacks rely on it).
    void cancelDuringChains() {
        const auto data = small_data(30, 6);
        SaasNutsOptions options = quick_options(2);
        options.nuts.warmup = 100000;  // would take minutes
        ThreadPool pool(2);
        std::stop_source stop;
        const std::thread::id caller = std::this_thread::get_id();
        std::atomic<bool> wrong_thread{false};
        int calls = 0;
        const NutsProgressCallback progress = [&](const NutsProgress& p) {
            wrong_thread = wrong_thread || std::this_thread::get_id() != caller;
            if (++calls == 20) stop.request_stop();
            QVERIFY(p.total == 2 * (100000 + 32));
        };
        const SaasNutsFit fit = fit_saas_nuts(data, options, 3, progress, stop.get_token(), &pool);
        QCOMPARE(fit.status, NutsResult::Status::Cancelled);
        QVERIFY(fit.samples.empty());
        QVERIFY(fit.next.empty());
        QVERIFY(!wrong_thread.load());
        QVERIFY(calls >= 20);
    }
};

SEBO_TEST_MAIN(TestSaasNutsChains)
}  // namespace test_saas_nuts_chains
#include "test_saas_nuts_chains.moc"
