#pragma once
// Axes for the report's charts (report/report_charts.h): a "nice" scale (ticks at 1, 2 or 5 times
// a power of ten, covering the data) and a frame that maps data to pixels and draws the grid,
// tick labels and axis titles into an SvgWriter.

#include <string_view>
#include <vector>

#include "report/svg_writer.h"

namespace sebo {

struct AxisScale {
    double lower = 0.0, upper = 1.0;  // the axis ends, lower < upper
    std::vector<double> ticks;        // from lower to upper
};

// A scale covering [lo, hi] with about `target_ticks` intervals; `integers`: whole steps only
// (counts). An empty range is widened around its value. Non-finite ends give the scale [0, 1].
AxisScale nice_scale(double lo, double hi, bool integers, int target_ticks = 5);

struct PlotArea {
    double left = 0.0, top = 0.0, width = 0.0, height = 0.0;
};

class ChartFrame {
public:
    ChartFrame(SvgWriter& svg, AxisScale x, AxisScale y, PlotArea area);
    // Data to pixels (y grows upwards in data, downwards in pixels).
    double x(double value) const;
    double y(double value) const;
    const PlotArea& area() const { return area_; }
    // Grid lines, tick labels and the two titles.
    void draw_axes(std::string_view x_title, std::string_view y_title);

private:
    SvgWriter& svg_;
    AxisScale x_, y_;
    PlotArea area_;
};

}  // namespace sebo
