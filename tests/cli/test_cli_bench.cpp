// `sebo bench` end to end with the real binary: a small comparison in parallel child processes,
// its results.csv and summary.md, resuming (finished runs are skipped, longer budgets continue
// the same files), bad input refused with the flag and value named before anything runs, and a
// noisy comparison's recommendations.csv with its cache.

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QThread>
#include <algorithm>
#include <map>
#include <QTemporaryDir>

#include "bench/bench_results.h"
#include "bench/bench_summary.h"
#include "core/format.h"
#include "io/csv_table.h"
#include "cli_test_support.h"
#include "test_support.h"
#include "test_main.h"

namespace test_cli_bench {

using namespace sebo::test;

namespace {

QStringList small_bench(const QString& dir, int trials) {
    return {"bench", "--problems", "branin/dim=4", "--strategies", "sobol,gpei", "--seeds", "2", "--trials",
            QString::number(trials), "--init", "3", "--jobs", "2", "--out", dir, "--no-plots"};
}

}  // namespace

class TestCliBench : public QObject {
    Q_OBJECT

    // The run file of sebo-l0/KEY=0 (its method's FIELD false), copied in as a run of sebo-l0, is
    // refused with `message` and exit code 2.
    // A run of the ablation `key`=`value` (its file's method.`field` is `stored`) is not continued
    // as a run of today's SEBO-L0.
    static void refuses_to_continue_an_ablation(const QString& key, const char* field, const char* message,
                                                const QString& value = "0", const QJsonValue& stored = false) {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("noisy");
        const auto bench = [&](const QString& strategy) {
            return run_sebo(QStringList{"bench", "--preset", "noisy", "--problems", "hartmann6/dim=8/noise=0.1", "--strategies",
                                        strategy, "--seeds", "1", "--trials", "2", "--init", "6", "--out", dir, "--no-plots",
                                        "--no-recommendations"});
        };
        CliResult r = bench("sebo-l0/" + key + "=" + value);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString runs = dir + "/runs/hartmann6_dim_8_noise_0.1/";
        const QString ablation = runs + "sebo-l0_" + key + "_" + value + "/seed-1.sebo.json";
        QVERIFY(read_json(ablation)["method"].toObject()[field] == stored);
        QVERIFY(QDir().mkpath(runs + "sebo-l0"));
        QVERIFY(QFile::copy(ablation, runs + "sebo-l0/seed-1.sebo.json"));
        r = bench("sebo-l0");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }
private slots:
    void runsReportsAndResumes() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("cmp");
        CliResult r = run_sebo(small_bench(dir, 6));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("4 runs in") && r.err.contains("0 finished before, 4 to run, 2 at a time"), qPrintable(r.err));
        for (const char* run : {"sobol/seed-1", "sobol/seed-2", "gpei/seed-1", "gpei/seed-2"})
            QVERIFY(QFile::exists(dir + "/runs/branin_dim_4/" + run + ".sebo.json"));

        const auto rows = sebo::read_bench_results((dir + "/results.csv").toStdString());
        QCOMPARE(rows.size(), std::size_t{24});
        int gpei_model_trials = 0;
        for (const auto& row : rows) {
            QCOMPARE(row.problem, std::string("branin/dim=4"));
            QCOMPARE(row.dimension, 4);
            QCOMPARE(row.effective_parameters, (std::vector<int>{0, 1}));
            SEBO_COMPARE_NEAR(*row.optimum, 0.397887, 1e-6);
            gpei_model_trials += row.strategy == "gpei" && row.generator == "gpei";
        }
        QCOMPARE(gpei_model_trials, 2 * 3);
        const QString summary = QString::fromUtf8(read_bytes(dir + "/summary.md"));
        QVERIFY2(summary.contains("## branin/dim=4") && summary.contains("| sobol | 2 | 6 |") &&
                     summary.contains("| gpei | 2 | 6 |"),
                 qPrintable(summary));
        QCOMPARE(r.out, summary);  // the summary is also printed

