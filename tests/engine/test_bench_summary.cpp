// The arithmetic of `sebo bench` (bench/bench_summary.h, bench/bench_results.h) on a small
// results table whose every aggregate is worked out by hand in the comments: means, standard
// errors, "best with at most k active" with runs that found none, traces by trial position,
// regret, activation on each run's frontier, seconds per iteration, the Markdown table, and the
// round trip and the errors of the CSV format.
//
// tests/fixtures/bench/summary-small.csv (minimized, optimum 0.4, D = 4, effective x0, x1):
//   A seed 1: t0 sobol 10 (4 active: 0-3) hv 1 | t1 2 (0;1) hv 5, 1 s | t2 5 (0) hv 6, 3 s
//   A seed 2: t0 sobol 8 (3: 0;1;2) hv 2 | t1 failed (0;2) hv 2, 2 s | t2 1 (1;2) hv 9, 2 s
//             (rows deliberately out of trial order)
//   "B, fixed" seed 1: t0 sobol 3 (4) hv 3 | t1 sobol 4 (4) hv 3

#include <cmath>

#include "bench/bench_results.h"
#include "bench/bench_summary.h"
#include "core/input_error.h"
#include "experiment/analytics.h"
#include "problems/problem_catalog.h"
#include "test_support.h"

using namespace sebo;

