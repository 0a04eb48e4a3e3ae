// `sebo new` / `sebo run` / `sebo info` with linear parameter constraints and fixed parameters
// (issue 14, items 2 and 3): --parameter-constraint (repeatable) on a CSV space, the JSON space's
// "parameter_constraints", the CSV's kind fixed with a value column; every trial of Sobol and of
// SEBO-L0 runs (small settings) and of `sebo suggest` satisfies the constraints, and the evaluator
// receives the fixed value. Bad input exits 2 naming the flag (or file, line and column) and the value; nothing is
// written.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <cmath>

#include "cli/cli_test_support.h"
#include "io/experiment_file.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_parameter_constraints {

namespace {

using sebo::test::evaluator_fixture;
using sebo::test::metric_value;
using sebo::test::read_json;
using sebo::test::run_sebo;
using sebo::test::write_bytes;
using Result = sebo::test::CliResult;

}  // namespace

class TestCliParameterConstraints : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    QString path(const QString& name) const { return dir.filePath(name); }

    // Mixture fractions fa, fb, fc in [0, 1], a batch count n in 0..10 and a fixed level 3.
    QString space(const QByteArray& extra_row = {}) {
        const QString file = path("space.csv");
        write_bytes(file, "name,kind,lower,upper,log,target,group,min_change,value\n"
                          "fa,continuous,0,1,,,,,\n"
                          "fb,continuous,0,1,,,,,\n"
                          "level,fixed,,,,,,,3\n"
                          "fc,continuous,0,1,,,,,\n"
                          "n,integer,0,10,,,,,\n" +
                              extra_row);
        return file;
    }

    QStringList constraints() const {
        return {"--parameter-constraint", "fa + fb + fc <= 1", "--parameter-constraint", "fa + 0.1*n <= 1"};
    }

    // Every trial inside both constraints (1e-9 relative to their magnitudes 4 and 3), n an
    // integer, and the objective (sum_parameters.sh: the sum of what the evaluator received)
    // including the fixed level 3.
    void check_trials(const QString& file, int expected) {
        const QJsonArray trials = read_json(file)["trials"].toArray();
        QCOMPARE(trials.size(), expected);
        for (const auto& item : trials) {
            const QJsonObject t = item.toObject();
            const QJsonObject v = t["parameters"].toObject();
            QVERIFY(!v.contains("level"));
            const double fa = v["fa"].toDouble(), fb = v["fb"].toDouble(), fc = v["fc"].toDouble(), n = v["n"].toDouble();
            const QString where = QString("trial %1 (%2): fa %3, fb %4, fc %5, n %6")
                                      .arg(t["index"].toInt())
                                      .arg(t["generator"].toString())
                                      .arg(fa, 0, 'g', 17)
                                      .arg(fb, 0, 'g', 17)
                                      .arg(fc, 0, 'g', 17)
                                      .arg(n);
            QVERIFY2(fa + fb + fc <= 1 + 4e-9, qPrintable(where));
            QVERIFY2(fa + 0.1 * n <= 1 + 3e-9, qPrintable(where));
            QVERIFY2(std::floor(n) == n && fa >= 0 && fb >= 0 && fc >= 0, qPrintable(where));
            QCOMPARE(t["status"].toString(), QString("completed"));
            SEBO_COMPARE_NEAR(metric_value(t, "objective"), fa + fb + fc + n + 3.0, 1e-9);
        }
        QCOMPARE(trials[0].toObject()["generator"].toString(), QString("status-quo"));
    }

    Result make(const QStringList& extra, const QString& out, const QString& space_file) {
        return run_sebo(QStringList{"new", "--space", space_file, "--objective", "objective", "--out", out} + extra +
                        QStringList{"--command", "sh", evaluator_fixture("sum_parameters.sh")});
    }