        // Everything finished: nothing runs again and the report is the same.
        const QByteArray before = read_bytes(dir + "/results.csv");
        r = run_sebo(small_bench(dir, 6));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("4 finished before, 0 to run"), qPrintable(r.err));
        QCOMPARE(read_bytes(dir + "/results.csv"), before);

        // A larger budget continues the same files.
        r = run_sebo(small_bench(dir, 8));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("0 finished before, 4 to run"), qPrintable(r.err));
        const auto more = sebo::read_bench_results((dir + "/results.csv").toStdString());
        QCOMPARE(more.size(), std::size_t{32});
        QVERIFY(read_bytes(dir + "/results.csv").startsWith(before.left(before.indexOf('\n'))));
    }

    // SIGTERM to sebo bench reaches its children: each saves and stops, the partial comparison
    // is reported (exit 130), and the same command continues it to the end.
    void interruptedComparisonContinues() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("cmp");
        const QStringList args = {"bench", "--problems", "branin/dim=6", "--strategies", "sebo-l0/model=saas-map",
                                  "--seeds", "2", "--trials", "40", "--init", "4", "--jobs", "2", "--out", dir, "--no-plots"};
        QProcess bench;
        bench.start(SEBO_CLI_PATH, args);
        QVERIFY(bench.waitForStarted());
        const QString first = dir + "/runs/branin_dim_6/sebo-l0_model_saas-map/seed-1.sebo.json";
        // Wait until the first run has a few model-based trials, then interrupt.
        for (int i = 0; i < 6000 && read_json(first)["trials"].toArray().size() < 8; ++i) QThread::msleep(20);
        QVERIFY2(read_json(first)["trials"].toArray().size() >= 8, "the run never got going");
        bench.terminate();
        QVERIFY(bench.waitForFinished(120000));
        const QString err = QString::fromUtf8(bench.readAllStandardError());
        QVERIFY2(bench.exitCode() == 130, qPrintable(QString::number(bench.exitCode()) + ": " + err));
        QVERIFY2(err.contains("interrupted: run the same command again to continue"), qPrintable(err));
        const auto partial = sebo::read_bench_results((dir + "/results.csv").toStdString());
        QVERIFY(partial.size() >= 8 && partial.size() < 80);

        const CliResult r = run_sebo(args);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("0 finished before, 2 to run"), qPrintable(r.err));
        const auto rows = sebo::read_bench_results((dir + "/results.csv").toStdString());
        QCOMPARE(rows.size(), std::size_t{80});
        // The interrupted runs kept their trials: the first rows are unchanged.
        for (std::size_t i = 0; i < partial.size(); ++i)
            if (partial[i].seed == 1 && partial[i].trial < 8) {
                const auto same = std::find_if(rows.begin(), rows.end(), [&](const sebo::BenchRow& row) {
                    return row.seed == 1 && row.trial == partial[i].trial;
                });
                QVERIFY(same != rows.end());
                QCOMPARE(same->objective, partial[i].objective);
            }
    }

    void badInputIsNamed() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("cmp");
        struct Case {
            QStringList args;
            QString expected;
        };
        const QList<Case> cases = {
            {{"bench", "--problems", "branin", "--strategies", "sebo-l9", "--out", dir}, "--strategies: 'sebo-l9': unknown strategy 'sebo-l9'"},
            {{"bench", "--problems", "branin/dim=x", "--strategies", "sobol", "--out", dir}, "'branin/dim=x': dim=x is not a number"},
            {{"bench", "--problems", "branin/size=3", "--strategies", "sobol", "--out", dir}, "unknown option 'size'"},
            {{"bench", "--problems", "branin", "--strategies", "ei-er/lambda=-1", "--out", dir}, "'ei-er/lambda=-1'"},
            {{"bench", "--preset", "paper-nothing", "--out", dir}, "--preset: unknown preset 'paper-nothing'"},
            {{"bench", "--preset", "quick"}, "--out DIR is required"},
            {{"bench", "--preset", "quick", "--jobs", "0", "--out", dir}, "--jobs"},
            {{"bench", "--problems", "nowhere", "--strategies", "sobol", "--seeds", "1", "--out", dir}, "nowhere"},
            {{"bench", "--plots-only", "--out", dir}, "results.csv"},
        };
        for (const Case& c : cases) {
            const CliResult r = run_sebo(c.args);
            QVERIFY2(r.code == 2, qPrintable(c.args.join(' ') + " -> " + QString::number(r.code) + ": " + r.err));
            QVERIFY2(r.err.contains(c.expected), qPrintable(c.args.join(' ') + " -> " + r.err));
        }
        // No run was started by any of them.
        QVERIFY(!QFile::exists(dir + "/results.csv"));
    }

    void foreignOrBrokenRunFilesAreLeftAlone() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("cmp");
        QDir().mkpath(dir + "/runs/branin_dim_4/gpei");
        const QString broken = dir + "/runs/branin_dim_4/gpei/seed-1.sebo.json";
        {
            QFile f(broken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"format\": \"sebo-experiment\", \"version\": 1, \"trials\": [");
        }
        CliResult r = run_sebo(small_bench(dir, 5));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(broken), qPrintable(r.err));
        QCOMPARE(read_bytes(broken), QByteArray("{\"format\": \"sebo-experiment\", \"version\": 1, \"trials\": ["));

        // A file made by another strategy is not continued as if it were this one.
        QFile::remove(broken);
        r = run_sebo({"run", "--problem", "branin", "--dim", "4", "--strategy", "sobol", "--trials", "2", "--seed", "1",
                      "--out", broken, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = run_sebo(small_bench(dir, 5));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("was made with the strategy sobol, not gpei"), qPrintable(r.err));
    }

    // The presets with several objectives and a constraint, reduced to Sobol and small problems
    // (the model-based strategies' runs are minutes each): results.csv carries every objective
    // and the feasibility, summary.md the objectives' hypervolume per level and the feasibility
    // rate.
    void severalObjectivesAndConstraints() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("moo");
        CliResult r = run_sebo({"bench", "--preset", "moo-branin-currin", "--problems", "branin-currin/dim=5", "--strategies",
                                "sobol", "--seeds", "2", "--trials", "12", "--out", dir, "--no-plots", "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        auto rows = sebo::read_bench_results((dir + "/results.csv").toStdString());
        QCOMPARE(rows.size(), std::size_t{24});
        for (const auto& row : rows) {
            QCOMPARE(row.objectives, (std::vector<sebo::BenchObjective>{{"branin", true, 18.0}, {"currin", true, 6.0}}));
            QCOMPARE(row.objective_values.size(), std::size_t{2});
            QVERIFY(row.feasible);
            QVERIFY(!row.optimum);
            QCOMPARE(row.generator, std::string("sobol"));
        }
        QVERIFY2(r.out.contains("D = 5, objectives branin (min), currin (min), reference (18, 6), 2 effective parameters.") &&
                     r.out.contains("| final hypervolume | HV, ≤ 1 active | HV, ≤ 2 active | HV, ≤ 4 active | s / iteration |") &&
                     r.out.contains("| sobol | 2 | 12 |"),
                 qPrintable(r.out));

        const QString constrained = tmp.filePath("constrained");
        r = run_sebo({"bench", "--preset", "constrained", "--problems", "hartmann6-constrained/dim=7", "--strategies", "sobol",
                      "--seeds", "2", "--trials", "16", "--out", constrained, "--no-plots", "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        rows = sebo::read_bench_results((constrained + "/results.csv").toStdString());
        QCOMPARE(rows.size(), std::size_t{32});
        double feasible[2] = {0.0, 0.0};
        for (const auto& row : rows) {
            QCOMPARE(row.constraints, std::vector<std::string>{"sum <= 1.5"});
            SEBO_COMPARE_NEAR(*row.optimum, -2.59510829369852, 1e-14);
            feasible[row.seed - 1] += row.feasible;
        }
        // Six uniform coordinates sum to at most 1.5 with probability (1.5⁶ − 6·0.5⁶)/6! = 1.6%:
        // Sobol rarely finds a feasible configuration; the summary's rate is the mean of the seeds'.
        QVERIFY2(feasible[0] + feasible[1] < 16, qPrintable(QString::number(feasible[0] + feasible[1])));
        const sebo::MeanSe rate = sebo::mean_and_se({feasible[0] / 16.0, feasible[1] / 16.0});
        const std::string cell = sebo::format_short(100.0 * rate.mean, 3) + "% ± " + sebo::format_short(200.0 * rate.se, 2);
        QVERIFY2(r.out.contains("; subject to sum <= 1.5.") && r.out.contains("| feasible | s / iteration |") &&
                     r.out.contains(QString::fromStdString("| " + cell + " | — |")),
                 qPrintable(r.out + QString::fromStdString(cell)));
    }

    // A run file of SEBO-L0 whose dense start keeps the noisy EI (thompson=0, or a file of format
    // version 8) is not continued as a run of today's dense start, which turns to Thompson sampling.
    void aRunWithoutThompsonSamplingIsNotContinuedWithIt() {
        refuses_to_continue_an_ablation("thompson", "dense_thompson", "was made with Thompson sampling in the dense start off, not on");
    }

    // Nor is a run whose warp was not checked (warpcheck=0, or a file of format version 9)
    // continued as a run of today's SEBO-L0, which checks it.
    void aRunWithoutTheWarpCheckIsNotContinuedWithIt() {
        refuses_to_continue_an_ablation("warpcheck", "warp_check", "was made with the warp's check off, not on");
    }

    // Nor a run whose dense start ended after its first 15 trials (densemax=15, or a file of format
    // version 10) as one whose dense start may go on to 30.
    void aRunWithAShorterDenseStartIsNotContinuedWithALongerOne() {
        refuses_to_continue_an_ablation("densemax", "dense_steps_max", "was made with a dense start of at most 15 trials, not 30",
                                        "15", QJsonValue(15));
    }

    // Issue 30 item 7 on a small noisy problem: results.csv carries every trial's noise-free value,
    // recommendations.csv a row per level for every run with the noise-free value of the
    // recommended trial, summary.md "What a user gets"; reporting again reads each run's cached
    // recommendations (not rewritten), and a run that grew is refitted.
    void noisyComparisonRecommends() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("noisy");
        const auto bench = [&](int trials, const QStringList& more = {}) {
            return run_sebo(QStringList{"bench", "--preset", "noisy", "--problems", "hartmann6/dim=8/noise=0.1", "--strategies",
                                        "sobol,sebo-l0/model=saas-map", "--seeds", "1", "--trials", QString::number(trials),
                                        "--init", "6", "--jobs", "2", "--out", dir, "--no-plots"} +
                            more);
        };
        CliResult r = bench(12);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("recommendations of hartmann6/dim=8/noise=0.1 / sobol / seed 1:") &&
                     r.err.contains("recommendations of hartmann6/dim=8/noise=0.1 / sebo-l0/model=saas-map / seed 1:"),
                 qPrintable(r.err));
        const QString runs = dir + "/runs/hartmann6_dim_8_noise_0.1/";
        const QString files[] = {runs + "sobol/seed-1", runs + "sebo-l0_model_saas-map/seed-1"};

        // results.csv: the noise-free value of every trial as its run file recorded it.
        const auto results = sebo::read_bench_results((dir + "/results.csv").toStdString());
        QCOMPARE(results.size(), std::size_t{24});
        for (const auto& row : results) {
            const QJsonObject trial =
                read_json(files[row.strategy == "sobol" ? 0 : 1] + ".sebo.json")["trials"].toArray()[row.trial].toObject();
            QVERIFY(row.noise_free());
            QCOMPARE(*row.noise_free(), trial["noise_free"].toObject()["hartmann6"].toDouble());
            QVERIFY(*row.noise_free() != *row.objective);
        }

        const auto check_recommendations = [&](int trials) {
            const sebo::CsvTable table = sebo::parse_csv_table(read_bytes(dir + "/recommendations.csv").toStdString(), "rec");
            QCOMPARE(table.header, (std::vector<std::string>{"problem", "strategy", "seed", "trials", "k", "trial", "active", "mean",
                                                             "lower", "upper", "p_better_than_status_quo", "noise_free"}));
            std::map<std::string, int> next_k;  // per strategy: levels in order, one row each
            for (const auto& row : table.rows) {
                const auto& c = row.cells;
                QCOMPARE(c[0], std::string("hartmann6/dim=8/noise=0.1"));
                QCOMPARE(c[2], std::string("1"));
                QCOMPARE(std::stoi(c[3]), trials);
                const int k = std::stoi(c[4]), trial = std::stoi(c[5]), active = std::stoi(c[6]);
                QVERIFY2(k >= next_k[c[1]], c[4].c_str());
                next_k[c[1]] = k + 1;
                QVERIFY(active <= k && trial >= 0 && trial < trials);
                const double mean = *sebo::parse_number(c[7]), lower = *sebo::parse_number(c[8]),
                             upper = *sebo::parse_number(c[9]);
                QVERIFY(lower <= mean && mean <= upper);
                // The status quo (trial 0, the only configuration with no change) at k = 0, and the
                // probability of beating it for every other recommendation.
                if (k == 0) QCOMPARE(trial, 0);
                QCOMPARE(c[10].empty(), trial == 0);
                if (trial != 0) QVERIFY(*sebo::parse_number(c[10]) >= 0.0 && *sebo::parse_number(c[10]) <= 1.0);
                const QJsonObject recorded =
                    read_json(files[c[1] == "sobol" ? 0 : 1] + ".sebo.json")["trials"].toArray()[trial].toObject();
                QCOMPARE(*sebo::parse_number(c[11]), recorded["noise_free"].toObject()["hartmann6"].toDouble());
            }
            QCOMPARE(next_k.size(), std::size_t{2});
            QCOMPARE(next_k["sobol"], 9);  // up to k = D = 8
            QCOMPARE(next_k["sebo-l0/model=saas-map"], 9);
        };
        check_recommendations(12);
        QVERIFY2(r.out.contains("## What a user gets (noise-free values)") && r.out.contains("### hartmann6/dim=8/noise=0.1") &&
                     r.out.contains("initial design 6 trials") && r.out.contains("| strategy | seed 1 | worse than sobol |"),
                 qPrintable(r.out));

        // Reported again: every run's recommendations come from its cache, which stays as it was.
        QByteArray caches[2];
        QDateTime written[2];
        for (int i = 0; i < 2; ++i) {
            caches[i] = read_bytes(files[i] + ".recommendations.json");
            QVERIFY(!caches[i].isEmpty());
            written[i] = QFileInfo(files[i] + ".recommendations.json").lastModified();
        }
        const QByteArray csv = read_bytes(dir + "/recommendations.csv");
        r = bench(12, {"--report-only"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("recommendations of"), qPrintable(r.err));
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(read_bytes(files[i] + ".recommendations.json"), caches[i]);
            QCOMPARE(QFileInfo(files[i] + ".recommendations.json").lastModified(), written[i]);
        }
        QCOMPARE(read_bytes(dir + "/recommendations.csv"), csv);

        // A larger budget: the runs grow, and their recommendations are fitted again.
        r = bench(13);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("recommendations of hartmann6/dim=8/noise=0.1 / sobol / seed 1:"), qPrintable(r.err));
        for (int i = 0; i < 2; ++i) QVERIFY(read_bytes(files[i] + ".recommendations.json") != caches[i]);
        check_recommendations(13);

        // Without recommendations: no fit, no file written, no section.
        QFile::remove(dir + "/recommendations.csv");
        r = bench(13, {"--report-only", "--no-recommendations"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!QFile::exists(dir + "/recommendations.csv"));
        QVERIFY2(!r.out.contains("What a user gets"), qPrintable(r.out));
    }

    void listsThePresets() {
        const CliResult r = run_sebo({"bench", "--list-presets"});
        QCOMPARE(r.code, 0);
        for (const char* name : {"paper-branin", "paper-hartmann6", "paper-sourcing", "paper-ablation", "sebo-vs-bonsai",
                                 "moo-branin-currin", "constrained", "mixed", "noisy", "large", "quick"})
            QVERIFY2(r.out.contains(name), qPrintable(r.out));
        QVERIFY(r.out.contains("ei-ir/lambda=0.001"));
        QVERIFY(r.out.contains("sebo-l0-fixed-a/a=0.1"));
        // The ablation is the paper's Fig. 5 (left): Hartmann6, not Branin.
        QVERIFY2(r.out.contains("5 seeds, 100 trials (20 initial), NUTS paper; problems: hartmann6/dim=50; strategies: "
                                "sebo-l0 sebo-l1 sebo-l0-fixed-a/a=0.001 sebo-l0-fixed-a/a=0.1 sebo-l0-fixed-a/a=1"),
                 qPrintable(r.out));
        // The paper-* presets reproduce the paper with its sampler; the others use the default.
        QCOMPARE(r.out.count("NUTS paper"), 4);
        QCOMPARE(r.out.count("NUTS fast"), 7);
        QVERIFY2(r.out.contains("3 seeds, 500 trials (20 initial), NUTS fast; problems: branin/dim=50 hartmann6/dim=50; "
                                "strategies: sobol sebo-l0"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("5 seeds, 50 trials (10 initial, the status quo first), NUTS fast; problems: branin/dim=50/noise=9.2 "
                                "branin/dim=50/noise=30.8 hartmann6/dim=50/noise=0.1 hartmann6/dim=50/noise=0.33; strategies: "
                                "sobol saasbo bonsai sebo-l0 sebo-l0/noisy=off"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("5 seeds, 50 trials (10 initial), NUTS fast; problems: branin-currin/dim=50; strategies: "
                                "sobol saasbo sebo-l0"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("5 seeds, 50 trials (10 initial), NUTS fast; problems: hartmann6-constrained/dim=50; "
                                "strategies: sobol saasbo sebo-l0"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("5 seeds, 100 trials (20 initial), NUTS fast; problems: branin/dim=50 hartmann6/dim=50 sourcing; "
                                "strategies: sobol saasbo bonsai sebo-l0"),
                 qPrintable(r.out));
    }
};

SEBO_TEST_MAIN(TestCliBench)
}  // namespace test_cli_bench
#include "test_cli_bench.moc"
