#pragma once
// Trials over the parameters they change, in parallel coordinates (issue 17, item 15; the view
// HiPlot and Optuna Dashboard users reach for when there are many parameters). One vertical axis
// for the number of active parameters, one per metric (the objectives first, each named with its
// direction, then the constrained and tracked metrics), then one per parameter that some
// frontier configuration changes (most often changed first; "All changed parameters" adds those
// only other trials change). Every completed trial is a polyline across the axes; the frontier
// trials are drawn in the frontier's colour, the selected trial on top.
//
// Brushing: drag along an axis to keep the trials whose value there lies in the dragged range;
// brushes on several axes combine (a trial must pass all). The matching trials are announced
// (brushChanged) and the window selects them in the trials table. A click on an axis without
// dragging removes its brush; Escape removes all. A click on a line selects that trial (trialAt()
// tells the context menu which trial a right-click is on).
//
// Zoom and pan, as on the other charts (issue 17, item 11): the wheel zooms the value range of
// the axis under the pointer about the value under it, a drag between the axes pans that axis,
// and a double click shows every axis whole again (a double click with nothing zoomed removes the
// brushes, as before zooming existed). Brushes are kept in the axes' units, so they stay on the
// same values whatever is zoomed, and a zoom stays while new trials arrive.
//
// A choice parameter's axis runs over its values' indices (0 … K−1, as a configuration holds
// them) and is labelled with the values themselves, each at its place (tickLabels()), never with
// the indices.

#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <map>
#include <optional>
#include <vector>

#include "experiment_snapshot.h"

class QCheckBox;
class QLabel;
class QScrollArea;

namespace sebo::ui {

class ParallelCoordinatesCanvas;

class ParallelCoordinatesView : public QWidget {
    Q_OBJECT
public:
    // One vertical axis: what it shows and its range in the user's units.
    struct Axis {
        enum class Kind { Active, Metric, Parameter };
        Kind kind = Kind::Parameter;
        int parameter = -1;  // Kind::Parameter: index in the search space
        QString metric;      // Kind::Metric: its name
        QString name;        // as labelled: an objective with its direction ("p99_ms ↓")
        double low = 0.0, high = 1.0;
        // The part of [low, high] drawn (all of it unless zoomed or panned).
        double shown_low = 0.0, shown_high = 1.0;
        bool log_scale = false;
        bool integer = false;
        // A choice's values, in order (empty for the other axes): value k is drawn at k.
        QStringList categories;
    };
    // A label along an axis, at `value` in the axis's units.
    struct Tick {
        double value = 0.0;
        QString text;
    };
    // A brush: the range [low, high] of an axis, in its units.
    struct Brush {
        double low = 0.0, high = 0.0;
    };

    explicit ParallelCoordinatesView(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setSelectedTrial(int trial);
    // Adds the parameters only non-frontier trials change.
    void setShowAllChanged(bool on);

    const std::vector<Axis>& axes() const { return axes_; }
    // The trials drawn (completed, with a value), in experiment order.
    const std::vector<int>& trials() const { return trials_; }
    // A trial's value on an axis, in the axis's units.
    double value(int trial_position, std::size_t axis) const;
    // Where the axis maps `value` vertically: 0 at the bottom of its shown range, 1 at the top
    // (outside [0, 1] for values beyond a zoomed range).
    double normalized(std::size_t axis, double value) const;
    // The labels of an axis: for a choice each value within the shown range at its index, for
    // the others the top and bottom of the shown range as numbers (top first).
    std::vector<Tick> tickLabels(std::size_t axis) const;

    // Zoom and pan of one axis's shown range, in the axis's own scale (logarithmic axes zoom
    // in decades). `factor` > 1 zooms in about `value`; zooming out stops at the whole range.
    void zoomAxis(std::size_t axis, double value, double factor);
    // Moves the shown range by `fraction` of its height (positive: towards higher values).
    void panAxis(std::size_t axis, double fraction);
    void resetZoom();
    bool isZoomed() const;
    // The axis whose column contains the canvas x coordinate (the nearest axis).
    std::optional<std::size_t> axisUnder(double canvas_x) const;

    // The key that removes every brush while the view has the focus (Help › Keyboard shortcuts
    // lists it from here). It takes precedence over the window's Cancel, whose key it also is.
    static constexpr Qt::Key kClearBrushesKey = Qt::Key_Escape;

    // Brushes by axis index; setting an empty optional removes the brush of that axis.
    void setBrush(std::size_t axis, std::optional<Brush> brush);
    void clearBrushes();
    const std::map<std::size_t, Brush>& brushes() const { return brushes_; }
    bool isBrushing() const { return !brushes_.empty(); }
    // The trials that pass every brush (all drawn trials when there is none).
    QList<int> matchingTrials() const;

    // Geometry, in canvas() coordinates (for tests and the canvas).
    QWidget* canvas() const;
    double axisX(std::size_t axis) const;
    // The least distance between axes: the canvas grows wider (and scrolls) rather than cut labels.
    double axisSpacing() const;
    QPointF pointOf(int trial_position, std::size_t axis) const;
    // Where an axis's name is drawn: on one of two rows (every other axis on the upper one), up to
    // the room between the axes beside it on its row, centred on the axis unless that would cross
    // the canvas's edge — the first and last names move inwards rather than being cut there.
    QRectF nameBox(std::size_t axis) const;
    std::optional<int> trialAt(QPointF canvas_position, double radius = 5.0) const;
    QString emptyText() const;

signals:
    // The brushes changed: the trials that pass them (empty `active` means no brush is set).
    void brushChanged(const QList<int>& matching, bool active);
    void trialClicked(int trial);

private:
    friend class ParallelCoordinatesCanvas;
    void rebuild();
    QRectF plotRect() const;

    SnapshotPtr snapshot_;
    int selected_trial_ = -1;
    std::vector<Axis> axes_;
    std::vector<int> trials_;              // trial indices, experiment order
    std::vector<std::vector<double>> values_;  // per trial, per axis (user units)
    std::vector<bool> frontier_;           // per trial
    std::map<std::size_t, Brush> brushes_;
    QCheckBox* show_all_;
    QLabel* summary_;
    QLabel* empty_;
    QScrollArea* scroll_;
    ParallelCoordinatesCanvas* canvas_;
};

}  // namespace sebo::ui
