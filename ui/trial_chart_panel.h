#pragma once
// A chart whose markers are trials (the frontier chart, the objectives scatter): where each
// trial's marker is drawn, so that hovering lists the trials on a spot, clicking selects one and
// the trial menu finds the one under the pointer. A view fills markers() when it rebuilds its
// series and says what a trial's tooltip reads (tooltipFor).
//
// Also the marker images the views share: a cross (a trial excluded from analysis) and an arrow
// pointing off the chart (a value beyond the axis).

#include <QImage>
#include <QList>
#include <QPointF>
#include <optional>
#include <vector>

#include "chart_panel.h"
#include "experiment_snapshot.h"

class QAbstractAxis;
class QColor;
class QLineSeries;
class QXYSeries;

namespace sebo {
struct OutcomeConstraint;
}

namespace sebo::ui {

class TrialChartPanel : public ChartPanel {
    Q_OBJECT
public:
    explicit TrialChartPanel(QWidget* parent = nullptr);

    // Where a trial's marker is drawn, in chartView()->viewport() coordinates.
    std::optional<QPoint> trialPosition(int trial) const;
    // The trial whose marker is nearest to a viewport position, within `radius` pixels (on a tie,
    // one of the series drawn on top, topSeries()).
    std::optional<int> trialAt(QPoint viewport_position, double radius = 10.0) const;
    // Every trial drawn on the same spot as the one nearest to a viewport position (within
    // `radius`), that one first: markers whose centres lie within kSameSpot pixels of its centre
    // cover it (trials with the same values differ only by a small sideways jitter).
    QList<int> trialsAt(QPoint viewport_position, double radius = 10.0) const;
    static constexpr double kSameSpot = 6.0;
    // The tooltip of one trial's marker.
    virtual QString tooltipFor(int trial) const = 0;
    // The tooltip for a marker: the trial's, or, when several trials share the spot, each of them.
    QString tooltipFor(const QList<int>& trials) const;

signals:
    void trialClicked(int trial);

protected:
    struct Marker {
        QPointF value;  // where it is drawn (on the axis edge when the value is beyond it)
        int trial = 0;
        QXYSeries* series = nullptr;
        int beyond = 0;  // −1 below the value axis, +1 above it, 0 on it
    };
    std::vector<Marker>& markers() { return markers_; }
    const std::vector<Marker>& markers() const { return markers_; }
    const Marker* markerOf(int trial) const;
    // Markers of these series are drawn over the others: they win a tie in trialAt().
    void setTopSeries(QList<const QXYSeries*> series) { top_ = std::move(series); }
    bool eventFilter(QObject* watched, QEvent* event) override;

    // The end of a trial's tooltip: why it is excluded, its active parameters, whether it is chosen.
    static QString trialFooter(const ExperimentSnapshot& snapshot, int trial);

    // Keeps `lines` at `count` line series of the chart: removes the surplus, adds new ones
    // attached to the axes x and y. Their points and names are the caller's.
    void resizeLines(std::vector<QLineSeries*>& lines, std::size_t count, QAbstractAxis* x, QAbstractAxis* y);
    // The legend name of a constraint's bound line: "p99_ms ≤ 40".
    static QString boundName(const OutcomeConstraint& constraint);

    static QImage crossMarker(const QColor& color);
    static QImage arrowMarker(bool up, const QColor& fill, const QColor& outline);

private:
    QPointF viewportPoint(const Marker& marker) const;

    std::vector<Marker> markers_;
    QList<const QXYSeries*> top_;
};

}  // namespace sebo::ui
