// `sebo simplify` as a real child process on a 12-trial Branin experiment in 6 dimensions (a MAP
// GP, so that the fit takes well under a second): the JSON path loses one changed parameter per
// step down to the target, its tolerance marks follow their definition, the text table shows the
// same path, and bad input — a pending, failed or unknown trial, a tolerance outside (0, 1], too
// few completed trials — exits with code 2 and a message naming the flag and value.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <cmath>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_simplify {

namespace {

using Result = sebo::test::CliResult;
using sebo::test::run_sebo;

QJsonObject parse(const Result& r) { return QJsonDocument::fromJson(r.out.toUtf8()).object(); }

#define EXPECT_USAGE(result, text)                                                                                  \
    do {                                                                                                            \
        const Result r_ = (result);                                                                                 \
        QVERIFY2(r_.code == 2, qPrintable(QString("exit %1: %2").arg(r_.code).arg(r_.err)));                       \
        QVERIFY2(r_.err.contains(text), qPrintable(r_.err));                                                       \
    } while (false)

}  // namespace

class TestCliSimplify : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString experiment;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        experiment = dir.filePath("branin6.sebo.json");
        Result r = run_sebo({"run", "--problem", "branin", "--dim", "6", "--strategy", "gpei", "--init", "12", "--trials", "12",
                             "--out", experiment, "--quiet"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // Trial 12 pending, trial 13 failed.
        r = run_sebo({"suggest", experiment, "--count", "2", "--trials", "14", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = run_sebo({"observe", experiment, "--trial", "13", "--failed", "the rig was down"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }

    void help() {
        const Result r = run_sebo({"simplify", "--help"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("usage: sebo simplify") && r.out.contains("--tolerance"), qPrintable(r.out));
        QVERIFY(run_sebo({"--help"}).out.contains("simplify"));
    }

    void jsonPathGoesDownToTheTarget() {
        const Result r = run_sebo({"simplify", experiment, "--trial", "3", "--tolerance", "0.5", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject path = parse(r);
        QCOMPARE(path["trial"].toInt(), 3);
        QCOMPARE(path["model"].toString(), QString("gp"));
        QCOMPARE(path["minimize"].toBool(), true);
        QCOMPARE(path["tolerance"].toDouble(), 0.5);
        QVERIFY(path["measured"].isDouble());
        const QJsonArray steps = path["steps"].toArray();
        // One step per changed parameter of the trial, and the trial itself.
        const int changed = steps[0].toObject()["changed_count"].toInt();
        QVERIFY(changed >= 5);
        QCOMPARE(steps.size(), changed + 1);
        const double start = steps[0].toObject()["predicted_mean"].toDouble();
        QStringList reset;
        for (int k = 0; k < steps.size(); ++k) {
            const QJsonObject s = steps[k].toObject();
            QCOMPARE(s["changed_count"].toInt(), changed - k);
            QCOMPARE(s["changed"].toArray().size(), changed - k);
            QVERIFY(s["predicted_sd"].toDouble() >= 0.0);
            const double mean = s["predicted_mean"].toDouble();
            QCOMPARE(s["within_tolerance"].toBool(), mean - start <= 0.5 * std::abs(start));
            const QJsonObject parameters = s["parameters"].toObject();
            QCOMPARE(parameters.size(), 6);
            if (k == 0) {
                QVERIFY(s["reset"].isNull());
                continue;
            }
            const QString name = s["reset"].toString();
            QVERIFY(!reset.contains(name));
            reset << name;
            QCOMPARE(parameters[name].toDouble(), 0.0);  // Branin's target: the lower bound 0
            QVERIFY(!s["changed"].toArray().contains(QJsonValue(name)));
        }
        QVERIFY(steps[0].toObject()["within_tolerance"].toBool());
    }

    void textTableShowsThePath() {
        const Result json = run_sebo({"simplify", experiment, "--trial", "3", "--json"});
        const Result text = run_sebo({"simplify", experiment, "--trial", "3"});
        QVERIFY2(text.code == 0, qPrintable(text.err));
        QVERIFY2(text.out.startsWith("trial 3: measured branin = "), qPrintable(text.out));
        QVERIFY2(text.out.contains("predicted (mean +- sd)") && text.out.contains("(none: the target)"), qPrintable(text.out));
        // One row per step of the JSON path.
        const QJsonArray steps = parse(json)["steps"].toArray();
        for (const auto& step : steps) {
            const QString reset = step.toObject()["reset"].toString();
            if (!reset.isEmpty()) QVERIFY2(text.out.contains(" " + reset + " "), qPrintable(text.out));
        }
        QCOMPARE(text.out.count('\n'), static_cast<qsizetype>(steps.size() + 3));
    }

    void badInputExitsWithCodeTwo() {
        EXPECT_USAGE(run_sebo({"simplify", experiment, "--trial", "12"}), "--trial 12: trial 12 is pending");
        EXPECT_USAGE(run_sebo({"simplify", experiment, "--trial", "13"}), "--trial 13: trial 13 failed");
        EXPECT_USAGE(run_sebo({"simplify", experiment, "--trial", "99"}), "--trial 99: trial 99 does not exist");
        EXPECT_USAGE(run_sebo({"simplify", experiment}), "--trial I is required");
        EXPECT_USAGE(run_sebo({"simplify", experiment, "--trial", "3", "--tolerance", "0"}), "--tolerance: 0 is not in (0, 1]");
        EXPECT_USAGE(run_sebo({"simplify", experiment, "--trial", "3", "--tolerance", "1.5"}), "--tolerance: 1.5 is not in (0, 1]");
        EXPECT_USAGE(run_sebo({"simplify", experiment, "--trial", "3", "--tolerance", "lots"}),
                     "--tolerance: 'lots' is not a finite number");
        EXPECT_USAGE(run_sebo({"simplify", dir.filePath("missing.sebo.json"), "--trial", "0"}), "missing.sebo.json");
        const QString one = dir.filePath("one.sebo.json");
        QCOMPARE(run_sebo({"run", "--problem", "branin", "--dim", "3", "--trials", "1", "--out", one, "--quiet"}).code, 0);
        EXPECT_USAGE(run_sebo({"simplify", one, "--trial", "0"}),
                     "--trial 0: the model needs at least 2 completed trials in the analysis; the experiment has 1");
    }
};

SEBO_TEST_MAIN(TestCliSimplify)
}  // namespace test_cli_simplify
#include "test_cli_simplify.moc"
