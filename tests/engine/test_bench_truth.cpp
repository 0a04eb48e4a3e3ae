// What a user gets (bench/bench_truth.h) and the noise-free columns of results.csv
// (bench/bench_results.h): a hand-made comparison whose every aggregate is worked out below, the
// Markdown it makes, the round trip of the new columns, older files without them, and their errors.
//
// Problem "h" (minimized, D = 4, optimum −3, effective x0, x1: levels 1, 2, 4). Per trial:
// generator, measured objective, noise-free value, active count.
//   sobol seed 1: t0 status-quo 0.1 / 0 / 0 | t1 sobol −1 / −0.5 / 4 | t2 sobol −2 / −1 / 4 | t3 sobol −1.5 / −2 / 4
//   sobol seed 2: t0 status-quo 0.05 / 0 / 0 | t1 sobol −0.8 / −0.6 / 4 | t2 sobol −0.2 / −0.4 / 4 | t3 sobol −1 / −1.2 / 4
//   S seed 1:     t0 status-quo 0.1 / 0 / 0 | t1 sobol −1 / −0.5 / 4 | t2 S −2.5 / −1.5 / 1 | t3 S −1 / −2.5 / 2
//   S seed 2:     t0 status-quo −0.1 / 0 / 0 | t1 sobol −0.7 / −0.7 / 4 | t2 S failed | t3 S −0.3 / −0.1 / 1
// The initial design: S's runs start with 2 Sobol/status-quo trials → 2.
// Search (mean noise-free value of the model-based trials; Sobol: its trials from position 2):
//   sobol: seed 1 (−1 − 2)/2 = −1.5, seed 2 (−0.4 − 1.2)/2 = −0.8 → −1.15, se 0.35, worst −0.8
//   S:     seed 1 (−1.5 − 2.5)/2 = −2, seed 2 −0.1 (the failed trial has none) → −1.05, se 0.95,
//          worst −0.1; worse than Sobol's in seed 2 only.
// Best evaluated with at most k changes:
//   sobol: k = 1, 2: 0 and 0 → 0; k = 4: −2 and −1.2 → −1.6, se 0.4
//   S:     k = 1: −1.5, −0.1 → −0.8, se 0.7; k = 2: −2.5, −0.1 → −1.3, se 1.2; k = 4: −2.5, −0.7 → −1.6, se 0.9
// Recommendations (hand-made, as recommendations.csv would hold them):
//   sobol seed 1: k 1, 2 → t0 (0), k 4 → t2 (−1); seed 2: k 1, 2 → t0 (0), k 4 → t3 (−1.2)
//   S seed 1: k 1 → t2 (−1.5); k 2 → t3 (−2.5), then t2 (−1.5) second; k 4 → t3 (−2.5)
//   S seed 2: k 1 → t3 (−0.1); k 2 → t3 without a noise-free value; k 4 → t1 (−0.7)
// Recommended:
//   sobol: k 1, 2 → 0; k 4 → −1.1, se 0.1
//   S: k 1 → −0.8, se 0.7; k 2 → −2.5 found by 1 of 2; k 4 → −1.6, se 0.9

#include <cmath>
#include <sstream>

#include "bench/bench_results.h"
#include "bench/bench_summary.h"
#include "bench/bench_truth.h"
#include "core/input_error.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_bench_truth {

using namespace sebo;

