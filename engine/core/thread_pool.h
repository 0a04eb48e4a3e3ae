#pragma once
// The engine's one thread pool (issue 15): a fixed set of std::jthread workers that run the
// independent parts of a step side by side — the NUTS chains of a SAAS fit, the restarts of the
// acquisition optimizer, and (later) the fits of several metrics. The engine stays synchronous:
// parallel_for returns only when every task it started has finished, so callers see a plain
// function call whose result does not depend on how the tasks were scheduled (each task writes
// only its own slot of the output).
//
// Sizing: `threads` counts the thread that calls parallel_for, which works on its own batch
// instead of waiting idle; a pool of 1 starts no worker at all and runs everything in the caller.
// Clients size it with `--threads` (default: the CPUs this process may use, divided by the
// number of processes run side by side, e.g. `sebo bench --jobs J`), so that nested parallelism
// never puts more busy threads on the machine than it has cores.
//
// Nesting: a task may call parallel_for on the same pool (a metric's fit running its chains).
// The nested caller works through its own batch, so it never waits for a task that no thread
// will start, and there is no deadlock however deep the nesting. While the indices others claimed
// are still running, a caller runs queued tasks of any batch instead of idling (the last of three
// fits then gets both threads for its chains). A wait is only ever for tasks that started after
// the batch was made, so waits cannot form a cycle.
//
// Cancellation: tasks not started when `stop` fires are skipped; started ones are expected to
// poll the same token themselves (NUTS does, before every gradient evaluation). Destroying the
// pool stops and joins the workers (std::jthread); it must not be destroyed while a
// parallel_for on it is running.

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

namespace sebo {

class ThreadPool {
public:
    // `threads` ≥ 1 (the calling thread included); values above kMaxThreads are clamped.
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    static constexpr int kMaxThreads = 256;

    // Threads that run tasks, the caller of parallel_for included.
    int size() const { return static_cast<int>(workers_.size()) + 1; }

    // Runs task(i) for i in [0, count) on the workers and the calling thread, and returns when
    // every started task has finished. Returns the number of tasks run: count, unless `stop` was
    // requested (later tasks are skipped) or a task threw. The first exception a task throws is
    // rethrown here once the tasks already running have finished; tasks not yet started are
    // skipped. Which thread runs which index is not specified.
    int parallel_for(int count, const std::function<void(int)>& task, std::stop_token stop = {});

    // CPUs this process may run on (its affinity mask, which `taskset` and container limits
    // narrow), at least 1.
    static int available_cpus();

private:
    struct Batch;
    void work(std::stop_token stop);
    // Under mutex_: the next unclaimed index of the front batch, or false when the queue is empty.
    bool claim(Batch*& batch, int& index);
    void run(Batch& batch, int index);

    std::mutex mutex_;
    std::condition_variable_any work_available_;
    std::vector<Batch*> queue_;  // batches with unclaimed indices, oldest first
    std::vector<std::jthread> workers_;
};

// The default of `--threads`: the available CPUs divided among `processes` processes running side
// by side (`sebo bench --jobs J` runs J), at least 1.
int default_thread_count(int processes = 1);

}  // namespace sebo
