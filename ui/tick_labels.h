#pragma once
// The labels of a value axis with dynamic ticks (QValueAxis::TicksDynamic): clean numbers, never
// the floating-point round-off of the ticks. Qt Charts finds each tick by adding the interval to
// the one before, from the first tick above the axis's low end, so the ticks carry the round-off
// of those additions: on an axis from −0.32 to 0.17 ticked every 0.1 the tick at zero is −0.3 + 0.1
// + 0.1 + 0.1 = 2.8e-17, which the old label format "%.4g" printed as "2.776e-17" (issue 32 saw
// "-5.551e-17" on the frontier's objective axis).
//
// The rule: labels with a fixed number of decimals, those of the interval ("%.2f" for 0.05), as
// long as the labels stay short (at most kMaxFixedDigits digits) or the axis crosses zero; round-off
// is many orders of magnitude below the last decimal shown. A tick reached from below zero could
// still come out a hair below it and print as "-0.0"; on such an axis the ticks are anchored a
// millionth of the last decimal above the multiples of the interval, invisible on the screen and
// in the labels, so that tick is a hair above zero. Otherwise (large or tiny values that do not
// cross zero, where every tick is at least one interval away from it) the labels have the
// significant digits that tell the ticks apart ("%.2g": 1.2e+09, 1.4e+09), and round-off stays
// below the last of them.
//
// An axis that ends exactly at a tick (0 to 1, −0.6 to 0) could lose that tick to the same
// round-off (the sum lands a hair beyond the end); such an end moves out by a hair, again far
// below anything shown. Plain C++ (no Qt), so the rule is tested directly.

#include <string>

namespace sebo::ui {

struct TickLabels {
    std::string format;   // printf format of one tick's value (QValueAxis::setLabelFormat)
    double anchor = 0.0;  // a value where a tick lies (QValueAxis::setTickAnchor)
    // The axis's range: the one asked for, or with an end at a tick moved out by a hair.
    double low = 0.0;
    double high = 0.0;
};

// Digits a fixed-decimals label may have (before and after the point) when the axis does not cross zero.
inline constexpr int kMaxFixedDigits = 9;

// The labels of an axis over [low, high] ticked every `interval` (> 0; 1, 2 or 5 times a power of
// ten as ChartPanel::niceInterval gives, though any interval with a finite decimal form works).
TickLabels tick_labels(double low, double high, double interval);

// The decimals needed to write every multiple of `interval` exactly: 1 for 0.5, 2 for 0.05, 0 for
// 20 — negative for intervals that are multiples of 10 (−1 for 20, −8 for 2e8); at most 15.
int interval_decimals(double interval);

}  // namespace sebo::ui
