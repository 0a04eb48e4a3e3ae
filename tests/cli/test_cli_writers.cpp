// Several processes writing one experiment file (docs/file-format.md, "Several writers"), with
// real `sebo` processes at the same time: two runs on one file, `sebo observe` and `sebo suggest`
// from other processes while a run evaluates (many rounds with random timing), six observes at
// once, stale locks of SIGKILLed processes, exit code 3 naming the holder, and readers that take
// no lock. The runs' evaluator (tests/fixtures/evaluators/shared_file_evaluator.sh) is steered
// through files: while "hold" exists it waits, so a test can act while a run is known to be in
// the middle of an evaluation. Every wait here ends on an event (a process ending, a file
// appearing, a line printed); the clock only guards against a hang, so a loaded machine changes
// the interleavings, not the outcome.

#include <signal.h>
#include <unistd.h>

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <random>

#include "cli/cli_test_support.h"
#include "io/experiment_file.h"
#include "io/file_lock.h"
#include "io/shared_experiment_file.h"
#include "lock_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_writers {

using namespace sebo;
using sebo::test::CliResult;
using sebo::test::run_sebo;

namespace {

constexpr int kHangGuardMs = 600000;

using sebo::test::evaluator_fixture;
using sebo::test::read_bytes;

void write_text(const QString& path, const QByteArray& text) {
    sebo::test::write_bytes(path, text);
    QVERIFY(read_bytes(path) == text);
}

// Polls `condition` until it holds; false only when the hang guard runs out.
bool wait_for(const std::function<bool()>& condition) {
    QElapsedTimer clock;
    clock.start();
    while (!condition()) {
        if (clock.elapsed() > kHangGuardMs) return false;
        QThread::msleep(5);
    }
    return true;
}

// Reads a running process's stderr until it contains `text`; false when the process ended first.
bool wait_for_stderr(QProcess& p, QString& seen, const QString& text) {
    QElapsedTimer clock;
    clock.start();
    while (!seen.contains(text)) {
        if (p.state() == QProcess::NotRunning || clock.elapsed() > kHangGuardMs) return false;
        p.waitForReadyRead(50);
        seen += QString::fromUtf8(p.readAllStandardError());
    }
    return true;
}

FileLock hold(const std::string& sidecar, const std::string& file, const std::string& program, const std::string& activity) {
    FileLockOptions o;
    o.program = program;
    o.activity = activity;
    return FileLock::acquire(sidecar, file, o);
}

const Trial* find(const Experiment& e, int index) { return e.find_trial(index); }
// The objective's value of trial `index`, unset when it has none.
std::optional<double> value_of(const Experiment& e, int index) {
    const Trial* t = e.find_trial(index);
    return t ? e.objective_value(*t) : std::nullopt;
}

double sum(const std::vector<double>& values) {
    double total = 0;
    for (double v : values) total += v;
    return total;
}

// The parameter values of each evaluation the fixture logged (one trial document per line).
std::vector<std::vector<double>> logged_evaluations(const QString& workdir) {
    std::vector<std::vector<double>> out;
    for (const QByteArray& line : read_bytes(workdir + "/evaluations.log").split('\n')) {
        if (line.trimmed().isEmpty()) continue;
        const QJsonObject parameters = QJsonDocument::fromJson(line).object()["parameters"].toObject();
        out.push_back({parameters["a"].toDouble(), parameters["b"].toDouble(), parameters["c"].toDouble()});
    }
    return out;
}

// The indices of the trials a `sebo suggest --json` printed.
QList<int> suggested_indices(const QByteArray& json) {
    QList<int> out;
    for (const QJsonValue& t : QJsonDocument::fromJson(json).object()["trials"].toArray()) out << t.toObject()["trial"].toInt();
    return out;
}

}  // namespace

