#include "axis_range.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/robust_spread.h"

namespace sebo::ui {

namespace {

constexpr double kLargest = std::numeric_limits<double>::max() / 4;
constexpr double kMinimumRelativeSpan = 1e-12;

struct Interval {
    double low = 0.0;
    double high = 0.0;
};

// The smallest and largest of the values within their far-out fences (all of them without a
// robust spread). `values` is not empty.
Interval bulk_of(const std::vector<double>& values) {
    const auto spread = robust_spread(values);
    Interval bulk{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (double v : values) {
        if (spread && !spread->within_fences(v)) continue;
        bulk.low = std::min(bulk.low, v);
        bulk.high = std::max(bulk.high, v);
    }
    return bulk;
}

// The bulk with a margin of 5% of its range on either side (0.05·high − 0.05·low cannot
// overflow); one value, or all equal: a window around it that still gets a few ticks.
Interval shown_linear(Interval bulk, bool from_zero) {
    if (from_zero) return {0.0, bulk.high > 0.0 ? std::min(1.08 * bulk.high, kLargest) : 1.0};
    const double margin =
        bulk.high > bulk.low ? 0.05 * bulk.high - 0.05 * bulk.low : std::max(0.5, 0.1 * std::abs(bulk.high));
    double low = bulk.low - margin, high = bulk.high + margin;
    const double minimum_span = kMinimumRelativeSpan * std::max(std::abs(low), std::abs(high));
    if (high - low < minimum_span) {
        const double middle = 0.5 * low + 0.5 * high;
        low = middle - 0.5 * minimum_span;
        high = middle + 0.5 * minimum_span;
    }
    return {std::max(low, -kLargest), std::min(high, kLargest)};
}

// The same in log10 units: a margin of 5% of the range, at least 0.05 decades.
Interval shown_log(Interval bulk) {
    const double pad = 0.05 * std::max(bulk.high - bulk.low, 1.0);
    return {std::max(bulk.low - pad, std::log10(std::numeric_limits<double>::min())),
            std::min(bulk.high + pad, std::log10(kLargest))};
}

// The axis: the shown interval with a band on each side that has values beyond it (all in the
// axis's own units: values, or log10 of values).
AxisRange with_bands(Interval shown, const std::vector<double>& values, bool logarithmic) {
    const double band = AxisRange::kBand * (shown.high - shown.low);  // the span is at most half the largest double
    bool below = false, above = false;
    for (double v : values) {
        below |= v < shown.low;
        above |= v > shown.high;
    }
    const double floor = logarithmic ? std::log10(std::numeric_limits<double>::min()) : -kLargest;
    const double ceiling = logarithmic ? std::log10(kLargest) : kLargest;
    const auto out = [logarithmic](double x) { return logarithmic ? std::pow(10.0, x) : x; };
    AxisRange range;
    range.logarithmic = logarithmic;
    range.shown_low = out(shown.low);
    range.shown_high = out(shown.high);
    range.low = out(below ? std::max(shown.low - band, floor) : shown.low);
    range.high = out(above ? std::min(shown.high + band, ceiling) : shown.high);
    return range;
}

// A point a fraction `t` of the way from a to b, on the axis's scale.
double between(double a, double b, double t, bool logarithmic) {
    if (logarithmic) return std::pow(10.0, std::lerp(std::log10(a), std::log10(b), t));
    return std::lerp(a, b, t);
}

}  // namespace

int AxisRange::side(double value) const { return value < shown_low ? -1 : value > shown_high ? 1 : 0; }

double AxisRange::place(double value) const {
    switch (side(value)) {
    case 1: return between(shown_high, high, 0.5, logarithmic);
    case -1: return between(shown_low, low, 0.5, logarithmic);
    default: return value;
    }
}

double AxisRange::arrow(double value) const {
    switch (side(value)) {
    case 1: return between(shown_high, high, 0.85, logarithmic);
    case -1: return between(shown_low, low, 0.85, logarithmic);
    default: return value;
    }
}

std::vector<double> with_nearby_marks(std::vector<double> values, const std::vector<double>& marks) {
    if (values.empty()) return values;
    const auto [low_it, high_it] = std::minmax_element(values.begin(), values.end());
    const double low = *low_it, high = *high_it, span = high - low;
    for (double mark : marks)
        if (mark >= low - span && mark <= high + span) values.push_back(mark);
    return values;
}

bool log_axis_possible(const std::vector<double>& values) {
    return !values.empty() && std::all_of(values.begin(), values.end(), [](double v) { return v > 0.0; });
}

AxisRange value_axis_range(const std::vector<double>& values, const AxisRangeOptions& options) {
    if (values.empty()) return {};
    if (!options.from_zero && options.log != LogScale::Off && log_axis_possible(values)) {
        std::vector<double> logs(values.size());
        std::transform(values.begin(), values.end(), logs.begin(), [](double v) { return std::log10(v); });
        const Interval bulk = bulk_of(logs);
        if (options.log == LogScale::On || bulk.high - bulk.low >= 2.0)
            return with_bands(shown_log(bulk), logs, true);
    }
    return with_bands(shown_linear(bulk_of(values), options.from_zero), values, false);
}

double log_axis_base(double low, double high) {
    const double decades = std::log10(high) - std::log10(low);
    if (!(decades > 10.0)) return 10.0;
    return std::pow(10.0, std::ceil(decades / 10.0));
}

}  // namespace sebo::ui
