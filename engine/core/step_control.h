#pragma once
// Progress reporting and cancellation for one (possibly long) engine step. The engine never
// prints: every phase change goes through the callback, and long loops poll the stop token.

#include <functional>
#include <stop_token>
#include <string>

namespace sebo {

class ThreadPool;

struct StepProgress {
    std::string phase;  // "generating initial design", "fitting model", "optimizing acquisition", "evaluating"
    int current = 0;    // e.g. stage j of J; 0/0 when the phase has no steps
    int total = 0;
    std::string detail;
};

struct StepControl {
    // Called from the thread that runs the step only (parallel parts report through it).
    std::function<void(const StepProgress&)> progress;
    std::stop_token stop;
    // Threads for the parallel parts of the step (core/thread_pool.h): NUTS chains, optimizer
    // restarts. Null: everything runs on the calling thread. Not owned.
    ThreadPool* pool = nullptr;

    void report(const StepProgress& p) const {
        if (progress) progress(p);
    }
    bool cancelled() const { return stop.stop_requested(); }
};

}  // namespace sebo
