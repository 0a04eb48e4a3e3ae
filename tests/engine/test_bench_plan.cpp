// The benchmark presets (bench/bench_plan.h) as data: the sebo-vs-bonsai comparison of issue 16
// runs the four methods on the three problems with five seeds on the SAAS model, and the paper's
// presets keep their settings.
#include "bench/bench_plan.h"
#include "test_main.h"
#include "test_support.h"

using namespace sebo;

class TestBenchPlan : public QObject {
    Q_OBJECT

private slots:
    void seboVsBonsai() {
        const auto preset = find_bench_preset("sebo-vs-bonsai");
        QVERIFY(preset);
        const BenchPlan& plan = preset->plan;
        QCOMPARE(plan.seeds, 5);
        QCOMPARE(plan.trials, 100);
        QCOMPARE(plan.initial_trials, 20);
        QCOMPARE(plan.nuts, NutsMode::Fast);
        QCOMPARE(plan.problems.size(), std::size_t{3});
        QCOMPARE(plan.problems[0].spec.name, std::string("branin"));
        QCOMPARE(plan.problems[0].spec.dimension, 50);
        QCOMPARE(plan.problems[1].spec.name, std::string("hartmann6"));
        QCOMPARE(plan.problems[1].spec.dimension, 50);
        QCOMPARE(plan.problems[2].spec.name, std::string("sourcing"));
        const std::vector<StrategyKind> kinds{StrategyKind::Sobol, StrategyKind::Saasbo, StrategyKind::Bonsai, StrategyKind::SeboL0};
        QCOMPARE(plan.strategies.size(), kinds.size());
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            QCOMPARE(plan.strategies[i].kind, kinds[i]);
            const MethodSettings m = plan.strategies[i].method(plan.trials, plan.initial_trials, plan.nuts);
            QVERIFY(!m.validate());
            QCOMPARE(m.strategy, kinds[i]);
            QCOMPARE(m.budget, 100);
            QCOMPARE(m.initial_trials, 20);
            // BONSAI, SAASBO and SEBO on the same model: SAAS sampled with NUTS.
            if (uses_model(kinds[i])) QCOMPARE(m.resolved_model(), ModelKind::SaasNuts);
        }
    }

    void bonsaiIsAStrategyToken() {
        const BenchStrategy s = parse_bench_strategy("bonsai/model=saas-map", "--strategies");
        QCOMPARE(s.kind, StrategyKind::Bonsai);
        QCOMPARE(s.model, std::optional<ModelKind>(ModelKind::SaasMap));
        QCOMPARE(strategy_kind_from_string("bonsai"), std::optional<StrategyKind>(StrategyKind::Bonsai));
        QCOMPARE(std::string(to_string(StrategyKind::Bonsai)), std::string("bonsai"));
    }

    void paperPresetsAreUnchanged() {
        const auto branin = find_bench_preset("paper-branin");
        QVERIFY(branin);
        QCOMPARE(branin->plan.trials, 50);
        QCOMPARE(branin->plan.initial_trials, 8);
        QCOMPARE(branin->plan.strategies.size(), std::size_t{7});
        for (const BenchStrategy& s : branin->plan.strategies) QVERIFY(s.kind != StrategyKind::Bonsai);
    }
};

SEBO_TEST_MAIN(TestBenchPlan)
#include "test_bench_plan.moc"
