// One parser of the method's flags for every command that takes them (issue 33 item 1): `sebo new`
// accepts every flag `sebo run` does (--lambda and --penalty included), and both say the same
// thing about the same mistake.
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_method_options {

namespace {

using sebo::test::read_json;
using sebo::test::run_sebo;
using sebo::test::write_bytes;
using Result = sebo::test::CliResult;

// The stderr of a command after its "sebo new: " / "sebo run: " prefix.
QString message(const Result& r) { return r.err.mid(r.err.indexOf(": ") + 2).trimmed(); }

}  // namespace

class TestCliMethodOptions : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    QStringList new_args(const QString& out) const {
        return {"new", "--space", dir.filePath("space.csv"), "--objective", "y", "--out", out, "--force", "--quiet"};
    }
    QStringList run_args(const QString& out) const {
        return {"run", "--problem", "sparse-quadratic", "--trials", "1", "--out", out, "--force", "--quiet"};
    }

private slots:
    void initTestCase() { write_bytes(dir.filePath("space.csv"), "name,kind,lower,upper\na,continuous,0,1\nb,continuous,0,1\n"); }

    void new_sets_every_method_flag() {
        const QString out = dir.filePath("n.sebo.json");
        const Result r = run_sebo(new_args(out) << "--strategy" << "ei-er" << "--lambda" << "0.05" << "--penalty" << "l1"
                                                << "--model" << "saas-map" << "--init" << "5" << "--nuts" << "paper"
                                                << "--noisy-acquisition" << "off" << "--bonsai-tolerance" << "0.4"
                                                << "--dense-steps" << "7" << "--dense-steps-max" << "12"
                                                << "--dense-thompson" << "off");
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject method = read_json(out)["method"].toObject();
        QCOMPARE(method["strategy"].toString(), QString("ei-er"));
        QCOMPARE(method["lambda"].toDouble(), 0.05);
        QCOMPARE(method["penalty"].toString(), QString("l1"));
        QCOMPARE(method["model"].toString(), QString("saas-map"));
        QCOMPARE(method["initial_trials"].toInt(), 5);
        QCOMPARE(method["nuts"].toString(), QString("paper"));
        QCOMPARE(method["noisy_acquisition"].toString(), QString("off"));
        QCOMPARE(method["bonsai_tolerance"].toDouble(), 0.4);
        QCOMPARE(method["dense_steps"].toInt(), 7);
        QCOMPARE(method["dense_steps_max"].toInt(), 12);
        QCOMPARE(method["dense_thompson"].toBool(true), false);
    }

    void new_and_run_say_the_same_about_a_mistake() {
        const QList<QStringList> mistakes{{"--strategy", "sebo"},  {"--model", "nuts"},   {"--penalty", "l2"},
                                          {"--lambda", "-1"},      {"--init", "-3"},      {"--nuts", "slow"},
                                          {"--noisy-acquisition", "maybe"}, {"--bonsai-tolerance", "2"},
                                          {"--max-active", "0"}, {"--dense-steps", "-1"}, {"--dense-steps-max", "x"},
                                          {"--dense-thompson", "yes"}};
        for (const QStringList& mistake : mistakes) {
            const Result made = run_sebo(new_args(dir.filePath("m.sebo.json")) << mistake);
            const Result ran = run_sebo(run_args(dir.filePath("r.sebo.json")) << mistake);
            QVERIFY2(made.code == 2 && ran.code == 2, qPrintable(mistake.join(' ') + ": " + made.err + " / " + ran.err));
            QVERIFY2(message(made).startsWith(mistake[0] + ":"), qPrintable(made.err));
            QCOMPARE(message(made), message(ran));
        }
        QCOMPARE(message(run_sebo(run_args(dir.filePath("r.sebo.json")) << "--strategy" << "sebo")),
                 QString("--strategy: unknown strategy 'sebo' (known: sobol, gpei, saasbo, ei-er, ei-ir, sebo-l0, sebo-l1, "
                         "sebo-gl, sebo-l0-fixed-a, bonsai)"));
    }
};

SEBO_TEST_MAIN(TestCliMethodOptions)
}  // namespace test_cli_method_options
#include "test_cli_method_options.moc"