class TestCliWriters : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString space() {
        const QString path = dir_.filePath("space.csv");
        if (!QFileInfo::exists(path)) write_text(path, "name,kind,lower,upper\na,continuous,0,1\nb,continuous,0,1\nc,continuous,0,1\n");
        return path;
    }

    // An experiment evaluated by the fixture in `workdir` (Sobol only, so steps take no time).
    QString command_experiment(const QString& name, const QString& workdir) {
        QDir().mkpath(workdir);
        const QString path = dir_.filePath(name);
        const CliResult r = run_sebo({"new", "--space", space(), "--objective", "y", "--strategy", "sobol", "--init", "1000",
                                      "--trials", "100", "--workdir", workdir, "--out", path, "--quiet", "--command", "sh",
                                      evaluator_fixture("shared_file_evaluator.sh")});
        if (r.code != 0) qWarning("%s", qPrintable(r.err));
        return path;
    }

    QString manual_experiment(const QString& name) {
        const QString path = dir_.filePath(name);
        const CliResult r = run_sebo({"new", "--space", space(), "--objective", "y", "--evaluator", "manual", "--strategy",
                                      "sobol", "--init", "1000", "--trials", "100", "--out", path, "--quiet"});
        if (r.code != 0) qWarning("%s", qPrintable(r.err));
        return path;
    }

    // Starts `sebo run FILE --trials N --evaluator command` and returns its pid once it is known
    // to be in the middle of an evaluation (holding the run lock, not the write lock): the
    // evaluator waits until `workdir`/hold is removed.
    qint64 start_held_run(QProcess& run, const QString& file, const QString& workdir, int trials) {
        write_text(workdir + "/hold", "");
        run.start(SEBO_CLI_PATH, {"run", file, "--trials", QString::number(trials), "--evaluator", "command"});
        if (!run.waitForStarted(kHangGuardMs)) return 0;
        const qint64 pid = run.processId();
        return wait_for([&] { return QFileInfo::exists(workdir + "/evaluating"); }) ? pid : 0;
    }

    // Checks the trials of `path` that the run evaluated (all but `others`) against the
    // evaluator's log: each evaluation is in the file exactly once, with its objective.
    void check_run_trials(const Experiment& e, const QString& workdir, const QSet<int>& others, int* evaluations) {
        std::vector<std::vector<double>> logged = logged_evaluations(workdir);
        std::vector<std::vector<double>> in_file;
        for (const Trial& t : e.trials) {
            if (others.contains(t.index)) continue;
            QVERIFY2(t.status == TrialStatus::Completed, qPrintable(QString("trial %1 is not completed").arg(t.index)));
            QCOMPARE(*e.objective_value(t), sum(t.parameters));
            in_file.push_back(t.parameters);
        }
        std::sort(logged.begin(), logged.end());
        std::sort(in_file.begin(), in_file.end());
        QCOMPARE(in_file.size(), logged.size());  // no evaluation done twice, none lost
        QVERIFY(in_file == logged);
        *evaluations = static_cast<int>(logged.size());
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // The second `sebo run` on a file stops at once (exit 3, naming the first); a third, told
    // to wait, carries the experiment on after the first is done. No evaluation is done twice.
    void twoRunsOnOneFile() {
        const QString work = dir_.filePath("two-runs");
        const QString file = command_experiment("two-runs.sebo.json", work);
        QProcess first;
        const qint64 first_pid = start_held_run(first, file, work, 4);
        QVERIFY(first_pid != 0);

        const CliResult second = run_sebo({"run", file, "--trials", "4", "--evaluator", "command", "--wait", "0"});
        QCOMPARE(second.code, 3);
        QVERIFY2(second.err.contains(QString("%1 is being run by `sebo run` (pid %2) since ").arg(file).arg(first_pid)),
                 qPrintable(second.err));
        QVERIFY2(second.err.contains("--wait"), qPrintable(second.err));

        QProcess third;
        third.start(SEBO_CLI_PATH, {"run", file, "--trials", "6", "--evaluator", "command", "--wait", "600"});
        QString third_err;
        QVERIFY(wait_for_stderr(third, third_err, "waiting: the file is being run by `sebo run`"));
        QFile::remove(work + "/hold");
        QVERIFY(first.waitForFinished(kHangGuardMs));
        QVERIFY(third.waitForFinished(kHangGuardMs));
        third_err += QString::fromUtf8(third.readAllStandardError());
        QVERIFY2(first.exitCode() == 0, first.readAllStandardError().constData());
        QVERIFY2(third.exitCode() == 0, qPrintable(third_err));

        const Experiment e = load_experiment(file.toStdString());
        QCOMPARE(static_cast<int>(e.trials.size()), 6);
        QCOMPARE(e.count(TrialStatus::Completed), 6);
        int evaluations = 0;
        check_run_trials(e, work, {}, &evaluations);
        QCOMPARE(evaluations, 6);
        QVERIFY(!QFileInfo::exists(file + ".lock"));
        QVERIFY(!QFileInfo::exists(file + ".write.lock"));
    }

    // The case: six `sebo observe` at once for six pending trials record all six.
    void sixObservesAtOnce() {
        const QString file = manual_experiment("six.sebo.json");
        const CliResult suggested = run_sebo({"suggest", file, "--count", "6", "--json"});
        QVERIFY2(suggested.code == 0, qPrintable(suggested.err));
        const QList<int> trials = suggested_indices(suggested.out.toUtf8());
        QCOMPARE(trials.size(), 6);
        std::vector<std::unique_ptr<QProcess>> observers;
        for (int k = 0; k < trials.size(); ++k) {
            auto p = std::make_unique<QProcess>();
            p->start(SEBO_CLI_PATH, {"observe", file, "--trial", QString::number(trials[k]), "--value",
                                     QString::number(10 + k), "--wait", "600"});
            observers.push_back(std::move(p));
        }
        for (auto& p : observers) {
            QVERIFY(p->waitForFinished(kHangGuardMs));
            QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0, p->readAllStandardError().constData());
        }
        const Experiment e = load_experiment(file.toStdString());
        QCOMPARE(e.count(TrialStatus::Pending), 0);
        for (int k = 0; k < trials.size(); ++k) QCOMPARE(*value_of(e, trials[k]), double(10 + k));
    }

    // `sebo run` with the evaluator, and from other processes: `sebo observe` on pending trials
    // and `sebo suggest` followed by `sebo observe` of what it proposed — launched at random
    // moments (fixed seeds) while the run evaluates, round after round. Every result recorded
    // (an observe that exited 0, an evaluation of the run) must be in the final file.
    void observeAndSuggestDuringARunWithRandomTiming() {
        const int rounds = qEnvironmentVariableIsSet("SEBO_WRITERS_ROUNDS") ? qEnvironmentVariableIntValue("SEBO_WRITERS_ROUNDS")
                                                                             : 8;
        int processes = 0, recorded = 0, found = 0, renumbered = 0, merged_lines = 0;
        for (int round = 0; round < rounds; ++round) {
            std::mt19937 rng(1900 + static_cast<unsigned>(round));
            const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
            const QString work = dir_.filePath(QString("random-%1").arg(round));
            const QString file = command_experiment(QString("random-%1.sebo.json").arg(round), work);
            write_text(work + "/delay", QByteArray::number(uniform(0, 40) / 1000.0));

            // Pending trials to observe from the start.
            const int initial = uniform(1, 3);
            const CliResult first = run_sebo({"suggest", file, "--count", QString::number(initial), "--json", "--trials", "1000"});
            QVERIFY2(first.code == 0, qPrintable(first.err));
            ++processes;
            const QList<int> initial_trials = suggested_indices(first.out.toUtf8());
            QCOMPARE(initial_trials.size(), initial);

            const int lab = uniform(2, 5);  // suggest-then-observe chains
            const int target = initial + lab + uniform(3, 6);
            QEventLoop loop;
            // Timers not yet fired and processes not yet finished; the round ends at zero.
            int outstanding = 0;
            const auto one_done = [&] {
                if (--outstanding == 0) loop.quit();
            };
            QString failures;
            std::map<int, double> observed;  // trial -> value, for observes that exited 0
            QSet<int> suggested;
            double next_value = 1000.0 + 100.0 * round;
            std::vector<std::unique_ptr<QProcess>> all;
            const auto later = [&](int ms, std::function<void()> action) {
                ++outstanding;
                QTimer::singleShot(ms, &loop, [&, action] {
                    action();
                    one_done();
                });
            };
            const auto start = [&](const QStringList& args, std::function<void(QProcess&)> succeeded) {
                all.push_back(std::make_unique<QProcess>());
                QProcess* p = all.back().get();
                ++outstanding;
                ++processes;
                QObject::connect(p, &QProcess::finished, &loop, [&, p, args, succeeded] {
                    if (p->exitStatus() != QProcess::NormalExit || p->exitCode() != 0)
                        failures += QString("%1 -> exit %2: %3\n")
                                        .arg(args.join(' '))
                                        .arg(p->exitCode())
                                        .arg(QString::fromUtf8(p->readAllStandardError()));
                    else
                        succeeded(*p);
                    one_done();
                });
                p->start(SEBO_CLI_PATH, args);
            };
            const auto observe = [&](int trial) {
                const double value = next_value++;
                start({"observe", file, "--trial", QString::number(trial), "--value", QString::number(value, 'g', 17),
                       "--wait", "600"},
                      [&, trial, value](QProcess&) { observed[trial] = value; });
            };
            later(uniform(0, 100), [&] {
                start({"run", file, "--trials", QString::number(target), "--evaluator", "command"}, [&](QProcess& p) {
                    const QString err = QString::fromUtf8(p.readAllStandardError());
                    merged_lines += static_cast<int>(err.count("sebo run: merged:"));
                    renumbered += static_cast<int>(err.count(" is now trial "));
                });
            });
            for (int trial : initial_trials) later(uniform(0, 400), [&, trial] { observe(trial); });
            for (int k = 0; k < lab; ++k)
                later(uniform(0, 400), [&] {
                    start({"suggest", file, "--json", "--trials", "1000", "--wait", "600"}, [&](QProcess& p) {
                        for (int trial : suggested_indices(p.readAllStandardOutput())) {
                            suggested.insert(trial);
                            later(uniform(0, 100), [&, trial] { observe(trial); });
                        }
                    });
                });
            QTimer guard;
            guard.setSingleShot(true);
            connect(&guard, &QTimer::timeout, &loop, [&] {
                failures += "hang guard: processes still running\n";
                loop.quit();
            });
            guard.start(kHangGuardMs);
            loop.exec();
            for (auto& p : all)
                if (p->state() != QProcess::NotRunning) {
                    p->kill();
                    p->waitForFinished();
                }
            QVERIFY2(failures.isEmpty(), qPrintable(QString("round %1:\n%2").arg(round).arg(failures)));
            QCOMPARE(static_cast<int>(suggested.size()), lab);
            QCOMPARE(static_cast<int>(observed.size()), initial + lab);

            const Experiment e = load_experiment(file.toStdString());
            QVERIFY(!e.validate());
            recorded += static_cast<int>(observed.size());
            for (const auto& [trial, value] : observed) {
                const Trial* t = find(e, trial);
                QVERIFY2(t && t->status == TrialStatus::Completed && e.objective_value(*t) == value,
                         qPrintable(QString("round %1: trial %2's observed value %3 is not in the file").arg(round).arg(trial).arg(value)));
                ++found;
            }
            QSet<int> lab_trials = suggested;
            for (int trial : initial_trials) lab_trials.insert(trial);
            int evaluations = 0;
            check_run_trials(e, work, lab_trials, &evaluations);
            if (QTest::currentTestFailed()) return;
            recorded += evaluations;
            found += evaluations;  // check_run_trials found each one
            QCOMPARE(static_cast<int>(e.trials.size()), initial + lab + evaluations);
            QVERIFY(static_cast<int>(e.trials.size()) >= target);
            QVERIFY(!QFileInfo::exists(file + ".lock"));
            QVERIFY(!QFileInfo::exists(file + ".write.lock"));
        }
        QCOMPARE(found, recorded);
        qInfo("random timing: %d rounds, %d processes, %d results recorded, %d found in the final files "
              "(%d merge notes printed by the runs, %d renumbered trials)",
              rounds, processes, recorded, found, merged_lines, renumbered);
    }

    // A run killed with SIGKILL while it holds the run lock leaves the sidecar; the next run
    // takes it over (the kernel lock died with the process) and says whose it was.
    void staleRunLockOfAKilledRunIsTakenOver() {
        const QString work = dir_.filePath("killed");
        const QString file = command_experiment("killed.sebo.json", work);
        QProcess victim;
        const qint64 pid = start_held_run(victim, file, work, 3);
        QVERIFY(pid != 0);
        ::kill(static_cast<pid_t>(pid), SIGKILL);
        QVERIFY(victim.waitForFinished(kHangGuardMs));
        QVERIFY(QFileInfo::exists(file + ".lock"));
        QVERIFY(QString::fromUtf8(read_bytes(file + ".lock")).contains(QString("\"pid\":%1").arg(pid)));
        QFile::remove(work + "/hold");  // the orphaned evaluator ends
        QFile::remove(work + "/evaluations.log");

        const CliResult resumed = run_sebo({"run", file, "--trials", "3", "--evaluator", "command", "--wait", "0"});
        QVERIFY2(resumed.code == 0, qPrintable(resumed.err));
        QVERIFY2(resumed.err.contains(QString("sebo run: note: took over the lock of %1 left by `sebo run` (pid %2) since ")
                                          .arg(file)
                                          .arg(pid)),
                 qPrintable(resumed.err));
        QVERIFY2(resumed.err.contains("which ended without releasing it"), qPrintable(resumed.err));
        const Experiment e = load_experiment(file.toStdString());
        QCOMPARE(e.count(TrialStatus::Completed), 3);
        QVERIFY(!QFileInfo::exists(file + ".lock"));
    }

    // A write lock left by a writer killed in the middle of a save (its sidecar names a process
    // that is gone) is taken over by the next writer.
    void staleWriteLockIsTakenOver() {
        const QString file = manual_experiment("stale-write.sebo.json");
        QCOMPARE(run_sebo({"suggest", file}).code, 0);
        const long pid = sebo::test::ended_process_id();
        write_text(file + ".write.lock", QJsonDocument(QJsonObject{{"program", "sebo observe"},
                                                                   {"activity", "being written by"},
                                                                   {"pid", static_cast<double>(pid)},
                                                                   {"host", QString::fromStdString(sebo::test::host_name())},
                                                                   {"started_at", "2026-01-02T03:04:05Z"}})
                                             .toJson(QJsonDocument::Compact));
        const CliResult r = run_sebo({"observe", file, "--trial", "0", "--value", "2.5", "--wait", "0"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QString("sebo observe: note: took over the lock of %1 left by `sebo observe` (pid %2)")
                                    .arg(file)
                                    .arg(pid)),
                 qPrintable(r.err));
        QCOMPARE(*value_of(load_experiment(file.toStdString()), 0), 2.5);
        QVERIFY(!QFileInfo::exists(file + ".write.lock"));
    }

    // A writer that does not get the lock in time stops with exit code 3 and names the holder;
    // one told to wait gets in when the holder lets go.
    void busyFileExitsWithCode3() {
        const QString file = manual_experiment("busy.sebo.json");
        QCOMPARE(run_sebo({"suggest", file, "--count", "2"}).code, 0);
        const std::string path = file.toStdString();
        FileLock lock = hold(write_lock_path(path), path, "test holder", "being written by");
        for (const QStringList& args : {QStringList{"observe", file, "--trial", "0", "--value", "1", "--wait", "0"},
                                        QStringList{"suggest", file, "--wait", "0.2"},
                                        QStringList{"import", file, space(), "--wait", "0"}}) {
            const CliResult r = run_sebo(args);
            QVERIFY2(r.code == 3, qPrintable(args.join(' ') + " -> " + QString::number(r.code) + ": " + r.err));
            QVERIFY2(r.err.contains(QString("%1 is being written by `test holder` (pid %2) since ").arg(file).arg(::getpid())),
                     qPrintable(r.err));
        }
        QVERIFY(read_bytes(file).contains("\"pending\""));
        QProcess waiting;
        waiting.start(SEBO_CLI_PATH, {"observe", file, "--trial", "1", "--value", "4", "--wait", "600"});
        QString err;
        QVERIFY(wait_for_stderr(waiting, err, "waiting: the file is being written by `test holder`"));
        lock.release();
        QVERIFY(waiting.waitForFinished(kHangGuardMs));
        QCOMPARE(waiting.exitCode(), 0);
        QCOMPARE(*value_of(load_experiment(path), 1), 4.0);

        // The run lock held by someone else: `sebo new --force` does not replace the file.
        const std::string before = read_experiment_text(path);
        FileLock run = hold(run_lock_path(path), path, "sebo run", "being run by");
        const CliResult replaced = run_sebo({"new", "--space", space(), "--objective", "y", "--out", file, "--force",
                                             "--wait", "0", "--evaluator", "manual"});
        QCOMPARE(replaced.code, 3);
        QVERIFY2(replaced.err.contains("is being run by `sebo run`"), qPrintable(replaced.err));
        QCOMPARE(read_experiment_text(path), before);
    }

    // A program that ignores the locks replaces the file with another problem during a run: the
    // run does not write over it, and keeps its evaluation in a file next to it.
    void aFileReplacedByAnotherProblemIsNotWrittenOver() {
        const QString work = dir_.filePath("replaced");
        const QString file = command_experiment("replaced.sebo.json", work);
        QProcess run;
        const qint64 pid = start_held_run(run, file, work, 3);
        QVERIFY(pid != 0);
        const QString other = manual_experiment("other-problem.sebo.json");
        write_text(other, read_bytes(other).replace("\"name\": \"a\"", "\"name\": \"z\""));
        const QByteArray foreign = read_bytes(other);
        QVERIFY(foreign.contains("\"z\""));
        write_file_atomic(file.toStdString(), foreign.toStdString());
        QFile::remove(work + "/hold");
        QVERIFY(run.waitForFinished(kHangGuardMs));
        const QString err = QString::fromUtf8(run.readAllStandardError());
        QCOMPARE(run.exitCode(), 1);
        QVERIFY2(err.contains("the file now holds another problem: its search space was changed"), qPrintable(err));
        QCOMPARE(read_bytes(file), foreign);
        const QString rescue = QString("%1.unmerged-%2.sebo.json").arg(file).arg(pid);
        QVERIFY2(err.contains(rescue), qPrintable(err));
        const Experiment kept = load_experiment(rescue.toStdString());
        QCOMPARE(kept.count(TrialStatus::Completed), 1);
        QCOMPARE(logged_evaluations(work).size(), std::size_t{1});
    }

    // Readers never lock: with both locks of the file held elsewhere they run at once.
    void readersTakeNoLock() {
        const QString file = manual_experiment("readers.sebo.json");
        QCOMPARE(run_sebo({"suggest", file, "--count", "3"}).code, 0);
        for (int trial = 0; trial < 3; ++trial)
            QCOMPARE(run_sebo({"observe", file, "--trial", QString::number(trial), "--value", QString::number(trial)}).code, 0);
        const std::string path = file.toStdString();
        const FileLock run = hold(run_lock_path(path), path, "sebo run", "being run by");
        const FileLock write = hold(write_lock_path(path), path, "sebo observe", "being written by");
        for (const QStringList& args :
             {QStringList{"info", file}, QStringList{"frontier", file, "--json"}, QStringList{"export", file, "--trial", "1"},
              QStringList{"fit", file, "--model", "gp", "--json"}}) {
            const CliResult r = run_sebo(args);
            QVERIFY2(r.code == 0, qPrintable(args.join(' ') + ": " + r.err));
        }
        // `sebo info` says who runs the file, as the sidecar names it.
        const CliResult info = run_sebo({"info", file});
        QVERIFY2(info.out.contains(QString("in use       %1 is being run by `sebo run` (pid %2) since ").arg(file).arg(::getpid())),
                 qPrintable(info.out));
        const QJsonObject in_use = QJsonDocument::fromJson(run_sebo({"info", file, "--json"}).out.toUtf8())["in_use"].toObject();
        QCOMPARE(in_use["pid"].toInteger(), static_cast<qint64>(::getpid()));
    }

    // `sebo bench`'s runs are `sebo run` children and take the run lock like it: a run file
    // held elsewhere makes that run fail with exit code 3, and a later bench finishes it.
    void benchRunsTakeTheRunLock() {
        const QString out = dir_.filePath("bench");
        const QStringList args{"bench", "--problems", "branin/dim=4", "--strategies", "sobol", "--seeds", "1",
                               "--init", "2", "--no-plots", "--jobs", "1", "--out", out};
        CliResult r = run_sebo(args + QStringList{"--trials", "3"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QString run_file;
        for (QDirIterator it(out + "/runs", {"*.sebo.json"}, QDir::Files, QDirIterator::Subdirectories); it.hasNext();)
            run_file = it.next();
        QVERIFY(!run_file.isEmpty());
        {
            const FileLock held = hold(run_lock_path(run_file.toStdString()), run_file.toStdString(), "sebo-explorer", "open in");
            r = run_sebo(args + QStringList{"--trials", "5"});
            QVERIFY(r.code != 0);
            QVERIFY2(r.err.contains("exit code 3"), qPrintable(r.err));
            QCOMPARE(static_cast<int>(load_experiment(run_file.toStdString()).trials.size()), 3);
            // The report is a reader: it runs while the file is held (on the 3 trials there are:
            // a report on unfinished runs exits 1).
            QCOMPARE(run_sebo(args + QStringList{"--trials", "3", "--report-only"}).code, 0);
        }
        r = run_sebo(args + QStringList{"--trials", "5"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(static_cast<int>(load_experiment(run_file.toStdString()).trials.size()), 5);
    }

    void waitFlagIsChecked() {
        const QString file = manual_experiment("wait.sebo.json");
        for (const char* bad : {"-1", "abc", "nan", "1e9"}) {
            const CliResult r = run_sebo({"observe", file, "--trial", "0", "--value", "1", "--wait", bad});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--wait"), qPrintable(r.err));
        }
    }
};

SEBO_TEST_MAIN(TestCliWriters)
}  // namespace test_cli_writers
#include "test_cli_writers.moc"
