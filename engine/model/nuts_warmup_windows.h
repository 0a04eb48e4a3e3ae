#pragma once
// The windowed warm-up schedule for adapting the NUTS mass matrix (Stan's "windowed
// adaptation", Stan Reference Manual, chapter "MCMC Sampling", section "Automatic parameter
// tuning"). Warm-up is split into a fast initial buffer (step size only, while the chain finds
// the typical set), a series of slow windows that double in length, at the end of each of which
// the inverse metric is re-estimated from that window's draws alone, and a fast terminal buffer
// in which only the step size is tuned for the final metric.

#include <optional>
#include <string>
#include <vector>

namespace sebo {

struct WarmupWindowOptions {
    int init_buffer = 75;  // fast iterations before the first slow window
    int term_buffer = 50;  // fast iterations after the last slow window
    int base_window = 25;  // length of the first slow window (≥ 2 draws for a variance); each next one is twice as long

    // Empty when valid; otherwise a message naming the field.
    std::optional<std::string> validate() const;
};

// Warm-up iterations [begin, end) (0-based) whose draws estimate one inverse metric; the metric
// is updated after iteration end − 1.
struct AdaptationWindow {
    int begin = 0;
    int end = 0;

    friend bool operator==(const AdaptationWindow&, const AdaptationWindow&) = default;
};

// The slow windows for a warm-up of `warmup` iterations, in order; they tile
// [init_buffer, warmup − term_buffer) exactly (with the scaled buffers below when scaled), and
// none is shorter than base_window.
//  - Fewer than 20 warm-up iterations: no windows (too few draws to estimate a variance), as in
//    Stan.
//  - When init_buffer + base_window + term_buffer exceed the warm-up, the buffers are scaled down
//    as Stan does: 15 % initial buffer, 10 % terminal buffer, one slow window in between.
//  - A window is stretched to the end of the slow phase when the next, doubled window would not
//    fit after it. Stan applies this rule from the second window on; it is applied to the first
//    window too here, which avoids a short trailing window built from a handful of draws
//    (identical to Stan's windows whenever the first two fit, e.g. for the defaults).
std::vector<AdaptationWindow> metric_adaptation_windows(int warmup, const WarmupWindowOptions& options);

}  // namespace sebo
