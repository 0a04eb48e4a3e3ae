// Where the explorer writes, and sharing its file with other processes (docs/file-format.md,
// "Several writers"): a result recorded by `sebo observe` (a real process) while the explorer has
// the file open is merged in and shown, never written over; a clash of results keeps both; a
// file another process runs opens read-only with a banner naming it and Reload when it changes;
// a bundled example opens as an untitled copy that autosaves to a recovery file, and
// `sebo-explorer --example --run N` leaves the resources and the build folder byte-identical.
// Waits end on the event they wait for; their limits only guard against a hang.

#include <sys/stat.h>

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <map>

#include "cli/cli_test_support.h"
#include "experiment/strategy.h"
#include "experiment_document.h"
#include "file_locations.h"
#include "io/experiment_file.h"
#include "io/file_lock.h"
#include "io/shared_experiment_file.h"
#include "main_window.h"
#include "message_bar.h"
#include "read_only_banner.h"
#include "resource_paths.h"
#include "run_controller.h"
#include "test_main.h"
#include "test_support.h"
#include "ui_test_support.h"

namespace test_shared_files {

using namespace sebo;
using namespace sebo::ui;

namespace {

// Hang guards. QtTest's own limit per test function is raised for this suite in
// tests/CMakeLists.txt, for the SEBO step of the example (a SAAS fit over 50 dimensions).
constexpr int kGuardMs = 240000;
constexpr int kExplorerRunGuardMs = 1500000;

Parameter parameter(std::string name) {
    Parameter p;
    p.name = std::move(name);
    p.lower = 0.0;
    p.upper = 1.0;
    return p;
}

// A manual experiment with trials 0..3 pending.
Experiment manual_experiment() {
    Experiment e;
    e.name = "lab";
    e.space = SearchSpace({parameter("a"), parameter("b")});
    e.outcomes = Outcomes::single("y", false);
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    e.method.strategy = StrategyKind::Sobol;
    e.method.budget = 20;
    for (int i = 0; i < 4; ++i) {
        Trial t;
        t.index = i;
        t.parameters = {0.1 * (i + 1), 0.2};
        t.generator = "sobol";
        e.trials.push_back(t);
    }
    return e;
}

const Trial* find(const Experiment& e, int index) { return e.find_trial(index); }
// The objective's value of trial `index`, unset when it has none.
std::optional<double> value_of(const Experiment& e, int index) {
    const Trial* t = e.find_trial(index);
    return t ? e.objective_value(*t) : std::nullopt;
}

// What identifies every file below `root` (except the folders named in `skip`): its size, its
// modification time in nanoseconds, and for files up to 4 MiB the SHA-256 of its bytes (any
// write changes the time; the big files are the build's binaries).
std::map<QString, QByteArray> fingerprints(const QString& root, const QStringList& skip = {}) {
    std::map<QString, QByteArray> out;
    for (QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories); it.hasNext();) {
        const QString path = it.next();
        const QString relative = QDir(root).relativeFilePath(path);
        if (std::any_of(skip.begin(), skip.end(), [&](const QString& s) { return relative.startsWith(s + "/"); })) continue;
        const QFileInfo info(path);
        QByteArray print = QByteArray::number(info.size());
        struct stat st {};
        if (::stat(QFile::encodeName(path).constData(), &st) == 0)
            print += " " + QByteArray::number(static_cast<qint64>(st.st_mtim.tv_sec)) + "." +
                     QByteArray::number(static_cast<qint64>(st.st_mtim.tv_nsec));
        if (info.size() <= (4 << 20)) {
            QFile f(path);
            if (f.open(QIODevice::ReadOnly)) {
                QCryptographicHash hash(QCryptographicHash::Sha256);
                hash.addData(&f);
                print += " " + hash.result().toHex();
            }
        }
        out[relative] = print;
    }
    return out;
}

FileLock hold_run_lock(const QString& file, const std::string& program) {
    FileLockOptions o;
    o.program = program;
    o.activity = "being run by";
    return acquire_run_lock(file.toStdString(), o);
}

}  // namespace

