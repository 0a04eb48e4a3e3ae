// `sebo new` / `run` / `info` / `export` / `suggest` / `observe` with a choice parameter (issue 14,
// item 1): a CSV space with compression none|lz4|zstd, Sobol then SEBO-L0 steps (GP, small
// settings) through a command evaluator that fails unless it receives the value as a JSON string,
// the file and the exports show the value as text, a result sheet carries it and `observe --csv`
// reads it back (and refuses an unknown value naming the column and the value), and bad choice
// rows exit 2 naming the file, line, column and value, writing nothing.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_choice_parameters {

namespace {

using sebo::test::evaluator_fixture;
using sebo::test::metric_value;
using sebo::test::read_json;
using sebo::test::run_sebo;
using sebo::test::write_bytes;
using Result = sebo::test::CliResult;

}  // namespace

class TestCliChoiceParameters : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    QString path(const QString& name) const { return dir.filePath(name); }

    QString space(const QByteArray& extra_row = {}) {
        const QString file = path("space.csv");
        write_bytes(file, "name,kind,lower,upper,values,target\n"
                          "compression,choice,,,none|lz4|zstd,\n"
                          "x,continuous,0,1,,\n"
                          "y,continuous,0,1,,\n" +
                              extra_row);
        return file;
    }

private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    void sobol_and_sebo_l0_send_and_show_the_value() {
        const QString file = path("choice.sebo.json");
        SEBO_EXPECT(run_sebo({"new", "--space", space(), "--objective", "objective", "--strategy", "sebo-l0", "--model", "gp",
                              "--init", "6", "--seed", "3", "--out", file, "--command", "sh",
                              evaluator_fixture("choice_parameters.sh")}),
                    0, "3 parameters");
        QJsonObject e = read_json(file);
        QCOMPARE(e["space"].toObject()["parameters"].toArray()[0].toObject(),
                 QJsonDocument::fromJson(R"({"name": "compression", "kind": "choice", "values": ["none", "lz4", "zstd"],
                                             "ordered": false})")
                     .object());
        QJsonObject method = e["method"].toObject();
        method["raw_samples"] = 128;
        method["restarts"] = 4;
        method["homotopy_steps"] = 4;
        e["method"] = method;
        write_bytes(file, QJsonDocument(e).toJson());

        // The status quo, 6 Sobol trials and 5 SEBO-L0 trials; the evaluator fails any trial whose
        // compression is not one of the three strings.
        const Result run = run_sebo({"run", file, "--trials", "12", "--evaluator", "command", "--quiet"});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const QJsonArray trials = read_json(file)["trials"].toArray();
        QCOMPARE(trials.size(), 12);
        QStringList seen;
        double best = -1e9;
        for (const auto& item : trials) {
            const QJsonObject t = item.toObject();
            QVERIFY2(t["status"].toString() == "completed", qPrintable(QJsonDocument(t).toJson()));
            const QJsonValue c = t["parameters"].toObject()["compression"];
            QVERIFY(c.isString());
            QVERIFY((QStringList{"none", "lz4", "zstd"}).contains(c.toString()));
            seen << c.toString();
            const double x = t["parameters"].toObject()["x"].toDouble();
            const double bonus = c.toString() == "lz4" ? 2.0 : c.toString() == "zstd" ? 1.0 : 0.0;
            SEBO_COMPARE_NEAR(metric_value(t, "objective"), bonus - (x - 0.6) * (x - 0.6), 1e-12);
            best = std::max(best, metric_value(t, "objective"));
        }
        QCOMPARE(trials[0].toObject()["parameters"].toObject()["compression"].toString(), QString("none"));
        QCOMPARE(trials[11].toObject()["generator"].toString(), QString("sebo-l0"));
        // The model steps find lz4 (2 minus a small distance of x from 0.6).
        QVERIFY2(best > 1.9, qPrintable(QString::number(best)));

        const Result info = run_sebo({"info", file});
        QCOMPARE(info.code, 0);
        QVERIFY2(info.out.contains("parameters   3 (0 integer, 1 choice, 0 log scale)\nchoices      compression: none|lz4|zstd, target none\n"),
                 qPrintable(info.out));
        const QJsonObject info_json = QJsonDocument::fromJson(run_sebo({"info", file, "--json"}).out.toUtf8()).object();
        QCOMPARE(info_json["choice_parameters"].toObject()["compression"].toObject()["target"].toString(), QString("none"));

        // Exports: text.
        const Result all = run_sebo({"export", file, "--all"});
        QCOMPARE(all.code, 0);
        QVERIFY2(all.out.section('\n', 0, 0).endsWith(",compression,x,y,error,excluded"), qPrintable(all.out));
        QVERIFY2(all.out.section('\n', 1, 1).contains(",none,0,0,"), qPrintable(all.out));
        int best_trial = -1;
        for (const auto& item : trials)
            if (metric_value(item.toObject(), "objective") == best) best_trial = item.toObject()["index"].toInt();
        const Result one = run_sebo({"export", file, "--trial", QString::number(best_trial)});
        QCOMPARE(one.code, 0);
        QCOMPARE(QJsonDocument::fromJson(one.out.toUtf8()).object()["parameters"].toObject()["compression"].toString(), QString("lz4"));
        const Result csv = run_sebo({"export", file, "--trial", QString::number(best_trial), "--format", "csv"});
        QVERIFY2(csv.out.contains("compression,lz4,none,true\n"), qPrintable(csv.out));
    }

    void a_result_sheet_carries_the_value_and_observe_reads_it() {
        const QString file = path("manual.sebo.json");
        SEBO_EXPECT(run_sebo({"new", "--space", space(), "--objective", "objective", "--strategy", "sobol", "--no-status-quo",
                              "--seed", "1", "--evaluator", "manual", "--out", file}),
                    0, "");
        const QString sheet = path("sheet.csv");
        SEBO_EXPECT(run_sebo({"suggest", file, "--count", "2", "--csv", sheet}), 0, "");
        QFile f(sheet);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        f.close();
        QCOMPARE(lines[0], QString("trial,compression,x,y,objective"));
        const QJsonArray trials = read_json(file)["trials"].toArray();
        for (int r = 1; r <= 2; ++r) {
            const QString value = trials[r - 1].toObject()["parameters"].toObject()["compression"].toString();
            QVERIFY2(lines[r].section(',', 1, 1) == value, qPrintable(lines[r]));
        }
        // An unknown value: nothing recorded, the column and the value named.
        QStringList bad = lines;
        bad[1] = bad[1].section(',', 0, 0) + ",brotli," + bad[1].section(',', 2, 3) + ",1.5";
        bad[2] += "2.5";
        write_bytes(sheet, bad.join('\n').toUtf8() + "\n");
        const Result refused = run_sebo({"observe", file, "--csv", sheet});
        SEBO_EXPECT(refused, 2, "'brotli' is not one of the values none|lz4|zstd of parameter 'compression'");
        QVERIFY2(refused.err.contains("column compression"), qPrintable(refused.err));
        QCOMPARE(read_json(file)["trials"].toArray()[0].toObject()["status"].toString(), QString("pending"));
        lines[1] += "1.5";
        lines[2] += "2.5";
        write_bytes(sheet, lines.join('\n').toUtf8() + "\n");
        SEBO_EXPECT(run_sebo({"observe", file, "--csv", sheet}), 0, "");
        QCOMPARE(metric_value(read_json(file)["trials"].toArray()[1].toObject(), "objective"), 2.5);
    }

    void bad_choice_rows_exit_2_and_write_nothing() {
        const QString out = path("bad.sebo.json");
        const auto refused = [&](const QByteArray& row, const QString& message, const QStringList& extra = {}) {
            const Result r = run_sebo(QStringList{"new", "--space", space(row), "--objective", "y2", "--out", out} + extra);
            SEBO_EXPECT(r, 2, message);
            QVERIFY(!QFile::exists(out));
        };
        refused("level,choice,,,1|2|2,\n", "space.csv line 5, column values: '2' appears twice (values 2 and 3)");
        refused("level,choice,,,,\n", "space.csv line 5, column values: a choice parameter needs its values");
        refused("level,choice,,,1|2,3\n", "space.csv line 5, column target: '3' is not one of the values '1|2'");
        refused("level,choice,0,,1|2,\n", "space.csv line 5, column lower: a choice parameter has values");
        refused("", "--parameter-constraint 'x + compression <= 1': column 5: parameter 'compression' cannot appear in a linear constraint: it is a choice",
                {"--parameter-constraint", "x + compression <= 1"});
    }
};

SEBO_TEST_MAIN(TestCliChoiceParameters)
}  // namespace test_cli_choice_parameters
#include "test_cli_choice_parameters.moc"
