#pragma once
// Objective vs number of active parameters (SPEC §3, §5; the paper's Figures 3-5 show the
// same picture): every completed trial in grey, the non-dominated trials highlighted, the
// "best with at most k active" step line, the newest trial marked, and the selected trial
// ringed. Trials excluded from analysis are crosses. The objective axis covers the bulk of the
// values (axis_range.h): a value far outside it is drawn in a band at that end of the axis
// under an arrow pointing off the chart, and its tooltip gives the real value. Hovering a marker shows the trial, its objective and
// its active parameters (all of them when several share the spot); clicking selects it everywhere.
// Counts outside the method's sparsity range of interest (min_active, max_active) are shaded.
//
// With the model's estimates (chart_source.h) each configuration is drawn at its posterior mean with
// its 95 % interval as a bar, and the staircase connects the configurations the model recommends
// for every k; with measurements, replicates are one marker at their mean with ±1 SEM.
//
// With several objectives (SPEC §10) the chart shows one of them, chosen above it: the frontier
// and the staircase are then those of that objective alone against the sparsity
// (objective_fronts.h). Trials that break an outcome constraint (or lack a constrained metric)
// are hollow circles and on no frontier; a constraint on the plotted metric is a dashed
// horizontal line at its bound.

#include <memory>
#include <optional>
#include <vector>

#include "experiment_snapshot.h"
#include "objective_fronts.h"
#include "trial_chart_panel.h"
#include "sparsity_range_shade.h"

class QAbstractAxis;
class QCheckBox;
class QComboBox;
class QGraphicsPathItem;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;
class QXYSeries;

namespace sebo::ui {

struct AxisRange;

class FrontierChartView : public TrialChartPanel {
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
    // Completed trials that are not feasible (hollow circles).
    QScatterSeries* infeasibleSeries() const { return infeasible_; }
    // One dashed line per outcome constraint on the plotted metric, at its bound.
    const std::vector<QLineSeries*>& boundSeries() const { return bounds_; }
    // The objective plotted (an index into outcomes.objectives), and its chooser (shown with
    // several objectives).
    void setObjective(int objective);
    int objective() const { return static_cast<int>(objective_); }
    QComboBox* objectiveBox() const { return objective_box_; }
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

    QString tooltipFor(int trial) const override;
    using TrialChartPanel::tooltipFor;
    // With the model's estimates: for k = 0..D the trial naming the configuration the model
    // recommends with at most k changes (the best of several in `objective`), or -1.
    static std::vector<int> recommendedPath(const ExperimentSnapshot& snapshot, std::size_t objective);

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

protected:
    void updateSeriesColors() override;
    void resetView() override { rebuild(); }
    void viewChanged() override {
        updateErrorBarPath();
        range_shade_->update();
    }

private:
    void rebuild();
    // Lines at the bounds of the constraints on the plotted metric, within the axis range.
    void updateBounds(const Experiment& e, const AxisRange& range, double x_low, double x_high);
    void updateObjectiveBox();
    void updateSelection();
    // Draws errorBars() at the chart's current plot area.
    void updateErrorBarPath();
    std::optional<QPointF> markerValue(int trial) const;
    void useAxisY(QAbstractAxis* axis);

    SnapshotPtr snapshot_;
    int selected_trial_ = -1;
    std::size_t objective_ = 0;
    ObjectiveFronts fronts_;
    QScatterSeries* all_;
    QScatterSeries* frontier_;
    QLineSeries* step_;
    QScatterSeries* newest_;
    QScatterSeries* selected_;
    QScatterSeries* excluded_;
    QScatterSeries* infeasible_;
    std::vector<QLineSeries*> bounds_;
    QScatterSeries* beyond_high_;
    QScatterSeries* beyond_low_;
    QValueAxis* axis_x_;
    QValueAxis* axis_y_;
    QLogValueAxis* axis_y_log_;
    QAbstractAxis* current_y_;
    QCheckBox* log_y_;
    QCheckBox* zoom_;
    QComboBox* objective_box_;
    std::vector<ErrorBar> error_bars_;
    QGraphicsPathItem* error_bar_item_;
    std::unique_ptr<SparsityRangeShade> range_shade_;
    bool log_automatic_ = true;
};

}  // namespace sebo::ui
