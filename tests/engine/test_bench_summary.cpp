// The arithmetic of `sebo bench` (bench/bench_summary.h, bench/bench_results.h) on a small
// results table whose every aggregate is worked out by hand in the comments: means, standard
// errors, "best with at most k active" with runs that found none, traces by trial position,
// regret, activation on each run's frontier, seconds per iteration, the Markdown table, and the
// round trip and the errors of the CSV format. Then several objectives and an outcome
// constraint (kOutcomesCsv below, every aggregate worked out by hand there too), and the rows of
// an experiment with two objectives and a constraint.
//
// tests/fixtures/bench/summary-small.csv (minimized, optimum 0.4, D = 4, effective x0, x1):
//   A seed 1: t0 sobol 10 (4 active: 0-3) hv 1 | t1 2 (0;1) hv 5, 1 s | t2 5 (0) hv 6, 3 s
//   A seed 2: t0 sobol 8 (3: 0;1;2) hv 2 | t1 failed (0;2) hv 2, 2 s | t2 1 (1;2) hv 9, 2 s
//             (rows deliberately out of trial order)
//   "B, fixed" seed 1: t0 sobol 3 (4) hv 3 | t1 sobol 4 (4) hv 3

#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

#include "bench/bench_results.h"
#include "bench/bench_summary.h"
#include "core/input_error.h"
#include "experiment/analytics.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_bench_summary {

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

