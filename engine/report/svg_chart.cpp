#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/format.h"

namespace sebo {

AxisScale nice_scale(double lo, double hi, bool integers, int target_ticks) {
    if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(hi - lo)) return {0.0, 1.0, {0.0, 1.0}};
    if (hi < lo) std::swap(lo, hi);
    if (hi == lo) {
        // 10 % of the value either side; a range of zeros becomes [-1, 1].
        const double pad = lo == 0.0 ? 1.0 : std::max(integers ? 1.0 : 0.0, std::abs(lo) * 0.1);
        lo -= pad;
        hi += pad;
    }
    const double raw = (hi - lo) / std::max(1, target_ticks);
    // The step is multiple · 10^exponent with multiple 1, 2, 5 or 10.
    int exponent = static_cast<int>(std::floor(std::log10(raw)));
    double multiple = 10.0;
    for (double m : {1.0, 2.0, 5.0})
        if (m * std::pow(10.0, exponent) >= raw) {
            multiple = m;
            break;
        }
    if (integers && multiple * std::pow(10.0, exponent) < 1.0) {
        multiple = 1.0;
        exponent = 0;
    }
    // Tick n is n · multiple · 10^exponent, divided by 10^-exponent when that is negative, so that
    // the tick 0.3 is the double nearest 0.3 (3 · 0.1 is 0.30000000000000004).
    const auto tick = [&](double n) {
        return exponent >= 0 ? n * multiple * std::pow(10.0, exponent) : n * multiple / std::pow(10.0, -exponent);
    };
    const double step = tick(1.0);
    const double first = std::floor(lo / step), last = std::max(first + 1.0, std::ceil(hi / step));
    AxisScale scale;
    scale.lower = tick(first);
    scale.upper = tick(last);
    // At most 100 ticks: with values near 1e17, first + 1 may round back to first.
    for (int i = 0; first + i <= last && i < 100; ++i) scale.ticks.push_back(tick(first + i));
    return scale;
}

ChartFrame::ChartFrame(SvgWriter& svg, AxisScale x, AxisScale y, PlotArea area)
    : svg_(svg), x_(std::move(x)), y_(std::move(y)), area_(area) {}

double ChartFrame::x(double value) const {
    return area_.left + (value - x_.lower) / (x_.upper - x_.lower) * area_.width;
}

double ChartFrame::y(double value) const {
    return area_.top + area_.height - (value - y_.lower) / (y_.upper - y_.lower) * area_.height;
}

void ChartFrame::draw_axes(std::string_view x_title, std::string_view y_title) {
    const double bottom = area_.top + area_.height, right = area_.left + area_.width;
    for (double t : y_.ticks) {
        svg_.line(area_.left, y(t), right, y(t), "grid");
        svg_.text(area_.left - 6, y(t) + 4, format_short(t, 6), SvgWriter::Anchor::End, "tick");
    }
    for (double t : x_.ticks) {
        svg_.line(x(t), area_.top, x(t), bottom, "grid");
        svg_.text(x(t), bottom + 16, format_short(t, 6), SvgWriter::Anchor::Middle, "tick");
    }
    svg_.line(area_.left, bottom, right, bottom, "axis");
    svg_.line(area_.left, area_.top, area_.left, bottom, "axis");
    svg_.text(area_.left + area_.width / 2, bottom + 36, x_title, SvgWriter::Anchor::Middle, "axis-title");
    svg_.text(14, area_.top + area_.height / 2, y_title, SvgWriter::Anchor::Middle, "axis-title", -90.0);
}

}  // namespace sebo
