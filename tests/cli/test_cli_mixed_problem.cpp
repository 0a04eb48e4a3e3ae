// The built-in problem `mixed` through the real `sebo` (issue 14, item 8): `sebo problems` lists it
// with its optimum; `sebo run --problem mixed` with Sobol keeps every trial inside fa + fb + fc <= 1,
// writes the choices as their values and the fixed region = 2 in every exported row; the bench
// preset `mixed` (here with Sobol only and a few trials) starts every run from the status quo, and so
// does `sebo run --status-quo`.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "bench/bench_results.h"
#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_mixed_problem {

namespace {

using sebo::test::read_json;
using sebo::test::run_sebo;
using Result = sebo::test::CliResult;

}  // namespace

class TestCliMixedProblem : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    QString path(const QString& name) const { return dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    void problems_lists_mixed_with_its_optimum() {
        const Result r = run_sebo({"problems", "--json"});
        QCOMPARE(r.code, 0);
        bool found = false;
        for (const auto& item : QJsonDocument::fromJson(r.out.toUtf8()).array()) {
            const QJsonObject p = item.toObject();
            if (p["name"].toString() != "mixed") continue;
            found = true;
            QCOMPARE(p["optimum"].toDouble(), 2.8725);
            QVERIFY2(p["optimum_description"].toString().contains("with 4 changes: fa = 0.6, fb = 0.4"),
                     qPrintable(p["optimum_description"].toString()));
            QCOMPARE(p["objectives"].toArray()[0].toObject()["metric"].toString(), QString("throughput"));
            QCOMPARE(p["objectives"].toArray()[0].toObject()["minimize"].toBool(), false);
        }
        QVERIFY(found);
        const Result text = run_sebo({"problems"});
        QVERIFY2(text.out.contains("mixed\n") && text.out.contains("optimum: throughput 2.8725 with 4 changes"),
                 qPrintable(text.out));
    }

