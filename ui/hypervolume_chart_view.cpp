#include "hypervolume_chart_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QStringList>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "axis_range.h"
#include "palette_colors.h"

namespace sebo::ui {

HypervolumeChartView::HypervolumeChartView(QWidget* parent) : ChartPanel(false, parent) {
    QChart* c = chart();
    initial_upper_ = new QLineSeries(this);
    initial_lower_ = new QLineSeries(this);
    initial_ = new QAreaSeries(initial_upper_, initial_lower_);
    initial_->setName(tr("Initial design (Sobol)"));

    trace_ = new QLineSeries;
    trace_->setName(tr("Hypervolume"));
    trace_->setPointsVisible(true);

    beyond_ = new QScatterSeries;
    beyond_->setName(tr("Off the axis"));
    beyond_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    beyond_->setMarkerSize(12);

    // Beside the plot: the panel is usually wider than tall, and the axes keep their height.
    c->legend()->setAlignment(Qt::AlignRight);
    c->addSeries(initial_);
    c->addSeries(trace_);
    c->addSeries(beyond_);
    axis_x_ = dynamicAxis(tr("Trial"), "%d");
    // A one-word title, which a short panel keeps (Qt Charts cuts a title longer than the axis);
    // the labels are plain numbers ("40000", not "4e+04") with the interval's decimals (ChartPanel::labelTicks).
    axis_y_ = dynamicAxis(tr("Hypervolume"), "%.4g");
    c->addAxis(axis_x_, Qt::AlignBottom);
    c->addAxis(axis_y_, Qt::AlignLeft);
    for (QAbstractSeries* s : c->series()) {
        s->attachAxis(axis_x_);
        s->attachAxis(axis_y_);
    }
    reference_ = new QLabel(this);
    reference_->setTextFormat(Qt::PlainText);
    // As wide as the row leaves it, never wider (a narrow panel cuts it rather than growing).
    reference_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    reference_->installEventFilter(this);
    optionsRow()->addWidget(reference_, 1);
    setEmptyText(tr("No experiment is open."));
    restyle();
}

QString HypervolumeChartView::referenceText() const { return reference_text_; }

void HypervolumeChartView::showReference() {
    reference_->setText(reference_->fontMetrics().elidedText(reference_text_, Qt::ElideRight, reference_->width()));
    const QString why = tr("The hypervolume is the area dominated by the trials in (objective, number of active "
                           "parameters), measured from this fixed reference point, so runs compare.");
    reference_->setToolTip(reference_text_.isEmpty() ? why : reference_text_ + "\n\n" + why);
}

bool HypervolumeChartView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == reference_ && event->type() == QEvent::Resize) showReference();
    return ChartPanel::eventFilter(watched, event);
}

void HypervolumeChartView::updateSeriesColors() {
    const QColor band = chart_color(palette(), ChartRole::InitialDesign);
    initial_->setColor(band);
    initial_->setBorderColor(Qt::transparent);
    QPen pen(chart_color(palette(), ChartRole::Hypervolume));
    pen.setWidthF(2.0);
    trace_->setPen(pen);
    beyond_->setColor(chart_color(palette(), ChartRole::OffAxis));
    beyond_->setBorderColor(palette().color(QPalette::Base));
}

void HypervolumeChartView::resetView() { setSnapshot(snapshot_); }

void HypervolumeChartView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    if (!snapshot_) return;
    const ExperimentSnapshot& s = *snapshot_;
    const Experiment& e = s.experiment;
    const std::vector<double>& hv = s.report.hypervolume_trace;

    const AxisRange range = value_axis_range(hv, {LogScale::Off, true});
    QList<QPointF> points, beyond;
    for (std::size_t i = 0; i < hv.size(); ++i) {
        points << QPointF(static_cast<double>(i + 1), range.place(hv[i]));
        if (range.side(hv[i]) != 0) beyond << QPointF(static_cast<double>(i + 1), range.arrow(hv[i]));
    }
    trace_->replace(points);
    beyond_->replace(beyond);
    for (QLegendMarker* m : chart()->legend()->markers(beyond_)) m->setVisible(!beyond.isEmpty());

    const int n = static_cast<int>(hv.size());
    const double top = range.high;
    const int x_max = std::max({n, e.method.budget, 1});
    const int initial = std::min(e.method.initial_trials, x_max);
    QList<QPointF> upper, lower;
    if (initial > 0) {
        upper << QPointF(0.5, top) << QPointF(initial + 0.5, top);
        lower << QPointF(0.5, 0.0) << QPointF(initial + 0.5, 0.0);
    }
    initial_upper_->replace(upper);
    initial_lower_->replace(lower);

    setAxis(axis_x_, 0.5, x_max + 0.5, niceInterval(x_max, 8, 1.0));
    setAxis(axis_y_, 0.0, top, niceInterval(top, 5));
    keepZoom();
    // Without results a user problem's reference (worst observed value) is not defined yet.
    const bool fixed_reference = std::all_of(e.outcomes.objectives.begin(), e.outcomes.objectives.end(),
                                             [](const Objective& o) { return o.threshold.has_value(); });
    QStringList reference;
    for (std::size_t j = 0; j < e.outcomes.objectives.size() && j < s.report.reference_utilities.size(); ++j) {
        const Objective& o = e.outcomes.objectives[j];
        reference << QString("%1 = %2").arg(QString::fromStdString(o.metric),
                                             display_number(o.from_utility(s.report.reference_utilities[j]), 4));
    }
    reference << tr("%1 active").arg(s.report.reference_sparsity);
    reference_text_ = e.space.dimension() == 0 || (s.completedCount() == 0 && !fixed_reference)
                          ? QString()
                          : tr("Reference point: %1 · now %2%3")
                                .arg(reference.join(", "), display_number(s.report.hypervolume, 5),
                                     // Not the status bar's (measured) figure: say whose it is.
                                     s.values == ValueView::ModelEstimates ? tr(" (of the model's estimates)") : QString());
    showReference();

    if (e.space.dimension() == 0)
        setEmptyText(tr("No experiment is open."));
    else if (s.completedCount() == 0)
        setEmptyText(tr("The hypervolume trace appears after the first completed trial."));
    else
        setEmptyText({});
}

}  // namespace sebo::ui
