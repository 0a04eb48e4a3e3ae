#include "frontier_chart_view.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLogValueAxis>
#include <QHelpEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace sebo::ui {

namespace {

// Trials with the same active count would sit on one vertical line; a small, deterministic
// horizontal offset per trial (at most ±0.2 of a step) keeps them apart. Frontier trials are
// drawn at their exact count.
double jitter(int trial) {
    const std::uint32_t h = static_cast<std::uint32_t>(trial) * 2654435761u;
    return ((h >> 8) % 1000) / 1000.0 * 0.4 - 0.2;
}

}  // namespace

FrontierChartView::FrontierChartView(QWidget* parent) : ChartPanel(false, parent) {
    QChart* c = chart();

    all_ = new QScatterSeries;
    all_->setName(tr("Trials"));
    all_->setMarkerSize(7);
    all_->setColor(QColor(150, 150, 150, 170));
    all_->setBorderColor(QColor(120, 120, 120, 200));

    step_ = new QLineSeries;
    step_->setName(tr("Best with ≤ k active"));
    QPen step_pen(QColor(31, 119, 180));
    step_pen.setWidthF(2.0);
    step_->setPen(step_pen);

    frontier_ = new QScatterSeries;
    frontier_->setName(tr("Pareto frontier"));
    frontier_->setMarkerSize(11);
    frontier_->setColor(QColor(31, 119, 180));
    frontier_->setBorderColor(Qt::white);

    newest_ = new QScatterSeries;
    newest_->setName(tr("Newest trial"));
    newest_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    newest_->setMarkerSize(14);
    newest_->setColor(QColor(255, 127, 14));
    newest_->setBorderColor(QColor(160, 70, 0));

    selected_ = new QScatterSeries;
    selected_->setName(tr("Selected"));
    selected_->setMarkerSize(22);
    selected_->setColor(Qt::transparent);
    QPen ring(QColor(214, 39, 40));
    ring.setWidthF(2.5);
    selected_->setPen(ring);

    for (QXYSeries* s : std::initializer_list<QXYSeries*>{all_, step_, frontier_, newest_, selected_}) c->addSeries(s);

    axis_x_ = new QValueAxis;
    axis_x_->setTitleText(tr("Active parameters"));
    axis_x_->setLabelFormat("%d");
    axis_x_->setTickType(QValueAxis::TicksDynamic);
    axis_x_->setTickAnchor(0);
    axis_y_ = new QValueAxis;
    axis_y_->setLabelFormat("%.4g");
    axis_y_->setTickType(QValueAxis::TicksDynamic);
    axis_y_->setTickAnchor(0.0);
    axis_y_log_ = new QLogValueAxis(this);
    axis_y_log_->setLabelFormat("%.3g");
    axis_y_log_->setBase(10.0);
    axis_y_log_->setMinorTickCount(8);
    current_y_ = axis_y_;
    c->addAxis(axis_x_, Qt::AlignBottom);
    c->addAxis(axis_y_, Qt::AlignLeft);
    for (QAbstractSeries* s : c->series()) {
        s->attachAxis(axis_x_);
        s->attachAxis(axis_y_);
    }
    // The selection ring explains itself; keep the legend to what the data means.
    for (QLegendMarker* m : c->legend()->markers(selected_)) m->setVisible(false);

    log_y_ = new QCheckBox(tr("Log scale"), this);
    log_y_->setToolTip(tr("Logarithmic objective axis, to tell apart small values near the optimum "
                          "(needs every objective value to be positive)"));
    zoom_ = new QCheckBox(tr("Zoom to frontier"), this);
    zoom_->setToolTip(tr("Show only the region of the frontier trials (fewest active parameters, best "
                         "values); other trials may fall outside"));
    optionsRow()->addStretch(1);
    optionsRow()->addWidget(zoom_);
    optionsRow()->addWidget(log_y_);
    connect(log_y_, &QCheckBox::clicked, this, [this] { log_automatic_ = false; });
    connect(log_y_, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(zoom_, &QCheckBox::toggled, this, [this] { rebuild(); });

    chartView()->viewport()->setMouseTracking(true);
    chartView()->viewport()->installEventFilter(this);
    setEmptyText(tr("No experiment is open.\n\nOpen a bundled example or create a new experiment from the "
                    "File menu."));
}

void FrontierChartView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    rebuild();
}

void FrontierChartView::setLogScale(bool on) {
    log_automatic_ = false;
    log_y_->setChecked(on);
}
void FrontierChartView::setZoomToFrontier(bool on) { zoom_->setChecked(on); }
bool FrontierChartView::logScale() const { return current_y_ == axis_y_log_; }

