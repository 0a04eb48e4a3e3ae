// Several metrics, objectives and outcome constraints from the command line (issue 13), driven as
// a real child process: `sebo new` with --objective/--metric/--constraint/--threshold (or the
// space file's JSON), `sebo observe --value NAME=V`, result sheets and imports with a column per
// metric, `sebo info`, `sebo frontier --json` and `sebo export` with every metric, problems run
// with other objectives, and every case of the issue's "Bad input": exit 2 naming the flag or the
// file, line and value, nothing written and no trial lost.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli/cli_test_support.h"
#include "problems/branin_currin.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_metrics {

namespace {

using sebo::test::metric_value;
using sebo::test::read_bytes;
using sebo::test::read_json;
using sebo::test::run_sebo;
using sebo::test::write_bytes;
using Result = sebo::test::CliResult;

QJsonArray trials_of(const QString& path) { return read_json(path)["trials"].toArray(); }

}  // namespace

class TestCliMetrics : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString path(const QString& name) const { return dir.filePath(name); }

    QString write_space() {
        write_bytes(path("space.csv"), "name,lower,upper\ncache,0,1\nprefetch,0,1\nthreads,0,1\n");
        return path("space.csv");
    }

    // throughput (max), p99_ms (min, threshold 80); cost <= 100; notes tracked. Manual, Sobol.
    QString create_service(const QString& name) {
        const QString file = path(name);
        const Result r = run_sebo({"new", "--space", write_space(), "--objective", "throughput", "--objective", "p99_ms:min",
                                   "--metric", "cost", "--metric", "notes", "--constraint", "cost<=100", "--threshold",
                                   "p99_ms=80", "--strategy", "sobol", "--trials", "12", "--out", file, "--force"});
        if (r.code != 0) qWarning("%s", qPrintable(r.err));
        return file;
    }

