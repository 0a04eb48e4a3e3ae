// The model's recommendations of a benchmark run (bench/bench_recommendations.h): the rows follow
// recommend_configurations level by level with the recommended trial's noise-free value as the
// noisy problem recorded it, recommendations.csv's text, and the cache next to the run file — read
// when the run is unchanged, refitted when it grew or the cache is broken or names other data,
// a failure cached too, and nothing written when the fit is cancelled.
#include <QFileInfo>
#include <QTemporaryDir>
#include <fstream>
#include <stop_token>

#include "bench/bench_recommendations.h"
#include "experiment/runner.h"
#include "experiment/sobol_strategy.h"
#include "io/csv_table.h"
#include "io/experiment_file.h"
#include "io/file_io.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_bench_recommendations {

using namespace sebo;

namespace {

// Hartmann6 in 8 dimensions with noise of sd 0.1, the status quo and `trials` − 1 Sobol trials,
// modelled by SAAS with MAP hyperparameters (fast).
Experiment noisy_run(int trials) {
    ProblemSpec spec;
    spec.name = "hartmann6";
    spec.dimension = 8;
    spec.noise = {{"*", 0.1}};
    MethodSettings method;
    method.strategy = StrategyKind::Sobol;
    method.model = ModelKind::SaasMap;
    method.status_quo_first = true;
    method.initial_trials = 40;
    method.budget = 40;
    Experiment e = make_problem_experiment(spec, method, 4);
    ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
    SobolStrategy sobol;
    if (run_step(e, sobol, &evaluator, {}, trials).status != StepResult::Status::Completed) return {};
    return e;
}

const BenchRunInfo kInfo{"hartmann6/dim=8/noise=0.1", "sobol", 4, -3.32237, {0, 1, 2, 3, 4, 5}};

std::string read(const std::string& path) { return read_text_file(path); }

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

}  // namespace

