#pragma once
// Timing pieces shared by sebo-bench's sections (main.cpp, moo_bench.cpp): wall-clock and CPU
// seconds of a repetition, and one reported figure.

#include <time.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace sebo_bench {

// CPU seconds used by this process (user + system), all threads together. With one thread, on a
// loaded machine, this is what the work would take on a core of its own, whereas the wall-clock
// figure also counts the time the process waited for one; with several, CPU / wall is the
// parallelism achieved.
inline double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Wall-clock and CPU time of one repetition.
class Stopwatch {
public:
    double wall() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start_).count();
    }
    double cpu() const { return cpu_seconds() - cpu_start_; }

private:
    std::chrono::steady_clock::time_point wall_start_ = std::chrono::steady_clock::now();
    double cpu_start_ = cpu_seconds();
};

struct Figure {
    std::string benchmark;
    int n = 0, dimension = 0;
    std::vector<double> seconds;      // wall clock
    std::vector<double> cpu_seconds;  // CPU time of the process
    std::string detail;               // work done, e.g. gradient evaluations
};

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace sebo_bench