private slots:
    void new_with_two_objectives_and_a_constraint() {
        const QString file = path("svc.sebo.json");
        const Result r = run_sebo({"new", "--space", write_space(), "--objective", "throughput", "--objective", "p99_ms:min",
                                   "--metric", "cost", "--constraint", "cost <= 100", "--threshold", "p99_ms=80", "--out", file});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("throughput (max), p99_ms (min, threshold 80); cost <= 100"), qPrintable(r.err));
        QVERIFY2(!r.err.contains("not supported"), qPrintable(r.err));
        QVERIFY2(r.err.contains("--value NAME=V"), qPrintable(r.err));
        const QJsonObject e = read_json(file);
        QVERIFY(e["version"].toInt() >= 4);  // metrics, objectives, constraints: version 4
        QCOMPARE(e["metrics"].toArray(), QJsonArray({"throughput", "p99_ms", "cost"}));
        const QJsonArray objectives = e["objectives"].toArray();
        QCOMPARE(objectives.size(), 2);
        QCOMPARE(objectives[0].toObject(), (QJsonObject{{"metric", "throughput"}, {"minimize", false}}));
        QCOMPARE(objectives[1].toObject(), (QJsonObject{{"metric", "p99_ms"}, {"minimize", true}, {"threshold", 80.0}}));
        QCOMPARE(e["constraints"].toArray(), QJsonArray({QJsonObject{{"metric", "cost"}, {"op", "<="}, {"bound", 100.0}}}));

        // The help shows an own-system example with two objectives and one constraint.
        const Result help = run_sebo({"new", "--help"});
        QCOMPARE(help.code, 0);
        QVERIFY2(help.out.contains("--objective throughput --objective p99_ms:min") && help.out.contains("--constraint \"cost<=100\""),
                 qPrintable(help.out));

        // The space file's JSON may say the same.
        write_bytes(path("space.json"), R"({"parameters": [{"name": "a", "lower": 0, "upper": 1}],
            "metrics": ["yield", "impurity"], "objectives": [{"metric": "yield", "minimize": false}],
            "constraints": [{"metric": "impurity", "op": "<=", "bound": 2}]})");
        QCOMPARE(run_sebo({"new", "--space", path("space.json"), "--strategy", "sobol", "--out", path("j.sebo.json"), "--quiet"}).code, 0);
        const QJsonObject j = read_json(path("j.sebo.json"));
        QCOMPARE(j["metrics"].toArray(), QJsonArray({"yield", "impurity"}));
        QCOMPARE(j["constraints"].toArray()[0].toObject()["bound"].toDouble(), 2.0);
        // The old one-objective form still works: --objective NAME --minimize.
        QCOMPARE(run_sebo({"new", "--space", write_space(), "--objective", "loss", "--minimize", "--out", path("o.sebo.json"), "--quiet"}).code,
                 0);
        QCOMPARE(read_json(path("o.sebo.json"))["objectives"].toArray()[0].toObject()["minimize"].toBool(), true);
    }

    // The issue's "Bad input" for `sebo new`: exit 2 naming the flag (or file) and the value;
    // nothing is written.
    void bad_outcome_flags_write_nothing() {
        const QString space = write_space();
        const QString out = path("bad.sebo.json");
        const auto refused = [&](const QStringList& flags, const QString& fragment) {
            const Result r = run_sebo(QStringList{"new", "--space", space, "--out", out} + flags);
            SEBO_EXPECT(r, 2, fragment);
            QVERIFY2(!QFile::exists(out), qPrintable(flags.join(' ')));
        };
        refused({"--objective", "throughput", "--constraint", "p99<=50"},
                "--constraint: 'p99<=50' is on the unknown metric 'p99'; the metrics are 'throughput' (declare another one "
                "with --metric p99)");
        refused({"--objective", "throughput", "--objective", "throughput:min"},
                "--objective: 'throughput' is given twice; a metric is one objective at most");
        refused({"--objective", "throughput", "--threshold", "throughput=fast"},
                "--threshold: 'fast' in 'throughput=fast' is not a number");
        refused({"--objective", "throughput", "--constraint", "throughput>=lots"},
                "--constraint: 'lots' in 'throughput>=lots' is not a number");
        refused({"--objective", "throughput", "--constraint", "throughput > 5"},
                "--constraint: 'throughput > 5' is not a constraint; expected NAME<=BOUND or NAME>=BOUND");
        refused({"--objective", "a", "--objective", "b", "--objective", "c", "--objective", "d", "--objective", "e"},
                "--objective: 5 objectives (e is the 5th); at most 4 are possible");
        refused({"--objective", "throughput", "--metric", "cost", "--threshold", "cost=1"},
                "--threshold: 'cost=1' names 'cost', which is not an objective (the objectives: 'throughput')");
        refused({"--objective", "throughput", "--threshold", "throughput=1", "--threshold", "throughput=2"},
                "--threshold: 'throughput' is given twice");
        refused({"--objective", "throughput", "--metric", "throughput"}, "--metric: 'throughput' is already an objective");
        refused({"--objective", "a", "--objective", "b", "--minimize"}, "--minimize goes with a single --objective NAME");
        refused({"--objective", "cache"}, "'cache' is the name of a parameter");
        refused({"--objective", "throughput", "--metric", "Status"}, "the metric name 'Status' is a column name of result sheets");
        refused({"--objective", ":max"}, "--objective: ':max' has no metric name");
        // The space file's JSON: the file, the path and the value.
        write_bytes(path("twice.json"), R"({"parameters": [{"name": "a", "lower": 0, "upper": 1}],
            "objectives": [{"metric": "y", "minimize": false}, {"metric": "y", "minimize": true}]})");
        const Result twice = run_sebo({"new", "--space", path("twice.json"), "--out", out});
        SEBO_EXPECT(twice, 2, path("twice.json") + " objectives[1].metric: 'y' is already objectives[0]");
        write_bytes(path("nan.json"), R"({"parameters": [{"name": "a", "lower": 0, "upper": 1}], "metrics": ["y", "z"],
            "objectives": [{"metric": "y", "minimize": false}], "constraints": [{"metric": "z", "op": "<=", "bound": "ten"}]})");
        SEBO_EXPECT(run_sebo({"new", "--space", path("nan.json"), "--out", out}), 2,
                    path("nan.json") + " constraints[0].bound: expected a number, got the string \"ten\"");
        write_bytes(path("unknown.json"), R"({"parameters": [{"name": "a", "lower": 0, "upper": 1}],
            "objectives": [{"metric": "y", "minimize": false}], "constraints": [{"metric": "z", "op": "<=", "bound": 1}]})");
        SEBO_EXPECT(run_sebo({"new", "--space", path("unknown.json"), "--out", out}), 2,
                    path("unknown.json") + " constraints[0].metric: unknown metric 'z'; the metrics are 'y'");
        // The file and the flags cannot both say it.
        write_bytes(path("ok.json"), R"({"parameters": [{"name": "a", "lower": 0, "upper": 1}],
            "objectives": [{"metric": "y", "minimize": false}]})");
        SEBO_EXPECT(run_sebo({"new", "--space", path("ok.json"), "--constraint", "y<=1", "--out", out}), 2,
                    "--constraint: " + path("ok.json") + " already says what is measured");
        QVERIFY(!QFile::exists(out));
    }

    // Manual entry: a value per metric; a missing constrained metric, an unknown metric or a
    // plain value with several metrics are refused and the file is untouched.
    void observe_a_value_per_metric() {
        const QString file = create_service("obs.sebo.json");
        QCOMPARE(run_sebo({"suggest", file, "--count", "4", "--json", "--csv", path("sheet.csv"), "--force"}).code, 0);
        QCOMPARE(read_bytes(path("sheet.csv")).split('\n')[0], QByteArray("trial,cache,prefetch,threads,throughput,p99_ms,cost,notes"));
        const Result ok = run_sebo({"observe", file, "--trial", "0", "--value", "throughput=1200", "--value", "p99_ms=45",
                                    "--sem", "p99_ms=0.5", "--value", "cost=90"});
        QVERIFY2(ok.code == 0, qPrintable(ok.err));
        QVERIFY2(ok.err.contains("trial 0: throughput = 1200, p99_ms = 45 ± 0.5, cost = 90 (feasible)"), qPrintable(ok.err));
        const QJsonObject t0 = trials_of(file)[0].toObject();
        QCOMPARE(metric_value(t0, "throughput"), 1200.0);
        QCOMPARE(metric_value(t0, "p99_ms", "sem"), 0.5);
        QVERIFY(!t0["values"].toObject().contains("notes"));  // tracked: may stay unmeasured

        const QByteArray before = read_bytes(file);
        const auto refused = [&](const QStringList& flags, const QString& fragment) {
            SEBO_EXPECT(run_sebo(QStringList{"observe", file, "--trial", "1"} + flags), 2, fragment);
            QCOMPARE(read_bytes(file), before);
        };
        refused({"--value", "throughput=1000", "--value", "p99_ms=40"},
                "--trial 1: a completed result needs a value of cost (a constrained metric)");
        refused({"--value", "throughput=1000", "--value", "p99_ms=40", "--value", "cost=1", "--value", "latency=3"},
                "--value: 'latency=3' names the unknown metric 'latency'");
        refused({"--value", "1000"}, "--value: '1000' names no metric; this experiment has 4");
        refused({"--value", "throughput=1000", "--value", "throughput=1001"}, "--value: 'throughput' is given twice");
        refused({"--value", "throughput=1000", "--sem", "cost=1"}, "--sem: 'cost' has no --value");
        refused({"--value", "throughput=nan"}, "--value: 'nan' in 'throughput=nan' is not a finite number");

        // A sheet needs a column for every metric; then each row is checked like --value.
        write_bytes(path("no_notes.csv"), "trial,throughput,p99_ms,cost\n1,1000,40,1\n");
        const Result no_column = run_sebo({"observe", file, "--csv", path("no_notes.csv")});
        SEBO_EXPECT(no_column, 2, path("no_notes.csv") + " line 1: no column for the metric 'notes'");
        QCOMPARE(read_bytes(file), before);
        write_bytes(path("rows.csv"), "trial,throughput,p99_ms,p99_ms_sem,cost,notes\n1,1000,40,0.2,150,\n2,900,,,50,\n3,,,,,\n");
        const Result partial = run_sebo({"observe", file, "--csv", path("rows.csv")});
        SEBO_EXPECT(partial, 2, "nothing recorded: 0 row(s) not matched, 1 invalid");
        QVERIFY2(partial.err.contains("line 3: invalid: column p99_ms: a completed result needs a value of every objective and "
                                      "constrained metric"),
                 qPrintable(partial.err));
        QVERIFY2(partial.err.contains("line 4: skipped"), qPrintable(partial.err));
        QCOMPARE(read_bytes(file), before);
        QCOMPARE(run_sebo({"observe", file, "--csv", path("rows.csv"), "--partial"}).code, 0);
        const QJsonObject t1 = trials_of(file)[1].toObject();
        QCOMPARE(metric_value(t1, "p99_ms", "sem"), 0.2);
        QCOMPARE(metric_value(t1, "cost"), 150.0);
        QCOMPARE(trials_of(file)[2].toObject()["status"].toString(), QString("pending"));

        // Historical rows: the same columns.
        write_bytes(path("past.csv"), "cache,prefetch,threads,throughput,p99_ms,cost,notes\n0.5,0.5,0.5,800,30,20,7\n");
        QCOMPARE(run_sebo({"import", file, path("past.csv"), "--quiet"}).code, 0);
        QCOMPARE(metric_value(trials_of(file).last().toObject(), "notes"), 7.0);
        write_bytes(path("past2.csv"), "cache,prefetch,threads,throughput,p99_ms,notes\n0.5,0.5,0.5,800,30,7\n");
        SEBO_EXPECT(run_sebo({"import", file, path("past2.csv")}), 2, path("past2.csv") + " line 1: no column for the metric 'cost'");
    }

    // info, frontier --json and export with several metrics: the objectives and constraints, how
    // many trials are feasible, per k the non-dominated feasible trials with every metric.
    void reports_with_several_metrics() {
        const QString file = create_service("rep.sebo.json");
        QCOMPARE(run_sebo({"suggest", file, "--count", "4", "--json"}).code, 0);
        const QStringList values[] = {
            {"throughput=1000", "p99_ms=40", "cost=50"},   // feasible
            {"throughput=1500", "p99_ms=70", "cost=60"},   // feasible, trades latency for throughput
            {"throughput=2000", "p99_ms=30", "cost=500"},  // dominates both, but infeasible
            {"throughput=900", "p99_ms=45", "cost=20"},    // dominated by trial 0
        };
        for (int i = 0; i < 4; ++i) {
            QStringList args = {"observe", file, "--trial", QString::number(i)};
            for (const QString& v : values[i]) args << "--value" << v;
            QCOMPARE(run_sebo(args).code, 0);
        }
        const Result info = run_sebo({"info", file});
        QCOMPARE(info.code, 0);
        QVERIFY2(info.out.contains("objectives   throughput (maximize), p99_ms (minimize, threshold 80)"), qPrintable(info.out));
        QVERIFY2(info.out.contains("constraints  cost <= 100"), qPrintable(info.out));
        QVERIFY2(info.out.contains("tracked      notes"), qPrintable(info.out));
        QVERIFY2(info.out.contains("4 completed, 0 failed, 0 pending, 0 abandoned; 3 feasible"), qPrintable(info.out));
        const QJsonObject info_json = QJsonDocument::fromJson(run_sebo({"info", file, "--json"}).out.toUtf8()).object();
        QCOMPARE(info_json["trials"].toObject()["feasible"].toInt(), 3);
        QCOMPARE(info_json["constraints"].toArray()[0].toObject()["op"].toString(), QString("<="));
        QCOMPARE(info_json["best"].toObject()["trial"].toInt(), 1);  // best feasible throughput

        const QJsonObject front = QJsonDocument::fromJson(run_sebo({"frontier", file, "--json"}).out.toUtf8()).object();
        QCOMPARE(front["feasible_trials"].toInt(), 3);
        const QJsonArray levels = front["levels"].toArray();
        QCOMPARE(levels.size(), 4);  // k = 0..3
        const QJsonArray at3 = levels[3].toObject()["trials"].toArray();
        QCOMPARE(at3.size(), 2);
        QCOMPARE(at3[0].toObject()["trial"].toInt(), 1);  // best throughput first
        QCOMPARE(at3[1].toObject()["trial"].toInt(), 0);
        QCOMPARE(at3[1].toObject()["metrics"].toObject()["cost"].toObject()["mean"].toDouble(), 50.0);
        QCOMPARE(front["infeasible_trials"].toArray().size(), 1);
        QCOMPARE(front["infeasible_trials"].toArray()[0].toObject()["trial"].toInt(), 2);
        QCOMPARE(front["reference"].toObject()["objectives"].toObject()["p99_ms"].toDouble(), 80.0);
        for (const auto& level : levels)
            for (const auto& t : level.toObject()["trials"].toArray()) QVERIFY(t.toObject()["trial"].toInt() != 2);
        const Result text = run_sebo({"frontier", file});
        QVERIFY2(text.out.contains("3 feasible (cost <= 100)"), qPrintable(text.out));
        QVERIFY2(text.out.contains("1 (1500, 70); 0 (1000, 40)"), qPrintable(text.out));

        const QJsonObject exported = QJsonDocument::fromJson(run_sebo({"export", file, "--trial", "2"}).out.toUtf8()).object();
        QCOMPARE(exported["feasible"].toBool(), false);
        QCOMPARE(exported["metrics"].toObject()["cost"].toObject()["mean"].toDouble(), 500.0);
        QVERIFY(!exported.contains("objective"));  // two objectives: no single "objective"
        const Result all = run_sebo({"export", file, "--all"});
        QCOMPARE(all.code, 0);
        QVERIFY2(all.out.startsWith("trial,status,throughput,throughput_sem,p99_ms,p99_ms_sem,cost,cost_sem,notes,notes_sem,"
                                    "active,feasible,generator,cache,prefetch,threads,error,excluded\n"),
                 qPrintable(all.out));
        SEBO_EXPECT(run_sebo({"export", file, "--all", "--trial", "1"}), 2, "give one of --trial I, --chosen, --all");
    }

    // An evaluator that never reports a constrained metric: the first such trial is recorded as
    // failed with the metric named, and the run stops with exit 2 (every later trial would fail
    // the same way); no trial is lost.
    void an_evaluator_that_misses_a_metric_stops_the_run() {
        const QString file = path("cmd.sebo.json");
        QCOMPARE(run_sebo({"new", "--space", write_space(), "--objective", "throughput", "--metric", "cost", "--constraint",
                           "cost<=100", "--strategy", "sobol", "--trials", "5", "--out", file, "--quiet", "--command", "/bin/sh",
                           "-c", R"(cat > /dev/null; echo '{"metrics": {"throughput": 1}}')"})
                     .code,
                 0);
        const Result r = run_sebo({"run", file, "--trials", "5", "--evaluator", "command"});
        SEBO_EXPECT(r, 2, "stopped: trial 0: the evaluator did not report the metric 'cost' (constrained: cost <= 100)");
        const QJsonArray trials = trials_of(file);
        QCOMPARE(trials.size(), 1);
        QCOMPARE(trials[0].toObject()["status"].toString(), QString("failed"));
        // The single-metric short form {"objective": v} is refused for several metrics, naming them.
        QCOMPARE(run_sebo({"new", "--space", write_space(), "--objective", "throughput", "--metric", "cost", "--strategy", "sobol",
                           "--trials", "2", "--out", path("short.sebo.json"), "--quiet", "--command", "/bin/sh", "-c",
                           R"(cat > /dev/null; echo '{"objective": 1}')"})
                     .code,
                 0);
        const Result short_form = run_sebo({"run", path("short.sebo.json"), "--trials", "2", "--evaluator", "command", "--quiet"});
        QCOMPARE(short_form.code, 0);  // two failed trials, not a misreport (and fewer than 5 in a row)
        QVERIFY2(trials_of(path("short.sebo.json"))[0].toObject()["error"].toString().contains(
                     "the short form for an experiment with one metric; this one has 2 (\"throughput\", \"cost\")"),
                 qPrintable(QJsonDocument(trials_of(path("short.sebo.json"))).toJson()));
    }

    // A built-in problem with other objectives among its metrics: sourcing as "maximize
    // relevance subject to cost <= 3", with Sobol; and as two objectives with SEBO-L0 (one model
    // per metric, issue 13).
    void problems_with_other_objectives() {
        const QString file = path("src.sebo.json");
        const Result r = run_sebo({"run", "--problem", "sourcing", "--repetitions", "20", "--objective", "relevance",
                                   "--constraint", "cost<=3", "--strategy", "sobol", "--trials", "4", "--out", file});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject e = read_json(file);
        QCOMPARE(e["metrics"].toArray(), QJsonArray({"quality", "relevance", "cost"}));
        QCOMPARE(e["objectives"].toArray()[0].toObject()["metric"].toString(), QString("relevance"));
        QCOMPARE(e["constraints"].toArray()[0].toObject()["bound"].toDouble(), 3.0);
        for (const auto& t : e["trials"].toArray()) QCOMPARE(t.toObject()["values"].toObject().size(), 3);

        SEBO_EXPECT(run_sebo({"run", "--problem", "sourcing", "--objective", "speed", "--trials", "2", "--out", path("x.sebo.json")}),
                    2, "--objective: 'speed' is not a metric of the problem; its metrics are 'quality', 'relevance', 'cost'");
        const Result two = run_sebo({"run", "--problem", "sourcing", "--repetitions", "20", "--objective", "relevance", "--objective",
                                     "cost:min", "--constraint", "cost<=3", "--strategy", "sebo-l0", "--model", "gp", "--init", "4",
                                     "--trials", "6", "--threads", "1", "--out", path("two.sebo.json")});
        QVERIFY2(two.code == 0, qPrintable(two.err));
        const QJsonArray trials = read_json(path("two.sebo.json"))["trials"].toArray();
        QCOMPARE(trials.size(), 6);
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(trials[i].toObject()["status"].toString(), QString("completed"));
            QCOMPARE(trials[i].toObject()["generator"].toString(), QString(i < 4 ? "sobol" : "sebo-l0"));
        }
        SEBO_EXPECT(run_sebo({"run", file, "--trials", "5", "--objective", "cost:min"}), 2, "--objective cannot change an existing experiment");
    }

    // The built-in problems with several metrics (issue 13 item 7), with Sobol: branin-currin
    // (two objectives, BoTorch's reference point as thresholds) with its embedding options,
    // hartmann6-constrained (the constraint sum <= 1.5 on the six effective parameters), sourcing
    // with relevance and cost as two objectives, `sebo problems` describing them, and their
    // options' errors.
    void built_in_problems_with_several_metrics() {
        const QString bc = path("bc.sebo.json");
        Result r = run_sebo({"run", "--problem", "branin-currin", "--dim", "6", "--effective", "4,2", "--target", "0.5",
                             "--strategy", "sobol", "--trials", "5", "--seed", "3", "--out", bc, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QJsonObject e = read_json(bc);
        QCOMPARE(e["metrics"].toArray(), QJsonArray({"branin", "currin"}));
        const QJsonArray objectives = e["objectives"].toArray();
        QCOMPARE(objectives.size(), 2);
        QCOMPARE(objectives[0].toObject()["threshold"].toDouble(), 18.0);
        QCOMPARE(objectives[1].toObject()["threshold"].toDouble(), 6.0);
        for (const auto& t : e["trials"].toArray()) {
            const QJsonObject trial = t.toObject();
            const QJsonObject x = trial["parameters"].toObject();
            QCOMPARE(x.size(), 6);
            const sebo::BraninCurrinValue v = sebo::branin_currin(x["x4"].toDouble(), x["x2"].toDouble());
            QCOMPARE(metric_value(trial, "branin"), v.branin);
            QCOMPARE(metric_value(trial, "currin"), v.currin);
        }
        r = run_sebo({"frontier", bc, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));

        const QString h6 = path("h6c.sebo.json");
        r = run_sebo({"run", "--problem", "hartmann6-constrained", "--dim", "8", "--strategy", "sobol", "--trials", "6",
                      "--seed", "2", "--out", h6, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        e = read_json(h6);
        QCOMPARE(e["metrics"].toArray(), QJsonArray({"hartmann6", "sum"}));
        QCOMPARE(e["constraints"].toArray()[0].toObject()["metric"].toString(), QString("sum"));
        QCOMPARE(e["constraints"].toArray()[0].toObject()["bound"].toDouble(), 1.5);
        int feasible = 0;
        for (const auto& t : e["trials"].toArray()) {
            const QJsonObject x = t.toObject()["parameters"].toObject();
            double sum = 0.0;
            for (int j = 0; j < 6; ++j) sum += x["x" + QString::number(j)].toDouble();
            SEBO_COMPARE_NEAR(metric_value(t.toObject(), "sum"), sum, 1e-12);
            feasible += sum <= 1.5;
        }
        r = run_sebo({"info", h6});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("sum <= 1.5"), qPrintable(r.out));
        QVERIFY2(r.out.contains("; " + QString::number(feasible) + " feasible (of the completed)"), qPrintable(r.out));

        // Sourcing with its two parts as objectives.
        const QString two = path("src2.sebo.json");
        r = run_sebo({"run", "--problem", "sourcing", "--repetitions", "10", "--objective", "relevance", "--objective",
                      "cost:min", "--strategy", "sobol", "--trials", "4", "--out", two, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        e = read_json(two);
        QCOMPARE(e["objectives"].toArray().size(), 2);
        QCOMPARE(e["objectives"].toArray()[1].toObject()["minimize"].toBool(), true);
        r = run_sebo({"frontier", two, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));

        // The listing: metrics, defaults and optimum of each.
        r = run_sebo({"problems"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("branin-currin\n") && r.out.contains("    metrics: branin, currin\n") &&
                     r.out.contains("    default: branin (min, threshold 18), currin (min, threshold 6)\n") &&
                     r.out.contains("    default: hartmann6 (min, threshold 0); sum <= 1.5\n") &&
                     r.out.contains("    optimum: hartmann6 -2.59511 at x_e = (0.1085, 0.03796, 0.2058, 0.248, 0.2833, 0.6164)") &&
                     r.out.contains("    default: quality (max, threshold 0); tracked: relevance, cost\n"),
                 qPrintable(r.out));
        r = run_sebo({"problems", "--json"});
        QCOMPARE(r.code, 0);
        for (const auto& p : QJsonDocument::fromJson(r.out.toUtf8()).array()) {
            const QJsonObject problem = p.toObject();
            if (problem["name"] == "hartmann6-constrained") {
                QCOMPARE(problem["constraints"].toArray()[0].toObject()["sense"].toString(), QString("<="));
                SEBO_COMPARE_NEAR(problem["optimum"].toDouble(), -2.59510829369852, 1e-14);
            }
            if (problem["name"] == "branin-currin") {
                QVERIFY(problem["optimum"].isNull());
                QCOMPARE(problem["objectives"].toArray()[1].toObject()["threshold"].toDouble(), 6.0);
            }
        }

        // Bad options: exit 2 naming the field and the value, nothing written.
        const QString bad = path("bad.sebo.json");
        SEBO_EXPECT(run_sebo({"run", "--problem", "branin-currin", "--dim", "1", "--trials", "2", "--out", bad}), 2, "1 is below the minimum 2");
        SEBO_EXPECT(run_sebo({"run", "--problem", "branin-currin", "--effective", "0,1,2", "--trials", "2", "--out", bad}), 2,
                    "exactly 2 effective dimensions, got 3");
        SEBO_EXPECT(run_sebo({"run", "--problem", "hartmann6-constrained", "--dim", "10", "--effective", "0,1,2,3,4,10",
                              "--trials", "2", "--out", bad}),
                    2, "10 is outside [0, 9]");
        SEBO_EXPECT(run_sebo({"run", "--problem", "hartmann6-constrained", "--target", "2", "--trials", "2", "--out", bad}), 2,
                    "2 is outside the unit interval");
        SEBO_EXPECT(run_sebo({"run", "--problem", "hartmann6-constrained", "--constraint", "speed<=1", "--trials", "2", "--out", bad}),
                    2, "speed");
        QVERIFY(!QFile::exists(bad));
    }
};

SEBO_TEST_MAIN(TestCliMetrics)
}  // namespace test_cli_metrics
#include "test_cli_metrics.moc"