namespace {

BenchRow row(const std::string& problem, const std::string& strategy, int seed, int trial, const std::string& generator,
             std::optional<double> objective, std::optional<double> noise_free, int active) {
    BenchRow r;
    r.problem = problem;
    r.dimension = 4;
    r.minimize = true;
    r.optimum = -3.0;
    r.effective_parameters = {0, 1};
    r.hypervolume_reference = 0.0;
    r.strategy = strategy;
    r.seed = seed;
    r.trial = trial;
    r.generator = generator;
    r.status = objective ? "completed" : "failed";
    r.objective = objective;
    r.active = active;
    for (int d = 0; d < active; ++d) r.active_parameters.push_back(d);
    r.objectives = {BenchObjective{"h", true, 0.0}};
    if (objective) r.objective_values = {*objective};
    if (noise_free) r.noise_free_values = {*noise_free};
    return r;
}

std::vector<BenchRow> rows() {
    return {
        row("h", "sobol", 1, 0, "status-quo", 0.1, 0.0, 0),   row("h", "sobol", 1, 1, "sobol", -1.0, -0.5, 4),
        row("h", "sobol", 1, 2, "sobol", -2.0, -1.0, 4),      row("h", "sobol", 1, 3, "sobol", -1.5, -2.0, 4),
        row("h", "sobol", 2, 0, "status-quo", 0.05, 0.0, 0),  row("h", "sobol", 2, 1, "sobol", -0.8, -0.6, 4),
        row("h", "sobol", 2, 2, "sobol", -0.2, -0.4, 4),      row("h", "sobol", 2, 3, "sobol", -1.0, -1.2, 4),
        row("h", "S", 1, 0, "status-quo", 0.1, 0.0, 0),       row("h", "S", 1, 1, "sobol", -1.0, -0.5, 4),
        row("h", "S", 1, 2, "S", -2.5, -1.5, 1),              row("h", "S", 1, 3, "S", -1.0, -2.5, 2),
        row("h", "S", 2, 0, "status-quo", -0.1, 0.0, 0),      row("h", "S", 2, 1, "sobol", -0.7, -0.7, 4),
        row("h", "S", 2, 2, "S", std::nullopt, std::nullopt, 2), row("h", "S", 2, 3, "S", -0.3, -0.1, 1),
        // A problem measured without noise: no section of its own.
        row("quiet", "S", 1, 0, "sobol", 2.0, std::nullopt, 4), row("quiet", "S", 1, 1, "S", 1.0, std::nullopt, 1),
    };
}

BenchRecommendation pick(const std::string& strategy, int seed, int k, int trial, std::vector<double> noise_free) {
    BenchRecommendation r;
    r.problem = "h";
    r.strategy = strategy;
    r.seed = seed;
    r.trials = 4;
    r.k = k;
    r.trial = trial;
    r.mean = {0.0};
    r.lower = {-1.0};
    r.upper = {1.0};
    r.noise_free = std::move(noise_free);
    return r;
}

std::vector<BenchRecommendation> recommendations() {
    std::vector<BenchRecommendation> out = {
        pick("sobol", 1, 1, 0, {0.0}),   pick("sobol", 1, 2, 0, {0.0}),  pick("sobol", 1, 4, 2, {-1.0}),
        pick("sobol", 2, 1, 0, {0.0}),   pick("sobol", 2, 2, 0, {0.0}),  pick("sobol", 2, 4, 3, {-1.2}),
        pick("S", 1, 1, 2, {-1.5}),      pick("S", 1, 2, 3, {-2.5}),     pick("S", 1, 2, 2, {-1.5}),
        pick("S", 1, 4, 3, {-2.5}),      pick("S", 2, 1, 3, {-0.1}),     pick("S", 2, 2, 3, {}),
        pick("S", 2, 4, 1, {-0.7}),
    };
    BenchRecommendation other = pick("S", 1, 1, 1, {-9.0});  // another problem's: ignored
    other.problem = "quiet";
    out.push_back(other);
    return out;
}

std::vector<ProblemTruth> truth() {
    const std::vector<BenchRow> all = rows();
    return summarize_truth(summarize_bench(all), all, recommendations());
}

void compare_mean_se(const std::optional<MeanSe>& actual, double mean, double se, int n) {
    QVERIFY(actual);
    SEBO_COMPARE_NEAR(actual->mean, mean, 1e-12);
    SEBO_COMPARE_NEAR(actual->se, se, 1e-12);
    QCOMPARE(actual->n, n);
}

QString error_of(const std::string& text) {
    try {
        parse_bench_results(text, "results.csv");
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestBenchTruth : public QObject {
    Q_OBJECT
private slots:
    void onlyNoisyProblems() {
        const std::vector<ProblemTruth> problems = truth();
        QCOMPARE(problems.size(), std::size_t{1});
        const ProblemTruth& p = problems[0];
        QCOMPARE(p.problem, std::string("h"));
        QVERIFY(p.minimize);
        QCOMPARE(p.levels, (std::vector<int>{1, 2, 4}));
        QCOMPARE(p.initial_design, 2);
        QCOMPARE(p.seeds, (std::vector<int>{1, 2}));
        QCOMPARE(p.strategies.size(), std::size_t{2});
        QCOMPARE(p.strategies[0].strategy, std::string("sobol"));
        QCOMPARE(p.strategies[1].strategy, std::string("S"));
        QCOMPARE(p.strategies[1].runs, 2);
    }

    void searchTrials() {
        const ProblemTruth p = truth()[0];
        const StrategyTruth& sobol = p.strategies[0];
        SEBO_COMPARE_NEAR(sobol.search_by_seed.at(1), -1.5, 1e-15);
        SEBO_COMPARE_NEAR(sobol.search_by_seed.at(2), -0.8, 1e-15);
        compare_mean_se(sobol.search, -1.15, 0.35, 2);
        SEBO_COMPARE_NEAR(*sobol.search_worst, -0.8, 1e-15);
        const StrategyTruth& s = p.strategies[1];
        SEBO_COMPARE_NEAR(s.search_by_seed.at(1), -2.0, 1e-15);
        SEBO_COMPARE_NEAR(s.search_by_seed.at(2), -0.1, 1e-15);
        compare_mean_se(s.search, -1.05, 0.95, 2);
        SEBO_COMPARE_NEAR(*s.search_worst, -0.1, 1e-15);  // minimized: the largest is the worst
    }

    void recommendedAndBestEvaluated() {
        const ProblemTruth p = truth()[0];
        const StrategyTruth& sobol = p.strategies[0];
        QCOMPARE(sobol.levels.size(), std::size_t{3});
        for (int l : {0, 1}) {
            compare_mean_se(sobol.levels[l].recommended, 0.0, 0.0, 2);
            compare_mean_se(sobol.levels[l].best_evaluated, 0.0, 0.0, 2);
        }
        compare_mean_se(sobol.levels[2].recommended, -1.1, 0.1, 2);
        compare_mean_se(sobol.levels[2].best_evaluated, -1.6, 0.4, 2);

        const StrategyTruth& s = p.strategies[1];
        QCOMPARE(s.levels[0].k, 1);
        compare_mean_se(s.levels[0].recommended, -0.8, 0.7, 2);
        compare_mean_se(s.levels[0].best_evaluated, -0.8, 0.7, 2);
        // k = 2: the first recommendation of seed 1 (not the second), none with a value in seed 2.
        compare_mean_se(s.levels[1].recommended, -2.5, 0.0, 1);
        QCOMPARE(s.levels[1].recommended_found, 1);
        compare_mean_se(s.levels[1].best_evaluated, -1.3, 1.2, 2);
        QCOMPARE(s.levels[1].evaluated_found, 2);
        compare_mean_se(s.levels[2].recommended, -1.6, 0.9, 2);
        compare_mean_se(s.levels[2].best_evaluated, -1.6, 0.9, 2);
    }

    void maximizedProblemsTakeTheLargest() {
        // The same rows maximized: the best evaluated is the largest and the worst seed the smallest.
        std::vector<BenchRow> all = rows();
        for (BenchRow& r : all) {
            r.minimize = false;
            r.objectives.front().minimize = false;
        }
        const std::vector<ProblemTruth> problems = summarize_truth(summarize_bench(all), all, recommendations());
        const StrategyTruth& s = problems[0].strategies[1];
        // k = 4: max(0, −0.5, −1.5, −2.5) = 0 and max(0, −0.7, −0.1) = 0.
        compare_mean_se(s.levels[2].best_evaluated, 0.0, 0.0, 2);
        SEBO_COMPARE_NEAR(*s.search_worst, -2.0, 1e-15);
    }

    void markdown() {
        const QString md = QString::fromStdString(truth_markdown(truth()));
        QVERIFY2(md.startsWith("\n## What a user gets (noise-free values)\n"), qPrintable(md));
        QVERIFY2(md.contains("### h\n\nMinimized (lower is better), optimum -3; initial design 2 trials."), qPrintable(md));
        QVERIFY2(!md.contains("### quiet"), qPrintable(md));
        QVERIFY2(md.contains("| strategy | runs | recommended, ≤ 1 | best evaluated, ≤ 1 | recommended, ≤ 2 | best evaluated, ≤ "
                             "2 | recommended, ≤ 4 | best evaluated, ≤ 4 | model-based trials | worst seed |\n"
                             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"),
                 qPrintable(md));
        // Means ± 2 SE (4 significant digits, 2 for the error).
        QVERIFY2(md.contains("| sobol | 2 | 0 ± 0 | 0 ± 0 | 0 ± 0 | 0 ± 0 | -1.1 ± 0.2 | -1.6 ± 0.8 | -1.15 ± 0.7 | -0.8 |\n"),
                 qPrintable(md));
        QVERIFY2(md.contains("| S | 2 | -0.8 ± 1.4 | -0.8 ± 1.4 | -2.5 (1/2) | -1.3 ± 2.4 | -1.6 ± 1.8 | -1.6 ± 1.8 | "
                             "-1.05 ± 1.9 | -0.1 |\n"),
                 qPrintable(md));
        QVERIFY2(md.contains("| strategy | seed 1 | seed 2 | worse than sobol |\n|---|---:|---:|---:|\n"
                             "| sobol | -1.5 | -0.8 | — |\n| S | -2 | -0.1 | 1/2 |\n"),
                 qPrintable(md));
        QCOMPARE(truth_markdown({}), std::string());
    }

    void rowsOfAnExperimentCarryNoiseFreeValues() {
        ProblemSpec spec;
        spec.name = "hartmann6";
        spec.dimension = 7;
        spec.noise = {{"*", 0.1}};
        Experiment e = make_problem_experiment(spec, MethodSettings{}, 2);
        const auto add = [&](double measured, std::map<std::string, double> noise_free, TrialStatus status) {
            Trial t;
            t.index = e.next_trial_index();
            t.parameters.assign(7, 0.5);
            t.status = status;
            if (status == TrialStatus::Completed) t.values = {{"hartmann6", {measured, std::nullopt}}};
            t.noise_free = std::move(noise_free);
            t.generator = "sobol";
            e.trials.push_back(t);
        };
        add(-1.25, {{"hartmann6", -1.5}}, TrialStatus::Completed);
        add(-1.0, {}, TrialStatus::Completed);  // a trial of a file without noise-free values
        add(0.0, {}, TrialStatus::Failed);
        const std::vector<BenchRow> out = bench_rows(e, BenchRunInfo{"h7", "sobol", 2, std::nullopt, {}});
        QCOMPARE(out.size(), std::size_t{3});
        QCOMPARE(out[0].noise_free_values, std::vector<double>{-1.5});
        QCOMPARE(out[0].noise_free(), std::optional<double>(-1.5));
        QCOMPARE(*out[0].objective, -1.25);
        QVERIFY(out[1].noise_free_values.empty() && !out[1].noise_free());
        QVERIFY(out[2].noise_free_values.empty());
        const std::string text = format_bench_results(out);
        std::istringstream lines(text);
        std::string header, first, second;
        std::getline(lines, header);
        std::getline(lines, first);
        std::getline(lines, second);
        QVERIFY(QString::fromStdString(header).endsWith(",feasible,noise_free,noise_free_values"));
        QVERIFY2(QString::fromStdString(first).endsWith(",-1.25,1,-1.5,-1.5"), first.c_str());
        QVERIFY2(QString::fromStdString(second).endsWith(",-1,1,,"), second.c_str());
    }

    void noiseFreeColumnsRoundTrip() {
        std::vector<BenchRow> all = rows();
        // Two objectives on one row: the noise-free values per objective, the first in noise_free.
        for (BenchRow& r : all)
            if (r.problem == "quiet") {
                r.objectives = {BenchObjective{"h", true, 0.0}, BenchObjective{"g", false, 1.0}};
                r.objective_values = {*r.objective, 7.0};
                r.noise_free_values = {0.25, -6.5};
            }
        const std::string text = format_bench_results(all);
        QVERIFY2(text.find(",0.25,0.25;-6.5\n") != std::string::npos, text.c_str());
        const std::vector<BenchRow> again = parse_bench_results(text, "again");
        QCOMPARE(again.size(), all.size());
        for (std::size_t i = 0; i < all.size(); ++i) QCOMPARE(again[i].noise_free_values, all[i].noise_free_values);
        QCOMPARE(format_bench_results(again), text);
    }

    void olderResultsHaveNoNoiseFreeValues() {
        // The issue-13 layout (24 columns) and the first one (19) load without noise-free values.
        for (const char* fixture : {"tests/fixtures/bench/outcomes-results.csv", "tests/fixtures/bench/summary-small.csv"}) {
            const std::vector<BenchRow> old = read_bench_results(test::source_path(fixture));
            QVERIFY(!old.empty());
            for (const BenchRow& r : old) QVERIFY(r.noise_free_values.empty() && !r.noise_free());
            QVERIFY(truth_markdown(summarize_truth(summarize_bench(old), old, {})).empty());
        }
    }

    void noiseFreeErrorsNameTheColumn() {
        const std::string header =
            "problem,dimension,minimize,optimum,effective_parameters,hypervolume_reference,strategy,seed,trial,generator,"
            "status,objective,active,active_parameters,hypervolume,best_objective,generation_seconds,evaluation_seconds,"
            "elapsed_seconds,objectives,hypervolume_references,constraints,objective_values,feasible,noise_free,"
            "noise_free_values\n";
        const std::string good = "h,4,1,,0;1,0,S,1,0,sobol,completed,-1,4,0;1;2;3,0,-1,0,0,0,h:min,0,,-1,1,-0.5,-0.5\n";
        QVERIFY(error_of(header + good).isEmpty());
        const auto replaced = [&](const std::string& from, const std::string& to) {
            std::string row = good;
            row.replace(row.rfind(from), from.size(), to);
            return error_of(header + row);
        };
        QString e = replaced(",-0.5,-0.5\n", ",-0.5,-0.25\n");
        QVERIFY2(e.contains("line 2, column noise_free_values") && e.contains("'-0.25'") && e.contains("noise_free"),
                 qPrintable(e));
        e = replaced(",-0.5,-0.5\n", ",-0.5,-0.5;1\n");
        QVERIFY2(e.contains("column noise_free_values") && e.contains("one value per objective"), qPrintable(e));
        e = replaced(",-0.5,-0.5\n", ",,-0.5\n");
        QVERIFY2(e.contains("column noise_free_values") && e.contains("without a noise_free value"), qPrintable(e));
        e = replaced(",-0.5,-0.5\n", ",abc,abc\n");
        QVERIFY2(e.contains("column noise_free: 'abc'"), qPrintable(e));
        // A failed trial has no noise-free value.
        std::string failed = "h,4,1,,0;1,0,S,1,0,sobol,failed,,4,0;1;2;3,0,,0,0,0,h:min,0,,,,-0.5,-0.5\n";
        e = error_of(header + failed);
        QVERIFY2(e.contains("column noise_free") && e.contains("a failed trial has no noise-free value"), qPrintable(e));
        // One of the two columns only.
        const std::string partial = header.substr(0, header.rfind(",noise_free_values")) + "\n";
        e = error_of(partial + good.substr(0, good.rfind(',')) + "\n");
        QVERIFY2(e.contains("'noise_free_values' is missing (the columns noise_free and noise_free_values go together)"),
                 qPrintable(e));
    }
};

SEBO_TEST_MAIN(TestBenchTruth)
}  // namespace test_bench_truth
#include "test_bench_truth.moc"
