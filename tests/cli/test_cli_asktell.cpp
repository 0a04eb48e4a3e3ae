// `sebo new / run --evaluator command / suggest / observe / import` driven as a real child
// process: experiments for the user's own system from a space file, the explicit opt-in before a
// file's command runs, shell metacharacters that stay inert, the ask/tell round trip with
// batches, result sheets with per-row reports, and historical imports that are all or nothing.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_asktell {

namespace {

using sebo::test::metric_value;
using sebo::test::read_bytes;
using sebo::test::read_json;
using sebo::test::run_sebo;
using sebo::test::write_bytes;
using Result = sebo::test::CliResult;

QString fixture(const QString& name) {
    return QString::fromStdString(sebo::test::source_path("tests/fixtures/evaluators/" + name.toStdString()));
}

QJsonArray trials_of(const QString& path) { return read_json(path)["trials"].toArray(); }

// A trial's parameter values in the order of the space.
QList<double> values_of(const QJsonObject& trial, const QStringList& names) {
    QList<double> out;
    for (const QString& n : names) out << trial["parameters"].toObject()[n].toDouble();
    return out;
}

// An exact decimal text of a double (reads back to the same bits).
QString exact(double v) { return QString::number(v, 'g', 17); }

}  // namespace

class TestCliAskTell : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString path(const QString& name) const { return dir.filePath(name); }

    // Four parameters: a continuous, a log-scale, an integer and a grouped one.
    QString write_space() {
        write_bytes(path("space.csv"), "name,kind,lower,upper,log,target,group\n"
                                       "temperature,continuous,20,90,,20,\n"
                                       "\"catalyst, mg\",continuous,0.01,10,true,,\n"
                                       "stir_steps,integer,0,8,,,\n"
                                       "ratio,continuous,0,1,,,mix\n");
        return path("space.csv");
    }