void FrontierChartView::useAxisY(QAbstractAxis* axis) {
    if (current_y_ == axis) return;
    for (QAbstractSeries* s : chart()->series()) s->detachAxis(current_y_);
    chart()->removeAxis(current_y_);
    current_y_->setParent(this);
    chart()->addAxis(axis, Qt::AlignLeft);
    for (QAbstractSeries* s : chart()->series()) s->attachAxis(axis);
    current_y_ = axis;
}

void FrontierChartView::setSelectedTrial(int trial) {
    selected_trial_ = trial;
    updateSelection();
}

std::optional<QPointF> FrontierChartView::markerValue(int trial) const {
    for (const Marker& m : markers_)
        if (m.trial == trial) return m.value;
    return std::nullopt;
}

void FrontierChartView::rebuild() {
    markers_.clear();
    QList<QPointF> all, frontier, newest, step;
    if (!snapshot_) return;
    const ExperimentSnapshot& s = *snapshot_;
    const Experiment& e = s.experiment;
    const bool groups = e.space.has_groups();
    const int d = e.max_sparsity();

    double y_min = std::numeric_limits<double>::infinity();
    double y_max = -y_min;
    double f_y_min = y_min, f_y_max = y_max, f_x_max = 0.0;
    for (std::size_t i = 0; i < e.trials.size(); ++i) {
        const Trial& t = e.trials[i];
        if (t.status != TrialStatus::Completed || !t.objective || s.sparsity[i] < 0) continue;
        const double y = *t.objective;
        y_min = std::min(y_min, y);
        y_max = std::max(y_max, y);
        if (s.isPareto(t.index)) {
            const QPointF p(s.sparsity[i], y);
            frontier << p;
            f_x_max = std::max(f_x_max, static_cast<double>(s.sparsity[i]));
            f_y_min = std::min(f_y_min, y);
            f_y_max = std::max(f_y_max, y);
            markers_.push_back({p, t.index, frontier_});
        } else {
            const QPointF p(s.sparsity[i] + jitter(t.index), y);
            all << p;
            markers_.push_back({p, t.index, all_});
        }
    }
    if (s.newest_completed)
        if (auto p = markerValue(*s.newest_completed)) newest << *p;

    // "Best with at most k active" as a staircase: flat until a sparser-or-equal trial improves.
    std::optional<double> previous;
    for (const FrontierReport::Level& level : s.report.levels) {
        if (!level.best_objective) continue;
        if (previous && *previous != *level.best_objective) step << QPointF(level.k, *previous);
        step << QPointF(level.k, *level.best_objective);
        previous = level.best_objective;
    }
    if (previous && !step.isEmpty() && step.last().x() < d) step << QPointF(d, *previous);

    all_->replace(all);
    frontier_->replace(frontier);
    newest_->replace(newest);
    step_->replace(step);

    // Axes: every count from 0 to D, and the objective range with a margin; or only the
    // frontier's region.
    const bool zoom = zoom_->isChecked() && !frontier.isEmpty();
    const double x_high = zoom ? f_x_max + std::max(1.5, 0.15 * f_x_max) : d + 0.5;
    setAxis(axis_x_, -0.5, x_high, niceInterval(std::floor(x_high), 10, 1.0));
    if (zoom) {
        y_min = f_y_min;
        y_max = f_y_max;
    }
    axis_x_->setTitleText(groups ? tr("Active groups (of %1)").arg(d) : tr("Active parameters (of %1)").arg(d));
    const bool positive = std::isfinite(y_min) && y_min > 0.0;
    log_y_->setEnabled(positive);
    if (log_automatic_) {
        const QSignalBlocker block(log_y_);
        log_y_->setChecked(positive && y_max / y_min >= 100.0);
    }
    useAxisY(positive && log_y_->isChecked() ? static_cast<QAbstractAxis*>(axis_y_log_) : axis_y_);
    if (std::isfinite(y_min)) {
        if (current_y_ == axis_y_log_) {
            // A margin of 5% of the range in log space.
            const double pad = std::pow(std::max(y_max / y_min, 10.0), 0.05);
            axis_y_log_->setRange(y_min / pad, y_max * pad);
        } else {
            // One value (or all equal): a window around it that still gets a few ticks.
            const double half = std::max(0.5, 0.1 * std::abs(y_max));
            const double low = y_max > y_min ? y_min - 0.05 * (y_max - y_min) : y_min - half;
            const double high = y_max > y_min ? y_max + 0.05 * (y_max - y_min) : y_max + half;
            setAxis(axis_y_, low, high, niceInterval(high - low, 5));
        }
    }
    const QString name = QString::fromStdString(e.objective.name);
    current_y_->setTitleText(e.objective.minimize ? tr("%1 (lower is better)").arg(name)
                                                  : tr("%1 (higher is better)").arg(name));
    updateSelection();

    // Say why the chart is empty rather than showing blank axes.
    if (e.space.dimension() == 0) {
        setEmptyText(tr("No experiment is open.\n\nOpen a bundled example or create a new experiment from the "
                        "File menu."));
    } else if (markers_.empty()) {
        const int pending = e.count(TrialStatus::Pending);
        const int failed = e.count(TrialStatus::Failed);
        QString text;
        if (e.trials.empty())
            text = tr("No trials yet.\n\nPress Step (F5) to run the first trial, or Run to budget "
                      "(Ctrl+Shift+R) to run all %1.")
                       .arg(e.method.budget);
        else if (pending > 0)
            text = tr("%1 waiting for a result.\n\nSelect a pending trial and enter the observed value in the "
                      "Configuration panel (Ctrl+E).")
                       .arg(count_text(pending, tr("trial"), tr("trials")));
        else
            text = tr("None of the %1 has completed (%2 failed).\n\nThe Trials table lists each failure with "
                      "its error.")
                       .arg(count_text(static_cast<long long>(e.trials.size()), tr("trial"), tr("trials")))
                       .arg(failed);
        setEmptyText(text);
    } else {
        setEmptyText({});
    }
}

