#pragma once
// Objective vs number of active parameters (SPEC §3, §5; the paper's Figures 3-5 show the
// same picture): every completed trial in grey, the non-dominated trials highlighted, the
// "best with at most k active" step line, the newest trial marked, and the selected trial
// ringed. Trials excluded from analysis are crosses. The objective axis covers the bulk of the
// values (axis_range.h): a value far outside it is drawn in a band at that end of the axis
// under an arrow pointing off the chart, and its tooltip gives the real value. Hovering a marker shows the trial, its objective and
// its active parameters (all of them when several share the spot); clicking selects it everywhere.
// Counts outside the method's sparsity range of interest (min_active, max_active) are shaded.

#include <memory>
#include <optional>
#include <vector>

#include "chart_panel.h"
#include "experiment_snapshot.h"
#include "sparsity_range_shade.h"

class QAbstractAxis;
class QCheckBox;
class QGraphicsPathItem;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;
class QXYSeries;

namespace sebo::ui {

class FrontierChartView : public ChartPanel {
    Q_OBJECT
public:
    explicit FrontierChartView(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setSelectedTrial(int trial);

    QScatterSeries* trialsSeries() const { return all_; }
    QScatterSeries* frontierSeries() const { return frontier_; }
    QLineSeries* stepSeries() const { return step_; }
    QScatterSeries* newestSeries() const { return newest_; }
    QScatterSeries* selectedSeries() const { return selected_; }
    // Trials excluded from analysis (crosses), and the arrows next to the markers of values far
    // above and far below the others (drawn at the ends of the objective axis).
    QScatterSeries* excludedSeries() const { return excluded_; }
    QScatterSeries* beyondHighSeries() const { return beyond_high_; }
    QScatterSeries* beyondLowSeries() const { return beyond_low_; }
    QValueAxis* axisX() const { return axis_x_; }
    // The objective axis: linear, or logarithmic when "Log scale" is ticked and every value is positive.
    QAbstractAxis* axisY() const { return current_y_; }
    // Until the user ticks or clears "Log scale", the axis is logarithmic by itself when every
    // value is positive and they span two decades or more (e.g. Branin near its optimum).
    void setLogScale(bool on);
    bool logScale() const;
    // "Zoom to frontier": the axes cover the frontier trials only (others may fall outside).
    void setZoomToFrontier(bool on);

    // Where a trial's marker is drawn, in chartView()->viewport() coordinates.
    std::optional<QPoint> trialPosition(int trial) const;
    // The trial whose marker is nearest to a viewport position, within `radius` pixels.
    std::optional<int> trialAt(QPoint viewport_position, double radius = 10.0) const;
    QString tooltipFor(int trial) const;
    // Every trial drawn on the same spot as the one nearest to a viewport position (within
    // `radius`), that one first: markers whose centres lie within kSameSpot pixels of its centre
    // cover it (trials with the same objective and number of active parameters differ only by
    // the small sideways jitter).
    QList<int> trialsAt(QPoint viewport_position, double radius = 10.0) const;
    static constexpr double kSameSpot = 6.0;
    // The tooltip for a marker: the trial's, or, when several trials share the spot, each of them.
    QString tooltipFor(const QList<int>& trials) const;

    // Error bars, ±1 SEM, of trials that report a standard error (issue 17, item 13): the
    // objective values each spans in axis coordinates (cut at the ends of the part of the axis
    // where values are drawn where they are), and the item that draws them.
    struct ErrorBar {
        int trial = 0;
        double x = 0.0, low = 0.0, high = 0.0;
    };
    const std::vector<ErrorBar>& errorBars() const { return error_bars_; }
    QGraphicsPathItem* errorBarItem() const { return error_bar_item_; }
    // The shading outside the sparsity range of interest.
    const SparsityRangeShade& rangeShade() const { return *range_shade_; }

signals:
    void trialClicked(int trial);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void updateSeriesColors() override;
    void resetView() override { rebuild(); }
    void viewChanged() override {
        updateErrorBarPath();
        range_shade_->update();
    }

private:
    struct Marker {
        QPointF value;  // where it is drawn (on the axis edge when the value is beyond it)
        int trial = 0;
        QXYSeries* series = nullptr;
        int beyond = 0;  // −1 below the objective axis, +1 above it, 0 on it
    };
    void rebuild();
    void updateSelection();
    // Draws errorBars() at the chart's current plot area.
    void updateErrorBarPath();
    std::optional<QPointF> markerValue(int trial) const;
    void useAxisY(QAbstractAxis* axis);

    SnapshotPtr snapshot_;
    int selected_trial_ = -1;
    std::vector<Marker> markers_;
    QScatterSeries* all_;
    QScatterSeries* frontier_;
    QLineSeries* step_;
    QScatterSeries* newest_;
    QScatterSeries* selected_;
    QScatterSeries* excluded_;
    QScatterSeries* beyond_high_;
    QScatterSeries* beyond_low_;
    QValueAxis* axis_x_;
    QValueAxis* axis_y_;
    QLogValueAxis* axis_y_log_;
    QAbstractAxis* current_y_;
    QCheckBox* log_y_;
    QCheckBox* zoom_;
    std::vector<ErrorBar> error_bars_;
    QGraphicsPathItem* error_bar_item_;
    std::unique_ptr<SparsityRangeShade> range_shade_;
    bool log_automatic_ = true;
};

}  // namespace sebo::ui
