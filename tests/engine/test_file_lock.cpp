// The writer lock of experiment files (io/file_lock.h): exclusion between holders (two locks in
// one process exclude each other as two processes do: flock is per open file), the holder named
// in the busy message, waiting until a release or a stop, stale sidecars taken over, and a lock
// that child processes do not inherit. Waits are ended by events (a release, a stop request),
// never by a clock; no test here depends on how fast the machine is.

#include <unistd.h>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <atomic>
#include <cmath>
#include <ctime>
#include <future>
#include <limits>
#include <nlohmann/json.hpp>
#include <thread>

#include "io/file_lock.h"
#include "io/shared_experiment_file.h"
#include "lock_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_file_lock {

using namespace sebo;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

FileLockOptions options(const std::string& program, double wait = 0.0, std::string activity = "being run by") {
    FileLockOptions o;
    o.program = program;
    o.activity = std::move(activity);
    o.wait_seconds = wait;
    return o;
}

std::string read_text(const std::string& path) {
    QFile f(qs(path));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll().toStdString();
}

void write_text(const std::string& path, const std::string& text) {
    QFile f(qs(path));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text.data(), static_cast<qint64>(text.size()));
}

// An ISO-8601 UTC timestamp for a local time today (so the message shows "HH:MM" only).
std::string today_at(int hour, int minute) {
    std::time_t now = std::time(nullptr);
    std::tm local{};
    ::localtime_r(&now, &local);
    local.tm_hour = hour;
    local.tm_min = minute;
    local.tm_sec = 0;
    local.tm_isdst = -1;  // whatever daylight saving time says for 12:01 today
    const std::time_t when = std::mktime(&local);
    std::tm utc{};
    ::gmtime_r(&when, &utc);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buffer;
}

}  // namespace

