// Noisy built-in problems (issue 30 item 1): `--noise SD` adds Gaussian noise of that standard
// deviation to every metric, reproducibly from the experiment's seed and the trial index, and each
// trial records the noise-free values; the spec's validation names its field; files keep both, and
// a version-6 file's stray members mean nothing.
#include <cmath>
#include <numeric>
#include <vector>

#include "experiment/runner.h"
#include "experiment/sobol_strategy.h"
#include "io/experiment_file.h"
#include "problems/noisy_problem.h"
#include "problems/problem_catalog.h"
#include "problems/sourcing.h"
#include "problem_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_noisy_problems {

using namespace sebo;
using sebo::test::error_field;
using sebo::test::spec_named;

namespace {

ProblemSpec noisy(const std::string& name, std::map<std::string, double> noise, int dimension = 0) {
    ProblemSpec spec = spec_named(name);
    spec.noise = std::move(noise);
    spec.dimension = dimension;
    return spec;
}

std::vector<double> point(int dimension, double value) { return std::vector<double>(static_cast<std::size_t>(dimension), value); }

}  // namespace

class TestNoisyProblems : public QObject {
    Q_OBJECT

private slots:
    void noise_has_the_stated_distribution() {
        // 4000 trials' noise at one configuration: mean and sd of the draws against 0 and 0.1 (a
        // sample mean is within 4 standard errors, 4 * 0.1 / sqrt(4000) = 0.0063; the sample sd
        // within 5 %).
        const auto problem = make_problem(noisy("hartmann6", {{"*", 0.1}}, 12));
        const std::vector<double> x = point(12, 0.3);
        const double truth = problem->noise_free_values(x).at("hartmann6");
        SEBO_COMPARE_NEAR(truth, make_problem(spec_named("hartmann6"))->primary_measurement(point(50, 0.3), 0).mean, 1e-12);
        std::vector<double> noise;
        for (int trial = 0; trial < 4000; ++trial)
            noise.push_back(problem->evaluate(x, problem_noise_seed(7, trial)).at("hartmann6").mean - truth);
        const double mean = std::accumulate(noise.begin(), noise.end(), 0.0) / static_cast<double>(noise.size());
        double squares = 0.0;
        for (double e : noise) squares += (e - mean) * (e - mean);
        const double sd = std::sqrt(squares / static_cast<double>(noise.size() - 1));
        SEBO_COMPARE_NEAR(mean, 0.0, 0.0063);
        SEBO_COMPARE_NEAR(sd, 0.1, 0.005);
    }

    void noise_is_reproducible_per_trial() {
        const auto problem = make_problem(noisy("branin", {{"*", 2.0}}, 10));
        const std::vector<double> x = point(10, 0.5);
        const double a = problem->evaluate(x, problem_noise_seed(3, 5)).at("branin").mean;
        QCOMPARE(problem->evaluate(x, problem_noise_seed(3, 5)).at("branin").mean, a);
        QVERIFY(problem->evaluate(x, problem_noise_seed(3, 6)).at("branin").mean != a);
        QVERIFY(problem->evaluate(x, problem_noise_seed(4, 5)).at("branin").mean != a);
        // No standard error is reported for the added noise: the model infers it.
        QVERIFY(!problem->evaluate(x, problem_noise_seed(3, 5)).at("branin").sem);
        QVERIFY(problem->noisy());
        QVERIFY(!make_problem(spec_named("branin"))->noisy());
    }

    void every_metric_gets_its_own_noise() {
        // A plain SD applies to every metric; METRIC=SD overrides it for one; one metric's draws
        // do not change when another's sd does.
        const ProblemSpec both = resolve_problem_spec(noisy("branin-currin", {{"*", 1.0}, {"currin", 0.5}}, 4));
        QCOMPARE(both.noise.size(), std::size_t{2});
        QCOMPARE(both.noise.at("branin"), 1.0);
        QCOMPARE(both.noise.at("currin"), 0.5);
        const auto a = make_problem(both);
        const auto b = make_problem(noisy("branin-currin", {{"*", 1.0}, {"currin", 0.25}}, 4));
        ProblemSpec plain_spec = spec_named("branin-currin");
        plain_spec.dimension = 4;
        const auto plain = make_problem(plain_spec);
        const std::vector<double> x = point(4, 0.4);
        const MetricValues va = a->evaluate(x, 99), vb = b->evaluate(x, 99);
        const std::map<std::string, double> truth = a->noise_free_values(x);
        QCOMPARE(va.at("branin").mean, vb.at("branin").mean);
        SEBO_COMPARE_NEAR((va.at("currin").mean - truth.at("currin")) / 0.5, (vb.at("currin").mean - truth.at("currin")) / 0.25,
                          1e-12);
        SEBO_COMPARE_NEAR(truth.at("branin"), plain->evaluate(x, 0).at("branin").mean, 0.0);
    }

