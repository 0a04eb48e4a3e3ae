// Noisy data in the analysis (issue 30 items 4–6): credible intervals that cover the truth,
// recommendations from the model, replicates merged, the acquisition's reference point on a
// one-value front, and the warning about standard errors given for some measurements only.
#include <cmath>

#include "core/input_error.h"
#include "experiment/analytics.h"
#include "experiment/model_step.h"
#include "experiment/recommendations.h"
#include "experiment/replicates.h"
#include "experiment/runner.h"
#include "experiment/sobol_strategy.h"
#include "experiment/standard_errors.h"
#include "model/credible_interval.h"
#include "model/ensemble_posterior.h"
#include "model/power_transform.h"
#include "core/portable_random.h"
#include "problems/problem_catalog.h"
#include "parameter_builders.h"
#include "test_main.h"
#include "test_support.h"

namespace test_noisy_analysis {

using namespace sebo;

namespace {

Experiment manual_experiment(int dimension) {
    Experiment e;
    std::vector<Parameter> parameters;
    for (int i = 0; i < dimension; ++i) parameters.push_back(test::continuous("x" + std::to_string(i)));
    e.space = SearchSpace(parameters);
    e.outcomes = Outcomes::single("y", false);
    e.method.strategy = StrategyKind::SeboL0;
    e.method.model = ModelKind::Gp;
    return e;
}

void add(Experiment& e, std::vector<double> x, double y, std::optional<double> sem = std::nullopt) {
    Trial t;
    t.index = e.next_trial_index();
    t.parameters = std::move(x);
    t.status = TrialStatus::Completed;
    t.values["y"] = Measurement{y, sem};
    t.generator = "manual";
    e.trials.push_back(std::move(t));
}

}  // namespace

class TestNoisyAnalysis : public QObject {
    Q_OBJECT

private slots:
    void mixture_quantiles_are_exact() {
        // One Gaussian: its quantiles; two equal-weight point-like members: the quantile is the
        // lower one below 1/2 and the upper one above.
        const Eigen::VectorXd one_mean = Eigen::VectorXd::Constant(1, 2.0), one_var = Eigen::VectorXd::Constant(1, 9.0);
        SEBO_COMPARE_NEAR(mixture_quantile(one_mean, one_var, 0.975), 2.0 + 3.0 * 1.959963984540054, 1e-9);
        SEBO_COMPARE_NEAR(mixture_quantile(one_mean, one_var, 0.025), 2.0 - 3.0 * 1.959963984540054, 1e-9);
        const Eigen::VectorXd means = Eigen::Vector2d(-1.0, 5.0), tiny = Eigen::Vector2d(1e-12, 1e-12);
        SEBO_COMPARE_NEAR(mixture_quantile(means, tiny, 0.25), -1.0, 1e-4);
        SEBO_COMPARE_NEAR(mixture_quantile(means, tiny, 0.75), 5.0, 1e-4);
    }

    void intervals_cover_the_truth() {
        // 400 draws of f from a GP prior with known hyperparameters, observed with noise at 15
        // points; the posterior of that GP at 5 points each: the 95 % intervals must cover the
        // drawn f at least 90 % of the time (in expectation 95 %; 2000 intervals).
        GpHyperparameters h;
        h.inverse_squared_lengthscales = Eigen::Vector2d(4.0, 1.0);
        h.output_scale = 1.0;
        h.noise = 0.09;
        PortableRandom random(11);
        int covered = 0, total = 0;
        for (int draw = 0; draw < 400; ++draw) {
            Eigen::MatrixXd X(20, 2);
            for (Eigen::Index i = 0; i < X.rows(); ++i) X.row(i) << random.uniform(), random.uniform();
            // f at all 20 points from the prior, noise on the first 15.
            auto prior_data = std::make_shared<TrainingData>();
            prior_data->inputs = X.topRows(1);
            prior_data->targets = Eigen::VectorXd::Zero(1);
            GpHyperparameters far = h;
            far.noise = 1e12;  // conditioning on one hopelessly noisy value: the prior itself
            const GaussianProcess prior(prior_data, far);
            Eigen::MatrixXd K = prior.posterior_covariance(X);
            K.diagonal().array() += 1e-10;
            const Eigen::MatrixXd L = K.llt().matrixL();
            Eigen::VectorXd z(20);
            for (Eigen::Index i = 0; i < z.size(); ++i) z[i] = random.normal();
            const Eigen::VectorXd f = L * z;
            auto data = std::make_shared<TrainingData>();
            data->inputs = X.topRows(15);
            data->targets = f.head(15);
            for (Eigen::Index i = 0; i < 15; ++i) data->targets[i] += 0.3 * random.normal();
            const EnsemblePosterior posterior(data, {h});
            const EnsembleMoments m = posterior.predict(X.bottomRows(5));
            for (Eigen::Index i = 0; i < 5; ++i) {
                const Eigen::VectorXd mean = m.mean.row(i).transpose(), var = m.variance.row(i).transpose();
                const double lower = mixture_quantile(mean, var, 0.025), upper = mixture_quantile(mean, var, 0.975);
                covered += f[15 + i] >= lower && f[15 + i] <= upper;
                ++total;
            }
        }
        const double coverage = static_cast<double>(covered) / total;
        QVERIFY2(coverage >= 0.90 && coverage <= 0.98, qPrintable(QString("coverage %1").arg(coverage)));
    }

