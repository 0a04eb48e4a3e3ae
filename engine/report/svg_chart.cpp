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
        const double pad = std::max(integers ? 1.0 : 1e-12, std::abs(lo) * 0.1);
        lo -= pad;
        hi += pad;
    }
    const double raw = (hi - lo) / std::max(1, target_ticks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10.0 * magnitude;
    for (double m : {1.0, 2.0, 5.0})
        if (m * magnitude >= raw) {
            step = m * magnitude;
            break;
        }
    if (integers) step = std::max(1.0, std::round(step));
    AxisScale scale;
    scale.lower = std::floor(lo / step) * step;
    scale.upper = std::ceil(hi / step) * step;
    if (scale.upper <= scale.lower) scale.upper = scale.lower + step;
    // i * step rather than repeated addition, so that the ticks do not drift (0.30000000000000004).
    for (int i = 0; scale.lower + i * step <= scale.upper + step * 1e-9; ++i) scale.ticks.push_back(scale.lower + i * step);
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
