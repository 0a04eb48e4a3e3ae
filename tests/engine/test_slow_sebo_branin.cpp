// End to end (paper §6, Fig. 3): Branin embedded in 50-D with the paper's budget, 8 Sobol + 42
// SEBO-L0 trials (SAAS-NUTS, homotopy), seeds 1 and 2. SEBO must find a configuration with at most
// 2 active parameters and a Branin value below 5; Sobol with the same budget finds none with at
// most 2 active. Takes a few minutes: labelled "slow".
#include "experiment/runner.h"
#include "problems/problem_catalog.h"
#include "test_support.h"

using namespace sebo;

namespace {

// Best Branin value among completed trials with at most `k` active parameters.
std::optional<double> best_with_at_most(const Experiment& e, int k) {
    std::optional<double> best;
    for (const Trial& t : e.trials)
        if (t.status == TrialStatus::Completed && e.sparsity(t) <= k && (!best || *t.objective < *best)) best = t.objective;
    return best;
}

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

}  // namespace

class TestSeboBranin : public QObject {
    Q_OBJECT
private slots:
    void sebo_finds_sparse_optimum_sobol_does_not_data() {
        QTest::addColumn<int>("seed");
        QTest::newRow("seed 1") << 1;
        QTest::newRow("seed 2") << 2;
    }
    void sebo_finds_sparse_optimum_sobol_does_not() {
        QFETCH(int, seed);
        const Experiment sebo = run(StrategyKind::SeboL0, static_cast<std::uint64_t>(seed));
        QCOMPARE(int(sebo.trials.size()), 50);
        QCOMPARE(sebo.count(TrialStatus::Completed), 50);
        const auto best = best_with_at_most(sebo, 2);
        qInfo("seed %d: SEBO-L0 best Branin with at most 2 active: %s (optimum 0.397887)", seed,
              best ? qPrintable(QString::number(*best, 'g', 6)) : "none");
        QVERIFY(best.has_value());
        QVERIFY2(*best < 5.0, qPrintable(QString::number(*best)));

        const Experiment sobol = run(StrategyKind::Sobol, static_cast<std::uint64_t>(seed));
        QVERIFY(!best_with_at_most(sobol, 2).has_value());
    }
};

QTEST_GUILESS_MAIN(TestSeboBranin)
#include "test_slow_sebo_branin.moc"
