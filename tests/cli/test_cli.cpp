// The `sebo` command line, driven as a real child process: run, resume, determinism per seed,
// frontier/info/export output, and clear errors with exit code 2 for bad usage and bad files.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli {

namespace {

using sebo::test::read_json;
using sebo::test::run_sebo;
using Result = sebo::test::CliResult;

// The experiment with timestamps and timings removed (they legitimately differ between runs).
QJsonObject without_times(QJsonObject e) {
    QJsonArray trials = e["trials"].toArray();
    for (int i = 0; i < trials.size(); ++i) {
        QJsonObject t = trials[i].toObject();
        for (const char* key : {"created_at", "completed_at", "generation_seconds", "evaluation_seconds"}) t.remove(key);
        trials[i] = t;
    }
    e["trials"] = trials;
    return e;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString path(const QString& name) const { return dir.filePath(name); }

private slots:
    void help_and_unknown_command() {
        QCOMPARE(run_sebo({"--help"}).code, 0);
        const Result r = run_sebo({"frobnicate"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("unknown command 'frobnicate'"));
        for (const char* cmd : {"problems", "run", "info", "frontier", "export"}) {
            const Result h = run_sebo({cmd, "--help"});
            QCOMPARE(h.code, 0);
            QVERIFY2(h.out.contains(QString("usage: sebo ") + cmd), qPrintable(h.out));
        }
    }

    void problems_lists_the_built_ins() {
        const Result r = run_sebo({"problems", "--json"});
        QCOMPARE(r.code, 0);
        QStringList names;
        for (const auto& p : QJsonDocument::fromJson(r.out.toUtf8()).array()) names << p.toObject()["name"].toString();
        for (const char* n : {"branin", "hartmann6", "sourcing"}) QVERIFY2(names.contains(n), qPrintable(names.join(",")));
    }

    void run_branin_sobol_and_report_frontier() {
        const Result r = run_sebo({"run", "--problem", "branin", "--strategy", "sobol", "--trials", "40", "--seed", "1", "--out",
                               path("a.sebo.json"), "--quiet"});
        QCOMPARE(r.code, 0);
        const QJsonObject e = read_json(path("a.sebo.json"));
        QCOMPARE(e["format"].toString(), QString("sebo-experiment"));
        QCOMPARE(e["trials"].toArray().size(), 40);

        const Result f = run_sebo({"frontier", path("a.sebo.json"), "--json"});
        QCOMPARE(f.code, 0);
        const QJsonObject front = QJsonDocument::fromJson(f.out.toUtf8()).object();
        QCOMPARE(front["levels"].toArray().size(), 51);  // k = 0..50
        QVERIFY(front["hypervolume"].toDouble() >= 0.0);
        QCOMPARE(front["hypervolume_trace"].toArray().size(), 40);
        QVERIFY(!front["pareto_trials"].toArray().isEmpty());
        // Sobol points are dense: no configuration with at most 2 active parameters exists.
        QVERIFY(front["levels"].toArray()[2].toObject()["best_objective"].isNull());
        QVERIFY(!front["levels"].toArray()[50].toObject()["best_objective"].isNull());

        const Result text = run_sebo({"frontier", path("a.sebo.json")});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.contains("hypervolume"));
        const Result info = run_sebo({"info", path("a.sebo.json"), "--json"});
        QCOMPARE(info.code, 0);
        const QJsonObject i = QJsonDocument::fromJson(info.out.toUtf8()).object();
        QCOMPARE(i["trials"].toObject()["completed"].toInt(), 40);
        QVERIFY(i["best"].toObject()["objective"].toDouble() > 0.397887);
    }

    void same_seed_same_file_other_seed_differs() {
        for (const char* name : {"s1a", "s1b"})
            QCOMPARE(run_sebo({"run", "--problem", "branin", "--trials", "12", "--seed", "1", "--out", path(name), "--quiet"}).code, 0);
        QCOMPARE(run_sebo({"run", "--problem", "branin", "--trials", "12", "--seed", "2", "--out", path("s2"), "--quiet"}).code, 0);
        const QJsonObject a = without_times(read_json(path("s1a"))), b = without_times(read_json(path("s1b")));
        QCOMPARE(a, b);
        const QJsonObject c = without_times(read_json(path("s2")));
        QVERIFY(a["trials"].toArray()[3].toObject()["parameters"] != c["trials"].toArray()[3].toObject()["parameters"]);
    }

    void resume_continues_the_same_sequence() {
        QCOMPARE(run_sebo({"run", "--problem", "hartmann6", "--dim", "12", "--trials", "10", "--seed", "4", "--out", path("r"), "--quiet"}).code, 0);
        QCOMPARE(run_sebo({"run", path("r"), "--trials", "15", "--quiet"}).code, 0);
        QCOMPARE(run_sebo({"run", "--problem", "hartmann6", "--dim", "12", "--trials", "15", "--seed", "4", "--out", path("straight"), "--quiet"}).code, 0);
        QCOMPARE(without_times(read_json(path("r")))["trials"], without_times(read_json(path("straight")))["trials"]);
        // --resume with --out is the same as FILE.
        QCOMPARE(run_sebo({"run", "--resume", "--out", path("r"), "--trials", "16", "--quiet"}).code, 0);
        QCOMPARE(read_json(path("r"))["trials"].toArray().size(), 16);
    }

    // The same for a model-based strategy: SEBO-L0 over SAAS-MAP (the fast model) after 4 Sobol
    // trials, so the model fit, the raw samples and the homotopy all run in both processes.
    void model_based_run_is_deterministic_and_resumes_exactly() {
        const QStringList create = {"run", "--problem", "branin", "--dim", "8", "--strategy", "sebo-l0", "--model",
                                    "saas-map", "--init", "4", "--seed", "3", "--quiet"};
        for (const char* name : {"m1", "m2"})
            QCOMPARE(run_sebo(create + QStringList{"--trials", "9", "--out", path(name)}).code, 0);
        const QJsonObject first = without_times(read_json(path("m1")));
        QCOMPARE(first["trials"].toArray().size(), 9);
        for (int i = 0; i < 9; ++i)
            QCOMPARE(first["trials"].toArray()[i].toObject()["generator"].toString(), QString(i < 4 ? "sobol" : "sebo-l0"));
        QCOMPARE(without_times(read_json(path("m2"))), first);

        // Stopped after 6 trials and resumed to 9: the same file as the uninterrupted run.
        QCOMPARE(run_sebo(create + QStringList{"--trials", "6", "--out", path("m-resumed")}).code, 0);
        QCOMPARE(run_sebo({"run", path("m-resumed"), "--trials", "9", "--quiet"}).code, 0);
        QCOMPARE(without_times(read_json(path("m-resumed"))), first);
    }

    void export_configuration() {
        QCOMPARE(run_sebo({"run", "--problem", "branin", "--dim", "5", "--trials", "4", "--out", path("x"), "--quiet"}).code, 0);
        const Result j = run_sebo({"export", path("x"), "--trial", "2"});
        QCOMPARE(j.code, 0);
        const QJsonObject config = QJsonDocument::fromJson(j.out.toUtf8()).object();
        QCOMPARE(config["trial"].toInt(), 2);
        QCOMPARE(config["parameters"].toObject().size(), 5);
        const QJsonObject stored = read_json(path("x"))["trials"].toArray()[2].toObject()["parameters"].toObject();
        QCOMPARE(config["parameters"].toObject()["x3"].toDouble(), stored["x3"].toDouble());

        QCOMPARE(run_sebo({"export", path("x"), "--trial", "2", "--format", "csv", "--out", path("x2.csv")}).code, 0);
        QFile csv(path("x2.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).trimmed().split('\n');
        QCOMPARE(lines.size(), 6);  // header + 5 parameters
        QVERIFY(lines[0].startsWith("parameter,value"));
    }

    // The chosen configurations, as the explorer exports them (issue 33 item 1): a note over two
    // lines with a comma stays one cell; JSON has the notes; nothing chosen is a usage error.
    void export_chosen() {
        QCOMPARE(run_sebo({"run", "--problem", "branin", "--dim", "5", "--trials", "4", "--out", path("c"), "--quiet"}).code, 0);
        QCOMPARE(run_sebo({"export", path("c"), "--chosen"}).code, 2);
        QJsonObject file = read_json(path("c"));
        file["chosen"] = QJsonArray{QJsonObject{{"trial", 1}, {"note", "cheap,\nbut slow to start"}}, QJsonObject{{"trial", 3}, {"note", ""}}};
        QFile out(path("c"));
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(QJsonDocument(file).toJson());
        out.close();

        const Result csv = run_sebo({"export", path("c"), "--chosen", "--format", "csv"});
        QCOMPARE(csv.code, 0);
        QVERIFY2(csv.out.startsWith("trial,note,parameter,value,target,changed\n1,\"cheap,\nbut slow to start\",x0,"), qPrintable(csv.out));
        QCOMPARE(csv.out.count("\n1,\"cheap,\nbut slow to start\","), 5);
        QCOMPARE(csv.out.count("\n3,,"), 5);
        const Result json = run_sebo({"export", path("c"), "--chosen", "--changed-only"});
        QCOMPARE(json.code, 0);
        const QJsonArray configurations = QJsonDocument::fromJson(json.out.toUtf8()).object()["configurations"].toArray();
        QCOMPARE(configurations.size(), 2);
        QCOMPARE(configurations[0].toObject()["note"].toString(), QString("cheap,\nbut slow to start"));
        QCOMPARE(configurations[1].toObject()["trial"].toInt(), 3);
        QCOMPARE(run_sebo({"export", path("c"), "--chosen", "--all"}).code, 2);
    }

    void bad_usage_exits_2_with_a_message() {
        struct Case {
            QStringList args;
            QString message;
        };
        const QList<Case> cases = {
            {{"run", "--problem", "branin", "--out", path("u")}, "--trials N is required"},
            {{"run", "--problem", "branin", "--trials", "abc", "--out", path("u")}, "--trials: 'abc' is not a whole number"},
            {{"run", "--problem", "branin", "--trials", "0", "--out", path("u")}, "--trials: 0 is out of range"},
            {{"run", "--problem", "nope", "--trials", "3", "--out", path("u")}, "problem.name"},
            {{"run", "--problem", "branin", "--trials", "3", "--strategy", "magic", "--out", path("u")}, "unknown strategy 'magic'"},
            {{"run", "--problem", "branin", "--trials", "3", "--dim", "1", "--out", path("u")}, "problem.dimension"},
            {{"run", "--problem", "branin", "--trials", "3", "--effective", "0,x", "--out", path("u")}, "--effective: 'x'"},
            {{"run", "--problem", "branin", "--trials", "3", "--bogus", "--out", path("u")}, "unknown option '--bogus'"},
            {{"info"}, "an experiment FILE is required"},
            {{"info", path("does-not-exist.sebo.json")}, "does-not-exist"},
            {{"export", path("x"), "--trial", "99"}, "no trial 99"},
            {{"export", path("x"), "--trial", "1", "--format", "xml"}, "--format: 'xml'"},
        };
        for (const Case& c : cases) {
            const Result r = run_sebo(c.args);
            QVERIFY2(r.code == 2, qPrintable(c.args.join(' ') + " -> " + QString::number(r.code) + " " + r.err));
            QVERIFY2(r.err.contains(c.message), qPrintable(c.args.join(' ') + " -> " + r.err));
        }
    }

    void refuses_to_overwrite_without_force() {
        QCOMPARE(run_sebo({"run", "--problem", "branin", "--dim", "3", "--trials", "2", "--out", path("o"), "--quiet"}).code, 0);
        const Result r = run_sebo({"run", "--problem", "branin", "--dim", "3", "--trials", "2", "--out", path("o")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("already exists"));
        QCOMPARE(run_sebo({"run", "--problem", "branin", "--dim", "3", "--trials", "3", "--out", path("o"), "--force", "--quiet"}).code, 0);
    }

    void malformed_file_names_the_field() {
        QFile f(path("bad.sebo.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "sebo-experiment", "version": 1, "objective": {"name": "y", "minimize": false}, "space": {"parameters": [{"name": "a", "kind": "continuous", "lower": "zero", "upper": 1}]}})");
        f.close();
        const Result r = run_sebo({"info", path("bad.sebo.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("space.parameters[0].lower"), qPrintable(r.err));
    }
};

SEBO_TEST_MAIN(TestCli)
}  // namespace test_cli
#include "test_cli.moc"
