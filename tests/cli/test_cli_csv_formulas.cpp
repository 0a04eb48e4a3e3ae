// Spreadsheet formulas in the sheets `sebo` writes (issue 33, item 2; io/csv_cell.h), end to end:
// a space whose parameter is named =HYPERLINK(...) and whose choice values begin with @ and -,
// a result sheet from `sebo suggest --csv` and the exports of `sebo export` (one configuration as
// CSV, every trial) checked byte for byte (the would-be formulas start with ', the number -2.5
// does not), then `sebo observe --csv` and `sebo import` read those sheets back to the same names
// and values.
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_csv_formulas {

namespace {

using sebo::test::metric_value;
using sebo::test::read_bytes;
using sebo::test::read_json;
using sebo::test::run_sebo;
using sebo::test::write_bytes;
using Result = sebo::test::CliResult;

const QString kLink = "=HYPERLINK(\"http://x.invalid\",\"open\")";
// The parameter's name as a guarded, quoted CSV cell.
const QByteArray kLinkCell = "\"'=HYPERLINK(\"\"http://x.invalid\"\",\"\"open\"\")\"";

}  // namespace

class TestCliCsvFormulas : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    QString path(const QString& name) const { return dir.filePath(name); }

    QString space() {
        const QString file = path("space.csv");
        write_bytes(file, "name,kind,lower,upper,values,target\n"
                          "\"=HYPERLINK(\"\"http://x.invalid\"\",\"\"open\"\")\",continuous,-5,5,,-2.5\n"
                          "mode,choice,,,@risk|-low|plain,-low\n");
        return file;
    }

private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    void sheets_guard_formulas_and_read_back() {
        const QString file = path("lab.sebo.json");
        SEBO_EXPECT(run_sebo({"new", "--space", space(), "--objective", "yield", "--strategy", "sobol", "--seed", "1",
                              "--evaluator", "manual", "--out", file}),
                    0, "");
        const QJsonObject parameters = read_json(file)["space"].toObject()["parameters"].toArray()[0].toObject();
        QCOMPARE(parameters["name"].toString(), kLink);  // the space file's quoted cell, unguarded, is the name

        // The result sheet: the status quo (-2.5, -low) and one Sobol trial.
        const QString sheet = path("sheet.csv");
        SEBO_EXPECT(run_sebo({"suggest", file, "--count", "2", "--csv", sheet}), 0, "");
        QList<QByteArray> lines = read_bytes(sheet).split('\n');
        QCOMPARE(lines.size(), 4);  // two rows and the final line break
        QCOMPARE(lines[0], "trial," + kLinkCell + ",mode,yield");
        QCOMPARE(lines[1], QByteArray("0,-2.5,'-low,"));
        QVERIFY2(lines[2].startsWith("1,"), lines[2].constData());
        // `sebo observe --csv` takes the apostrophes off: the header names the parameter and the
        // values beside the trial index are the trial's own (else the rows would be refused).
        lines[1] += "1.5";
        lines[2] += "2.5";
        write_bytes(sheet, lines.join('\n'));
        SEBO_EXPECT(run_sebo({"observe", file, "--csv", sheet}), 0, "");
        const QJsonArray trials = read_json(file)["trials"].toArray();
        QCOMPARE(metric_value(trials[0].toObject(), "yield"), 1.5);
        QCOMPARE(metric_value(trials[1].toObject(), "yield"), 2.5);
        SEBO_EXPECT(run_sebo({"observe", file, "--trial", "1", "--exclude", "@unit slip"}), 0, "");

        // One configuration as CSV: name and choice values guarded, the number -2.5 not.
        const Result one = run_sebo({"export", file, "--trial", "0", "--format", "csv"});
        QCOMPARE(one.code, 0);
        QCOMPARE(one.out.toUtf8(), "parameter,value,target,changed\n" + kLinkCell + ",-2.5,-2.5,false\nmode,'-low,'-low,false\n");

        // Every trial, written to a file.
        const QString all = path("trials.csv");
        SEBO_EXPECT(run_sebo({"export", file, "--all", "--out", all}), 0, "");
        const QList<QByteArray> rows = read_bytes(all).split('\n');
        QCOMPARE(rows[0], "trial,status,yield,yield_sem,active,generator," + kLinkCell + ",mode,error,excluded");
        QVERIFY2(rows[1].startsWith("0,completed,1.5,,0,") && rows[1].endsWith(",-2.5,'-low,,"), rows[1].constData());
        QVERIFY2(rows[2].startsWith("1,completed,2.5,,") && rows[2].endsWith(",,'@unit slip"), rows[2].constData());

        // `sebo import` reads them into a fresh experiment of the same space: the same names and values.
        const QString fresh = path("fresh.sebo.json");
        SEBO_EXPECT(run_sebo({"new", "--space", space(), "--objective", "yield", "--strategy", "sobol", "--no-status-quo",
                              "--evaluator", "manual", "--out", fresh}),
                    0, "");
        const Result imported = run_sebo({"import", fresh, all, "--quiet"});
        QVERIFY2(imported.code == 0, qPrintable(imported.err));
        const QJsonArray again = read_json(fresh)["trials"].toArray();
        QCOMPARE(again.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(again[i].toObject()["parameters"].toObject(), trials[i].toObject()["parameters"].toObject());
            QCOMPARE(metric_value(again[i].toObject(), "yield"), metric_value(trials[i].toObject(), "yield"));
        }
        QCOMPARE(again[0].toObject()["parameters"].toObject()[kLink].toDouble(), -2.5);
        QCOMPARE(again[0].toObject()["parameters"].toObject()["mode"].toString(), QString("-low"));
    }
};

SEBO_TEST_MAIN(TestCliCsvFormulas)
}  // namespace test_cli_csv_formulas
#include "test_cli_csv_formulas.moc"
