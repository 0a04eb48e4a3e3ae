// End to end (paper §6, Fig. 3 left): Branin embedded in 50-D with the paper's budget, 8 Sobol +
// 42 model-based trials, seeds 1 and 2. SEBO-L0 (SAAS-NUTS, homotopy) must get within 0.05 of
// Branin's optimum with at most 2 active parameters, and do better than SAASBO (the same SAAS
// model with EI, which ignores sparsity) with the same budget and seed: SAASBO has nothing as good
// with at most 2 active, and SEBO-L0's final hypervolume is larger. Sobol with that budget has no
// configuration with at most 2 active at all. The two model-based runs of a seed go on two
// threads. Takes a few minutes: labelled "slow".
#include <future>

#include "experiment/analytics.h"
#include "experiment/runner.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_slow_sebo_branin {

using namespace sebo;

namespace {

Experiment run(StrategyKind strategy, std::uint64_t seed) {
    ProblemSpec spec;
    spec.name = "branin";
    MethodSettings method;
    method.strategy = strategy;
    method.initial_trials = 8;
    method.budget = 50;
    Experiment e = make_problem_experiment(spec, method, seed);
    ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
    auto s = make_strategy(e.method);
    while (static_cast<int>(e.trials.size()) < e.method.budget) {
        const StepResult r = run_step(e, *s, &evaluator, StepControl{});
        if (r.status != StepResult::Status::Completed) break;
    }
    return e;
}

QString text(std::optional<double> v) { return v ? QString::number(*v, 'g', 6) : QString("none"); }

}  // namespace

class TestSeboBranin : public QObject {
    Q_OBJECT
private slots:
    void sebo_finds_the_sparse_optimum_saasbo_and_sobol_do_not_data() {
        QTest::addColumn<int>("seed");
        QTest::newRow("seed 1") << 1;
        QTest::newRow("seed 2") << 2;
    }
    void sebo_finds_the_sparse_optimum_saasbo_and_sobol_do_not() {
        QFETCH(int, seed);
        const auto s = static_cast<std::uint64_t>(seed);
        auto saasbo_run = std::async(std::launch::async, [s] { return run(StrategyKind::Saasbo, s); });
        const Experiment sebo = run(StrategyKind::SeboL0, s);
        const Experiment saasbo = saasbo_run.get();
        for (const Experiment* e : {&sebo, &saasbo}) {
            QCOMPARE(int(e->trials.size()), 50);
            QCOMPARE(e->count(TrialStatus::Completed), 50);
        }
        const double optimum = *make_problem(sebo.evaluator.problem)->optimum();
        SEBO_COMPARE_NEAR(optimum, 0.397887, 1e-6);
        const auto sebo_regret = simple_regret(sebo, 2, optimum);
        const auto saasbo_regret = simple_regret(saasbo, 2, optimum);
        const double sebo_volume = analyze_frontier(sebo).hypervolume, saasbo_volume = analyze_frontier(saasbo).hypervolume;
        qInfo("seed %d, regret with at most 2 active: SEBO-L0 %s, SAASBO %s; hypervolume SEBO-L0 %.2f, SAASBO %.2f", seed,
              qPrintable(text(sebo_regret)), qPrintable(text(saasbo_regret)), sebo_volume, saasbo_volume);
        QVERIFY(sebo_regret.has_value());
        QVERIFY2(*sebo_regret < 0.05, qPrintable(text(sebo_regret)));
        QVERIFY2(!saasbo_regret || *saasbo_regret > *sebo_regret, qPrintable(text(saasbo_regret)));
        QVERIFY2(sebo_volume > saasbo_volume, qPrintable(QString("%1 against %2").arg(sebo_volume).arg(saasbo_volume)));

        const Experiment sobol = run(StrategyKind::Sobol, s);
        QVERIFY(!simple_regret(sobol, 2, optimum).has_value());
    }
};

SEBO_TEST_MAIN(TestSeboBranin)
}  // namespace test_slow_sebo_branin
#include "test_slow_sebo_branin.moc"