    void replicates_are_one_configuration() {
        Experiment e = manual_experiment(2);
        add(e, {0.0, 0.0}, 1.0);
        add(e, {0.5, 0.0}, 2.0);
        add(e, {0.0, 0.0}, 1.4);
        add(e, {0.0, 0.0}, 0.9);
        const std::vector<Replicates> groups = analyzed_replicates(e);
        QCOMPARE(groups.size(), std::size_t{2});
        QCOMPARE(groups[0].trials, (std::vector<int>{0, 2, 3}));
        const MergedMeasurement m = merged_measurement(e, groups[0].trials, "y");
        QCOMPARE(m.count, 3);
        SEBO_COMPARE_NEAR(m.mean, 1.1, 1e-12);
        // sample sd of (1, 1.4, 0.9) is sqrt(0.07), the standard error sqrt(0.07 / 3)
        SEBO_COMPARE_NEAR(*m.sem, std::sqrt(0.07 / 3.0), 1e-12);
        // With every standard error known: sqrt(Σ sem²) / n.
        Experiment known = manual_experiment(1);
        add(known, {0.0}, 1.0, 0.3);
        add(known, {0.0}, 2.0, 0.4);
        const MergedMeasurement k = merged_measurement(known, {0, 1}, "y");
        SEBO_COMPARE_NEAR(*k.sem, 0.25, 1e-12);
        // One measurement without a standard error has none.
        QVERIFY(!merged_measurement(e, groups[1].trials, "y").sem);
    }

    void the_frontier_shows_merged_replicates() {
        // Two parameters (D = 2), maximized y with the threshold 0 as reference. The status quo
        // measured 1.0, then again 0.6: merged 0.8. A one-change configuration measured 2.0.
        // Hypervolume of (y, −active) against (0, 2): after trial 0: 2 × 1.0; after trial 1:
        // 2 × 1.0 + 1 × (2.0 − 1.0) = 3; after the replicate: 2 × 0.8 + 1 × 1.2 = 2.8 (lower: the
        // lucky first measurement is averaged down).
        Experiment e = manual_experiment(2);
        e.outcomes.objectives.front().threshold = 0.0;
        add(e, {0.0, 0.0}, 1.0);
        add(e, {0.5, 0.0}, 2.0);
        add(e, {0.0, 0.0}, 0.6);
        const FrontierReport r = analyze_frontier(e);
        QCOMPARE(r.levels[0].trial, std::optional<int>(0));
        SEBO_COMPARE_NEAR(*r.levels[0].best_objective, 0.8, 1e-12);
        SEBO_COMPARE_NEAR(r.hypervolume, 2.8, 1e-12);
        QCOMPARE(r.hypervolume_trace.size(), std::size_t{3});
        SEBO_COMPARE_NEAR(r.hypervolume_trace[0], 2.0, 1e-12);
        SEBO_COMPARE_NEAR(r.hypervolume_trace[1], 3.0, 1e-12);
        SEBO_COMPARE_NEAR(r.hypervolume_trace[2], 2.8, 1e-12);
        QCOMPARE(r.pareto_trials, (std::vector<int>{0, 1}));
        // The points a confirmation adds, and what it refuses.
        QCOMPARE(replicate_points(e, {1}, 2), (std::vector<std::vector<double>>{{0.5, 0.0}, {0.5, 0.0}}));
        try {
            replicate_points(e, {7}, 1);
            QFAIL("an unknown trial was confirmed");
        } catch (const InputError& error) {
            QCOMPARE(error.field(), std::string("trials[7]"));
        }
    }

    void reference_point_has_a_floor() {
        // A lone value: 0.1 below it (one standard deviation of the model's units times 0.1),
        // not 1e-7 as when the range floor was 1e-6.
        SEBO_COMPARE_NEAR(reference_below(0.7, 0.7), 0.6, 1e-15);
        SEBO_COMPARE_NEAR(reference_below(-1.0, 3.0), -1.4, 1e-15);
        SEBO_COMPARE_NEAR(reference_below(0.0, 0.5), -0.1, 1e-15);
    }

