#include "report/report_charts.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/format.h"
#include "report/svg_chart.h"

namespace sebo {

namespace {

constexpr double kWidth = 640, kHeight = 320;
// Room for tick labels and the rotated y title on the left, the x title below.
constexpr PlotArea kArea{78, 14, kWidth - 78 - 18, kHeight - 14 - 52};

}  // namespace

std::string frontier_chart_svg(const FrontierChartData& data) {
    SvgWriter svg(kWidth, kHeight, data.objective + " against the number of " + data.changes_title);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    int max_changes = 1;
    for (const FrontierChartPoint& p : data.points) {
        lo = std::min(lo, p.value);
        hi = std::max(hi, p.value);
        max_changes = std::max(max_changes, p.changes);
    }
    if (data.points.empty()) lo = hi = 0.0;
    ChartFrame frame(svg, nice_scale(0, max_changes, true, std::min(max_changes, 10)), nice_scale(lo, hi, false), kArea);
    frame.draw_axes(data.changes_title, data.objective + (data.minimize ? " (lower is better)" : " (higher is better)"));

    // The staircase: the best value with at most k changes holds until k + 1 (a level without a
    // feasible trial has no step).
    std::vector<std::pair<double, double>> steps;
    for (std::size_t i = 0; i < data.staircase.size(); ++i) {
        const auto [k, best] = data.staircase[i];
        const int next = i + 1 < data.staircase.size() ? data.staircase[i + 1].first : max_changes;
        steps.emplace_back(frame.x(k), frame.y(best));
        steps.emplace_back(frame.x(std::max(k, next)), frame.y(best));
    }
    svg.polyline(steps, "staircase");
    const auto on_staircase = [&](int trial) {
        return std::find(data.best_trials.begin(), data.best_trials.end(), trial) != data.best_trials.end();
    };
    for (int pass = 0; pass < 2; ++pass)  // the best trials last, on top
        for (const FrontierChartPoint& p : data.points) {
            if (on_staircase(p.trial) != (pass == 1)) continue;
            const std::string tooltip = "trial " + std::to_string(p.trial) + ": " + data.objective + " " +
                                        format_short(p.value) + ", " + std::to_string(p.changes) + " changed" +
                                        (p.feasible ? "" : ", infeasible");
            svg.circle(frame.x(p.changes), frame.y(p.value), pass == 1 ? 4.5 : 3.0,
                       pass == 1 ? "point best" : p.feasible ? "point" : "point infeasible", tooltip);
        }
    return svg.str();
}

std::string hypervolume_chart_svg(const std::vector<double>& trace) {
    SvgWriter svg(kWidth, kHeight, "hypervolume after each trial");
    double hi = 0.0;
    for (double v : trace) hi = std::max(hi, v);
    if (!(hi > 0.0)) hi = 1.0;  // nothing dominated yet: the axis from 0, not around it
    const int n = std::max<int>(1, static_cast<int>(trace.size()));
    ChartFrame frame(svg, nice_scale(1, std::max(n, 2), true, std::min(n, 10)), nice_scale(0.0, hi, false), kArea);
    frame.draw_axes("trials", "hypervolume");
    std::vector<std::pair<double, double>> steps;
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const double x = static_cast<double>(i + 1);
        if (i > 0) steps.emplace_back(frame.x(x), frame.y(trace[i - 1]));
        steps.emplace_back(frame.x(x), frame.y(trace[i]));
    }
    svg.polyline(steps, "trace");
    return svg.str();
}

std::string activation_chart_svg(const std::vector<ActivationBar>& bars) {
    constexpr double kRow = 22, kLabel = 170, kRight = 60;
    const double height = 30 + kRow * static_cast<double>(std::max<std::size_t>(bars.size(), 1)) + 30;
    SvgWriter svg(kWidth, height, "share of the frontier's trials that change each parameter");
    const PlotArea area{kLabel, 10, kWidth - kLabel - kRight, kRow * static_cast<double>(std::max<std::size_t>(bars.size(), 1))};
    const auto x = [&](double share) { return area.left + share * area.width; };
    for (double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
        svg.line(x(t), area.top, x(t), area.top + area.height, "grid");
        svg.text(x(t), area.top + area.height + 16, std::to_string(static_cast<int>(std::lround(t * 100))) + " %",
                 SvgWriter::Anchor::Middle, "tick");
    }
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const double top = area.top + kRow * static_cast<double>(i);
        const double share = std::clamp(bars[i].share, 0.0, 1.0);
        const std::string percent = std::to_string(static_cast<int>(std::lround(share * 100))) + " %";
        svg.text(area.left - 8, top + kRow / 2 + 4, bars[i].parameter, SvgWriter::Anchor::End, "label");
        svg.rect(area.left, top + 4, share * area.width, kRow - 8, "bar", bars[i].parameter + ": " + percent);
        svg.text(x(share) + 6, top + kRow / 2 + 4, percent, SvgWriter::Anchor::Start, "tick");
    }
    svg.line(area.left, area.top, area.left, area.top + area.height, "axis");
    svg.text(area.left + area.width / 2, area.top + area.height + 36, "share of the frontier's trials that change it",
             SvgWriter::Anchor::Middle, "axis-title");
    return svg.str();
}

}  // namespace sebo
