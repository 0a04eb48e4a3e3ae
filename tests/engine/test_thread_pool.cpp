// The engine's thread pool (engine/core/thread_pool.h): every index runs exactly once whatever
// the pool size, nested batches finish, exceptions reach the caller, a stop request skips the
// tasks not yet started and a cancelled pool shuts down. Also run under ThreadSanitizer in CI
// (.ci/sanitizers.sh). Waits use generous hang guards only: no timing is asserted.

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <vector>

#include "core/thread_pool.h"
#include "test_main.h"
#include "test_support.h"

namespace test_thread_pool {

using namespace sebo;

class TestThreadPool : public QObject {
    Q_OBJECT
private slots:
    void everyIndexRunsOnce_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("count");
        for (int threads : {1, 2, 4})
            for (int count : {0, 1, 3, 100})
                QTest::newRow(qPrintable(QString("%1 threads, %2 tasks").arg(threads).arg(count))) << threads << count;
    }
    void everyIndexRunsOnce() {
        QFETCH(int, threads);
        QFETCH(int, count);
        ThreadPool pool(threads);
        QCOMPARE(pool.size(), threads);
        std::vector<std::atomic<int>> runs(static_cast<std::size_t>(count));
        const int done = pool.parallel_for(count, [&](int i) { runs[static_cast<std::size_t>(i)].fetch_add(1); });
        QCOMPARE(done, count);
        for (const auto& r : runs) QCOMPARE(r.load(), 1);
        // The pool is reusable.
        QCOMPARE(pool.parallel_for(count, [&](int i) { runs[static_cast<std::size_t>(i)].fetch_add(1); }), count);
        for (const auto& r : runs) QCOMPARE(r.load(), 2);
    }

    // Each slot written by its own task: the result is the same as a serial loop.
    void resultsDoNotDependOnThreads() {
        std::vector<double> serial(257), parallel(257);
        for (int i = 0; i < 257; ++i) serial[static_cast<std::size_t>(i)] = std::sin(i) * i;
        ThreadPool pool(3);
        pool.parallel_for(257, [&](int i) { parallel[static_cast<std::size_t>(i)] = std::sin(i) * i; });
        QVERIFY(serial == parallel);
    }

    // A task that runs a batch of its own on the same pool (several metrics' fits, each with its
    // chains): the nested caller works through its own batch, so nothing waits forever.
    void nestedBatchesFinish() {
        for (int threads : {1, 2, 3}) {
            ThreadPool pool(threads);
            std::atomic<int> inner{0};
            const int outer = pool.parallel_for(6, [&](int) {
                pool.parallel_for(5, [&](int) {
                    pool.parallel_for(2, [&](int) { inner.fetch_add(1); });
                });
            });
            QCOMPARE(outer, 6);
            QCOMPARE(inner.load(), 60);
        }
    }

    // A caller whose own tasks are done helps with a batch nested in another thread's task (the
    // last of three metrics' fits gets both threads for its chains). Made deterministic: the
    // caller's outer task returns only once the worker has started the other, whose nested batch
    // has two tasks that each wait for the other to start; the worker runs one of them, so only a
    // helping caller can start the second in time. Without helping, the first waited out its
    // hang guard.
    void idleCallerHelpsANestedBatch() {
        ThreadPool pool(2);
        const std::thread::id caller = std::this_thread::get_id();
        const auto wait_for = [](const std::atomic<bool>& flag) {
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
            while (!flag.load() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
            return flag.load();
        };
        std::atomic<bool> worker_started{false}, both_started{false};
        std::atomic<int> started{0}, saw_the_other{0};
        pool.parallel_for(2, [&](int) {
            if (std::this_thread::get_id() == caller) {
                QVERIFY(wait_for(worker_started));
                return;
            }
            worker_started = true;
            pool.parallel_for(2, [&](int) {
                if (started.fetch_add(1) + 1 == 2) both_started = true;
                if (wait_for(both_started)) saw_the_other.fetch_add(1);
            });
        });
        QCOMPARE(started.load(), 2);
        QCOMPARE(saw_the_other.load(), 2);
    }

    void firstExceptionReachesTheCaller() {
        ThreadPool pool(2);
        std::atomic<int> ran{0};
        bool thrown = false;
        try {
            pool.parallel_for(50, [&](int i) {
                ran.fetch_add(1);
                if (i == 3) throw std::runtime_error("task 3 failed");
            });
        } catch (const std::runtime_error& e) {
            thrown = QString(e.what()) == "task 3 failed";
        }
        QVERIFY(thrown);
        QVERIFY(ran.load() >= 1);
        QCOMPARE(pool.parallel_for(4, [](int) {}), 4);  // still usable
    }

    void stopSkipsTasksNotStarted() {
        ThreadPool pool(2);
        std::stop_source source;
        source.request_stop();
        std::atomic<int> ran{0};
        QCOMPARE(pool.parallel_for(10, [&](int) { ran.fetch_add(1); }, source.get_token()), 0);
        QCOMPARE(ran.load(), 0);
    }

    // Cancel while tasks are running: the running ones poll the token and return, the rest are
    // skipped, parallel_for returns, and the pool can be destroyed at once. The only clock here is
    // a hang guard (a minute) on the waits.
    void cancelShutsDownPromptly() {
        std::atomic<int> started{0}, finished{0};
        std::stop_source source;
        int done = -1;
        {
            ThreadPool pool(2);
            std::jthread canceller([&] {
                const auto guard = std::chrono::steady_clock::now() + std::chrono::minutes(1);
                while (started.load() < 2 && std::chrono::steady_clock::now() < guard)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                source.request_stop();
            });
            const auto guard = std::chrono::steady_clock::now() + std::chrono::minutes(1);
            done = pool.parallel_for(
                100,
                [&](int) {
                    started.fetch_add(1);
                    while (!source.stop_requested() && std::chrono::steady_clock::now() < guard)
                        std::this_thread::sleep_for(std::chrono::milliseconds(1));
                    finished.fetch_add(1);
                },
                source.get_token());
        }  // the pool joins its workers here
        QVERIFY(source.stop_requested());
        QCOMPARE(started.load(), finished.load());
        QVERIFY2(started.load() >= 2 && started.load() < 100, qPrintable(QString::number(started.load())));
        QCOMPARE(done, started.load());
    }

    void sizesAreClamped() {
        QCOMPARE(ThreadPool(0).size(), 1);
        QCOMPARE(ThreadPool(-5).size(), 1);
        QVERIFY(ThreadPool::available_cpus() >= 1);
        QVERIFY(default_thread_count() >= 1);
        QCOMPARE(default_thread_count(100000), 1);
        QCOMPARE(default_thread_count(1), ThreadPool::available_cpus());
    }
};

SEBO_TEST_MAIN(TestThreadPool)
}  // namespace test_thread_pool
#include "test_thread_pool.moc"
