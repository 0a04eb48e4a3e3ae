#pragma once
// The common frame of our chart views: a QChartView, a helpful message in place of the chart
// when there is nothing to plot yet, and image export. Qt Charts is deprecated after Qt 6.x,
// so every use of it stays behind FrontierChartView, HypervolumeChartView and
// ActivationChartView, which derive from this class; swapping the plotting library touches
// only these files.

#include <QHash>
#include <QString>
#include <QWidget>
#include <optional>

class QAbstractAxis;
class QAbstractButton;
class QAction;
class QToolButton;
class QValueAxis;

class QChart;
class QChartView;
class QHBoxLayout;
class QLabel;
class QScrollArea;
class QStackedLayout;

namespace sebo::ui {

class ChartZoom;

class ChartPanel : public QWidget {
    Q_OBJECT
public:
    // scrollable: the chart sits in a vertical scroll area and may be taller than the panel.
    explicit ChartPanel(bool scrollable = false, QWidget* parent = nullptr);

    QChartView* chartView() const { return view_; }
    QChart* chart() const { return chart_; }
    // Zoom and pan with the mouse (chart_zoom.h); a double click calls resetView().
    ChartZoom* zoom() const { return zoom_; }

    // A control for `action` at the start of the options row above the chart: a checkable action
    // (e.g. the model's estimates, shared by several charts) is a check box kept in step with it —
    // as a toggle button its state was a shade of grey that could not be told apart (issue 32's
    // walk-through) —, any other a button.
    QAbstractButton* addOptionAction(QAction* action);

    // Shows `text` instead of the chart; an empty text shows the chart.
    void setEmptyText(const QString& text);
    QString emptyText() const;
    bool isShowingChart() const;

    // Image export of the chart at its current size, rendered at twice the pixel density.
    std::optional<QString> savePng(const QString& path) const;
    // SVG needs Qt SVG at build time; svgExportAvailable() says whether this build has it.
    static bool svgExportAvailable();

    // A readable tick interval (1, 2 or 5 times a power of ten) giving about `ticks` intervals
    // over `span`; at least `minimum` (1 for integer axes).
    static double niceInterval(double span, int ticks, double minimum = 0.0);
    // Sets a dynamic-tick axis to [low, high] with a tick every `interval`, in the order that
    // never passes through a state with thousands of ticks (the old interval over the new
    // range, or the new interval over the old range): Qt Charts lays out one text item per
    // tick at once, so a 2,000-trial axis briefly ticked every 1 cost seconds. Then labels its
    // ticks (labelTicks).
    static void setAxis(QValueAxis* axis, double low, double high, double interval);
    // A value axis with dynamic ticks anchored at 0 (the views set their interval with setAxis),
    // titled when `title` is not empty. `format` "%d" makes an integer axis (counts, trials);
    // any other axis's labels follow its range and interval (labelTicks).
    static QValueAxis* dynamicAxis(const QString& title, const QString& format);
    // The label format and tick anchor of a dynamic-tick axis for its current range and interval:
    // clean numbers with the interval's decimals, never round-off such as "5.551e-17"
    // (tick_labels.h). An integer axis keeps its "%d".
    static void labelTicks(QValueAxis* axis);
    static bool isIntegerAxis(const QValueAxis* axis);
    std::optional<QString> saveSvg(const QString& path) const;

    // Colours the chart from the widget's palette (palette_colors.h): background, axes, grid,
    // legend, then the view's own series (updateSeriesColors). Runs again by itself whenever the
    // palette changes (the system switches between light and dark); a view calls it once at the
    // end of its constructor, when its series and axes exist.
    void restyle();
    // An axis that is not always attached to the chart (e.g. a logarithmic alternative) is styled
    // with the others once registered here.
    void registerAxis(QAbstractAxis* axis);

protected:
    // A row above the chart for view options (hidden together with the chart).
    QHBoxLayout* optionsRow() const { return options_row_; }
    QSize exportSize() const;
    // Series colours of the view, from chart_color(palette(), role); called by restyle().
    virtual void updateSeriesColors() {}
    // The whole chart again after zooming: a view recomputes its axes from its data (the
    // default restores the axes from before the first zoom).
    virtual void resetView();
    // The axes' visible range changed by zoom or pan: redraw what Qt Charts does not.
    virtual void viewChanged() {}
    // Puts back the ranges the user zoomed or panned to, after the view has set its axes from
    // new data: a zoomed chart keeps showing the same values (the same categories of a category
    // axis) while trials arrive, until a double click shows everything again. Every view calls it
    // at the end of its refresh; it does nothing when the chart is not zoomed.
    void keepZoom();
    void changeEvent(QEvent* event) override;

private:
    QStackedLayout* stack_;
    QLabel* empty_;
    QWidget* chart_page_;
    QHBoxLayout* options_row_;
    QScrollArea* scroll_ = nullptr;
    QChartView* view_;
    QChart* chart_;
    ChartZoom* zoom_;
    QList<QAbstractAxis*> extra_axes_;
    // The visible range of each axis after the last zoom or pan, in axis units (a category
    // axis: its first and last category shown); empty when the chart is not zoomed.
    struct ZoomedRange {
        double low = 0.0, high = 0.0;
        QString first, last;
    };
    QHash<QAbstractAxis*, ZoomedRange> zoomed_ranges_;
    void rememberZoom();
    void tickVisibleRange();
    bool restyling_ = false;
};

}  // namespace sebo::ui
