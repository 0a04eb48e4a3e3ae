#pragma once
// Two objectives against each other (SPEC §10, issue 13 item 6): every completed trial at its two
// values, coloured by how many parameters it changes (a legend of classes of that count); each
// sparsity level's front as a step line in its class's colour; and a control "at most k
// parameters changed" that highlights the front of that level — a thick step line through it
// and a halo around its trials — and announces it, so that the trials table shows the same
// trials. With more than two objectives, choosers pick the objective of each axis.
//
// The step lines are the fronts of the two plotted objectives (objective_fronts.h); the halo
// marks the trials of the level's front in every objective (FrontierReport::Level::front), the
// ones the table lists. With two objectives they are the same trials.
//
// Trials that are not feasible are hollow circles (on no front), trials excluded from analysis
// crosses; a constraint on a plotted metric is a dashed line at its bound. Values far outside
// the others are drawn in a band at the end of their axis (axis_range.h), their tooltip giving
// the real value. Hovering lists the trials on a spot; clicking selects one everywhere.

#include <QList>
#include <vector>

#include "experiment_snapshot.h"
#include "objective_fronts.h"
#include "trial_chart_panel.h"

class QComboBox;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QSpinBox;
class QValueAxis;

namespace sebo::ui {

struct AxisRange;

class ObjectiveScatterView : public TrialChartPanel {
    Q_OBJECT
public:
    explicit ObjectiveScatterView(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setSelectedTrial(int trial);

    // The objectives on the axes (indices into outcomes.objectives, different); the choosers
    // are shown with more than two objectives.
    void setObjectives(int x, int y);
    int objectiveX() const { return x_; }
    int objectiveY() const { return y_; }
    QComboBox* xBox() const { return x_box_; }
    QComboBox* yBox() const { return y_box_; }

    // "At most k parameters changed" (groups when the space has groups): 0 .. D, D at first.
    QSpinBox* levelBox() const { return level_box_; }
    void setLevel(int k);
    int level() const;
    // The trials of the highlighted front (the level's front in every objective), best first.
    QList<int> highlightedFront() const { return highlighted_; }

    // Classes of the number of active parameters, one series each (fewest first); only those
    // with trials are in the legend.
    struct ActiveClass {
        int low = 0, high = 0;  // counts low..high
        QScatterSeries* series = nullptr;
    };
    const std::vector<ActiveClass>& activeClasses() const { return classes_; }
    QScatterSeries* infeasibleSeries() const { return infeasible_; }
    QScatterSeries* excludedSeries() const { return excluded_; }
    QScatterSeries* selectedSeries() const { return selected_; }
    QScatterSeries* highlightSeries() const { return halo_; }
    QLineSeries* highlightStep() const { return highlight_step_; }
    // The levels' fronts (one line per level whose front differs from the level below), and
    // which level each shows.
    const std::vector<QLineSeries*>& frontLines() const { return front_lines_; }
    const std::vector<int>& frontLineLevels() const { return front_line_levels_; }
    const std::vector<QLineSeries*>& boundSeries() const { return bounds_; }
    QValueAxis* axisX() const { return axis_x_; }
    QValueAxis* axisY() const { return axis_y_; }

    QString tooltipFor(int trial) const override;
    using TrialChartPanel::tooltipFor;

    static constexpr int kMaxClasses = 8;

signals:
    // The level or its front changed (a new k, or new trials).
    void levelChanged(int k, const QList<int>& front);

protected:
    void updateSeriesColors() override;
    void resetView() override { rebuild(); }

private:
    void rebuild();
    void updateChoosers();
    void updateSelection();
    // The step line through a front (trial indices), in drawn coordinates.
    QList<QPointF> stepLine(const std::vector<int>& front, const AxisRange& x_range, const AxisRange& y_range) const;
    void updateBounds(const AxisRange& x_range, const AxisRange& y_range);
    int classOf(int active) const;

    SnapshotPtr snapshot_;
    int x_ = 0, y_ = 1;
    int selected_trial_ = -1;
    QList<int> highlighted_;
    ObjectiveFronts fronts_;
    std::vector<ActiveClass> classes_;
    QScatterSeries* infeasible_;
    QScatterSeries* excluded_;
    QScatterSeries* halo_;
    QScatterSeries* selected_;
    QLineSeries* highlight_step_;
    std::vector<QLineSeries*> front_lines_;
    std::vector<int> front_line_levels_;
    std::vector<QLineSeries*> bounds_;
    std::vector<bool> bound_vertical_;
    QValueAxis* axis_x_;
    QValueAxis* axis_y_;
    QComboBox* x_box_;
    QComboBox* y_box_;
    QLabel* x_label_;
    QLabel* y_label_;
    QSpinBox* level_box_;
    QLabel* level_suffix_;
};

}  // namespace sebo::ui
