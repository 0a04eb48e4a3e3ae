#pragma once
// Zoom and pan on a chart, the same on every chart of the explorer (issue 17, item 11): the
// wheel zooms about the pointer (Ctrl + wheel where the chart scrolls in its panel), dragging with the left button draws a rubber band and zooms to
// it, dragging with the middle button (or with Ctrl and the left button) pans, and a double
// click goes back to the whole chart (zooming out stops there too). Works on the chart's axes through QChart's zoom and
// scroll, so every series, axis and label follows.

#include <QObject>
#include <QPoint>
#include <functional>

class QChart;
class QChartView;
class QRubberBand;

namespace sebo::ui {

class ChartZoom : public QObject {
    Q_OBJECT
public:
    // Watches `view`'s viewport. `reset` brings back the whole chart (a view recomputes its axes
    // from its data); without one, QChart::zoomReset().
    ChartZoom(QChartView* view, std::function<void()> reset = {});

    // Held with the wheel, it zooms a chart that scrolls in its panel; held with the left button,
    // it pans (Help › Keyboard shortcuts lists it from here).
    static constexpr Qt::KeyboardModifier kModifier = Qt::ControlModifier;
    // One wheel notch zooms in (or out) by this factor.
    static constexpr double kWheelFactor = 1.25;
    // A press moved less than this far (pixels) is a click, not a rubber band.
    static constexpr int kDragThreshold = 6;

    // The operations the mouse triggers, in viewport coordinates.
    void zoomAbout(QPointF viewport_position, double factor);
    void zoomTo(const QRectF& viewport_rect);
    void pan(QPointF viewport_delta);
    void reset();
    bool isZoomed() const { return zoomed_; }

signals:
    // The visible range of the axes changed (a view redraws what Qt Charts does not).
    void changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QChart* chart() const;
    QRectF toChart(const QRectF& viewport_rect) const;

    QChartView* view_;
    QWidget* viewport_;  // view_->viewport(), which the event filter watches
    std::function<void()> reset_;
    QRubberBand* band_ = nullptr;
    QPoint press_;
    // How far the chart is zoomed in horizontally (1: the whole chart); zooming out stops there.
    double level_ = 1.0;
    enum class Drag { None, Maybe, Band, Pan } drag_ = Drag::None;
    bool zoomed_ = false;
};

}  // namespace sebo::ui
