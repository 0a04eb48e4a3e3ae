#include "core/thread_pool.h"

#include <sched.h>

#include <algorithm>
#include <cassert>
#include <exception>

namespace sebo {

struct ThreadPool::Batch {
    const std::function<void(int)>* task = nullptr;
    int count = 0;
    std::stop_token stop;
    // Guarded by the pool's mutex.
    int next = 0;      // next index to claim
    int finished = 0;  // indices claimed and done (run or skipped)
    int run = 0;       // indices actually run
    std::exception_ptr error;
};

ThreadPool::ThreadPool(int threads) {
    const int n = std::clamp(threads, 1, kMaxThreads);
    workers_.reserve(static_cast<std::size_t>(n - 1));
    for (int i = 1; i < n; ++i) workers_.emplace_back([this](std::stop_token stop) { work(stop); });
}

ThreadPool::~ThreadPool() {
    for (std::jthread& w : workers_) w.request_stop();
    work_available_.notify_all();
    workers_.clear();  // joins
}

bool ThreadPool::claim(Batch*& batch, int& index) {
    while (!queue_.empty()) {
        Batch* front = queue_.front();
        if (front->next < front->count) {
            batch = front;
            index = front->next++;
            if (front->next == front->count) queue_.erase(queue_.begin());
            return true;
        }
        queue_.erase(queue_.begin());
    }
    return false;
}

void ThreadPool::run(Batch& batch, int index) {
    bool skip = false;
    {
        const std::lock_guard lock(mutex_);
        skip = batch.error != nullptr;
    }
    skip = skip || batch.stop.stop_requested();
    std::exception_ptr error;
    if (!skip) {
        try {
            (*batch.task)(index);
        } catch (...) {
            error = std::current_exception();
        }
    }
    {
        const std::lock_guard lock(mutex_);
        if (error && !batch.error) batch.error = error;
        if (!skip && !error) ++batch.run;
        ++batch.finished;
    }
    work_available_.notify_all();  // its caller may be waiting; so may helpers, for nothing
}

void ThreadPool::work(std::stop_token stop) {
    for (;;) {
        Batch* batch = nullptr;
        int index = 0;
        {
            std::unique_lock lock(mutex_);
            if (!work_available_.wait(lock, stop, [&] { return claim(batch, index); })) return;
        }
        run(*batch, index);
    }
}

int ThreadPool::parallel_for(int count, const std::function<void(int)>& task, std::stop_token stop) {
    if (count <= 0) return 0;
    Batch batch;
    batch.task = &task;
    batch.count = count;
    batch.stop = std::move(stop);
    const bool shared = !workers_.empty() && count > 1;
    if (shared) {
        {
            const std::lock_guard lock(mutex_);
            queue_.push_back(&batch);
        }
        work_available_.notify_all();
    }
    // The caller works through its own batch first (it never waits for an index nobody claimed).
    for (;;) {
        int index = 0;
        {
            const std::lock_guard lock(mutex_);
            if (batch.next >= batch.count) break;
            index = batch.next++;
            if (shared && batch.next == batch.count) std::erase(queue_, &batch);
        }
        run(batch, index);
    }
    // Then, until the indices others claimed have finished, it helps with any queued batch (a
    // nested one of a task still running, or another caller's) instead of idling: with three
    // metrics' fits of two chains each on two threads, the thread that finished its fit would
    // otherwise wait while the last fit's chains ran one after the other. A helped task only
    // delays this return; it cannot deadlock, since every wait is for indices already claimed by
    // threads that are running them.
    std::exception_ptr error;
    int done = 0;
    for (;;) {
        Batch* other = nullptr;
        int index = 0;
        {
            std::unique_lock lock(mutex_);
            work_available_.wait(lock, [&] { return batch.finished == batch.count || claim(other, index); });
            if (!other) {
                assert(std::find(queue_.begin(), queue_.end(), &batch) == queue_.end());
                error = batch.error;
                done = batch.run;
                break;
            }
        }
        run(*other, index);
    }
    if (error) std::rethrow_exception(error);
    return done;
}

int ThreadPool::available_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

int default_thread_count(int processes) { return std::max(1, ThreadPool::available_cpus() / std::max(1, processes)); }

}  // namespace sebo