class TestFileLock : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void sidecarNamesTheHolderAndIsRemovedOnRelease() {
        const std::string sidecar = path("a.sebo.json.lock");
        {
            FileLock lock = FileLock::acquire(sidecar, "a.sebo.json", options("sebo run"));
            QVERIFY(lock.held());
            QVERIFY(!lock.previous_holder());
            const auto j = nlohmann::json::parse(read_text(sidecar));
            QCOMPARE(j.at("pid").get<long>(), static_cast<long>(::getpid()));
            QCOMPARE(qs(j.at("program").get<std::string>()), QString("sebo run"));
            QCOMPARE(qs(j.at("activity").get<std::string>()), QString("being run by"));
            QCOMPARE(qs(j.at("host").get<std::string>()), qs(test::host_name()));
            QCOMPARE(j.at("started_at").get<std::string>().size(), std::size_t{20});
            const auto holder = FileLock::current_holder(sidecar);
            QVERIFY(holder);
            QCOMPARE(holder->pid, static_cast<long>(::getpid()));
        }
        QVERIFY(!QFile::exists(qs(sidecar)));
        QVERIFY(!FileLock::current_holder(sidecar));
    }

    // A second holder (another open file, as another process would have) is refused at once with
    // wait 0, and the message names the first: program, pid and the time it started.
    void secondHolderIsRefusedWithTheHolderNamed() {
        const std::string sidecar = path("b.sebo.json.lock");
        const FileLock first = FileLock::acquire(sidecar, "b.sebo.json", options("sebo run"));
        try {
            FileLock::acquire(sidecar, "b.sebo.json", options("sebo run"));
            QFAIL("the second lock was taken");
        } catch (const FileBusyError& error) {
            QVERIFY(!error.stopped());
            QVERIFY(error.holder());
            QCOMPARE(error.holder()->pid, static_cast<long>(::getpid()));
            const QString message = QString::fromUtf8(error.what());
            QVERIFY2(message.startsWith(QString("b.sebo.json is being run by `sebo run` (pid %1) since ").arg(::getpid())),
                     qPrintable(message));
        }
        // After a wait that runs out, the message says how long it waited.
        try {
            FileLock::acquire(sidecar, "b.sebo.json", options("sebo observe", 0.05, "being written by"));
            QFAIL("the second lock was taken");
        } catch (const FileBusyError& error) {
            QVERIFY2(QString(error.what()).endsWith("; waited 0.05 s"), error.what());
        }
        QVERIFY(first.held());
    }

    // A waiter gets the lock when the holder releases it: the release is what ends the wait. The
    // sidecar at the path then names the waiter (it did not keep the unlinked sidecar of the
    // previous holder, which a waiter that opened it before the release still has open).
    void waiterGetsTheLockOnRelease() {
        const std::string sidecar = path("c.sebo.json.lock");
        FileLock holder = FileLock::acquire(sidecar, "c.sebo.json", options("holder"));
        std::promise<std::string> waiting;  // the holder the waiter saw
        FileLockOptions o = options("waiter", std::numeric_limits<double>::infinity(), "being written by");
        o.on_wait = [&](const LockHolder& h) { waiting.set_value(h.program); };
        auto acquired = std::async(std::launch::async, [&] { return FileLock::acquire(sidecar, "c.sebo.json", o); });
        QCOMPARE(qs(waiting.get_future().get()), QString("holder"));
        holder.release();
        FileLock lock = acquired.get();
        QVERIFY(lock.held());
        QVERIFY(!lock.previous_holder());  // released properly: nothing to take over
        const auto j = nlohmann::json::parse(read_text(sidecar));
        QCOMPARE(qs(j.at("program").get<std::string>()), QString("waiter"));
    }

    // Many threads, each taking the lock for a read-modify-write of a counter file: every
    // increment survives (the lock excludes), and every sidecar is removed in the end.
    void contendedReadModifyWriteLosesNothing() {
        const std::string sidecar = path("counter.lock");
        const std::string counter = path("counter.txt");
        write_text(counter, "0");
        constexpr int kThreads = 4, kRounds = 25;
        std::vector<std::thread> threads;
        std::atomic<int> failures{0};
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] {
                for (int r = 0; r < kRounds; ++r) {
                    try {
                        FileLockOptions o = options("thread " + std::to_string(t), std::numeric_limits<double>::infinity());
                        const FileLock lock = FileLock::acquire(sidecar, "counter", o);
                        const int value = std::stoi(read_text(counter));
                        std::this_thread::yield();
                        QFile f(qs(counter));
                        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) ++failures;
                        f.write(QByteArray::number(value + 1));
                    } catch (...) {
                        ++failures;
                    }
                }
            });
        for (auto& t : threads) t.join();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(std::stoi(read_text(counter)), kThreads * kRounds);
        QVERIFY(!QFile::exists(qs(sidecar)));
    }

    void stopRequestEndsAWait() {
        const std::string sidecar = path("d.sebo.json.lock");
        const FileLock holder = FileLock::acquire(sidecar, "d.sebo.json", options("sebo run"));
        std::stop_source stop;
        FileLockOptions o = options("sebo observe", std::numeric_limits<double>::infinity(), "being written by");
        o.stop = stop.get_token();
        o.on_wait = [&](const LockHolder&) { stop.request_stop(); };
        try {
            FileLock::acquire(sidecar, "d.sebo.json", o);
            QFAIL("the lock was taken while held");
        } catch (const FileBusyError& error) {
            QVERIFY(error.stopped());
            QVERIFY2(QString(error.what()).endsWith("; stopped waiting for it"), error.what());
        }
    }

    // A holder killed with SIGKILL leaves its sidecar behind; the kernel has released its lock,
    // so the next process takes it at once and says whose it was.
    void staleSidecarIsTakenOver() {
        const std::string file = path("e.sebo.json");
        const std::string sidecar = run_lock_path(file);
        const long pid = test::ended_process_id();
        write_text(sidecar, nlohmann::json{{"program", "sebo run"}, {"activity", "being run by"}, {"pid", pid},
                                           {"host", test::host_name()}, {"started_at", today_at(12, 1)}}
                                .dump());
        // Readers do not report a dead holder.
        QVERIFY(!FileLock::current_holder(sidecar));
        const FileLock lock = acquire_run_lock(file, options("sebo run"));
        QVERIFY(lock.previous_holder());
        QCOMPARE(lock.previous_holder()->pid, pid);
        QCOMPARE(qs(takeover_note(lock, file)), QString("took over the lock of %1 left by `sebo run` (pid %2) since 12:01, "
                                                        "which ended without releasing it")
                                                    .arg(qs(file))
                                                    .arg(pid));
        // A sidecar with junk in it (not one of ours) is taken over too, naming no one.
        const std::string junk = path("f.sebo.json.lock");
        write_text(junk, "{{{ not json");
        const FileLock other = FileLock::acquire(junk, "f.sebo.json", options("sebo run"));
        QVERIFY(!other.previous_holder());
        QVERIFY(takeover_note(other, "f.sebo.json").empty());
    }

    // The lock's file descriptor is close-on-exec: an evaluator started while the lock is held
    // does not keep it after the holder releases it (or dies).
    void childProcessesDoNotInheritTheLock() {
        const std::string sidecar = path("g.sebo.json.lock");
        FileLock lock = FileLock::acquire(sidecar, "g.sebo.json", options("sebo run"));
        QProcess child;
        child.start("sleep", {"600"});
        QVERIFY(child.waitForStarted(60000));
        lock.release();
        const FileLock again = FileLock::acquire(sidecar, "g.sebo.json", options("sebo run"));
        QVERIFY(again.held());
        child.kill();
        child.waitForFinished(60000);
    }

    void describeHolder() {
        LockHolder h;
        h.pid = 1234;
        h.program = "sebo run";
        h.activity = "being run by";
        h.host = test::host_name();
        h.started_at = today_at(12, 1);
        QCOMPARE(qs(describe_holder("c.sebo.json", h)), QString("c.sebo.json is being run by `sebo run` (pid 1234) since 12:01"));
        h.host = "lab-bench-2.invalid";
        h.started_at = "2001-02-03T04:05:06Z";
        const QString other = qs(describe_holder("c.sebo.json", h));
        QVERIFY2(other.startsWith("c.sebo.json is being run by `sebo run` (pid 1234 on lab-bench-2.invalid) since 2001-02-0"),
                 qPrintable(other));
        QCOMPARE(qs(describe_holder("c.sebo.json", LockHolder{})), QString("c.sebo.json is held by another process"));
    }

    void invalidOptionsAreRefused() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, FileLock::acquire(path("h.lock"), "h", FileLockOptions{}));
        FileLockOptions o = options("x", std::nan(""));
        QVERIFY(o.validate());
        QVERIFY(o.validate()->find("wait_seconds") != std::string::npos);
        o.wait_seconds = -1;
        QVERIFY(o.validate());
        o.wait_seconds = std::numeric_limits<double>::infinity();
        QVERIFY(!o.validate());
    }

    void missingFolderIsAClearError() {
        try {
            FileLock::acquire(path("no-such-folder/x.sebo.json.lock"), "x.sebo.json", options("sebo run"));
            QFAIL("a lock in a missing folder was taken");
        } catch (const FileBusyError&) {
            QFAIL("reported as busy");
        } catch (const std::runtime_error& error) {
            QVERIFY2(QString(error.what()).contains("no-such-folder/x.sebo.json.lock"), error.what());
        }
    }
};

SEBO_TEST_MAIN(TestFileLock)
}  // namespace test_file_lock
#include "test_file_lock.moc"