void FrontierChartView::updateSelection() {
    QList<QPointF> points;
    if (selected_trial_ >= 0)
        if (auto p = markerValue(selected_trial_)) points << *p;
    selected_->replace(points);
}

std::optional<QPoint> FrontierChartView::trialPosition(int trial) const {
    for (const Marker& m : markers_) {
        if (m.trial != trial) continue;
        const QPointF in_chart = chart()->mapToPosition(m.value, m.series);
        const QPointF in_scene = chart()->mapToScene(in_chart);
        return chartView()->mapFromScene(in_scene);
    }
    return std::nullopt;
}

std::optional<int> FrontierChartView::trialAt(QPoint position, double radius) const {
    std::optional<int> best;
    bool best_on_frontier = false;
    double best_distance = radius * radius;
    for (const Marker& m : markers_) {
        const QPointF in_scene = chart()->mapToScene(chart()->mapToPosition(m.value, m.series));
        const QPointF p = chartView()->mapFromScene(in_scene);
        const double dx = p.x() - position.x(), dy = p.y() - position.y();
        const double distance = dx * dx + dy * dy;
        // Frontier markers are drawn on top of the grey ones: on a tie they win.
        const bool on_frontier = m.series == frontier_;
        if (distance < best_distance || (distance == best_distance && on_frontier && !best_on_frontier) ||
            (!best && distance <= best_distance)) {
            best_distance = distance;
            best = m.trial;
            best_on_frontier = on_frontier;
        }
    }
    return best;
}

QString FrontierChartView::tooltipFor(int trial) const {
    if (!snapshot_) return {};
    const Trial* t = snapshot_->trial(trial);
    if (!t || !t->objective) return {};
    const Experiment& e = snapshot_->experiment;
    QString text = tr("<b>Trial %1</b>").arg(trial);
    if (snapshot_->isPareto(trial)) text += tr(" &middot; on the frontier");
    text += "<br>" + QString::fromStdString(e.objective.name).toHtmlEscaped() + ": " + display_number(*t->objective);
    if (t->sem) text += QString(" ± %1").arg(display_number(*t->sem, 3));
    const QStringList names = snapshot_->activeNames(trial);
    text += "<br>" + count_text(names.size(), tr("active parameter"), tr("active parameters"));
    if (!names.isEmpty()) {
        constexpr int kShown = 12;
        QStringList shown = names.mid(0, kShown);
        for (QString& n : shown) n = n.toHtmlEscaped();
        text += ": " + shown.join(", ");
        if (names.size() > kShown) text += tr(" and %1 more").arg(names.size() - kShown);
    }
    if (const ChosenConfiguration* c = snapshot_->chosen(trial)) {
        text += "<br>" + tr("Chosen");
        if (!c->note.empty()) text += ": " + QString::fromStdString(c->note).toHtmlEscaped();
    }
    return text;
}

bool FrontierChartView::eventFilter(QObject* watched, QEvent* event) {
    if (watched != chartView()->viewport()) return ChartPanel::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::ToolTip: {
        auto* help = static_cast<QHelpEvent*>(event);
        if (auto trial = trialAt(help->pos())) {
            QToolTip::showText(help->globalPos(), tooltipFor(*trial), chartView()->viewport());
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    case QEvent::MouseMove: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        chartView()->viewport()->setCursor(trialAt(mouse->position().toPoint()) ? Qt::PointingHandCursor
                                                                                 : Qt::ArrowCursor);
        break;
    }
    case QEvent::MouseButtonPress: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        if (mouse->button() == Qt::LeftButton)
            if (auto trial = trialAt(mouse->position().toPoint())) emit trialClicked(*trial);
        break;
    }
    default: break;
    }
    return ChartPanel::eventFilter(watched, event);
}

}  // namespace sebo::ui
