#pragma once
// The range a chart's value axis shows, taken from the bulk of the data so that one absurd value
// (an error sentinel of 1e308 among values of order 10) cannot squash every other point against
// an edge. The bulk is the values within the far-out fences (core/robust_spread.h: the quartiles
// ± 3 interquartile ranges; all values when there are fewer than 5 or no spread); values outside
// it do not widen the axis. They are drawn in a band added at that end of the axis (place()),
// under an arrow pointing off the chart (arrow()), and the views give their real value in the
// tooltip. Plain C++ (no Qt), so the rule is tested directly.
//
// A logarithmic axis is possible only when every value is positive. Asked for (LogScale::On), its
// fences are taken on log10 of the values; left to the rule (Automatic), it is used when the
// bulk in log space spans two decades or more (Branin's 0.4 … 308), where a linear axis would
// hide the differences near the optimum.
//
// The range is always finite and wide enough for ticks: at most ±1/4 of the largest double, so
// that high − low cannot overflow, and at least 1e-12 of its magnitude (ticks 1e-13 apart near
// 1e6 could not be told apart in a double, and a tick generator would not advance).

#include <vector>

namespace sebo::ui {

enum class LogScale { Automatic, On, Off };

struct AxisRangeOptions {
    LogScale log = LogScale::Automatic;
    // The axis starts at 0 and is linear (the hypervolume, which is never negative).
    bool from_zero = false;
};

struct AxisRange {
    // The axis.
    double low = 0.0;
    double high = 1.0;
    // Values within [shown_low, shown_high] (the bulk with a margin) are drawn where they are.
    // Beyond it, a band of kBand of that span (in log10 units on a log axis) lies between it and
    // the end of the axis, on each side that has such values.
    double shown_low = 0.0;
    double shown_high = 1.0;
    bool logarithmic = false;
    static constexpr double kBand = 0.1;

    // −1 below the values drawn where they are, +1 above them, 0 among them.
    int side(double value) const;
    // Where a value is drawn: itself, or the middle of the band on its side.
    double place(double value) const;
    // Where the arrow over a value beyond is drawn: between its marker and the end of the axis.
    double arrow(double value) const;
};

// The range for `values` (finite; may be empty: then [0, 1]).
AxisRange value_axis_range(const std::vector<double>& values, const AxisRangeOptions& options = {});

// `values` with those of `marks` (a constraint's bound drawn as a line) that lie within one span
// of them: a mark near the data is on the axis, one far from it does not squash the data.
std::vector<double> with_nearby_marks(std::vector<double> values, const std::vector<double>& marks);

// Whether a logarithmic axis is possible: there is a value and every value is positive.
bool log_axis_possible(const std::vector<double>& values);

// The base of a logarithmic axis over [low, high] (0 < low < high): 10, or 10^k when the range
// spans more than ten decades, so that there are at most about ten labelled ticks.
double log_axis_base(double low, double high);

}  // namespace sebo::ui