class TestSharedFiles : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString write_manual(const QString& name) {
        const QString path = dir_.filePath(name);
        save_experiment(manual_experiment(), path.toStdString());
        return path;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        make_settings()->clear();
        QDir(recovery_directory()).removeRecursively();
    }

    // The explorer holds the file; `sebo observe` records trial 1 meanwhile: the result is
    // merged in and the message bar says so; the explorer's own next result joins it on disk;
    // `sebo run` is told who has the file.
    void resultRecordedByTheCliIsMerged() {
        const QString path = write_manual("merged.sebo.json");
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(path));
        QCOMPARE(w.document()->access(), ExperimentDocument::Access::Writable);
        QVERIFY(QFileInfo::exists(path + ".lock"));

        const test::CliResult observed = test::run_sebo({"observe", path, "--trial", "1", "--value", "7.5"});
        QVERIFY2(observed.code == 0, qPrintable(observed.err));
        QTRY_VERIFY_WITH_TIMEOUT(find(w.document()->experiment(), 1)->status == TrialStatus::Completed, kGuardMs);
        QCOMPARE(*value_of(w.document()->experiment(), 1), 7.5);
        QCOMPARE(w.messageBar()->text(), QString("Trial 1's result was recorded outside the explorer."));
        QVERIFY(!w.document()->isModified());

        QVERIFY(!w.document()->recordResult(2, 3.25));
        // The status bar says where autosave wrote.
        const QString status = w.findChild<QLabel*>("saveStatus")->text();
        QVERIFY2(status.startsWith("Autosaved to merged.sebo.json at "), qPrintable(status));
        const Experiment on_disk = load_experiment(path.toStdString());
        QCOMPARE(*value_of(on_disk, 1), 7.5);
        QCOMPARE(*value_of(on_disk, 2), 3.25);

        const test::CliResult run = test::run_sebo({"run", path, "--trials", "10", "--wait", "0"});
        QCOMPARE(run.code, 3);
        QVERIFY2(run.err.contains(QString("is open in `sebo-explorer` (pid %1) since ").arg(QCoreApplication::applicationPid())),
                 qPrintable(run.err));
    }

    // Another program's fit left only new warm starts in the file (no trial, no setting changed):
    // the explorer takes them without a message, so its next step starts from them.
    void samplerStateWrittenElsewhereIsTaken() {
        const QString path = write_manual("warm.sebo.json");
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(path));
        QVERIFY(!w.document()->experiment().sampler_state.has_value());
        const QString message = w.messageBar()->text();

        Experiment elsewhere = load_experiment(path.toStdString());
        MetricSamplerState state;
        state.metric = "y";
        state.step_size = 0.375;
        state.dense_metric = false;
        state.positions = {{-1.0, 0.5, 0.25, -2.0, 0.1}};  // 2 inputs: 5 coordinates
        state.inverse_metric = {1.0, 0.5, 0.5, 2.0, 0.1};
        elsewhere.sampler_state = SamplerState{{state}};
        save_experiment(elsewhere, path.toStdString());

        QTRY_VERIFY_WITH_TIMEOUT(w.document()->experiment().sampler_state.has_value(), kGuardMs);
        QCOMPARE(w.document()->experiment().sampler_state->metrics.at(0).step_size, 0.375);
        QCOMPARE(w.messageBar()->text(), message);
        QVERIFY(!w.document()->isModified());
    }

    // Both sides recorded trial 0 (the explorer's result not saved yet, `sebo observe` another
    // value): the file's stays trial 0, the explorer's is kept as a new trial; nothing is lost.
    void clashingResultsAreBothKept() {
        const QString path = write_manual("clash.sebo.json");
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(path));
        w.document()->setAutosave(false);
        QVERIFY(!w.document()->recordResult(0, 2.0));
        const test::CliResult observed = test::run_sebo({"observe", path, "--trial", "0", "--value", "5"});
        QVERIFY2(observed.code == 0, qPrintable(observed.err));
        QTRY_VERIFY_WITH_TIMEOUT(w.document()->experiment().trials.size() == 5, kGuardMs);
        QCOMPARE(*value_of(w.document()->experiment(), 0), 5.0);
        QCOMPARE(*value_of(w.document()->experiment(), 4), 2.0);
        QCOMPARE(find(w.document()->experiment(), 4)->parameters, find(w.document()->experiment(), 0)->parameters);
        QVERIFY2(w.messageBar()->text().contains("Trial 0 got different results in the explorer and outside the explorer"),
                 qPrintable(w.messageBar()->text()));
        QVERIFY(w.saveFile());
        const Experiment on_disk = load_experiment(path.toStdString());
        QCOMPARE(*value_of(on_disk, 0), 5.0);
        QCOMPARE(*value_of(on_disk, 4), 2.0);
    }

    // A file that another process runs: read-only, the banner names it; when the file changes
    // Reload appears; after that process is done, Reload gives write access back.
    void fileRunElsewhereOpensReadOnly() {
        const QString path = write_manual("held.sebo.json");
        FileLock held = hold_run_lock(path, "sebo run");
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(path));
        QVERIFY(w.document()->isReadOnly());
        const QString banner = w.readOnlyBanner()->text();
        QVERIFY2(banner.contains(QString("held.sebo.json is being run by `sebo run` (pid %1) since ")
                                     .arg(QCoreApplication::applicationPid())),
                 qPrintable(banner));
        QVERIFY(w.readOnlyBanner()->reloadButton()->isHidden());
        QVERIFY(!w.stepAction()->isEnabled());
        QVERIFY(w.windowTitle().contains("(read-only)"));
        QVERIFY(w.document()->recordResult(0, 1.0));  // refused, with the reason
        QCOMPARE(find(w.document()->experiment(), 0)->status, TrialStatus::Pending);

        // A result is recorded from the command line meanwhile (a short writer: it gets in
        // between the run's steps).
        const test::CliResult observed = test::run_sebo({"observe", path, "--trial", "0", "--value", "9"});
        QVERIFY2(observed.code == 0, qPrintable(observed.err));
        QTRY_VERIFY_WITH_TIMEOUT(!w.readOnlyBanner()->reloadButton()->isHidden(), kGuardMs);
        QVERIFY(w.readOnlyBanner()->text().contains("The file has changed"));

        held.release();
        w.readOnlyBanner()->reloadButton()->click();
        QCOMPARE(w.document()->access(), ExperimentDocument::Access::Writable);
        QVERIFY(w.readOnlyBanner()->isHidden());
        QCOMPARE(*value_of(w.document()->experiment(), 0), 9.0);
        QVERIFY(w.stepAction()->isEnabled());
    }

    // A bundled example is never written: it opens as an untitled copy; a step autosaves to a
    // recovery file; the first save asks where (Save As), refuses the application's folders,
    // and appends the extension to a bare name.
    void exampleOpensAsAnUntitledCopy() {
        const QString example = default_example();
        if (example.isEmpty()) QSKIP("no bundled example");
        QFile original(example);
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QByteArray bytes = original.readAll();
        original.close();

        MainWindow w;
        w.setRememberRecentFiles(false);
        // A fast strategy, so that the step does not fit a SAAS model over 50 dimensions.
        w.controller()->setStrategyFactory([](const MethodSettings&) {
            MethodSettings sobol;
            sobol.strategy = StrategyKind::Sobol;
            return make_strategy(sobol);
        });
        QVERIFY(w.openFile(example));
        QVERIFY(w.document()->filePath().isEmpty());
        QCOMPARE(w.document()->copySource(), QFileInfo(example).absoluteFilePath());
        QVERIFY2(w.windowTitle().contains("(example copy)"), qPrintable(w.windowTitle()));
        QVERIFY(!w.document()->isModified());
        QVERIFY(!QFileInfo::exists(example + ".lock"));

        MethodSettings method = w.document()->experiment().method;
        const int trials = static_cast<int>(w.document()->experiment().trials.size());
        method.budget = trials + 1;
        QVERIFY(!w.document()->setMethod(method, w.document()->experiment().seed));
        QSignalSpy finished(w.controller(), &RunController::runFinished);
        QVERIFY(w.controller()->step());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kGuardMs);
        const QString recovery = w.document()->recoveryPath();
        QVERIFY(!recovery.isEmpty());
        QVERIFY2(recovery.startsWith(recovery_directory() + "/"), qPrintable(recovery));
        QCOMPARE(static_cast<int>(load_experiment(recovery.toStdString()).trials.size()), trials + 1);
        QVERIFY(w.document()->isModified());  // not in a file of the user's yet
        QVERIFY(w.findChild<QLabel*>("saveStatus")->text().startsWith("Autosaved to a recovery file"));
        QFile again(example);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), bytes);

        // Never into the application's own folder.
        const QString inside = QFileInfo(example).absolutePath() + "/mine.sebo.json";
        QVERIFY(!w.saveFileAs(inside));
        QVERIFY(!QFileInfo::exists(inside));
        QVERIFY2(w.messageBar()->text().contains("never written"), qPrintable(w.messageBar()->text()));

        // A bare name gets the extension; the recovery file is no longer needed.
        QVERIFY(w.saveFileAs(dir_.filePath("mine")));
        QCOMPARE(w.document()->filePath(), dir_.filePath("mine.sebo.json"));
        QVERIFY(!QFileInfo::exists(dir_.filePath("mine")));
        QCOMPARE(static_cast<int>(load_experiment(dir_.filePath("mine.sebo.json").toStdString()).trials.size()), trials + 1);
        QVERIFY(!QFileInfo::exists(recovery));
        QVERIFY(w.document()->copySource().isEmpty());
        QCOMPARE(w.document()->access(), ExperimentDocument::Access::Writable);
        QVERIFY(!w.document()->isModified());
        QVERIFY2(w.findChild<QLabel*>("saveStatus")->text() == "Autosaves to mine.sebo.json",
                 qPrintable(w.findChild<QLabel*>("saveStatus")->text()));
    }

    // File dialogs start in the open experiment's folder.
    void dialogsStartInTheExperimentsFolder() {
        QDir(dir_.path()).mkpath("sub/folder");
        const QString path = dir_.filePath("sub/folder/x.sebo.json");
        save_experiment(manual_experiment(), path.toStdString());
        MainWindow w;
        w.setRememberRecentFiles(false);
        make_settings()->setValue("lastDirectory", dir_.path());
        QCOMPARE(w.dialogDirectory(), dir_.path());  // no file: the last folder used
        QVERIFY(w.openFile(path));
        QCOMPARE(w.dialogDirectory(), dir_.filePath("sub/folder"));
        make_settings()->remove("lastDirectory");
    }

    // `sebo-explorer --example --run N`: N more trials (the budget raised), saved in a recovery
    // file; every file of the resources and of the build folder is byte-identical afterwards.
    void exampleRunLeavesTheApplicationsFilesAlone() {
        const QString exe = QString(SEBO_BINARY_DIR) + "/app/sebo-explorer";
        if (!QFileInfo(exe).isExecutable()) QSKIP("sebo-explorer is not built");
        const QString resources = QString(SEBO_SOURCE_DIR) + "/resources";
        // The build folder, except what the test run itself writes (CTest's logs, the runtime folder).
        const QStringList skip{"Testing", "test-runtime"};
        const auto resources_before = fingerprints(resources);
        const auto build_before = fingerprints(SEBO_BINARY_DIR, skip);
        QVERIFY(!resources_before.empty() && !build_before.empty());

        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        env.insert("XDG_CONFIG_HOME", dir_.filePath("run-config"));
        env.insert("XDG_DATA_HOME", dir_.filePath("run-data"));
        p.setProcessEnvironment(env);
        p.start(exe, {"--example", "--run", "1"});
        QVERIFY(p.waitForFinished(kExplorerRunGuardMs));
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 qPrintable(out + p.readAllStandardError()));
        const QString data = dir_.filePath("run-data");
        QString recovery;
        for (QDirIterator it(data, {"*.sebo.json"}, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) recovery = it.next();
        QVERIFY2(!recovery.isEmpty(), qPrintable(out));
        QVERIFY2(out.contains(recovery), qPrintable(out));
        const Experiment example = load_experiment(default_example().toStdString());
        const Experiment ran = load_experiment(recovery.toStdString());
        QCOMPARE(ran.trials.size(), example.trials.size() + 1);
        QCOMPARE(ran.method.budget, static_cast<int>(example.trials.size()) + 1);

        QVERIFY(fingerprints(resources) == resources_before);
        const auto build_after = fingerprints(SEBO_BINARY_DIR, skip);
        for (const auto& [file, hash] : build_after) {
            const auto it = build_before.find(file);
            QVERIFY2(it != build_before.end(), qPrintable("new file in the build folder: " + file));
            QVERIFY2(it->second == hash, qPrintable("changed in the build folder: " + file));
        }
        QCOMPARE(build_after.size(), build_before.size());
    }
};

SEBO_TEST_MAIN(TestSharedFiles)
}  // namespace test_shared_files
#include "test_shared_files.moc"
