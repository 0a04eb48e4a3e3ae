// Issue 18, reproduced as a new user would: an evaluator that returns 1e308 once (a timeout
// sentinel) and ordinary latencies otherwise, run with `sebo run`. The run warns once, the
// hypervolume and its trace stay finite, the reference point stays next to the real values, and
// `sebo observe --exclude` leaves the frontier exactly as if the trial had never been measured
// (`--include` undoes it). Also: the warnings of `sebo observe` and `sebo import`, and the refusals
// of --exclude.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <cmath>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_extremes {

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

// The analysis of the measurements (--raw: the model's estimates change when a value is excluded;
// what these tests compare is the frontier of what was measured).
QJsonObject frontier_json(const QString& file) {
    const Result r = run_sebo({"frontier", file, "--json", "--raw"});
    if (r.code != 0) qWarning("sebo frontier: %s", qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

QStringList lines_starting_with(const QString& text, const QString& prefix) {
    QStringList out;
    for (const QString& line : text.split('\n'))
        if (line.startsWith(prefix)) out << line;
    return out;
}

}  // namespace

class TestCliExtremes : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString path(const QString& name) const { return dir.filePath(name); }

    // Six parameters in [0, 1] with target 0; the latency depends on x0, x1 and x2.
    QString write_space() {
        QByteArray text = "name,lower,upper\n";
        for (int i = 0; i < 6; ++i) text += "x" + QByteArray::number(i) + ",0,1\n";
        write_bytes(path("space.csv"), text);
        return path("space.csv");
    }

    // A new experiment whose command reports 1e308 for trial `sentinel`; quick model settings.
    void create(const QString& file, const QStringList& options, int sentinel) {
        QStringList args = {"new", "--space", write_space(), "--objective", "latency", "--out", file, "--force", "--quiet"};
        args << options << "--command" << "/bin/sh" << fixture("latency_with_sentinel.sh") << QString::number(sentinel);
        const Result r = run_sebo(args);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QJsonObject e = read_json(file);
        QJsonObject method = e["method"].toObject();
        method["raw_samples"] = 256;
        method["restarts"] = 4;
        method["homotopy_steps"] = 8;
        e["method"] = method;
        write_bytes(file, QJsonDocument(e).toJson());
    }

    // A new experiment over the six-parameter space, evaluated by hand (Sobol, budget 20).
    Result new_manual(const QString& file, const QString& objective, const QStringList& options) {
        return run_sebo(QStringList{"new", "--space", write_space(), "--objective", objective, "--strategy", "sobol",
                                    "--trials", "20", "--evaluator", "manual", "--out", file} +
                        options);
    }

    // The file with the trial of index `trial` removed, as if it had never been measured.
    QString without_trial(const QString& file, int trial, const QString& name) {
        QJsonObject e = read_json(file);
        QJsonArray kept;
        for (const auto& t : e["trials"].toArray())
            if (t.toObject()["index"].toInt() != trial) kept.append(t);
        e["trials"] = kept;
        write_bytes(path(name), QJsonDocument(e).toJson());
        return path(name);
    }

    // Everything `sebo frontier --json` says except the trace and the excluded trials.
    static QJsonObject analysis(QJsonObject frontier) {
        frontier.remove("hypervolume_trace");
        frontier.remove("excluded_trials");
        frontier.remove("feasible_trials");  // counts the analysed trials, so one fewer once excluded
        return frontier;
    }

private slots:
    void a_timeout_sentinel_in_a_minimized_latency() {
        const QString file = path("latency.sebo.json");
        create(file, {"--minimize", "--model", "gp", "--init", "8", "--trials", "11", "--seed", "4"}, 6);

        const Result run = run_sebo({"run", file, "--trials", "11", "--evaluator", "command"});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        // One warning line, for trial 6, with the command that excludes it.
        const QStringList warnings = lines_starting_with(run.err, "warning:");
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings[0].contains("trial 6: latency = 1e+308 lies ") && warnings[0].contains("interquartile ranges") &&
                     warnings[0].contains("sebo observe " + file + " --trial 6 --exclude \"REASON\""),
                 qPrintable(warnings[0]));
        const QStringList done = lines_starting_with(run.err, "done:");
        QCOMPARE(done.size(), 1);
        QVERIFY2(!done[0].contains("inf") && !done[0].contains("nan"), qPrintable(done[0]));

        // The hypervolume, its trace and the reference point are finite numbers; the reference
        // lies just above the worst real latency (minimized), not at 1.1e308.
        const QJsonObject before = frontier_json(file);
        QVERIFY(before["hypervolume"].isDouble());
        QVERIFY(before["hypervolume"].toDouble() > 0.0);
        double worst_real = 0.0;
        for (const auto& t : read_json(file)["trials"].toArray())
            if (t.toObject()["index"].toInt() != 6) worst_real = std::max(worst_real, metric_value(t.toObject(), "latency"));
        const double reference = before["reference"].toObject()["objective"].toDouble();
        QVERIFY2(reference > worst_real && reference < 2.0 * worst_real,
                 qPrintable(QString("reference %1, worst real value %2").arg(reference).arg(worst_real)));
        const QJsonArray trace = before["hypervolume_trace"].toArray();
        QCOMPARE(trace.size(), 11);
        for (int i = 0; i < trace.size(); ++i) {
            QVERIFY2(trace[i].isDouble(), qPrintable(QString("trace[%1] is not a number").arg(i)));
            if (i > 0) QVERIFY(trace[i].toDouble() >= trace[i - 1].toDouble());
        }
        QVERIFY(!run_sebo({"frontier", file}).out.contains("1.1e+308"));

        // Excluded: the analysis is that of the file without trial 6 — and, the reference being
        // robust, the same as before (a minimized 1e308 is below it and adds no volume).
        const Result excluded = run_sebo({"observe", file, "--trial", "6", "--exclude", "timeout reported as 1e308"});
        QVERIFY2(excluded.code == 0, qPrintable(excluded.err));
        QVERIFY2(excluded.err.contains("trial 6 (latency = 1e+308) excluded from analysis: timeout reported as 1e308") &&
                     excluded.err.contains("--trial 6 --include"),
                 qPrintable(excluded.err));
        const QJsonObject trial6 = read_json(file)["trials"].toArray()[6].toObject();
        QCOMPARE(metric_value(trial6, "latency"), 1e308);  // the value is kept
        QCOMPARE(trial6["excluded"].toObject()["reason"].toString(), QString("timeout reported as 1e308"));
        const QJsonObject after = frontier_json(file);
        const QJsonObject removed = frontier_json(without_trial(file, 6, "removed.sebo.json"));
        QCOMPARE(analysis(after), analysis(removed));
        QCOMPARE(analysis(after), analysis(before));
        QJsonArray after_trace = after["hypervolume_trace"].toArray();
        QCOMPARE(after_trace[6], after_trace[5]);  // as if it had not been measured
        after_trace.removeAt(6);
        QCOMPARE(after_trace, removed["hypervolume_trace"].toArray());
        QCOMPARE(after["excluded_trials"].toArray().size(), 1);
        QCOMPARE(after["excluded_trials"].toArray()[0].toObject()["trial"].toInt(), 6);
        const QJsonObject info = QJsonDocument::fromJson(run_sebo({"info", file, "--json"}).out.toUtf8()).object();
        QCOMPARE(info["trials"].toObject()["excluded"].toInt(), 1);
        QVERIFY(run_sebo({"frontier", file}).out.contains("1 excluded from analysis (trial 6)"));

        // A model step after the exclusion: the run goes on, nothing more to warn about.
        const Result more = run_sebo({"run", file, "--trials", "12", "--evaluator", "command"});
        QVERIFY2(more.code == 0, qPrintable(more.err));
        QVERIFY(lines_starting_with(more.err, "warning:").isEmpty());

        // Included again: the analysis counts it once more.
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "6", "--include"}), 0, "trial 6 (latency = 1e+308) counts in the analysis again");
        QVERIFY(!read_json(file)["trials"].toArray()[6].toObject().contains("excluded"));
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "6", "--include"}), 0, "trial 6 is not excluded; nothing changed");
    }

    // Maximized, the sentinel is the best value: it tops every level of the frontier that allows
    // its active parameters until it is excluded.
    void a_sentinel_in_a_maximized_objective() {
        const QString file = path("throughput.sebo.json");
        create(file, {"--strategy", "sobol", "--trials", "10", "--seed", "2"}, 3);
        const Result run = run_sebo({"run", file, "--trials", "10", "--evaluator", "command", "--quiet"});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const QJsonObject before = frontier_json(file);
        QVERIFY(before["hypervolume"].isDouble());
        bool sentinel_on_frontier = false;
        for (const auto& p : before["pareto_trials"].toArray()) sentinel_on_frontier |= p.toObject()["trial"].toInt() == 3;
        QVERIFY(sentinel_on_frontier);
        // The reference comes from the other values: far below 1e307.
        QVERIFY(std::abs(before["reference"].toObject()["objective"].toDouble()) < 1000.0);

        QCOMPARE(run_sebo({"observe", file, "--trial", "3", "--exclude", "sentinel", "--quiet"}).code, 0);
        const QJsonObject after = frontier_json(file);
        const QJsonObject removed = frontier_json(without_trial(file, 3, "removed-max.sebo.json"));
        QCOMPARE(analysis(after), analysis(removed));
        for (const auto& level : after["levels"].toArray()) QVERIFY(level.toObject()["trial"].toInt() != 3);
        // A new value for the trial replaces the one that was excluded, and ends the exclusion.
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "3", "--value", "42.5"}), 2, "excluded from analysis: sentinel");
        QCOMPARE(run_sebo({"observe", file, "--trial", "3", "--value", "42.5", "--overwrite", "--quiet"}).code, 0);
        QVERIFY(!read_json(file)["trials"].toArray()[3].toObject().contains("excluded"));
    }

    void observe_warns_about_an_extreme_new_value() {
        const QString file = path("lab.sebo.json");
        QCOMPARE(new_manual(file, "yield", {"--quiet"}).code, 0);
        QCOMPARE(run_sebo({"suggest", file, "--count", "8", "--csv", path("sheet.csv")}).code, 0);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(run_sebo({"observe", file, "--trial", QString::number(i), "--value", QString::number(10 + i)}).code, 0);
        // An ordinary sixth value: no warning. A unit slip (×1e6): one warning line.
        const Result ordinary = run_sebo({"observe", file, "--trial", "5", "--value", "13.5"});
        QVERIFY(lines_starting_with(ordinary.err, "warning:").isEmpty());
        const Result slip = run_sebo({"observe", file, "--trial", "6", "--value", "12000000"});
        QCOMPARE(slip.code, 0);
        const QStringList warnings = lines_starting_with(slip.err, "warning:");
        QCOMPARE(warnings.size(), 1);
        // The other six: 10, 11, 12, 13, 13.5, 14: median 12.5, quartiles 11.25 and 13.375 (IQR 2.125);
        // (1.2e7 − 12.5) / 2.125 = 5.6e6 interquartile ranges.
        QVERIFY2(warnings[0].startsWith("warning: trial 6: yield = 1.2e+07 lies 5.6e+06 interquartile ranges (2.12) from the "
                                        "median (12.5) of the other 6 trials; if it is a failed measurement: sebo observe"),
                 qPrintable(warnings[0]));
        // From a sheet too; --quiet prints nothing.
        write_bytes(path("one.csv"), "trial,yield\n7,-1e9\n");
        const Result sheet = run_sebo({"observe", file, "--csv", path("one.csv")});
        QCOMPARE(lines_starting_with(sheet.err, "warning:").size(), 1);
        QVERIFY(sheet.err.contains("warning: trial 7: yield = -1e+09"));
    }

    // Past results imported from a CSV are checked like observed ones: one line for the sentinel.
    void import_warns_about_an_extreme_value() {
        const QString file = path("past.sebo.json");
        QCOMPARE(new_manual(file, "yield", {"--quiet"}).code, 0);
        QByteArray csv = "x0,x1,x2,x3,x4,x5,yield\n";
        const char* values[] = {"10", "11", "12", "13", "13.5", "14", "-1e9"};
        for (int i = 0; i < 7; ++i) csv += "0." + QByteArray::number(i + 1) + ",0.5,0.5,0.5,0.5,0.5," + values[i] + "\n";
        write_bytes(path("past.csv"), csv);
        const Result imported = run_sebo({"import", file, path("past.csv")});
        QCOMPARE(imported.code, 0);
        const QStringList warnings = lines_starting_with(imported.err, "warning:");
        QCOMPARE(warnings.size(), 1);
        // The other six: median 12.5, interquartile range 2.125, as in the test above.
        QVERIFY2(warnings[0].startsWith("warning: trial 6: yield = -1e+09 lies 4.7e+08 interquartile ranges (2.12) from the "
                                        "median (12.5) of the other 6 trials; if it is a failed measurement: sebo observe"),
                 qPrintable(warnings[0]));
        // The same from `sebo new --import`.
        const Result created = new_manual(path("new.sebo.json"), "yield", {"--import", path("past.csv")});
        QCOMPARE(created.code, 0);
        QCOMPARE(lines_starting_with(created.err, "warning:").size(), 1);
        QVERIFY(created.err.contains("warning: trial 6: yield = -1e+09"));
        // --quiet prints nothing.
        const QString quiet = path("past-quiet.sebo.json");
        QCOMPARE(new_manual(quiet, "yield", {"--quiet"}).code, 0);
        const Result silent = run_sebo({"import", quiet, path("past.csv"), "--quiet"});
        QCOMPARE(silent.code, 0);
        QVERIFY2(silent.err.isEmpty(), qPrintable(silent.err));
    }

    void exclude_refuses_what_it_cannot_do() {
        const QString file = path("refuse.sebo.json");
        QCOMPARE(new_manual(file, "y", {"--quiet"}).code, 0);
        QCOMPARE(run_sebo({"suggest", file, "--count", "3"}).code, 0);
        QCOMPARE(run_sebo({"observe", file, "--trial", "0", "--value", "1"}).code, 0);
        QCOMPARE(run_sebo({"observe", file, "--trial", "1", "--failed", "crashed"}).code, 0);
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "0", "--exclude", "  "}), 2,
                    "--trial 0: the reason for excluding trial 0 is empty");
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "9", "--exclude", "x"}), 2, "--trial 9: there is no trial 9");
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "1", "--exclude", "x"}), 2,
                    "trial 1 is failed: only completed trials can be excluded");
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "2", "--exclude", "x"}), 2, "trial 2 is pending");
        SEBO_EXPECT(run_sebo({"observe", file, "--exclude", "x"}), 2, "--exclude needs --trial I");
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "0", "--exclude", "x", "--value", "3"}), 2,
                    "--value does not go with --exclude");
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "0", "--exclude", "x", "--include"}), 2,
                    "either --exclude REASON or --include");
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "9", "--include"}), 2, "there is no trial 9");
        // Nothing was changed by any of these.
        for (const auto& t : read_json(file)["trials"].toArray()) QVERIFY(!t.toObject().contains("excluded"));
        QVERIFY(run_sebo({"observe", "--help"}).out.contains("--exclude REASON"));
    }
};

SEBO_TEST_MAIN(TestCliExtremes)
}  // namespace test_cli_extremes
#include "test_cli_extremes.moc"