    void warp_keeps_the_best_values_apart() {
        // A maximized objective measured with noise: a bulk near 0 and one good value. The fitted
        // Yeo–Johnson λ alone would compress the good tail (λ < 1) and spread the bulk's noise; the
        // training set allows it only when an extreme value was winsorized.
        Experiment e = manual_experiment(2);
        PortableRandom random(5);
        for (int i = 0; i < 20; ++i) add(e, {random.uniform(), random.uniform()}, 0.005 + 0.1 * random.normal());
        add(e, {0.5, 0.5}, 2.6);
        const std::optional<TrainingSet> t = make_training_set(e, WarpMode::Always);
        QVERIFY(t && t->winsorized.empty());
        QVERIFY(PowerTransform(t->utility).lambda() < 1.0);
        QVERIFY(t->warp.lambda() >= 1.0);
        // The best measurement stays the outlier it is: more than 3 standard deviations above the
        // mean of the others in the model's units.
        const Eigen::VectorXd& z = t->data->targets;
        QVERIFY2(z[20] > 3.0, qPrintable(QString("z = %1").arg(z[20])));
        // A sentinel on the good side (winsorized): the good tail may be compressed as before.
        add(e, {0.9, 0.1}, 1e308);
        const std::optional<TrainingSet> s = make_training_set(e, WarpMode::Always);
        QVERIFY(s && !s->winsorized.empty());
        QCOMPARE(s->warp.lambda(), PowerTransform(s->utility).lambda());
    }

    void partial_standard_errors_are_named() {
        Experiment e = manual_experiment(1);
        add(e, {0.1}, 1.0, 0.2);
        add(e, {0.2}, 1.5);
        add(e, {0.3}, 1.2, 0.1);
        const std::vector<PartialStandardErrors> partial = partial_standard_errors(e);
        QCOMPARE(partial.size(), std::size_t{1});
        QCOMPARE(partial[0].with, 2);
        QCOMPARE(partial[0].without, 1);
        QCOMPARE(describe(partial[0]),
                 std::string("y: 2 of 3 measurements have a standard error and 1 does not; the model infers the noise of y "
                             "from the data and does not use the reported standard errors (report one for every "
                             "measurement, or none)"));
        // Every measurement with one, or none: nothing to say.
        e.trials[1].values["y"].sem = 0.3;
        QVERIFY(partial_standard_errors(e).empty());
    }

    void recommendations_follow_the_model_not_the_luckiest_draw() {
        // y = 2 x0 − (x1 − 0.5)² with noise 0.3 on a design where one configuration with one change
        // was measured once with a lucky +1.5 and another, truly better one, five times. The model
        // (the SAAS GP with NUTS, the default) recommends the better one at k = 1; the lucky one is
        // the best *measured* there.
        Experiment e = manual_experiment(2);
        e.method.model.reset();
        PortableRandom random(3);
        const auto truth = [](double x0, double x1) { return 2.0 * x0 - (x1 - 0.5) * (x1 - 0.5); };
        add(e, {0.0, 0.0}, truth(0.0, 0.0) + 0.3 * random.normal());  // the status quo
        for (int i = 0; i < 24; ++i) {
            const double x0 = random.uniform(), x1 = random.uniform();
            add(e, {x0, x1}, truth(x0, x1) + 0.3 * random.normal());
        }
        add(e, {0.2, 0.0}, truth(0.2, 0.0) + 1.5);  // lucky: true 0.15, measured 1.65
        for (int i = 0; i < 5; ++i) add(e, {0.7, 0.0}, truth(0.7, 0.0) + 0.3 * random.normal());  // true 1.15
        const RecommendationReport report = recommend_configurations(e);
        QCOMPARE(report.status, RecommendationReport::Status::Ok);
        QVERIFY(report.status_quo);
        QCOMPARE(report.configurations[*report.status_quo].trial(), 0);
        const auto level = std::find_if(report.levels.begin(), report.levels.end(), [](const auto& l) { return l.k == 1; });
        QVERIFY(level != report.levels.end());
        const ConfigurationEstimate& recommended = report.configurations[level->recommended.front()];
        QCOMPARE(recommended.trial(), 26);
        QCOMPARE(recommended.trials.size(), std::size_t{5});
        const MetricEstimate& estimate = recommended.estimates.at("y");
        QVERIFY2(estimate.lower <= 1.15 && 1.15 <= estimate.upper,
                 qPrintable(QString("[%1, %2]").arg(estimate.lower).arg(estimate.upper)));
        QVERIFY(recommended.p_better_than_status_quo.at("y") > 0.95);
        QVERIFY(report.configurations[*report.status_quo].p_better_than_status_quo.empty());
        QCOMPARE(std::find(report.noisy_metrics.begin(), report.noisy_metrics.end(), std::string("y")) != report.noisy_metrics.end(),
                 true);
    }
};

SEBO_TEST_MAIN(TestNoisyAnalysis)
}  // namespace test_noisy_analysis
#include "test_noisy_analysis.moc"
