#pragma once
// Hypervolume of (objectives…, −active count) after each trial (SPEC §3), with the initial
// quasi-random design shaded so the point where the model-based strategy takes over is
// visible. The reference point is fixed per experiment (see experiment/analytics.h), so traces
// of different runs of one problem compare; the line above the chart names its value for every
// objective and the number of changes. The axis covers the bulk of the trace (axis_range.h):
// values far above it (after an extreme trial that was not excluded) are drawn in a band at the
// top, under a triangle.

#include "chart_panel.h"
#include "experiment_snapshot.h"

class QAreaSeries;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace sebo::ui {

class HypervolumeChartView : public ChartPanel {
    Q_OBJECT
public:
    explicit HypervolumeChartView(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);

    QLineSeries* traceSeries() const { return trace_; }
    QAreaSeries* initialDesignSeries() const { return initial_; }
    // Triangles over the points whose value is far above the rest of the trace.
    QScatterSeries* beyondSeries() const { return beyond_; }
    QValueAxis* axisX() const { return axis_x_; }
    QValueAxis* axisY() const { return axis_y_; }
    // "Reference point: yield = 0.12, cost = 2.9, 3 active · now 0.84".
    QString referenceText() const;

protected:
    void updateSeriesColors() override;
    void resetView() override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    SnapshotPtr snapshot_;
    QLineSeries* trace_;
    QLineSeries* initial_upper_;
    QLineSeries* initial_lower_;
    QAreaSeries* initial_;
    QScatterSeries* beyond_;
    QValueAxis* axis_x_;
    QValueAxis* axis_y_;
    // One line above the chart, cut to the label's width with "…" (the whole text in its tooltip):
    // wrapped onto a second line it took the height the chart's vertical title needs in a short
    // panel, which Qt Charts then cut to "Hypervolu...".
    QLabel* reference_;
    QString reference_text_;
    void showReference();
};

}  // namespace sebo::ui
