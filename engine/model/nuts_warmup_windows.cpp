#include "model/nuts_warmup_windows.h"

#include <cassert>

namespace sebo {

std::optional<std::string> WarmupWindowOptions::validate() const {
    if (init_buffer < 0) return "init_buffer: " + std::to_string(init_buffer) + " is negative";
    if (term_buffer < 0) return "term_buffer: " + std::to_string(term_buffer) + " is negative";
    if (base_window < 2) return "base_window: " + std::to_string(base_window) + " is below 2";
    return std::nullopt;
}

std::vector<AdaptationWindow> metric_adaptation_windows(int warmup, const WarmupWindowOptions& options) {
    assert(!options.validate());
    std::vector<AdaptationWindow> windows;
    if (warmup < 20) return windows;

    int init_buffer = options.init_buffer;
    int term_buffer = options.term_buffer;
    int base_window = options.base_window;
    // Long-long sum: the options are validated as non-negative but not bounded above.
    if (static_cast<long long>(init_buffer) + base_window + term_buffer > warmup) {
        init_buffer = static_cast<int>(0.15 * warmup);
        term_buffer = static_cast<int>(0.1 * warmup);
        base_window = warmup - init_buffer - term_buffer;
    }
    const int slow_end = warmup - term_buffer;

    int begin = init_buffer;
    long long size = base_window;
    while (begin < slow_end) {
        long long end = begin + size;
        if (end + 2 * size > slow_end) end = slow_end;
        windows.push_back({begin, static_cast<int>(end)});
        begin = static_cast<int>(end);
        size *= 2;
    }
    return windows;
}

}  // namespace sebo