private slots:
    void help_of_the_new_commands() {
        for (const char* cmd : {"new", "suggest", "observe", "import"}) {
            const Result h = run_sebo({cmd, "--help"});
            QCOMPARE(h.code, 0);
            QVERIFY2(h.out.contains(QString("usage: sebo ") + cmd), qPrintable(h.out));
        }
        QVERIFY(run_sebo({"--help"}).out.contains("suggest"));
    }

    void new_from_a_space_file() {
        const QString space = write_space();
        const Result r = run_sebo({"new", "--space", space, "--objective", "yield", "--minimize", "--trials", "30",
                                   "--seed", "5", "--out", path("lab.sebo.json")});
        QCOMPARE(r.code, 0);
        const QJsonObject e = read_json(path("lab.sebo.json"));
        QCOMPARE(e["name"].toString(), QString("lab"));
        QCOMPARE(e["metrics"].toArray(), QJsonArray({"yield"}));
        QCOMPARE(e["objectives"].toArray()[0].toObject()["metric"].toString(), QString("yield"));
        QCOMPARE(e["objectives"].toArray()[0].toObject()["minimize"].toBool(), true);
        QCOMPARE(e["constraints"].toArray().size(), 0);
        QCOMPARE(e["evaluator"].toObject()["kind"].toString(), QString("manual"));
        QCOMPARE(e["method"].toObject()["strategy"].toString(), QString("sebo-l0"));  // the default of 'new'
        QCOMPARE(e["method"].toObject()["budget"].toInt(), 30);
        QCOMPARE(e["seed"].toInt(), 5);
        const QJsonArray parameters = e["space"].toObject()["parameters"].toArray();
        QCOMPARE(parameters.size(), 4);
        QCOMPARE(parameters[1].toObject()["name"].toString(), QString("catalyst, mg"));
        QCOMPARE(parameters[1].toObject()["log"].toBool(), true);
        QCOMPARE(parameters[2].toObject()["kind"].toString(), QString("integer"));
        QCOMPARE(parameters[3].toObject()["group"].toString(), QString("mix"));

        SEBO_EXPECT(run_sebo({"new", "--space", space, "--objective", "yield", "--out", path("lab.sebo.json")}), 2,
                    "already exists; use --force");
        QCOMPARE(run_sebo({"new", "--space", space, "--objective", "yield", "--out", path("lab.sebo.json"), "--force",
                           "--quiet"})
                     .code,
                 0);

        // The same space as JSON.
        write_bytes(path("space.json"), R"({"parameters": [{"name": "a", "lower": 0, "upper": 1},
                                                           {"name": "b", "kind": "integer", "lower": 1, "upper": 5}]})");
        QCOMPARE(run_sebo({"new", "--space", path("space.json"), "--objective", "y", "--out", path("j.sebo.json"), "--quiet"}).code, 0);
        QCOMPARE(read_json(path("j.sebo.json"))["space"].toObject()["parameters"].toArray().size(), 2);
    }

    void bad_input_to_new_names_the_place() {
        write_bytes(path("bad.csv"), "name,kind,lower,upper\nx,continuous,0,1\ny,integer,0,5\nz,continuous,0,ten\n");
        SEBO_EXPECT(run_sebo({"new", "--space", path("bad.csv"), "--objective", "y", "--out", path("bad.sebo.json")}), 2,
                    path("bad.csv") + " line 4, column upper: 'ten' is not a number");
        QVERIFY(!QFile::exists(path("bad.sebo.json")));
        const QString space = write_space();
        SEBO_EXPECT(run_sebo({"new", "--space", space, "--out", path("u.sebo.json")}), 2, "--objective NAME[:min|:max] is required");
        SEBO_EXPECT(run_sebo({"new", "--space", space, "--objective", "y", "--evaluator", "command", "--out", path("u.sebo.json")}),
                    2, "needs --command PROG");
        SEBO_EXPECT(run_sebo({"new", "--space", space, "--objective", "y", "--evaluator", "manual", "--timeout", "5", "--out",
                              path("u.sebo.json")}),
                    2, "--timeout needs --evaluator command");
        SEBO_EXPECT(run_sebo({"new", "--space", space, "--objective", "ratio", "--out", path("u.sebo.json")}), 2,
                    "'ratio' is the name of a parameter");
        SEBO_EXPECT(run_sebo({"new", "--space", space, "--objective", "y", "--workdir", path("nowhere"), "--out",
                              path("u.sebo.json"), "--command", "/bin/true"}),
                    2, "--workdir");
        QVERIFY(!QFile::exists(path("u.sebo.json")));
    }

    void a_files_command_runs_only_when_asked_for() {
        const QString space = write_space();
        QCOMPARE(run_sebo({"new", "--space", space, "--objective", "score", "--strategy", "sobol", "--trials", "6",
                           "--timeout", "60", "--out", path("cmd.sebo.json"), "--quiet", "--command", "/bin/sh",
                           fixture("sum_parameters.sh"), "--verbose"})
                     .code,
                 0);
        const QJsonObject evaluator = read_json(path("cmd.sebo.json"))["evaluator"].toObject();
        QCOMPARE(evaluator["kind"].toString(), QString("command"));
        QCOMPARE(evaluator["command"].toArray().size(), 3);  // --command took every remaining argument
        QCOMPARE(evaluator["command"].toArray()[2].toString(), QString("--verbose"));
        QCOMPARE(evaluator["timeout_seconds"].toDouble(), 60.0);
        // The directory it runs in defaults to where 'sebo new' ran, stored as an absolute path.
        QCOMPARE(evaluator["working_directory"].toString(), QDir::current().canonicalPath());

        // Without --evaluator command: the program and every argument are shown, nothing runs or changes.
        const QByteArray before = read_bytes(path("cmd.sebo.json"));
        const Result refused = run_sebo({"run", path("cmd.sebo.json"), "--trials", "6"});
        SEBO_EXPECT(refused, 2, "\n  Program      /bin/sh");
        QVERIFY2(refused.err.contains("\n  Arguments    1. " + fixture("sum_parameters.sh") + "\n               2. --verbose\n"),
                 qPrintable(refused.err));
        QVERIFY(refused.err.contains("add --evaluator command"));
        QCOMPARE(read_bytes(path("cmd.sebo.json")), before);

        // With it: every trial is evaluated by the script (the sum of its parameter values).
        const Result ran = run_sebo({"run", path("cmd.sebo.json"), "--trials", "6", "--evaluator", "command", "--batch", "3"});
        QVERIFY2(ran.code == 0, qPrintable(ran.err));
        const QStringList names = {"temperature", "catalyst, mg", "stir_steps", "ratio"};
        const QJsonArray trials = trials_of(path("cmd.sebo.json"));
        QCOMPARE(trials.size(), 6);
        for (const auto& item : trials) {
            const QJsonObject t = item.toObject();
            QCOMPARE(t["status"].toString(), QString("completed"));
            double sum = 0;
            for (double v : values_of(t, names)) sum += v;
            SEBO_COMPARE_NEAR(metric_value(t, "score"), sum, 1e-9);
            QCOMPARE(metric_value(t, "score", "sem"), 0.25);
        }
        SEBO_EXPECT(run_sebo({"run", path("cmd.sebo.json"), "--trials", "7", "--evaluator", "shell"}), 2, "--evaluator");
        // A manual experiment is not run at all.
        QCOMPARE(run_sebo({"new", "--space", space, "--objective", "y", "--out", path("m.sebo.json"), "--quiet"}).code, 0);
        SEBO_EXPECT(run_sebo({"run", path("m.sebo.json"), "--trials", "3"}), 2, "sebo suggest");
    }

    void a_broken_evaluator_stops_the_run() {
        const QString space = write_space();
        const QString file = path("broken.sebo.json");
        QCOMPARE(run_sebo({"new", "--space", space, "--objective", "y", "--strategy", "sobol", "--trials", "30", "--out", file,
                           "--quiet", "--command", "/bin/sh", "-c", "echo 'licence server unreachable' >&2; exit 3"})
                     .code,
                 0);
        // Five failures in a row (the default) end the run; every one is kept, with its reason.
        const Result stopped = run_sebo({"run", file, "--trials", "30", "--evaluator", "command"});
        SEBO_EXPECT(stopped, 1, "stopped after 5 failed evaluations in a row (the last, trial 4:");
        QVERIFY2(stopped.err.contains("licence server unreachable"), qPrintable(stopped.err));
        QVERIFY2(stopped.err.contains("sebo run " + file + " --trials 30 --evaluator command"), qPrintable(stopped.err));
        QJsonArray trials = trials_of(file);
        QCOMPARE(trials.size(), 5);
        for (const auto& t : trials) QCOMPARE(t.toObject()["status"].toString(), QString("failed"));

        // The count starts again with every invocation, and follows --max-failures; batches count
        // trial by trial.
        SEBO_EXPECT(run_sebo({"run", file, "--trials", "30", "--evaluator", "command", "--max-failures", "2", "--batch", "3"}),
                    1, "stopped after 3 failed evaluations in a row");
        QCOMPARE(trials_of(file).size(), 8);
        const Result all = run_sebo({"run", file, "--trials", "12", "--evaluator", "command", "--max-failures", "0", "--quiet"});
        QVERIFY2(all.code == 0, qPrintable(all.err));
        QCOMPARE(trials_of(file).size(), 12);
        SEBO_EXPECT(run_sebo({"run", file, "--trials", "13", "--evaluator", "command", "--max-failures", "-1"}), 2,
                    "--max-failures");
        QCOMPARE(trials_of(file).size(), 12);
    }

    void shell_metacharacters_stay_inert() {
        QTemporaryDir work;
        write_bytes(path("evil.csv"), "name,lower,upper\n"
                                      "\"$(touch pwned)\",0,1\n"
                                      "\"; touch pwned #\",0,1\n"
                                      "\"`touch pwned` \"\"q\"\" 'p'\",0,1\n");
        const QStringList hostile = {"; touch pwned", "$(touch pwned)", "`touch pwned`", "' \"; touch pwned; '", "&& touch pwned"};
        QStringList args = {"new", "--space", path("evil.csv"), "--objective", "y", "--strategy", "sobol", "--trials", "2",
                            "--workdir", work.path(), "--out", path("evil.sebo.json"), "--quiet", "--command", "/bin/sh",
                            fixture("record_input.sh")};
        args << hostile;
        QCOMPARE(run_sebo(args).code, 0);
        const Result shown = run_sebo({"run", path("evil.sebo.json"), "--trials", "1"});
        QCOMPARE(shown.code, 2);
        QVERIFY2(shown.err.contains("'$(touch pwned)'"), qPrintable(shown.err));  // quoted as a shell would need it
        const Result r = run_sebo({"run", path("evil.sebo.json"), "--trials", "1", "--evaluator", "command"}, work.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(trials_of(path("evil.sebo.json"))[0].toObject()["status"].toString(), QString("completed"));
        QVERIFY(!QFile::exists(work.filePath("pwned")));
        QVERIFY(!QFile::exists(path("pwned")));

        QByteArray expected_argv;
        for (const QString& a : hostile) expected_argv += a.toUtf8() + QByteArray(1, '\0');
        QCOMPARE(read_bytes(work.filePath("received-argv")), expected_argv);
        const QJsonObject received = QJsonDocument::fromJson(read_bytes(work.filePath("received-stdin"))).object();
        QCOMPARE(received["trial"].toInt(), 0);
        const QStringList keys = received["parameters"].toObject().keys();
        QVERIFY(keys.contains("$(touch pwned)"));
        QVERIFY(keys.contains("; touch pwned #"));
        QVERIFY(keys.contains("`touch pwned` \"q\" 'p'"));
    }

    void ask_tell_round_trip_with_batches() {
        const QString space = write_space();
        const QString file = path("asktell.sebo.json");
        QCOMPARE(run_sebo({"new", "--space", space, "--objective", "yield", "--model", "gp", "--init", "3", "--trials", "20",
                           "--seed", "3", "--out", file, "--quiet"})
                     .code,
                 0);
        // Keep the model steps quick: fewer raw samples, restarts and homotopy stages.
        QJsonObject e = read_json(file);
        QJsonObject method = e["method"].toObject();
        method["raw_samples"] = 128;
        method["restarts"] = 4;
        method["homotopy_steps"] = 6;
        e["method"] = method;
        write_bytes(file, QJsonDocument(e).toJson());
        const QStringList names = {"temperature", "catalyst, mg", "stir_steps", "ratio"};

        // Ask for 3 (the initial design: the status quo first, then Sobol), with a sheet to fill in.
        const Result first = run_sebo({"suggest", file, "--count", "3", "--json", "--csv", path("sheet.csv")});
        QVERIFY2(first.code == 0, qPrintable(first.err));
        const QJsonArray proposed = QJsonDocument::fromJson(first.out.toUtf8()).object()["trials"].toArray();
        QCOMPARE(proposed.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(proposed[i].toObject()["trial"].toInt(), i);
            QCOMPARE(proposed[i].toObject()["generator"].toString(), QString(i == 0 ? "status-quo" : "sobol"));
            QVERIFY(proposed[i].toObject()["parameters"].toObject()["stir_steps"].isDouble());
        }
        QCOMPARE(trials_of(file).size(), 3);
        for (const auto& t : trials_of(file)) QCOMPARE(t.toObject()["status"].toString(), QString("pending"));
        QVERIFY(read_bytes(path("sheet.csv")).startsWith("trial,temperature,\"catalyst, mg\",stir_steps,ratio,yield\n0,"));

        // Tell: two by value, one by a CSV matched on its parameter values.
        QCOMPARE(run_sebo({"observe", file, "--trial", "0", "--value", "0.42"}).code, 0);
        QCOMPARE(run_sebo({"observe", file, "--trial", "1", "--value", "0.57", "--sem", "0.02"}).code, 0);
        const QList<double> v2 = values_of(proposed[2].toObject(), names);
        write_bytes(path("results.csv"), QString("\"catalyst, mg\",temperature,ratio,stir_steps,yield\n%1,%2,%3,%4,0.33\n")
                                             .arg(exact(v2[1]), exact(v2[0]), exact(v2[3]), exact(v2[2]))
                                             .toUtf8());
        const Result by_csv = run_sebo({"observe", file, "--csv", path("results.csv")});
        QVERIFY2(by_csv.code == 0, qPrintable(by_csv.err));
        QVERIFY2(by_csv.err.contains("line 2: matched -> trial 2"), qPrintable(by_csv.err));
        QJsonArray trials = trials_of(file);
        QCOMPARE(metric_value(trials[0].toObject(), "yield"), 0.42);
        QCOMPARE(metric_value(trials[1].toObject(), "yield", "sem"), 0.02);
        QCOMPARE(metric_value(trials[2].toObject(), "yield"), 0.33);
        for (const auto& t : trials) QCOMPARE(t.toObject()["status"].toString(), QString("completed"));

        // Ask for a model-based batch of 3: distinct, and new.
        const Result batch = run_sebo({"suggest", file, "--count", "3", "--json"});
        QVERIFY2(batch.code == 0, qPrintable(batch.err));
        const QJsonArray model_batch = QJsonDocument::fromJson(batch.out.toUtf8()).object()["trials"].toArray();
        QCOMPARE(model_batch.size(), 3);
        QSet<QString> configurations;
        for (const auto& t : model_batch) {
            // SEBO-L0's, or its dense start's under noise (docs/method.md §13)
            QVERIFY2(t.toObject()["generator"].toString().startsWith("sebo-l0"), qPrintable(t.toObject()["generator"].toString()));
            configurations.insert(QJsonDocument(t.toObject()["parameters"].toObject()).toJson());
        }
        QCOMPARE(configurations.size(), 3);  // q = 3 distinct candidates
        for (int i = 0; i < 3; ++i)
            QVERIFY(!configurations.contains(QJsonDocument(proposed[i].toObject()["parameters"].toObject()).toJson()));

        // With those three pending, the next suggestion differs from each of them.
        const Result next = run_sebo({"suggest", file, "--json"});
        QVERIFY2(next.code == 0, qPrintable(next.err));
        const QJsonObject after = QJsonDocument::fromJson(next.out.toUtf8()).object()["trials"].toArray()[0].toObject();
        QCOMPARE(after["trial"].toInt(), 6);
        QVERIFY(!configurations.contains(QJsonDocument(after["parameters"].toObject()).toJson()));

        // Everything is in the file: 3 completed, 4 pending, and the text form of suggest works.
        trials = trials_of(file);
        QCOMPARE(trials.size(), 7);
        int completed = 0, pending = 0;
        for (const auto& t : trials) {
            completed += t.toObject()["status"].toString() == "completed";
            pending += t.toObject()["status"].toString() == "pending";
        }
        QCOMPARE(completed, 3);
        QCOMPARE(pending, 4);
        const Result text = run_sebo({"suggest", file, "--count", "2", "--model", "gp"});
        QVERIFY2(text.code == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains("trial 7") && text.out.contains("trial 8") && text.out.contains("catalyst, mg"),
                 qPrintable(text.out));
        QVERIFY(text.out.contains("sebo observe"));
    }

    void observe_refuses_what_it_cannot_record() {
        const QString space = write_space();
        const QString file = path("obs.sebo.json");
        QCOMPARE(run_sebo({"new", "--space", space, "--objective", "yield", "--strategy", "sobol", "--trials", "10", "--out",
                           file, "--quiet"})
                     .code,
                 0);
        QCOMPARE(run_sebo({"suggest", file, "--count", "3", "--json"}).code, 0);
        QCOMPARE(run_sebo({"observe", file, "--trial", "0", "--value", "1.5"}).code, 0);
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "0", "--value", "2"}), 2,
                    "trial 0 already has a result (completed, yield 1.5); --overwrite replaces it");
        QCOMPARE(run_sebo({"observe", file, "--trial", "0", "--value", "2", "--overwrite"}).code, 0);
        QCOMPARE(metric_value(trials_of(file)[0].toObject(), "yield"), 2.0);
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "9", "--value", "2"}), 2, "no trial 9 in the experiment");
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "1"}), 2, "--value V or --failed REASON");
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "1", "--value", "nan"}), 2, "--value: 'nan' is not a finite number");
        SEBO_EXPECT(run_sebo({"observe", file, "--csv", path("x.csv"), "--trial", "1"}), 2, "either --trial I or --csv");

        // A sheet with a good row, an unmatched one and an invalid one: nothing, or --partial.
        write_bytes(path("mixed.csv"), "trial,objective,status,error\n1,0.7,,\n42,0.1,,\n2,,broken,\n");
        const QByteArray before = read_bytes(file);
        const Result refused = run_sebo({"observe", file, "--csv", path("mixed.csv")});
        SEBO_EXPECT(refused, 2, "nothing recorded: 1 row(s) not matched, 1 invalid (--partial records the 1 matched row(s))");
        QVERIFY(refused.err.contains("line 2: matched -> trial 1"));
        QVERIFY(refused.err.contains("line 3: not matched: no trial 42 in the experiment"));
        QVERIFY(refused.err.contains("line 4: invalid: column status: 'broken' is not a status"));
        QCOMPARE(read_bytes(file), before);
        QCOMPARE(run_sebo({"observe", file, "--csv", path("mixed.csv"), "--partial"}).code, 0);
        QCOMPARE(metric_value(trials_of(file)[1].toObject(), "yield"), 0.7);
        QCOMPARE(trials_of(file)[2].toObject()["status"].toString(), QString("pending"));

        QCOMPARE(run_sebo({"observe", file, "--trial", "2", "--failed", "the sample was contaminated"}).code, 0);
        QCOMPARE(trials_of(file)[2].toObject()["status"].toString(), QString("failed"));
        QCOMPARE(trials_of(file)[2].toObject()["error"].toString(), QString("the sample was contaminated"));

        // The budget: 3 of 10 used; asking beyond it is refused with the way out.
        QCOMPARE(run_sebo({"suggest", file, "--count", "7", "--json"}).code, 0);
        SEBO_EXPECT(run_sebo({"suggest", file}), 2, "raise it with --trials N");
        QCOMPARE(run_sebo({"suggest", file, "--trials", "11", "--json"}).code, 0);
        QCOMPARE(trials_of(file).size(), 11);
    }

    void historical_data_is_imported_whole_or_not_at_all() {
        const QString space = write_space();
        write_bytes(path("past.csv"), "temperature,catalyst, mg,stir_steps,ratio,yield\n");  // unquoted comma: 6 columns
        SEBO_EXPECT(run_sebo({"new", "--space", space, "--objective", "yield", "--import", path("past.csv"), "--out",
                              path("h.sebo.json")}),
                    2, "no column for parameter 'catalyst, mg'");
        write_bytes(path("past.csv"), "temperature,\"catalyst, mg\",stir_steps,ratio,yield,operator\n"
                                      "25,0.5,3,0.2,0.61,ann\n"
                                      "95,0.5,3,0.2,0.7,bob\n"
                                      "30,0.5,2.5,0.2,0.4,ann\n"
                                      "40,1,0,0,0.8,cy\n");
        const Result bad = run_sebo({"new", "--space", space, "--objective", "yield", "--import", path("past.csv"), "--out",
                                     path("h.sebo.json")});
        SEBO_EXPECT(bad, 2, path("past.csv") + " line 3, column temperature: 95 is above the upper bound 90");
        QVERIFY(bad.err.contains(path("past.csv") + " line 4, column stir_steps: 2.5 is not an integer"));
        QVERIFY(bad.err.contains("nothing was imported"));
        QVERIFY(!QFile::exists(path("h.sebo.json")));

        write_bytes(path("past.csv"), "temperature,\"catalyst, mg\",stir_steps,ratio,yield,operator\n"
                                      "25,0.5,3,0.2,0.61,ann\n"
                                      "40,1,0,0,0.8,cy\n");
        QCOMPARE(run_sebo({"new", "--space", space, "--objective", "yield", "--strategy", "sobol", "--import", path("past.csv"),
                           "--out", path("h.sebo.json"), "--quiet"})
                     .code,
                 0);
        QJsonArray trials = trials_of(path("h.sebo.json"));
        QCOMPARE(trials.size(), 2);
        QCOMPARE(trials[0].toObject()["generator"].toString(), QString("import"));
        QCOMPARE(trials[0].toObject()["status"].toString(), QString("completed"));
        QCOMPARE(metric_value(trials[1].toObject(), "yield"), 0.8);
        QCOMPARE(trials[1].toObject()["parameters"].toObject()["catalyst, mg"].toDouble(), 1.0);

        write_bytes(path("more.csv"), "ratio,stir_steps,temperature,\"catalyst, mg\",objective,sem\n0.5,8,90,10,0.9,0.05\n");
        QCOMPARE(run_sebo({"import", path("h.sebo.json"), path("more.csv"), "--quiet"}).code, 0);
        trials = trials_of(path("h.sebo.json"));
        QCOMPARE(trials.size(), 3);
        QCOMPARE(trials[2].toObject()["index"].toInt(), 2);
        QCOMPARE(metric_value(trials[2].toObject(), "yield", "sem"), 0.05);
        // The next suggestion continues after the imported trials.
        const Result next = run_sebo({"suggest", path("h.sebo.json"), "--json"});
        QVERIFY2(next.code == 0, qPrintable(next.err));
        QCOMPARE(QJsonDocument::fromJson(next.out.toUtf8()).object()["trials"].toArray()[0].toObject()["trial"].toInt(), 3);
    }
};

SEBO_TEST_MAIN(TestCliAskTell)
}  // namespace test_cli_asktell
#include "test_cli_asktell.moc"