    void sourcing_records_its_expected_values() {
        // A stochastic problem: the noise-free values are the simulation's expectations (closed
        // form), and its own standard error is kept under the added noise.
        const auto problem = make_problem(noisy("sourcing", {{"quality", 0.05}}));
        const auto& sourcing = dynamic_cast<const SourcingProblem&>(dynamic_cast<const NoisyProblem&>(*problem).inner());
        std::vector<double> x(25, 0.0);
        x[3] = 10;
        x[7] = 4;
        const std::map<std::string, double> truth = problem->noise_free_values(x);
        SEBO_COMPARE_NEAR(truth.at("quality"), sourcing.expected_value(x), 1e-12);
        SEBO_COMPARE_NEAR(truth.at("relevance"), sourcing.expected_relevance(x), 1e-12);
        SEBO_COMPARE_NEAR(truth.at("cost"), sourcing.infrastructure_cost(x), 1e-12);
        const MetricValues measured = problem->evaluate(x, 11), inner = sourcing.evaluate(x, 11);
        QVERIFY(measured.at("quality").sem);
        QCOMPARE(*measured.at("quality").sem, *inner.at("quality").sem);
        QVERIFY(measured.at("quality").mean != inner.at("quality").mean);
        QCOMPARE(measured.at("relevance").mean, inner.at("relevance").mean);
    }

    void invalid_noise_names_its_field() {
        QCOMPARE(error_field(noisy("branin", {{"*", -1.0}})), std::string("problem.noise.*"));
        QCOMPARE(error_field(noisy("branin", {{"branin", 0.0}})), std::string("problem.noise.branin"));
        QCOMPARE(error_field(noisy("branin", {{"branin", std::nan("")}})), std::string("problem.noise.branin"));
        std::string message;
        QCOMPARE(error_field(noisy("branin", {{"latency", 1.0}}), &message), std::string("problem.noise.latency"));
        QVERIFY2(message.find("unknown metric 'latency' of branin") != std::string::npos, message.c_str());
    }

    void trials_record_noise_free_values_and_files_keep_them() {
        MethodSettings method;
        method.initial_trials = 4;
        method.budget = 4;
        Experiment e = make_problem_experiment(noisy("hartmann6", {{"*", 0.1}}, 8), method, 5);
        ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
        SobolStrategy sobol;
        QCOMPARE(run_step(e, sobol, &evaluator, {}, 4).status, StepResult::Status::Completed);
        const auto truth = make_problem(spec_named("hartmann6"));
        for (const Trial& t : e.trials) {
            QCOMPARE(t.status, TrialStatus::Completed);
            QCOMPARE(t.noise_free.size(), std::size_t{1});
            std::vector<double> x50 = t.parameters;
            x50.resize(50, 0.0);
            SEBO_COMPARE_NEAR(t.noise_free.at("hartmann6"), truth->primary_measurement(x50, 0).mean, 1e-12);
            QVERIFY(std::abs(*t.value("hartmann6") - t.noise_free.at("hartmann6")) > 0.0);
        }
        const std::string text = experiment_to_json_text(e);
        QVERIFY(text.find("\"noise_free\"") != std::string::npos);
        const Experiment loaded = experiment_from_json_text(text);
        QCOMPARE(loaded.evaluator.problem.noise, e.evaluator.problem.noise);
        for (std::size_t i = 0; i < e.trials.size(); ++i) QCOMPARE(loaded.trials[i].noise_free, e.trials[i].noise_free);
        // A noise-free problem writes neither member.
        Experiment plain = make_problem_experiment(spec_named("branin"), method, 5);
        ProblemEvaluator plain_evaluator(make_problem(plain.evaluator.problem), plain.seed);
        run_step(plain, sobol, &plain_evaluator, {}, 2);
        const std::string plain_text = experiment_to_json_text(plain);
        QVERIFY(plain_text.find("noise") == std::string::npos);
    }

    void version_6_files_mean_no_noise() {
        // A version-6 reader ignored "noise" and "noise_free": such members in a version-6 file
        // never meant anything, and the migration drops them.
        MethodSettings method;
        method.initial_trials = 2;
        Experiment e = make_problem_experiment(noisy("branin", {{"*", 1.0}}, 4), method, 1);
        ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
        SobolStrategy sobol;
        run_step(e, sobol, &evaluator, {}, 2);
        std::string text = experiment_to_json_text(e);
        const std::string version = "\"version\": " + std::to_string(kExperimentVersion);
        const auto at = text.find(version);
        QVERIFY(at != std::string::npos);
        text.replace(at, version.size(), "\"version\": 6");
        const Experiment old = experiment_from_json_text(text);
        QVERIFY(old.evaluator.problem.noise.empty());
        for (const Trial& t : old.trials) QVERIFY(t.noise_free.empty());
    }
};

SEBO_TEST_MAIN(TestNoisyProblems)
}  // namespace test_noisy_problems
#include "test_noisy_problems.moc"
