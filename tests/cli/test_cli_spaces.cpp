// `sebo new` / `sebo run` / `sebo suggest` with the space and method settings of issue 14 (items 4–6):
// the space CSV's min_change column, the sparsity range flags --max-active / --min-active, and the
// status quo as a new experiment's first trial (--no-status-quo to skip it); and BONSAI's
// --bonsai-tolerance (issue 16). Bad input exits 2
// with the file, line and column (or the flag) and the value, and writes nothing.
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <cmath>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_spaces {

namespace {

using sebo::test::read_json;
using sebo::test::run_sebo;
using Result = sebo::test::CliResult;

}  // namespace

class TestCliSpaces : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    QString path(const QString& name) const { return dir.filePath(name); }

    // A three-parameter space: timeout (target 30, floor 5 %), workers (integer, floor 2), ratio.
    QString space(const QByteArray& extra_row = {}) {
        const QString file = path("space.csv");
        sebo::test::write_bytes(file, "name,kind,lower,upper,target,min_change\n"
                                      "timeout,continuous,1,60,30,5%\n"
                                      "workers,integer,1,32,4,2\n"
                                      "ratio,continuous,0,1,,\n" +
                                          extra_row);
        return file;
    }

    Result make(const QStringList& extra, const QString& out) {
        return run_sebo(QStringList{"new", "--space", space(), "--objective", "latency", "--minimize", "--out", out,
                                    "--quiet"} +
                        extra);
    }

private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    void new_experiment_measures_the_status_quo_first() {
        const QString out = path("sq.sebo.json");
        const Result made = run_sebo({"new", "--space", space(), "--objective", "latency", "--minimize", "--out", out});
        SEBO_EXPECT(made, 0, "first trial  the status quo");
        const QJsonObject file = read_json(out);
        QVERIFY(file["version"].toInt() >= 4);  // min_change, status_quo_first: version 4
        QCOMPARE(file["method"].toObject()["status_quo_first"].toBool(), true);
        const QJsonArray parameters = file["space"].toObject()["parameters"].toArray();
        QCOMPARE(parameters[0].toObject()["min_change"].toString(), QString("5%"));
        QCOMPARE(parameters[1].toObject()["min_change"].toDouble(), 2.0);
        QVERIFY(!parameters[2].toObject().contains("min_change"));

        SEBO_EXPECT(run_sebo({"suggest", out, "--count", "3", "--json"}), 0, "");
        const QJsonArray trials = read_json(out)["trials"].toArray();
        QCOMPARE(trials.size(), 3);
        const QJsonObject first = trials[0].toObject();
        QCOMPARE(first["generator"].toString(), QString("status-quo"));
        const QJsonObject values = first["parameters"].toObject();
        QCOMPARE(values["timeout"].toDouble(), 30.0);
        QCOMPARE(values["workers"].toDouble(), 4.0);
        QCOMPARE(values["ratio"].toDouble(), 0.0);
        // Every other proposal keeps its floors: a change is 0 or at least the floor.
        for (int i = 1; i < 3; ++i) {
            const QJsonObject v = trials[i].toObject()["parameters"].toObject();
            QCOMPARE(trials[i].toObject()["generator"].toString(), QString("sobol"));
            const double dt = std::abs(v["timeout"].toDouble() - 30.0), dw = std::abs(v["workers"].toDouble() - 4.0);
            QVERIFY2(dt == 0.0 || dt >= 0.05 * 59, qPrintable(QString::number(dt)));
            QVERIFY2(dw == 0.0 || dw >= 2.0, qPrintable(QString::number(dw)));
        }

        const QString skipped = path("no-sq.sebo.json");
        SEBO_EXPECT(make({"--no-status-quo"}, skipped), 0, "");
        QCOMPARE(read_json(skipped)["method"].toObject()["status_quo_first"].toBool(), false);
        SEBO_EXPECT(run_sebo({"suggest", skipped}), 0, "");
        QCOMPARE(read_json(skipped)["trials"].toArray()[0].toObject()["generator"].toString(), QString("sobol"));
    }

    void bad_min_change_exits_2_naming_line_column_and_value() {
        for (const auto& [row, message] :
             {std::pair{QByteArray("depth,continuous,0,1,,-0.5\n"), QString("line 5, column min_change: '-0.5' is negative")},
              std::pair{QByteArray("depth,continuous,0,1,,lots\n"),
                        QString("line 5, column min_change: 'lots' is not a number or a percentage of the range")},
              std::pair{QByteArray("depth,continuous,0,1,,3\n"),
                        QString("line 5, column min_change: '3' is larger than the range 1 (from 0 to 1)")},
              std::pair{QByteArray("depth,continuous,0,1,,200%\n"),
                        QString("line 5, column min_change: '200%' is more than the whole range (100%)")}}) {
            const QString out = path("bad.sebo.json");
            const Result r = run_sebo({"new", "--space", space(row), "--objective", "y", "--out", out});
            SEBO_EXPECT(r, 2, message);
            QVERIFY(r.err.contains("space.csv"));
            QVERIFY(!QFile::exists(out));
        }
    }

    void sparsity_range_flags() {
        const QString out = path("range.sebo.json");
        SEBO_EXPECT(make({"--max-active", "2", "--min-active", "1"}, out), 0, "");
        QCOMPARE(read_json(out)["method"].toObject()["max_active"].toInt(), 2);
        QCOMPARE(read_json(out)["method"].toObject()["min_active"].toInt(), 1);

        const QString bad = path("range-bad.sebo.json");
        SEBO_EXPECT(make({"--max-active", "0"}, bad), 2, "--max-active");
        SEBO_EXPECT(make({"--max-active", "two"}, bad), 2, "--max-active");
        SEBO_EXPECT(make({"--max-active", "4"}, bad), 2, "--max-active: 4 is above the 3 parameters of the space");
        SEBO_EXPECT(make({"--max-active", "1", "--min-active", "2"}, bad), 2, "--min-active: 2 is above max_active 1");
        SEBO_EXPECT(make({"--strategy", "sebo-l1", "--max-active", "2"}, bad), 2,
                    "--max-active: the sparsity range counts changed parameters, which needs the L0 penalty");
        QVERIFY(!QFile::exists(bad));

        // `sebo run` sets them on a built-in problem, and on an existing file.
        const QString run = path("run.sebo.json");
        SEBO_EXPECT(run_sebo({"run", "--problem", "branin", "--dim", "6", "--trials", "2", "--max-active", "3", "--out",
                              run, "--quiet"}),
                    0, "");
        QCOMPARE(read_json(run)["method"].toObject()["max_active"].toInt(), 3);
        QCOMPARE(read_json(run)["method"].toObject()["status_quo_first"].toBool(), false);  // built-in problems: Sobol first
        SEBO_EXPECT(run_sebo({"run", run, "--trials", "3", "--max-active", "7", "--quiet"}), 2,
                    "--max-active: 7 is above the 6 parameters of the space");
        QCOMPARE(read_json(run)["trials"].toArray().size(), 2);
    }

    // BONSAI's tolerance (issue 16 item 1): `sebo new --bonsai-tolerance`, `sebo run` changing it, a
    // value outside (0, 1] refused naming the flag, nothing written.
    void bonsai_tolerance_flag() {
        const QString out = path("bonsai.sebo.json");
        SEBO_EXPECT(make({"--strategy", "bonsai", "--bonsai-tolerance", "0.05"}, out), 0, "");
        QCOMPARE(read_json(out)["method"].toObject()["bonsai_tolerance"].toDouble(), 0.05);
        const QString defaults = path("bonsai-default.sebo.json");
        SEBO_EXPECT(make({"--strategy", "bonsai"}, defaults), 0, "");
        QCOMPARE(read_json(defaults)["method"].toObject()["bonsai_tolerance"].toDouble(), 0.2);

        const QString bad = path("bonsai-bad.sebo.json");
        SEBO_EXPECT(make({"--bonsai-tolerance", "0"}, bad), 2, "--bonsai-tolerance: 0 is not in (0, 1]");
        SEBO_EXPECT(make({"--bonsai-tolerance", "1.5"}, bad), 2, "--bonsai-tolerance: 1.5 is not in (0, 1]");
        SEBO_EXPECT(make({"--bonsai-tolerance", "much"}, bad), 2, "--bonsai-tolerance: 'much' is not a finite number");
        QVERIFY(!QFile::exists(bad));

        const QString run = path("bonsai-run.sebo.json");
        SEBO_EXPECT(run_sebo({"run", "--problem", "branin", "--dim", "4", "--trials", "2", "--strategy", "bonsai",
                              "--bonsai-tolerance", "0.5", "--out", run, "--quiet"}),
                    0, "");
        QCOMPARE(read_json(run)["method"].toObject()["bonsai_tolerance"].toDouble(), 0.5);
        SEBO_EXPECT(run_sebo({"run", run, "--trials", "3", "--bonsai-tolerance", "2", "--quiet"}), 2,
                    "--bonsai-tolerance: 2 is not in (0, 1]");
        QCOMPARE(read_json(run)["trials"].toArray().size(), 2);
    }
};

SEBO_TEST_MAIN(TestCliSpaces)
}  // namespace test_cli_spaces
#include "test_cli_spaces.moc"