namespace {

std::vector<BenchRow> fixture() { return read_bench_results(test::source_path("tests/fixtures/bench/summary-small.csv")); }

QString error_of(const std::string& text) {
    try {
        parse_bench_results(text, "results.csv");
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

const char* kHeader =
    "problem,dimension,minimize,optimum,effective_parameters,hypervolume_reference,strategy,seed,trial,generator,status,"
    "objective,active,active_parameters,hypervolume,best_objective,generation_seconds,evaluation_seconds,elapsed_seconds\n";

}  // namespace

class TestBenchSummary : public QObject {
    Q_OBJECT
private slots:
    void meanAndStandardError() {
        // 2, 4, 9: mean 5, sample variance ((−3)² + (−1)² + 4²)/2 = 13, se = √13/√3.
        const MeanSe m = mean_and_se({2.0, 4.0, 9.0});
        QCOMPARE(m.n, 3);
        SEBO_COMPARE_NEAR(m.mean, 5.0, 1e-15);
        SEBO_COMPARE_NEAR(m.se, std::sqrt(13.0 / 3.0), 1e-15);
        const MeanSe one = mean_and_se({7.0});
        QCOMPARE(one.n, 1);
        QCOMPARE(one.mean, 7.0);
        QCOMPARE(one.se, 0.0);
        QCOMPARE(mean_and_se({}).n, 0);
    }

    void groupsAndLevels() {
        const auto problems = summarize_bench(fixture());
        QCOMPARE(problems.size(), std::size_t{1});
        const ProblemSummary& p = problems[0];
        QCOMPARE(p.problem, std::string("branin"));
        QCOMPARE(p.dimension, 4);
        QVERIFY(p.minimize);
        QCOMPARE(*p.optimum, 0.4);
        // Two effective parameters: half, the count, twice it → 1, 2, 4 (not above D = 4).
        QCOMPARE(p.levels, (std::vector<int>{1, 2, 4}));
        QCOMPARE(p.strategies.size(), std::size_t{2});
        QCOMPARE(p.strategies[0].strategy, std::string("A"));
        QCOMPARE(p.strategies[1].strategy, std::string("B, fixed"));
        QCOMPARE(p.strategies[0].runs, 2);
        QCOMPARE(p.strategies[0].trials, 3);
        QCOMPARE(p.strategies[1].runs, 1);
    }

    void finalHypervolumeAndTrace() {
        const StrategySummary a = summarize_bench(fixture())[0].strategies[0];
        // Final: 6 and 9 → mean 7.5, sd 2.1213, se 1.5.
        SEBO_COMPARE_NEAR(a.final_hypervolume.mean, 7.5, 1e-12);
        SEBO_COMPARE_NEAR(a.final_hypervolume.se, 1.5, 1e-12);
        // Trace: {1, 2} → 1.5 ± 0.5; {5, 2} → 3.5 ± 1.5; {6, 9} → 7.5 ± 1.5.
        QCOMPARE(a.hypervolume_trace.size(), std::size_t{3});
        const double means[] = {1.5, 3.5, 7.5}, ses[] = {0.5, 1.5, 1.5};
        for (int i = 0; i < 3; ++i) {
            SEBO_COMPARE_NEAR(a.hypervolume_trace[i].mean, means[i], 1e-12);
            SEBO_COMPARE_NEAR(a.hypervolume_trace[i].se, ses[i], 1e-12);
        }
    }

    void bestAtEachSparsity() {
        const auto problems = summarize_bench(fixture());
        const StrategySummary& a = problems[0].strategies[0];
        QCOMPARE(a.frontier.size(), std::size_t{5});  // k = 0..4
        // k = 0: nobody. k = 1: seed 1 has 5 (t2), seed 2 nothing.
        QCOMPARE(a.frontier[0].found, 0);
        QVERIFY(!a.frontier[0].best);
        QCOMPARE(a.frontier[1].found, 1);
        QCOMPARE(a.frontier[1].best->mean, 5.0);
        QCOMPARE(a.frontier[1].best->se, 0.0);
        // k = 2, 3, 4: seed 1 best 2, seed 2 best 1 (its failed trial counts for nothing) → 1.5 ± 0.5.
        for (int k = 2; k <= 4; ++k) {
            QCOMPARE(a.frontier[k].found, 2);
            SEBO_COMPARE_NEAR(a.frontier[k].best->mean, 1.5, 1e-12);
            SEBO_COMPARE_NEAR(a.frontier[k].best->se, 0.5, 1e-12);
        }
        const StrategySummary& b = problems[0].strategies[1];
        QCOMPARE(b.frontier[3].found, 0);
        QCOMPARE(b.frontier[4].found, 1);
        QCOMPARE(b.frontier[4].best->mean, 3.0);  // min(3, 4): minimized
    }

    void regretTraces() {
        const StrategySummary a = summarize_bench(fixture())[0].strategies[0];
        QCOMPARE(a.regret_traces.size(), std::size_t{3});  // levels 1, 2, 4
        const auto& level1 = a.regret_traces[0];
        QVERIFY(!level1[0] && !level1[1]);
        QCOMPARE(level1[2]->n, 1);
        SEBO_COMPARE_NEAR(level1[2]->mean, 5.0 - 0.4, 1e-12);
        const auto& level2 = a.regret_traces[1];
        QVERIFY(!level2[0]);
        QCOMPARE(level2[1]->n, 1);  // seed 2's trial 1 failed
        SEBO_COMPARE_NEAR(level2[1]->mean, 1.6, 1e-12);
        SEBO_COMPARE_NEAR(level2[2]->mean, 1.1, 1e-12);  // 1.6 and 0.6
        SEBO_COMPARE_NEAR(level2[2]->se, 0.5, 1e-12);
        const auto& level4 = a.regret_traces[2];
        SEBO_COMPARE_NEAR(level4[0]->mean, 8.6, 1e-12);  // 9.6 and 7.6
        SEBO_COMPARE_NEAR(level4[0]->se, 1.0, 1e-12);
        SEBO_COMPARE_NEAR(level4[1]->mean, 4.6, 1e-12);  // 1.6 and 7.6
    }

    void noOptimumNoRegret() {
        std::vector<BenchRow> rows = fixture();
        for (BenchRow& r : rows) r.optimum.reset();
        const auto problems = summarize_bench(rows);
        QVERIFY(problems[0].strategies[0].regret_traces.empty());
    }

    void activationOnEachRunsFrontier() {
        const StrategySummary a = summarize_bench(fixture())[0].strategies[0];
        // Seed 1's frontier: t2 (5, 1 active: x0) and t1 (2, 2 active: x0, x1); t0 is dominated.
        //   x0 2/2, x1 1/2. Seed 2's frontier: t2 only (1, x1 and x2): x1 1, x2 1.
        // Means: x0 0.5, x1 0.75, x2 0.5, x3 0.
        QCOMPARE(a.activation_frequency.size(), std::size_t{4});
        SEBO_COMPARE_NEAR(a.activation_frequency[0], 0.5, 1e-15);
        SEBO_COMPARE_NEAR(a.activation_frequency[1], 0.75, 1e-15);
        SEBO_COMPARE_NEAR(a.activation_frequency[2], 0.5, 1e-15);
        SEBO_COMPARE_NEAR(a.activation_frequency[3], 0.0, 1e-15);
    }

    void secondsPerIteration() {
        const auto problems = summarize_bench(fixture());
        // Model-based trials: 1, 3, 2, 2 s (the failed one counts: it was proposed) → 2.
        SEBO_COMPARE_NEAR(*problems[0].strategies[0].seconds_per_iteration, 2.0, 1e-15);
        QVERIFY(!problems[0].strategies[1].seconds_per_iteration);
    }

    void markdownTable() {
        const QString md = QString::fromStdString(summary_markdown(summarize_bench(fixture())));
        QVERIFY2(md.contains("| strategy | runs | trials | final hypervolume | best, ≤ 1 active | best, ≤ 2 active | "
                             "best, ≤ 4 active | s / iteration |"),
                 qPrintable(md));
        // 7.5 ± 2·1.5; ≤ 1: found by one run of two; ≤ 2 and ≤ 4: 1.5 ± 2·0.5.
        QVERIFY2(md.contains("| A | 2 | 3 | 7.5 ± 3 | 5 (1/2) | 1.5 ± 1 | 1.5 ± 1 | 2 |"), qPrintable(md));
        QVERIFY2(md.contains("| B, fixed | 1 | 2 | 3 | — (0/1) | — (0/1) | 3 | — |"), qPrintable(md));
        QVERIFY(md.contains("D = 4, minimized, optimum 0.4, 2 effective parameters"));
    }

    void csvRoundTrip() {
        const std::vector<BenchRow> rows = fixture();
        QCOMPARE(rows.size(), std::size_t{8});
        QCOMPARE(rows[6].strategy, std::string("B, fixed"));  // a quoted label with a comma
        QVERIFY(!rows[5].objective);
        QCOMPARE(rows[5].status, std::string("failed"));
        QCOMPARE(rows[0].active_parameters, (std::vector<int>{0, 1, 2, 3}));
        const std::vector<BenchRow> again = parse_bench_results(format_bench_results(rows), "again");
        QCOMPARE(format_bench_results(again), format_bench_results(rows));
    }

    void csvErrorsNameLineColumnAndValue() {
        const std::string good = "branin,4,1,0.4,0;1,20,A,1,0,sobol,completed,10,4,0;1;2;3,1,10,0,0.5,0.5\n";
        QVERIFY(error_of(std::string(kHeader) + good).isEmpty());
        auto with = [&](const std::string& row) { return error_of(std::string(kHeader) + good + row); };
        QString e = with("branin,4,1,0.4,0;1,20,A,1,1,sobol,completed,abc,4,0;1,1,10,0,0.5,0.5\n");
        QVERIFY2(e.contains("line 3") && e.contains("column objective") && e.contains("'abc'"), qPrintable(e));
        e = with("branin,4,1,0.4,0;1,20,A,1,1,sobol,completed,3,4,0;7,1,10,0,0.5,0.5\n");
        QVERIFY2(e.contains("column active_parameters") && e.contains("'7'"), qPrintable(e));
        e = with("branin,4,2,0.4,0;1,20,A,1,1,sobol,completed,3,4,0,1,10,0,0.5,0.5\n");
        QVERIFY2(e.contains("column minimize") && e.contains("'2'"), qPrintable(e));
        e = with("branin,4,1,0.4,0;1,20,A,1,1,sobol,done,3,4,0,1,10,0,0.5,0.5\n");
        QVERIFY2(e.contains("column status") && e.contains("'done'"), qPrintable(e));
        e = with("branin,4,1,0.4,0;1,20,A,1,1,sobol,completed,,4,0,1,10,0,0.5,0.5\n");
        QVERIFY2(e.contains("column objective") && e.contains("needs an objective"), qPrintable(e));
        e = with("branin,4,1,0.4,0;1,20,A,1,1,sobol,excluded,,4,0,1,10,0,0.5,0.5\n");
        QVERIFY2(e.contains("column objective") && e.contains("needs an objective"), qPrintable(e));
        e = error_of("problem,dimension\nbranin,4\n");
        QVERIFY2(e.contains("'minimize' is missing"), qPrintable(e));
    }

    void inconsistentRowsAreRefused() {
        std::vector<BenchRow> rows = fixture();
        rows[3].dimension = 5;
        rows[3].active_parameters = {1};
        try {
            summarize_bench(rows);
            QFAIL("a second dimension for one problem was accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("dimension 5"), e.what());
        }
        rows = fixture();
        rows[2].trial = 1;  // seed 1 now has trial 1 twice
        try {
            summarize_bench(rows);
            QFAIL("a repeated trial was accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("A / seed 1") && QString(e.what()).contains("trial 1 appears twice"), e.what());
        }
    }

    void rowsOfAnExperiment() {
        ProblemSpec spec;
        spec.name = "branin";
        spec.dimension = 4;
        Experiment e = make_problem_experiment(spec, MethodSettings{}, 3);
        auto add = [&](std::vector<double> unit, TrialStatus status, std::optional<double> objective, double gen) {
            Trial t;
            t.index = e.next_trial_index();
            for (std::size_t d = 0; d < unit.size(); ++d) t.parameters.push_back(e.space.from_unit(static_cast<int>(d), unit[d]));
            t.status = status;
            if (objective) t.values = {{"branin", {*objective, std::nullopt}}};
            t.generator = t.index == 0 ? "sobol" : "sebo-l0";
            t.generation_seconds = gen;
            t.evaluation_seconds = 0.25;
            e.trials.push_back(t);
        };
        add({0.5, 0.5, 0.5, 0.5}, TrialStatus::Completed, 20.0, 0.0);
        add({0.5, 0.0, 0.0, 0.0}, TrialStatus::Completed, 30.0, 1.0);
        add({0.5, 0.5, 0.0, 0.0}, TrialStatus::Pending, std::nullopt, 0.0);
        add({0.2, 0.7, 0.0, 0.0}, TrialStatus::Completed, 4.0, 2.0);
        const std::vector<BenchRow> rows = bench_rows(e, BenchRunInfo{"b4", "sebo-l0", 3, 0.397887, {0, 1}});
        QCOMPARE(rows.size(), std::size_t{3});  // the pending trial is left out
        QCOMPARE(rows[2].trial, 2);
        QCOMPARE(rows[1].active, 1);
        QCOMPARE(rows[1].active_parameters, std::vector<int>{0});
        QCOMPARE(rows[2].active_parameters, (std::vector<int>{0, 1}));
        QCOMPARE(*rows[1].best_objective, 20.0);
        QCOMPARE(*rows[2].best_objective, 4.0);
        SEBO_COMPARE_NEAR(rows[2].elapsed_seconds, 0.0 + 1.0 + 2.0 + 3 * 0.25, 1e-12);
        const FrontierReport report = analyze_frontier(e);
        QCOMPARE(rows[2].hypervolume, report.hypervolume);
        QCOMPARE(rows[0].hypervolume_reference, e.from_utility(report.reference_utilities.front()));
        QVERIFY(rows[0].minimize);
        QCOMPARE(rows[0].dimension, 4);

        // Excluded from analysis: the row keeps its value with the status "excluded"; the best
        // so far, the hypervolume and the summary leave it out.
        e.trials[3].exclusion = TrialExclusion{"sentinel", ""};
        const std::vector<BenchRow> excluded = bench_rows(e, BenchRunInfo{"b4", "sebo-l0", 3, 0.397887, {0, 1}});
        QCOMPARE(excluded[2].status, std::string("excluded"));
        QCOMPARE(*excluded[2].objective, 4.0);
        QVERIFY(!excluded[2].counts() && excluded[1].counts());
        QCOMPARE(*excluded[2].best_objective, 20.0);
        QCOMPARE(excluded[2].hypervolume, excluded[1].hypervolume);
        const std::vector<BenchRow> parsed = parse_bench_results(format_bench_results(excluded), "results.csv");
        QCOMPARE(parsed[2].status, std::string("excluded"));
        QCOMPARE(*parsed[2].objective, 4.0);
        const auto summary = summarize_bench(parsed);
        QCOMPARE(summary[0].strategies[0].frontier[4].best->mean, 20.0);  // not 4
    }
};

QTEST_GUILESS_MAIN(TestBenchSummary)
#include "test_bench_summary.moc"
