#pragma once
// The frontier chart's shading of the counts outside the sparsity range of interest
// (MethodSettings::min_active N and max_active M, issue 14): the band left of N − ½ and the band
// right of M + ½ across the whole plot area, in a faint tint of the palette's text colour, under
// every series. Nothing is drawn when the method sets neither.

#include <QColor>
#include <QPalette>
#include <optional>
#include <utility>
#include <vector>

class QAbstractSeries;
class QChart;
class QGraphicsPathItem;

namespace sebo::ui {

class SparsityRangeShade {
public:
    // The item is a child of `chart`, which owns it; `series` maps axis values to positions.
    SparsityRangeShade(QChart* chart, QAbstractSeries* series);

    // The range to shade outside of (counts); unset ends are not shaded.
    void setRange(std::optional<int> min_active, std::optional<int> max_active);
    // Redraws at the chart's current plot area and axis ranges.
    void update();
    void setPalette(const QPalette& palette);

    // The shaded bands in axis coordinates (x from, x to), as drawn now: cut to the x axis's range.
    const std::vector<std::pair<double, double>>& bands() const { return bands_; }
    QGraphicsPathItem* item() const { return item_; }

private:
    QChart* chart_;
    QAbstractSeries* series_;
    QGraphicsPathItem* item_;
    std::optional<int> min_active_, max_active_;
    std::vector<std::pair<double, double>> bands_;
};

}  // namespace sebo::ui
