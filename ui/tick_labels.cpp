#include "tick_labels.h"

#include <algorithm>
#include <cmath>

namespace sebo::ui {

namespace {

// Beyond this many digits a fixed-decimals label is a wall of digits even on an axis that crosses
// zero (|values| above 1e15 or intervals below 1e-15): significant digits are shown instead.
constexpr int kMaxDigitsAcrossZero = 15;

}  // namespace

int interval_decimals(double interval) {
    for (int d = -15; d < 15; ++d) {
        const double scaled = interval * std::pow(10.0, d);
        if (scaled >= 0.5 && std::abs(scaled - std::round(scaled)) <= 1e-9 * scaled) return d;
    }
    return 15;
}

TickLabels tick_labels(double low, double high, double interval) {
    if (!(interval > 0.0) || !std::isfinite(interval) || !std::isfinite(low) || !std::isfinite(high))
        return {"%.4g", 0.0, low, high};
    const int places = interval_decimals(interval);
    const int decimals = std::max(0, places);
    const double magnitude = std::max(std::abs(low), std::abs(high));
    // Digits before the point of the largest value (0 or fewer for values below 0.1).
    const int leading = magnitude > 0.0 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 1;
    const int fixed_digits = std::max(1, leading) + decimals;
    const bool crosses_zero = low < 0.0 && high >= 0.0;
    TickLabels labels;
    if (fixed_digits <= kMaxFixedDigits || (crosses_zero && fixed_digits <= kMaxDigitsAcrossZero)) {
        labels.format = "%." + std::to_string(decimals) + "f";
        // The tick at zero is reached by adding intervals to a negative one: keep it above zero.
        if (crosses_zero) labels.anchor = 1e-6 * std::pow(10.0, -decimals);
    } else {
        labels.format = "%." + std::to_string(std::clamp(leading + places, 1, 17)) + "g";
    }
    // Ends at a tick move out by more than the round-off of a dozen additions (and the anchor's
    // offset), far less than a pixel or the last digit shown.
    const double hair = 2.0 * labels.anchor + 1e-12 * std::max(magnitude, interval);
    // (Not the anchor itself: Qt's first tick is exactly there.)
    const auto at_tick = [&](double end) {
        const double tick = std::round((end - labels.anchor) / interval) * interval + labels.anchor;
        return end != labels.anchor && std::abs(end - tick) < hair;
    };
    labels.low = at_tick(low) ? low - hair : low;
    labels.high = at_tick(high) ? high + hair : high;
    return labels;
}

}  // namespace sebo::ui