    void sobol_trials_satisfy_the_constraint_and_send_values() {
        const QString file = path("mixed.sebo.json");
        const Result run = run_sebo({"run", "--problem", "mixed", "--strategy", "sobol", "--trials", "16", "--seed", "1",
                                     "--out", file, "--quiet"});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const QJsonObject e = read_json(file);
        QCOMPARE(e["space"].toObject()["parameter_constraints"].toArray(), QJsonArray{"fa + fb + fc <= 1"});
        const QJsonArray trials = e["trials"].toArray();
        QCOMPARE(trials.size(), 16);
        QStringList codecs;
        for (const auto& item : trials) {
            const QJsonObject t = item.toObject();
            QCOMPARE(t["status"].toString(), QString("completed"));
            const QJsonObject p = t["parameters"].toObject();
            const double sum = p["fa"].toDouble() + p["fb"].toDouble() + p["fc"].toDouble();
            QVERIFY2(sum <= 1.0 + 1e-9, qPrintable(QString::number(sum, 'g', 17)));
            QVERIFY(p["codec"].isString() && p["level"].isString());
            QVERIFY((QStringList{"none", "lz4", "zstd"}).contains(p["codec"].toString()));
            QVERIFY((QStringList{"low", "mid", "high"}).contains(p["level"].toString()));
            QVERIFY(!p.contains("region"));  // fixed: not a varying parameter of a trial
            codecs << p["codec"].toString();
        }
        codecs.removeDuplicates();
        QCOMPARE(codecs.size(), 3);  // 16 Sobol points draw every codec

        // Every exported row carries the fixed region = 2 and the choices' texts.
        const Result all = run_sebo({"export", file, "--all"});
        QCOMPARE(all.code, 0);
        const QStringList lines = all.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 17);
        const QStringList header = lines[0].split(',');
        const int region = static_cast<int>(header.indexOf("region"));
        const int codec = static_cast<int>(header.indexOf("codec"));
        QVERIFY(region >= 0 && codec >= 0);
        for (int i = 1; i < lines.size(); ++i) {
            const QStringList cells = lines[i].split(',');
            QCOMPARE(cells[region], QString("2"));
            QVERIFY((QStringList{"none", "lz4", "zstd"}).contains(cells[codec]));
        }
    }

    // `sebo run --status-quo` starts a new experiment from the status quo, as `sebo new` does;
    // without it the first trial is a Sobol point (the paper's runs), and it cannot be added to an
    // existing experiment.
    void run_measures_the_status_quo_first_when_asked() {
        const QString file = path("status-quo.sebo.json");
        const Result run = run_sebo({"run", "--problem", "mixed", "--strategy", "sobol", "--trials", "3", "--seed", "1",
                                     "--status-quo", "--out", file, "--quiet"});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const QJsonObject e = read_json(file);
        QCOMPARE(e["method"].toObject()["status_quo_first"].toBool(), true);
        const QJsonArray trials = e["trials"].toArray();
        QCOMPARE(trials.size(), 3);
        const QJsonObject first = trials[0].toObject();
        QCOMPARE(first["generator"].toString(), QString("status-quo"));
        const QJsonObject p = first["parameters"].toObject();
        QCOMPARE(p["fa"].toDouble(), 0.0);
        QCOMPARE(p["threads"].toDouble(), 4.0);
        QCOMPARE(p["codec"].toString(), QString("none"));
        QCOMPARE(p["level"].toString(), QString("mid"));
        QCOMPARE(p["n01"].toDouble(), 0.5);
        QCOMPARE(p["n09"].toDouble(), 10.0);
        QCOMPARE(first["values"].toObject()["throughput"].toObject()["mean"].toDouble(), 0.0);
        QCOMPARE(trials[1].toObject()["generator"].toString(), QString("sobol"));

        const QString plain = path("no-status-quo.sebo.json");
        QCOMPARE(run_sebo({"run", "--problem", "mixed", "--strategy", "sobol", "--trials", "1", "--seed", "1", "--out",
                           plain, "--quiet"})
                     .code,
                 0);
        QCOMPARE(read_json(plain)["trials"].toArray()[0].toObject()["generator"].toString(), QString("sobol"));
        // `sebo info` says how the initial trials begin.
        const Result info = run_sebo({"info", file});
        QVERIFY2(info.out.contains("method       sobol, 8 initial trials (the status quo, then Sobol), budget 3,"),
                 qPrintable(info.out));
        QVERIFY2(run_sebo({"info", plain}).out.contains("8 initial trials (Sobol), budget 1,"), qPrintable(info.out));

        const Result resume = run_sebo({"run", file, "--trials", "4", "--status-quo", "--quiet"});
        QCOMPARE(resume.code, 2);
        QVERIFY2(resume.err.contains("--status-quo cannot change an existing experiment"), qPrintable(resume.err));
        QCOMPARE(read_json(file)["trials"].toArray().size(), 3);
    }

    void bench_preset_starts_from_the_status_quo() {
        const QString out = path("bench");
        const Result r = run_sebo({"bench", "--preset", "mixed", "--strategies", "sobol", "--seeds", "2", "--trials", "6",
                                   "--out", out, "--no-plots", "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const std::vector<sebo::BenchRow> rows = sebo::read_bench_results((out + "/results.csv").toStdString());
        QCOMPARE(rows.size(), std::size_t{12});
        for (const sebo::BenchRow& row : rows) {
            QCOMPARE(*row.optimum, 2.8725);
            QCOMPARE(row.dimension, 19);
            if (row.trial == 0) {
                QCOMPARE(row.generator, std::string("status-quo"));
                QCOMPARE(row.active, 0);
                QCOMPARE(*row.objective, 0.0);
            } else {
                QCOMPARE(row.generator, std::string("sobol"));
            }
        }
        QVERIFY2(r.out.contains("| best, ≤ 2 active | best, ≤ 4 active | best, ≤ 8 active |"), qPrintable(r.out));
        const Result list = run_sebo({"bench", "--list-presets"});
        QVERIFY2(list.out.contains("5 seeds, 70 trials (10 initial, the status quo first), NUTS fast; problems: mixed; "
                                   "strategies: sobol saasbo sebo-l0"),
                 qPrintable(list.out));
    }
};

SEBO_TEST_MAIN(TestCliMixedProblem)
}  // namespace test_cli_mixed_problem
#include "test_cli_mixed_problem.moc"
