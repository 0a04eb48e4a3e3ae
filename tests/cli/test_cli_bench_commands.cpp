// `sebo bench --emit-commands` and `--report-only` (issue 15): the comparison's runs written out as
// self-contained `sebo run` commands relative to the comparison's folder, run by Debian's GNU
// parallel as a scheduler would run them, and merged back — a partial set reported as partial
// (exit 1, named in summary.md), the complete set as a normal report.

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "bench/bench_results.h"
#include "cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_bench_commands {

using namespace sebo::test;

namespace {

QStringList plan(const QString& dir) {
    return {"bench", "--problems", "branin/dim=4", "--strategies", "sobol,gpei", "--seeds", "2", "--trials", "5",
            "--init", "3", "--out", dir, "--no-plots"};
}

QStringList lines_of(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
}

void write_lines(const QString& path, const QStringList& lines) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write((lines.join('\n') + '\n').toUtf8());
}

// GNU parallel running a command file from `dir`, with the sebo under test first on the PATH (a
// cluster's nodes would have it installed).
int run_parallel(const QString& dir, const QString& commands) {
    QProcess p;
    p.setWorkingDirectory(dir);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("PATH", QFileInfo(SEBO_CLI_PATH).absolutePath() + ":" + environment.value("PATH"));
    environment.insert("HOME", dir);  // parallel keeps its notes in ~/.parallel
    p.setProcessEnvironment(environment);
    p.setStandardInputFile(commands);
    p.start("parallel", {"--will-cite", "--halt", "now,fail=1", "-j", "2"});
    if (!p.waitForFinished(600000)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

}  // namespace

class TestCliBenchCommands : public QObject {
    Q_OBJECT
private slots:
    void emittedCommandsRunUnderGnuParallelAndMerge() {
        if (QStandardPaths::findExecutable("parallel").isEmpty()) QSKIP("GNU parallel is not installed");
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("cmp");
        const QString commands = tmp.filePath("commands.txt");
        CliResult r = run_sebo(plan(dir) << "--emit-commands" << commands);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("wrote 4 commands to " + commands), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir + "/results.csv"));  // nothing ran
        const QStringList lines = lines_of(commands);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QString("sebo run runs/branin_dim_4/sobol/seed-1.sebo.json --trials 5 --quiet >> "
                                   "runs/branin_dim_4/sobol/seed-1.log 2>&1"));
        for (const QString& line : lines) {
            const QString file = line.section(' ', 2, 2);
            QVERIFY2(QFile::exists(dir + "/" + file), qPrintable(file));  // created, with the run's method and seed
            QCOMPARE(read_json(dir + "/" + file)["trials"].toArray().size(), 0);
        }

        // Three of the four come back: the report says it is partial, and which run is missing.
        const QString some = tmp.filePath("some.txt");
        write_lines(some, lines.mid(0, 3));
        QCOMPARE(run_parallel(dir, some), 0);
        r = run_sebo(plan(dir) << "--report-only");
        QVERIFY2(r.code == 1, qPrintable(QString::number(r.code) + ": " + r.err));
        QVERIFY2(r.err.contains("partial: 3 of 4 runs finished (1 unfinished, 0 missing)"), qPrintable(r.err));
        const QString summary = QString::fromUtf8(read_bytes(dir + "/summary.md"));
        QVERIFY2(summary.startsWith("**Partial comparison**: 3 of 4 runs have all 5 trials. Unfinished: branin/dim=4 / "
                                    "gpei / seed 2 (0 of 5 trials)."),
                 qPrintable(summary));
        QCOMPARE(sebo::read_bench_results((dir + "/results.csv").toStdString()).size(), std::size_t{15});
        // A run file that never came back is missing.
        QVERIFY(QFile::rename(dir + "/runs/branin_dim_4/gpei/seed-2.sebo.json", tmp.filePath("aside.sebo.json")));
        r = run_sebo(plan(dir) << "--report-only");
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("partial: 3 of 4 runs finished (0 unfinished, 1 missing)"), qPrintable(r.err));
        QVERIFY(QString::fromUtf8(read_bytes(dir + "/summary.md")).contains("Missing: branin/dim=4 / gpei / seed 2."));
        QVERIFY(QFile::rename(tmp.filePath("aside.sebo.json"), dir + "/runs/branin_dim_4/gpei/seed-2.sebo.json"));

        // Emitting again lists only what is left; once it has run, the report is complete.
        const QString rest = tmp.filePath("rest.txt");
        r = run_sebo(plan(dir) << "--emit-commands" << rest << "--threads" << "1");
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(lines_of(rest), QStringList{"sebo run runs/branin_dim_4/gpei/seed-2.sebo.json --trials 5 --threads 1 "
                                             "--quiet >> runs/branin_dim_4/gpei/seed-2.log 2>&1"});
        QCOMPARE(run_parallel(dir, rest), 0);
        r = run_sebo(plan(dir) << "--report-only");
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!r.err.contains("partial"));
        QVERIFY(!QString::fromUtf8(read_bytes(dir + "/summary.md")).contains("Partial"));
        QCOMPARE(sebo::read_bench_results((dir + "/results.csv").toStdString()).size(), std::size_t{20});
        QVERIFY(QString::fromUtf8(read_bytes(dir + "/summary.md")).contains("| gpei | 2 | 5 |"));
    }

    void badUsageIsNamed() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("cmp");
        CliResult r = run_sebo(plan(dir) << "--emit-commands" << tmp.filePath("c.txt") << "--report-only");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--emit-commands and --report-only cannot be combined"), qPrintable(r.err));
        r = run_sebo(plan(dir) << "--nuts" << "slow");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--nuts: unknown setting 'slow' (known: fast, paper)"), qPrintable(r.err));
        r = run_sebo(plan(dir) << "--threads" << "0");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--threads"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir + "/results.csv"));
    }

    // A folder made with one sampler setting is not continued with the other.
    void samplerSettingOfExistingRunsIsKept() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath("cmp");
        const QStringList args = {"bench", "--problems", "branin/dim=4", "--strategies", "sebo-l0/model=saas", "--seeds", "1",
                                  "--trials", "4", "--init", "4", "--out", dir, "--no-plots", "--nuts", "paper"};
        CliResult r = run_sebo(QStringList(args) << "--emit-commands" << tmp.filePath("c.txt"));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(read_json(dir + "/runs/branin_dim_4/sebo-l0_model_saas/seed-1.sebo.json")["method"].toObject()["nuts"].toString(),
                 QString("paper"));
        QStringList fast = args;
        fast.last() = "fast";
        r = run_sebo(fast);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("was made with --nuts paper, not fast"), qPrintable(r.err));
    }
};

SEBO_TEST_MAIN(TestCliBenchCommands)
}  // namespace test_cli_bench_commands
#include "test_cli_bench_commands.moc"