// Two objectives f, g (both minimized, reference (18, 6)), the constraint c <= 1, D = 4,
// effective x0, x1 (levels 1, 2, 4). One strategy "S", two seeds; per trial (f, g), active set,
// feasible, and the hypervolume over (−f, −g, −active) against (−18, −6, −4):
//   seed 1: t0 sobol (10, 4) 0-3 yes hv 0 (4 active = the reference) | t1 (12, 5) x0 yes hv
//           6·1·3 = 18 | t2 (8, 3) x0,x1 yes hv 1·6 + 2·30 = 66 | t3 failed | t4 (10, 1) x1 NO hv
//           66 | t5 (15, 2) x2 yes: at 1 active {t1, t5} = 6 + 12 − 3 = 15, at 2–3 {t2, t5} =
//           30 + 12 − 9 = 33, hv 15 + 2·33 = 81
//   seed 2: t0 sobol (16, 5) x0,x1 yes hv 2·1·2 = 4 | t1 (9, 1) x0 NO hv 4 | t2 (4, 4) x0-x2 yes:
//           2·1 + 1·28 = 30
// Model-based trials took 1 s each to propose.
// tests/fixtures/bench/outcomes-results.csv (ui/test_bench_plots draws it too): "bc", D = 4,
// objectives f and g minimized (reference (18, 6)), constraint c <= 1, effective x0 and x1,
// strategy "S". Per trial (f, g), its active parameters and whether it is feasible:
//   seed 1: t0 sobol (10, 4) x0-x3 | t1 (12, 5) x0 | t2 (8, 3) x0 x1 | t3 failed
//           | t4 (10, 1) x1, infeasible | t5 (15, 2) x2
//   seed 2: t0 sobol (16, 5) x0 x1 | t1 (9, 1) x0, infeasible | t2 (4, 4) x0 x1 x2
std::string outcomes_csv() {
    std::ifstream in(test::source_path("tests/fixtures/bench/outcomes-results.csv"), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}
const std::string kOutcomesCsv = outcomes_csv();

std::vector<BenchRow> outcomes_rows() { return parse_bench_results(kOutcomesCsv, "outcomes.csv"); }

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

    // Labels that a spreadsheet would run as formulas are written with a leading apostrophe
    // (io/csv_cell.h) and read back without it; numbers (a negative objective) stay numbers.
    void csvGuardsFormulas() {
        std::vector<BenchRow> rows = fixture();
        for (BenchRow& r : rows) {
            r.problem = "=HYPERLINK(\"http://x.invalid\",\"open\")";
            r.objectives.front().metric = "-loss";
        }
        rows[0].strategy = "@SUM(1)";
        rows[0].generator = "+gen";
        rows[0].objective = -2.5;
        rows[0].objective_values = {-2.5};
        const std::string text = format_bench_results(rows);
        std::istringstream lines(text);
        std::string header, first;
        std::getline(lines, header);
        std::getline(lines, first);
        QCOMPARE(QString::fromStdString(first),
                 QString("\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"open\"\")\",4,1,0.4,0;1,20,'@SUM(1),1,0,'+gen,completed,"
                         "-2.5,4,0;1;2;3,1,10,0,0.5,0.5,'-loss:min,20,,-2.5,1,,"));
        const std::vector<BenchRow> again = parse_bench_results(text, "again");
        QCOMPARE(again[0].problem, rows[0].problem);
        QCOMPARE(again[0].strategy, std::string("@SUM(1)"));
        QCOMPARE(again[0].generator, std::string("+gen"));
        QCOMPARE(again[0].objectives.front().metric, std::string("-loss"));
        QCOMPARE(*again[0].objective, -2.5);
        QCOMPARE(format_bench_results(again), text);
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

    void oldResultsLoadAsOneObjective() {
        // The fixture has the 19 columns of the first version: one objective, feasible rows.
        const std::vector<BenchRow> rows = fixture();
        QCOMPARE(rows[0].objectives.size(), std::size_t{1});
        QCOMPARE(rows[0].objectives[0].metric, std::string("objective"));
        QVERIFY(rows[0].objectives[0].minimize);
        QCOMPARE(rows[0].objectives[0].reference, rows[0].hypervolume_reference);
        QCOMPARE(rows[0].objective_values, std::vector<double>{*rows[0].objective});
        QVERIFY(rows[5].objective_values.empty());  // failed
        QVERIFY(rows[0].constraints.empty());
        for (const BenchRow& r : rows) QVERIFY(r.feasible);
        // Written again, they carry the new columns, and read back the same.
        const std::string text = format_bench_results(rows);
        QVERIFY(text.substr(0, text.find('\n'))
                    .ends_with(",objectives,hypervolume_references,constraints,objective_values,feasible,noise_free,"
                               "noise_free_values"));
        for (const BenchRow& r : rows) QVERIFY(r.noise_free_values.empty());
        QCOMPARE(format_bench_results(parse_bench_results(text, "again")), text);
        // Their summary is unchanged: no feasibility column, no new explanations.
        const std::string md = summary_markdown(summarize_bench(rows));
        QVERIFY(md.find("feasible") == std::string::npos && md.find("HV, ≤") == std::string::npos);
    }

    void severalObjectivesAndAConstraint() {
        const auto problems = summarize_bench(outcomes_rows());
        QCOMPARE(problems.size(), std::size_t{1});
        const ProblemSummary& p = problems[0];
        QCOMPARE(p.objectives.size(), std::size_t{2});
        QCOMPARE(p.objectives[1].metric, std::string("g"));
        QCOMPARE(p.objectives[1].reference, 6.0);
        QCOMPARE(p.constraints, std::vector<std::string>{"c <= 1"});
        QCOMPARE(p.levels, (std::vector<int>{1, 2, 4}));
        const StrategySummary& s = p.strategies[0];
        QCOMPARE(s.runs, 2);
        QCOMPARE(s.trials, 6);

        // Final hypervolume (objectives + sparsity): 81 and 30 → 55.5 ± 25.5.
        SEBO_COMPARE_NEAR(s.final_hypervolume.mean, 55.5, 1e-12);
        SEBO_COMPARE_NEAR(s.final_hypervolume.se, 25.5, 1e-12);

        // Feasibility: seed 1 4 of 5 counted trials (the failed one does not count), seed 2 2 of 3.
        QCOMPARE(s.feasibility_rate.n, 2);
        SEBO_COMPARE_NEAR(s.feasibility_rate.mean, (0.8 + 2.0 / 3.0) / 2.0, 1e-15);
        SEBO_COMPARE_NEAR(s.feasibility_rate.se, (0.8 - 2.0 / 3.0) / 2.0, 1e-15);

        // Best feasible f with at most k active. k = 1: seed 1 min(12, 15) = 12 (t4's 10 is
        // infeasible); seed 2 none (its only 1-active trial, 9, is infeasible).
        QCOMPARE(s.frontier[1].found, 1);
        QCOMPARE(s.frontier[1].best->mean, 12.0);
        // k = 2: 8 and 16 → 12 ± 4; k = 3, 4: 8 and 4 → 6 ± 2.
        QCOMPARE(s.frontier[2].found, 2);
        SEBO_COMPARE_NEAR(s.frontier[2].best->mean, 12.0, 1e-12);
        SEBO_COMPARE_NEAR(s.frontier[2].best->se, 4.0, 1e-12);
        SEBO_COMPARE_NEAR(s.frontier[4].best->mean, 6.0, 1e-12);
        SEBO_COMPARE_NEAR(s.frontier[4].best->se, 2.0, 1e-12);

        // The objectives' hypervolume of the feasible trials with at most k active, against
        // (18, 6): k = 1: seed 1 {t1, t5} = 15, seed 2 none = 0; k = 2: 33 and {t0} = 2·1 = 2;
        // k = 4: 33 (t0's box lies inside t2's) and {t0, t2} = 28 (t0's inside t2's = 14·2).
        QCOMPARE(s.objectives_hypervolume.size(), std::size_t{3});
        const double means[] = {7.5, 17.5, 30.5}, ses[] = {7.5, 15.5, 2.5};
        for (int l = 0; l < 3; ++l) {
            QCOMPARE(s.objectives_hypervolume[l].n, 2);
            SEBO_COMPARE_NEAR(s.objectives_hypervolume[l].mean, means[l], 1e-12);
            SEBO_COMPARE_NEAR(s.objectives_hypervolume[l].se, ses[l], 1e-12);
        }

        // The same for every k = 0..4 (the frontier plot): nothing feasible without changes.
        QCOMPARE(s.objectives_hypervolume_by_k.size(), std::size_t{5});
        const double by_k[] = {0.0, 7.5, 17.5, 30.5, 30.5};
        for (int k = 0; k <= 4; ++k) SEBO_COMPARE_NEAR(s.objectives_hypervolume_by_k[k].mean, by_k[k], 1e-12);

        // The fronts kept at 2 active (the effective parameters) and at any number (4). Seed 1:
        // t2 (8, 3) dominates t1 (12, 5) and t0 (10, 4); t5 (15, 2) stays; t4 is infeasible.
        // Seed 2: (16, 5) alone at 2 active; with 3, t2 (4, 4) dominates it.
        QCOMPARE(p.front_levels, (std::vector<int>{2, 4}));
        QCOMPARE(s.fronts.size(), std::size_t{2});
        using Front = std::vector<std::vector<double>>;
        QCOMPARE(s.fronts[0][0].seed, 1);
        QCOMPARE(s.fronts[0][0].points, (Front{{8, 3}, {15, 2}}));
        QCOMPARE(s.fronts[0][1].seed, 2);
        QCOMPARE(s.fronts[0][1].points, (Front{{16, 5}}));
        QCOMPARE(s.fronts[1][0].points, (Front{{8, 3}, {15, 2}}));
        QCOMPARE(s.fronts[1][1].points, (Front{{4, 4}}));

        // Activation on each run's feasible non-dominated set in (f, g, active): seed 1 {t1: x0,
        // t2: x0 x1, t5: x2} (t0 is dominated by t2; t4 is infeasible), seed 2 {t0: x0 x1, t2:
        // x0 x1 x2}. Means: x0 (2/3 + 1)/2, x1 (1/3 + 1)/2, x2 (1/3 + 1/2)/2, x3 0.
        SEBO_COMPARE_NEAR(s.activation_frequency[0], 5.0 / 6.0, 1e-15);
        SEBO_COMPARE_NEAR(s.activation_frequency[1], 2.0 / 3.0, 1e-15);
        SEBO_COMPARE_NEAR(s.activation_frequency[2], 5.0 / 12.0, 1e-15);
        SEBO_COMPARE_NEAR(s.activation_frequency[3], 0.0, 1e-15);
        SEBO_COMPARE_NEAR(*s.seconds_per_iteration, 1.0, 1e-15);

        const QString md = QString::fromStdString(summary_markdown(problems));
        QVERIFY2(md.contains("D = 4, objectives f (min), g (min), reference (18, 6), 2 effective parameters; subject to "
                             "c <= 1."),
                 qPrintable(md));
        QVERIFY2(md.contains("| strategy | runs | trials | final hypervolume | HV, ≤ 1 active | HV, ≤ 2 active | "
                             "HV, ≤ 4 active | feasible | s / iteration |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"),
                 qPrintable(md));
        QVERIFY2(md.contains("| S | 2 | 6 | 55.5 ± 51 | 7.5 ± 15 | 17.5 ± 31 | 30.5 ± 5 | 73.3% ± 13 | 1 |"), qPrintable(md));
        QVERIFY(md.contains("only the feasible trials") && md.contains("HV, ≤ k active"));

        // One objective with the constraint: the best feasible per level and the feasibility.
        std::vector<BenchRow> one = outcomes_rows();
        for (BenchRow& r : one) {
            r.objectives.resize(1);
            if (!r.objective_values.empty()) r.objective_values.resize(1);
        }
        const std::vector<ProblemSummary> one_summary = summarize_bench(one);
        QVERIFY(one_summary[0].front_levels.empty() && one_summary[0].strategies[0].fronts.empty() &&
                one_summary[0].strategies[0].objectives_hypervolume_by_k.empty());
        const QString md1 = QString::fromStdString(summary_markdown(one_summary));
        QVERIFY2(md1.contains("D = 4, minimized, 2 effective parameters; subject to c <= 1."), qPrintable(md1));
        QVERIFY2(md1.contains("| S | 2 | 6 | 55.5 ± 51 | 12 (1/2) | 12 ± 8 | 6 ± 4 | 73.3% ± 13 | 1 |"), qPrintable(md1));
        QVERIFY(!md1.contains("HV, ≤"));
    }

    void outcomesColumnsRoundTripAndErrors() {
        const std::vector<BenchRow> rows = outcomes_rows();
        QCOMPARE(rows.size(), std::size_t{9});
        QCOMPARE(rows[4].objective_values, (std::vector<double>{10.0, 1.0}));
        QVERIFY(!rows[4].feasible && !rows[4].counts_feasible() && rows[4].counts());
        QVERIFY(rows[3].objective_values.empty() && !rows[3].counts_feasible());
        QCOMPARE(format_bench_results(parse_bench_results(format_bench_results(rows), "again")), format_bench_results(rows));
        // The same text, column for column, with the two noise-free columns (empty) added: the
        // fixture was written before them.
        std::string expected;
        std::istringstream lines(kOutcomesCsv);
        for (std::string line; std::getline(lines, line);)
            expected += line + (expected.empty() ? ",noise_free,noise_free_values\n" : ",,\n");
        QCOMPARE(format_bench_results(rows), expected);

        const std::string text = kOutcomesCsv;
        const std::string header = text.substr(0, text.find('\n') + 1);
        const std::string good = "bc,4,1,,0;1,18,S,1,0,sobol,completed,10,4,0;1;2;3,0,10,0,0,0,f:min;g:min,18;6,c <= 1,10;4,1\n";
        QVERIFY(error_of(header + good).isEmpty());
        auto replaced = [&](const std::string& from, const std::string& to) {
            std::string row = good;
            row.replace(row.find(from), from.size(), to);
            return error_of(header + row);
        };
        QString e = replaced("f:min;g:min", "f:min;g:least");
        QVERIFY2(e.contains("line 2") && e.contains("column objectives") && e.contains("'g:least'"), qPrintable(e));
        e = replaced("f:min;g:min", "f:max;g:min");
        QVERIFY2(e.contains("column objectives") && e.contains("minimize"), qPrintable(e));
        e = replaced(",18;6,", ",18,");
        QVERIFY2(e.contains("column hypervolume_references") && e.contains("1 references for 2 objectives"), qPrintable(e));
        e = replaced(",18;6,", ",18;six,");
        QVERIFY2(e.contains("column hypervolume_references") && e.contains("'six'"), qPrintable(e));
        e = replaced(",10;4,", ",10,");
        QVERIFY2(e.contains("column objective_values"), qPrintable(e));
        e = replaced(",10;4,", ",11;4,");
        QVERIFY2(e.contains("column objective_values"), qPrintable(e));
        e = replaced("10;4,1\n", "10;4,yes\n");
        QVERIFY2(e.contains("column feasible") && e.contains("'yes'"), qPrintable(e));
        // Only some of the five columns.
        e = error_of("problem,dimension,minimize,optimum,effective_parameters,hypervolume_reference,strategy,seed,trial,"
                     "generator,status,objective,active,active_parameters,hypervolume,best_objective,generation_seconds,"
                     "evaluation_seconds,elapsed_seconds,objectives\n");
        QVERIFY2(e.contains("'hypervolume_references' is missing"), qPrintable(e));
        // Rows of one problem that disagree on its constraints or objectives.
        std::vector<BenchRow> mixed = outcomes_rows();
        mixed[2].constraints = {"c <= 2"};
        try {
            summarize_bench(mixed);
            QFAIL("two sets of constraints for one problem were accepted");
        } catch (const InputError& error) {
            QVERIFY2(QString(error.what()).contains("constraints c <= 2"), error.what());
        }
    }

    void rowsOfATwoObjectiveConstrainedExperiment() {
        // Branin–Currin in 4 dimensions (thresholds 18 and 6) with a constraint c <= 1 on a third
        // metric; the recorded values are those of kOutcomesCsv's seed 1, so the hypervolume
        // after each trial is 0, 18, 66, 66 (failed), 66 (infeasible), 81.
        ProblemSpec spec;
        spec.name = "branin-currin";
        spec.dimension = 4;
        Experiment e = make_problem_experiment(spec, MethodSettings{}, 1);
        e.outcomes.metrics.push_back("c");
        e.outcomes.constraints.push_back(OutcomeConstraint{"c", ConstraintSense::AtMost, 1.0});
        QVERIFY(!e.outcomes.validate());
        auto add = [&](std::vector<double> x, std::optional<std::array<double, 3>> values) {
            Trial t;
            t.index = e.next_trial_index();
            t.parameters = std::move(x);
            t.status = values ? TrialStatus::Completed : TrialStatus::Failed;
            if (values) t.values = {{"branin", {(*values)[0], std::nullopt}}, {"currin", {(*values)[1], std::nullopt}},
                                    {"c", {(*values)[2], std::nullopt}}};
            t.generator = t.index == 0 ? "sobol" : "sebo-l0";
            e.trials.push_back(t);
        };
        add({0.5, 0.5, 0.5, 0.5}, std::array<double, 3>{10, 4, 0});
        add({0.5, 0, 0, 0}, std::array<double, 3>{12, 5, 0});
        add({0.5, 0.5, 0, 0}, std::array<double, 3>{8, 3, 0});
        add({0, 0, 0, 0.5}, std::nullopt);
        add({0, 0.5, 0, 0}, std::array<double, 3>{10, 1, 2});
        add({0, 0, 0.5, 0}, std::array<double, 3>{15, 2, 1});
        const std::vector<BenchRow> rows = bench_rows(e, BenchRunInfo{"bc", "S", 1, std::nullopt, {0, 1}});
        QCOMPARE(rows.size(), std::size_t{6});
        const double volumes[] = {0, 18, 66, 66, 66, 81};
        for (std::size_t i = 0; i < 6; ++i) SEBO_COMPARE_NEAR(rows[i].hypervolume, volumes[i], 1e-12);
        QCOMPARE(rows[0].objectives, (std::vector<BenchObjective>{{"branin", true, 18.0}, {"currin", true, 6.0}}));
        QCOMPARE(rows[0].hypervolume_reference, 18.0);
        QCOMPARE(rows[0].constraints, std::vector<std::string>{"c <= 1"});
        QCOMPARE(rows[4].objective_values, (std::vector<double>{10.0, 1.0}));
        QVERIFY(!rows[4].feasible && rows[5].feasible && rows[0].feasible);  // c = 1 is on the bound
        QVERIFY(rows[3].objective_values.empty());
        // Best feasible first objective so far: 10, 10, 8, 8, 8 (not t4's infeasible 10), 8.
        QCOMPARE(*rows[4].best_objective, 8.0);
        // The same text as the hand-made table's seed 1, but for the labels, the metric names and
        // the seconds.
        const auto summary = summarize_bench(rows);
        SEBO_COMPARE_NEAR(summary[0].strategies[0].objectives_hypervolume[0].mean, 15.0, 1e-12);
        SEBO_COMPARE_NEAR(summary[0].strategies[0].feasibility_rate.mean, 0.8, 1e-15);
    }
};

SEBO_TEST_MAIN(TestBenchSummary)
}  // namespace test_bench_summary
#include "test_bench_summary.moc"