class TestBenchRecommendations : public QObject {
    Q_OBJECT
private slots:
    void rowsFollowTheReport() {
        const Experiment e = noisy_run(12);
        QCOMPARE(e.trials.size(), std::size_t{12});
        const RecommendationReport report = recommend_configurations(e);
        QCOMPARE(report.status, RecommendationReport::Status::Ok);
        const std::vector<BenchRecommendation> rows = bench_recommendations(e, report, kInfo);
        std::size_t expected = 0;
        for (const auto& level : report.levels) expected += level.recommended.size();
        QCOMPARE(rows.size(), expected);
        QCOMPARE(rows.size(), report.levels.size());  // one objective: one per level
        QCOMPARE(rows.front().k, 0);                    // the status quo was measured
        QCOMPARE(rows.front().trial, 0);
        QVERIFY(rows.front().p_better_than_status_quo.empty());  // it is the status quo
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const BenchRecommendation& r = rows[i];
            const ConfigurationEstimate& c = report.configurations[report.levels[i].recommended.front()];
            QCOMPARE(r.problem, kInfo.problem);
            QCOMPARE(r.strategy, kInfo.strategy);
            QCOMPARE(r.seed, 4);
            QCOMPARE(r.trials, 12);
            QCOMPARE(r.k, report.levels[i].k);
            QCOMPARE(r.trial, c.trial());
            QCOMPARE(r.active, c.sparsity);
            QVERIFY(r.active <= r.k);
            QCOMPARE(r.mean, std::vector<double>{c.estimates.at("hartmann6").mean});
            QCOMPARE(r.lower, std::vector<double>{c.estimates.at("hartmann6").lower});
            QCOMPARE(r.upper, std::vector<double>{c.estimates.at("hartmann6").upper});
            QVERIFY(r.lower[0] <= r.mean[0] && r.mean[0] <= r.upper[0]);
            // The noise-free value the problem recorded on the trial, not the measurement.
            const Trial& trial = *e.find_trial(r.trial);
            QCOMPARE(r.noise_free, std::vector<double>{trial.noise_free.at("hartmann6")});
            QVERIFY(r.noise_free[0] != trial.values.at("hartmann6").mean);
            if (r.trial != 0) {
                QCOMPARE(r.p_better_than_status_quo.size(), std::size_t{1});
                QCOMPARE(r.p_better_than_status_quo[0], c.p_better_than_status_quo.at("hartmann6"));
            }
        }
    }

    void csvText() {
        BenchRecommendation r;
        r.problem = "=cmd";  // guarded like every text cell of the bench's CSV files
        r.strategy = "sebo-l0/noisy=off";
        r.seed = 2;
        r.trials = 50;
        r.k = 3;
        r.trial = 17;
        r.active = 2;
        r.mean = {-1.5, 0.25};
        r.lower = {-2.0, 0.125};
        r.upper = {-1.0, 0.5};
        r.p_better_than_status_quo = {0.875, 0.5};
        r.noise_free = {-1.625, 0.1};
        BenchRecommendation bare = r;
        bare.problem = "b";
        bare.mean = {1.0};
        bare.lower = {0.5};
        bare.upper = {2.0};
        bare.p_better_than_status_quo.clear();
        bare.noise_free.clear();
        QCOMPARE(format_bench_recommendations({r, bare}),
                 std::string("problem,strategy,seed,trials,k,trial,active,mean,lower,upper,p_better_than_status_quo,noise_free\n"
                             "'=cmd,sebo-l0/noisy=off,2,50,3,17,2,-1.5;0.25,-2;0.125,-1;0.5,0.875;0.5,-1.625;0.1\n"
                             "b,sebo-l0/noisy=off,2,50,3,17,2,1,0.5,2,,\n"));
        const CsvTable table = parse_csv_table(format_bench_recommendations({r}), "recommendations.csv");
        QCOMPARE(table.rows.at(0).cells.at(0), std::string("=cmd"));
    }

    void cachePath() {
        QCOMPARE(recommendations_cache_path("out/runs/b/s/seed-3.sebo.json"),
                 std::string("out/runs/b/s/seed-3.recommendations.json"));
        QCOMPARE(recommendations_cache_path("run.json"), std::string("run.json.recommendations.json"));
        QVERIFY(run_text_fingerprint("a") != run_text_fingerprint("b"));
        QCOMPARE(run_text_fingerprint(""), std::uint64_t{0xcbf29ce484222325ull});  // FNV-1a's offset basis
        QCOMPARE(run_text_fingerprint("a"), std::uint64_t{0xaf63dc4c8601ec8cull});  // its published value for "a"
    }

    void cacheIsReadWhenTheRunIsUnchanged() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("seed-4.sebo.json").toStdString();
        const std::string cache = recommendations_cache_path(path);
        Experiment e = noisy_run(12);
        save_experiment(e, path);
        std::string text = read(path);

        const RunRecommendations first = run_recommendations(path, text, e, kInfo);
        QCOMPARE(first.source, RunRecommendations::Source::Fitted);
        QVERIFY(!first.rows.empty());
        QCOMPARE(first.rows, bench_recommendations(e, recommend_configurations(e), kInfo));  // the fit is repeatable
        const std::string cached = read(cache);
        const QDateTime written = QFileInfo(QString::fromStdString(cache)).lastModified();

        // Unchanged: read, not refitted (a cancelled control could not fit), not rewritten.
        std::stop_source stop;
        stop.request_stop();
        StepControl cancelled;
        cancelled.stop = stop.get_token();
        const RunRecommendations again = run_recommendations(path, text, e, kInfo, cancelled);
        QCOMPARE(again.source, RunRecommendations::Source::Cache);
        QCOMPARE(again.rows, first.rows);
        QCOMPARE(read(cache), cached);
        QCOMPARE(QFileInfo(QString::fromStdString(cache)).lastModified(), written);
        // Other labels (the cache keeps none): the rows carry the run's.
        BenchRunInfo renamed = kInfo;
        renamed.strategy = "sobol/model=saas-map";
        QCOMPARE(run_recommendations(path, text, e, renamed, cancelled).rows.front().strategy, renamed.strategy);

        // The run grew: refitted, with the new count of trials; a cancelled fit writes nothing.
        ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
        SobolStrategy sobol;
        QCOMPARE(run_step(e, sobol, &evaluator, {}, 1).status, StepResult::Status::Completed);
        save_experiment(e, path);
        text = read(path);
        QCOMPARE(run_recommendations(path, text, e, kInfo, cancelled).source, RunRecommendations::Source::Cancelled);
        QCOMPARE(read(cache), cached);
        const RunRecommendations grown = run_recommendations(path, text, e, kInfo);
        QCOMPARE(grown.source, RunRecommendations::Source::Fitted);
        QCOMPARE(grown.rows.front().trials, 13);
        QVERIFY(read(cache) != cached);
        QCOMPARE(run_recommendations(path, text, e, kInfo, cancelled).source, RunRecommendations::Source::Cache);
    }

    void brokenOrForeignCachesAreRebuilt() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("seed-4.sebo.json").toStdString();
        const std::string cache = recommendations_cache_path(path);
        const Experiment e = noisy_run(10);
        save_experiment(e, path);
        const std::string text = read(path);
        const RunRecommendations first = run_recommendations(path, text, e, kInfo);
        const std::string good = read(cache);

        const auto rebuilt = [&](const std::string& broken) {
            write(cache, broken);
            const RunRecommendations r = run_recommendations(path, text, e, kInfo);
            return r.source == RunRecommendations::Source::Fitted && r.rows == first.rows && read(cache) == good;
        };
        QVERIFY(rebuilt(good.substr(0, good.size() / 2)));  // truncated
        QVERIFY(rebuilt("not json"));
        QVERIFY(rebuilt(std::string(good).replace(good.find("\"trial\":"), 8, "\"trial\":9")));  // trial 9… not in the run
        QVERIFY(rebuilt(std::string(good).replace(good.find("\"trials\":10"), 11, "\"trials\":11")));
        QVERIFY(rebuilt(std::string(good).replace(good.find("\"version\":1"), 11, "\"version\":2")));
        QVERIFY(rebuilt(std::string(good).replace(good.find("\"mean\":["), 8, "\"mean\":[1,")));  // two means, one objective
        // Made from another text of the run (same trials): another fingerprint.
        write(cache, good);
        QCOMPARE(run_recommendations(path, text + " ", e, kInfo).source, RunRecommendations::Source::Fitted);
    }

    void failuresAreCachedToo() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("seed-4.sebo.json").toStdString();
        const Experiment e = noisy_run(1);  // the status quo alone: the model needs two trials
        save_experiment(e, path);
        const std::string text = read(path);
        const RunRecommendations failed = run_recommendations(path, text, e, kInfo);
        QCOMPARE(failed.source, RunRecommendations::Source::Failed);
        QVERIFY2(failed.message.find("at least 2") != std::string::npos, failed.message.c_str());
        QVERIFY(failed.rows.empty());
        const RunRecommendations again = run_recommendations(path, text, e, kInfo);
        QCOMPARE(again.source, RunRecommendations::Source::Failed);
        QCOMPARE(again.message, failed.message);
    }
};

SEBO_TEST_MAIN(TestBenchRecommendations)
}  // namespace test_bench_recommendations
#include "test_bench_recommendations.moc"
