#include "chart_zoom.h"

#include <QChart>
#include <QChartView>
#include <QMouseEvent>
#include <QRubberBand>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <cmath>

namespace sebo::ui {

ChartZoom::ChartZoom(QChartView* view, std::function<void()> reset)
    : QObject(view), view_(view), viewport_(view->viewport()), reset_(std::move(reset)) {
    band_ = new QRubberBand(QRubberBand::Rectangle, view_->viewport());
    band_->hide();
    viewport_->installEventFilter(this);
}

QChart* ChartZoom::chart() const { return view_->chart(); }

QRectF ChartZoom::toChart(const QRectF& r) const {
    const QPointF a = chart()->mapFromScene(view_->mapToScene(r.topLeft().toPoint()));
    const QPointF b = chart()->mapFromScene(view_->mapToScene(r.bottomRight().toPoint()));
    return QRectF(a, b).normalized();
}

void ChartZoom::zoomAbout(QPointF position, double factor) {
    if (!(factor > 0.0) || factor == 1.0) return;
    const QRectF area = chart()->plotArea();
    if (!area.isValid()) return;
    if (level_ * factor <= 1.0 + 1e-9) {
        if (zoomed_) reset();
        return;
    }
    QPointF c = toChart(QRectF(position, position)).topLeft();
    if (!area.contains(c)) c = area.center();
    // The point under the pointer stays where it is.
    const QRectF rect(c.x() - (c.x() - area.left()) / factor, c.y() - (c.y() - area.top()) / factor,
                      area.width() / factor, area.height() / factor);
    chart()->zoomIn(rect);
    level_ *= factor;
    zoomed_ = true;
    emit changed();
}

void ChartZoom::zoomTo(const QRectF& viewport_rect) {
    const QRectF rect = toChart(viewport_rect).intersected(chart()->plotArea());
    if (rect.width() < 2.0 || rect.height() < 2.0) return;
    level_ *= chart()->plotArea().width() / rect.width();
    chart()->zoomIn(rect);
    zoomed_ = true;
    emit changed();
}

void ChartZoom::pan(QPointF delta) {
    if (delta.isNull()) return;
    // Scrolling moves the view over the data: dragging right shows what lies to the left.
    chart()->scroll(-delta.x(), delta.y());
    zoomed_ = true;
    emit changed();
}

void ChartZoom::reset() {
    // Not zoomed any more before the view recomputes its axes, so that it does not restore the
    // zoomed ranges it keeps across refreshes (ChartPanel::keepZoom).
    level_ = 1.0;
    zoomed_ = false;
    if (reset_) reset_();
    else chart()->zoomReset();
    emit changed();
}

bool ChartZoom::eventFilter(QObject* watched, QEvent* event) {
    // Compared with the pointer kept at construction: the viewport's events also arrive while the
    // view is being destroyed, when calling into the view is undefined (UBSan: not a QAbstractScrollArea).
    if (watched != viewport_) return false;
    switch (event->type()) {
    case QEvent::Wheel: {
        auto* wheel = static_cast<QWheelEvent*>(event);
        const int steps = wheel->angleDelta().y();
        if (steps == 0) return false;
        // A chart taller than its panel (the activation bars of many parameters) scrolls with
        // the wheel; Ctrl + wheel zooms it.
        if (!(wheel->modifiers() & kModifier))
            for (QWidget* p = view_->parentWidget(); p; p = p->parentWidget())
                if (auto* area = qobject_cast<QScrollArea*>(p); area && area->verticalScrollBar()->isVisible()) return false;
        zoomAbout(wheel->position(), std::pow(kWheelFactor, steps / 120.0));
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        press_ = mouse->position().toPoint();
        if (mouse->button() == Qt::MiddleButton ||
            (mouse->button() == Qt::LeftButton && (mouse->modifiers() & kModifier)))
            drag_ = Drag::Pan;
        else if (mouse->button() == Qt::LeftButton)
            drag_ = Drag::Maybe;
        return false;  // a click still selects
    }
    case QEvent::MouseMove: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        const QPoint at = mouse->position().toPoint();
        if (drag_ == Drag::Pan) {
            pan(at - press_);
            press_ = at;
            return true;
        }
        if (drag_ == Drag::Maybe && (at - press_).manhattanLength() >= kDragThreshold) drag_ = Drag::Band;
        if (drag_ == Drag::Band) {
            band_->setGeometry(QRect(press_, at).normalized());
            band_->show();
            return true;
        }
        return false;
    }
    case QEvent::MouseButtonRelease: {
        const Drag drag = drag_;
        drag_ = Drag::None;
        if (drag == Drag::Band) {
            band_->hide();
            zoomTo(QRect(press_, static_cast<QMouseEvent*>(event)->position().toPoint()).normalized());
            return true;
        }
        return drag == Drag::Pan;
    }
    case QEvent::MouseButtonDblClick:
        if (static_cast<QMouseEvent*>(event)->button() != Qt::LeftButton) return false;
        drag_ = Drag::None;
        reset();
        return true;
    default: return false;
    }
}

}  // namespace sebo::ui
