#include "sparsity_range_shade.h"

#include <QBrush>
#include <QChart>
#include <QGraphicsPathItem>
#include <QPainterPath>
#include <QPen>
#include <QValueAxis>
#include <algorithm>

namespace sebo::ui {

SparsityRangeShade::SparsityRangeShade(QChart* chart, QAbstractSeries* series)
    : chart_(chart), series_(series), item_(new QGraphicsPathItem(chart)) {
    item_->setZValue(0.5);  // above the plot area background (0), under shades, grid, axes and series
    item_->setPen(Qt::NoPen);
}

void SparsityRangeShade::setRange(std::optional<int> min_active, std::optional<int> max_active) {
    min_active_ = min_active;
    max_active_ = max_active;
    update();
}

void SparsityRangeShade::setPalette(const QPalette& palette) {
    QColor tint = palette.color(QPalette::Text);
    tint.setAlpha(28);
    item_->setBrush(tint);
}

void SparsityRangeShade::update() {
    bands_.clear();
    QPainterPath path;
    const auto axes = chart_->axes(Qt::Horizontal, series_);
    auto* axis = axes.isEmpty() ? nullptr : qobject_cast<QValueAxis*>(axes.front());
    if (axis) {
        const double lo = axis->min(), hi = axis->max();
        if (min_active_ && *min_active_ - 0.5 > lo) bands_.emplace_back(lo, std::min(*min_active_ - 0.5, hi));
        if (max_active_ && *max_active_ + 0.5 < hi) bands_.emplace_back(std::max(*max_active_ + 0.5, lo), hi);
    }
    const QRectF area = chart_->plotArea();
    if (area.isValid())
        for (const auto& [from, to] : bands_) {
            const double left = chart_->mapToPosition(QPointF(from, 0.0), series_).x();
            const double right = chart_->mapToPosition(QPointF(to, 0.0), series_).x();
            path.addRect(QRectF(QPointF(std::max(left, area.left()), area.top()),
                                QPointF(std::min(right, area.right()), area.bottom())));
        }
    item_->setPath(path);
}

}  // namespace sebo::ui