private slots:
    void initTestCase() { QVERIFY(dir.isValid()); }

    void sobol_and_sebo_runs_keep_every_trial_feasible() {
        const QString sobol = path("sobol.sebo.json");
        const Result made = make(constraints() + QStringList{"--strategy", "sobol", "--seed", "4"}, sobol, space());
        SEBO_EXPECT(made, 0, "4 parameters (+1 fixed), 2 parameter constraint(s)");
        const QJsonObject file = read_json(sobol);
        QCOMPARE(file["version"].toInt(), sebo::kExperimentVersion);
        QCOMPARE(file["space"].toObject()["parameter_constraints"].toArray(), (QJsonArray{"fa + fb + fc <= 1", "fa + 0.1*n <= 1"}));
        QCOMPARE(file["space"].toObject()["parameters"].toArray()[2].toObject(),
                 QJsonDocument::fromJson(R"({"name": "level", "kind": "fixed", "value": 3})").object());
        const Result sobol_run = run_sebo({"run", sobol, "--trials", "12", "--evaluator", "command", "--quiet"});
        QVERIFY2(sobol_run.code == 0, qPrintable(sobol_run.err));
        check_trials(sobol, 12);

        const Result info = run_sebo({"info", sobol});
        QCOMPARE(info.code, 0);
        QVERIFY2(info.out.contains("fixed        level = 3\nsubject to   fa + fb + fc <= 1\n             fa + 0.1*n <= 1\n"),
                 qPrintable(info.out));
        const Result info_json = run_sebo({"info", sobol, "--json"});
        const QJsonObject j = QJsonDocument::fromJson(info_json.out.toUtf8()).object();
        QCOMPARE(j["parameter_constraints"].toArray().size(), 2);
        QCOMPARE(j["fixed_parameters"].toObject()["level"].toDouble(), 3.0);
        // sebo export marks it fixed: pinned, not merely unchanged.
        const Result csv = run_sebo({"export", sobol, "--trial", "1", "--format", "csv"});
        QVERIFY2(csv.code == 0 && csv.out.contains("\nlevel,3,3,fixed\n"), qPrintable(csv.out + csv.err));
        const QJsonObject exported = QJsonDocument::fromJson(run_sebo({"export", sobol, "--trial", "1"}).out.toUtf8()).object();
        QCOMPARE(exported["fixed"].toArray(), QJsonArray{"level"});
        QCOMPARE(exported["parameters"].toObject()["level"].toInt(), 3);

        // SEBO-L0 with a GP and small optimizer settings: its model steps stay inside too.
        const QString sebo = path("sebo.sebo.json");
        SEBO_EXPECT(make(constraints() + QStringList{"--strategy", "sebo-l0", "--model", "gp", "--init", "5", "--seed", "2"}, sebo,
                         space()),
                    0, "");
        QJsonObject e = read_json(sebo);
        QJsonObject method = e["method"].toObject();
        method["raw_samples"] = 128;
        method["restarts"] = 4;
        method["homotopy_steps"] = 4;
        e["method"] = method;
        write_bytes(sebo, QJsonDocument(e).toJson());
        const Result run = run_sebo({"run", sebo, "--trials", "9", "--evaluator", "command", "--quiet"});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        check_trials(sebo, 9);
        const QJsonArray trials = read_json(sebo)["trials"].toArray();
        // SEBO-L0's, or its dense start's under noise (docs/method.md §13)
        const QString generator = trials[8].toObject()["generator"].toString();
        QVERIFY2(generator.startsWith("sebo-l0"), qPrintable(generator));
    }

    void a_json_space_carries_its_constraints() {
        const QString json = path("space.json");
        write_bytes(json, R"({"parameters": [{"name": "fa", "lower": 0, "upper": 1}, {"name": "fb", "lower": 0, "upper": 1},
                              {"name": "level", "kind": "fixed", "value": 2}],
                              "parameter_constraints": ["fa + fb <= 0.5"]})");
        const QString out = path("json.sebo.json");
        SEBO_EXPECT(run_sebo({"new", "--space", json, "--objective", "y", "--parameter-constraint", "fa - fb >= -0.25", "--out", out}),
                    0, "2 parameters (+1 fixed), 2 parameter constraint(s)");
        QCOMPARE(read_json(out)["space"].toObject()["parameter_constraints"].toArray(), (QJsonArray{"fa + fb <= 0.5", "fa - fb >= -0.25"}));

        write_bytes(json, R"({"parameters": [{"name": "fa", "lower": 0, "upper": 1}, {"name": "fb", "lower": 0, "upper": 1}],
                              "parameter_constraints": ["fa + + fb <= 1"]})");
        const QString bad = path("json-bad.sebo.json");
        SEBO_EXPECT(run_sebo({"new", "--space", json, "--objective", "y", "--out", bad}), 2,
                    "space.json parameter_constraints[0]: \"fa + + fb <= 1\", column 6: two signs in a row");
        QVERIFY(!QFile::exists(bad));
    }

    void bad_constraints_exit_2_naming_the_flag_column_and_values() {
        const QString out = path("bad.sebo.json");
        const auto refused = [&](const QString& constraint, const QString& message) {
            const Result r = run_sebo({"new", "--space", space(), "--objective", "y", "--parameter-constraint", constraint, "--out", out});
            SEBO_EXPECT(r, 2, message);
            QVERIFY(!QFile::exists(out));
        };
        refused("fa + + fb <= 1", "--parameter-constraint 'fa + + fb <= 1': column 6: two signs in a row: expected a parameter or "
                                  "a number after '+', found '+'");
        refused("fa <= ", "--parameter-constraint 'fa <= ': column 7: expected a parameter or a number after '<=', found the end of "
                          "the text");
        refused("fa + fz <= 1", "--parameter-constraint 'fa + fz <= 1': column 6: unknown parameter 'fz'");
        refused("fa < 1", "--parameter-constraint 'fa < 1': column 4");
        // No configuration within the bounds, and a status quo (all targets 0) outside.
        refused("fa + fb >= 3", "--parameter-constraint: parameter constraints: no configuration satisfies 'fa + fb >= 3'");
        refused("fa + fb + level >= 3.5",
                "--parameter-constraint: the target point (every parameter at its target: the status quo) violates the parameter "
                "constraint fa + fb + level >= 3.5 (fa + fb + level = 3 with fa = 0, fb = 0, level = 3); change the targets or "
                "the constraint");
        // A log-scale parameter.
        const Result log = run_sebo({"new", "--space", space("rate,continuous,1,100,true,,,,\n"), "--objective", "y",
                                     "--parameter-constraint", "fa + rate <= 50", "--out", out});
        SEBO_EXPECT(log, 2, "--parameter-constraint 'fa + rate <= 50': column 6: parameter 'rate' cannot appear in a linear constraint");
        QVERIFY(log.err.contains("log scale"));
        QVERIFY(!QFile::exists(out));
    }

    void bad_fixed_parameters_exit_2_naming_line_and_column() {
        const QString out = path("bad-fixed.sebo.json");
        for (const auto& [row, message] :
             {std::pair{QByteArray("depth,fixed,,,,,,,\n"), QString("line 7, column value: a fixed parameter needs a value")},
              std::pair{QByteArray("depth,fixed,0,1,,,,,3\n"),
                        QString("line 7, column value: 3 is outside the bounds [0, 1] given for the fixed parameter")},
              std::pair{QByteArray("depth,fixed,0,,,,,,0.5\n"),
                        QString("line 7, column upper: a fixed parameter's bounds are both given or neither")},
              std::pair{QByteArray("depth,fixed,,,,1,,,0.5\n"),
                        QString("line 7, column target: a fixed parameter has a value (column value) instead of a target")},
              std::pair{QByteArray("depth,continuous,0,1,,,,,0.5\n"),
                        QString("line 7, column value: only a fixed parameter (kind fixed) has a value; this one is continuous")},
              std::pair{QByteArray("depth,choice,0,1,,,,,\n"),
                        QString("line 7, column lower: a choice parameter has values (column values, such as none|lz4|zstd) instead of bounds")}}) {
            const Result r = run_sebo({"new", "--space", space(row), "--objective", "y", "--out", out});
            SEBO_EXPECT(r, 2, message);
            QVERIFY(r.err.contains("space.csv"));
            QVERIFY(!QFile::exists(out));
        }
    }

    void imported_rows_outside_a_constraint_are_kept_with_a_note() {
        const QString past = path("past.csv");
        write_bytes(past, "fa,fb,fc,n,objective\n0.1,0.2,0.3,2,3.8\n0.6,0.6,0.1,1,5.3\n");
        const QString out = path("import.sebo.json");
        const Result r = run_sebo({"new", "--space", space(), "--objective", "objective", "--parameter-constraint",
                                   "fa + fb + fc <= 1", "--import", past, "--out", out});
        SEBO_EXPECT(r, 0, "past.csv line 3: outside the parameter constraint fa + fb + fc <= 1 (fa + fb + fc = 1.3 with "
                          "fa = 0.6, fb = 0.6, fc = 0.1); imported as data");
        QVERIFY(r.err.startsWith("note: ") && r.err.contains("imported 2 completed trials"));
        QCOMPARE(read_json(out)["trials"].toArray().size(), 2);
        // Proposals (ask/tell) stay inside all the same; the imported trials count toward the design.
        const Result asked = run_sebo({"suggest", out, "--count", "4", "--json"});
        QVERIFY2(asked.code == 0, qPrintable(asked.err));
        const QJsonArray proposed = QJsonDocument::fromJson(asked.out.toUtf8()).object()["trials"].toArray();
        QCOMPARE(proposed.size(), 4);
        for (const auto& item : proposed) {
            const QJsonObject v = item.toObject()["parameters"].toObject();
            QVERIFY2(v["fa"].toDouble() + v["fb"].toDouble() + v["fc"].toDouble() <= 1 + 4e-9,
                     qPrintable(QJsonDocument(v).toJson(QJsonDocument::Compact)));
        }
    }
};

SEBO_TEST_MAIN(TestCliParameterConstraints)
}  // namespace test_cli_parameter_constraints
#include "test_cli_parameter_constraints.moc"
