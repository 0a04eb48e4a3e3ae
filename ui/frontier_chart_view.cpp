#include "frontier_chart_view.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLogValueAxis>
#include <QGraphicsPathItem>
#include <QHelpEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "axis_range.h"
#include "chart_zoom.h"

#include "palette_colors.h"

namespace sebo::ui {

namespace {

// Trials with the same active count would sit on one vertical line; a small, deterministic
// horizontal offset per trial (at most ±0.2 of a step) keeps them apart. Frontier trials are
// drawn at their exact count.
double jitter(int trial) {
    const std::uint32_t h = static_cast<std::uint32_t>(trial) * 2654435761u;
    return ((h >> 8) % 1000) / 1000.0 * 0.4 - 0.2;
}

// Marker images (drawn at twice the marker size for sharp edges on high-density screens).
QImage marker_image(const std::function<void(QPainter&, double)>& draw) {
    constexpr int kSize = 32;
    QImage image(kSize, kSize, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    draw(painter, kSize);
    return image;
}

// A cross: a trial excluded from analysis.
QImage cross_marker(const QColor& color) {
    return marker_image([color](QPainter& p, double size) {
        QPen pen(color, size * 0.14, Qt::SolidLine, Qt::RoundCap);
        p.setPen(pen);
        const double a = size * 0.2, b = size * 0.8;
        p.drawLine(QPointF(a, a), QPointF(b, b));
        p.drawLine(QPointF(a, b), QPointF(b, a));
    });
}

// An arrow pointing off the chart: the value lies beyond this edge of the axis.
QImage arrow_marker(bool up, const QColor& fill, const QColor& outline) {
    return marker_image([up, fill, outline](QPainter& p, double size) {
        QPolygonF head;
        const double tip = up ? size * 0.04 : size * 0.96, base = up ? size * 0.62 : size * 0.38;
        head << QPointF(size * 0.5, tip) << QPointF(size * 0.12, base) << QPointF(size * 0.88, base);
        p.setPen(QPen(outline, size * 0.06));
        p.setBrush(fill);
        p.drawPolygon(head);
        p.fillRect(QRectF(size * 0.38, up ? base : size * 0.04, size * 0.24, up ? size * 0.34 : base - size * 0.04),
                   fill);
    });
}

}  // namespace

FrontierChartView::FrontierChartView(QWidget* parent) : ChartPanel(false, parent) {
    QChart* c = chart();

    // Colours come from the palette (updateSeriesColors).
    all_ = new QScatterSeries;
    all_->setName(tr("Trials"));
    all_->setMarkerSize(7);

    step_ = new QLineSeries;
    step_->setName(tr("Best with ≤ k active"));

    frontier_ = new QScatterSeries;
    frontier_->setName(tr("Pareto frontier"));
    frontier_->setMarkerSize(11);

    newest_ = new QScatterSeries;
    newest_->setName(tr("Newest trial"));
    newest_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    newest_->setMarkerSize(14);

    selected_ = new QScatterSeries;
    selected_->setName(tr("Selected"));
    selected_->setMarkerSize(22);

    // Short legend names: with every series present the legend must still fit unelided.
    excluded_ = new QScatterSeries;
    excluded_->setName(tr("Excluded"));
    excluded_->setMarkerSize(12);

    beyond_high_ = new QScatterSeries;
    beyond_high_->setName(tr("Off the axis"));
    beyond_high_->setMarkerSize(14);
    beyond_low_ = new QScatterSeries;
    beyond_low_->setName(beyond_high_->name());
    beyond_low_->setMarkerSize(14);

    for (QXYSeries* s : std::initializer_list<QXYSeries*>{all_, step_, excluded_, frontier_, newest_, beyond_high_,
                                                           beyond_low_, selected_})
        c->addSeries(s);

    // Error bars: one path over the plot area, between the lines and the markers.
    error_bar_item_ = new QGraphicsPathItem(c);
    error_bar_item_->setZValue(5.5);
    connect(c, &QChart::plotAreaChanged, this, [this] { updateErrorBarPath(); });

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
    range_shade_ = std::make_unique<SparsityRangeShade>(c, all_);
    connect(c, &QChart::plotAreaChanged, this, [this] { range_shade_->update(); });
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
    // Changing the axes by hand shows the whole chart on the new axes (a zoom made on the old
    // ones would mean other values).
    const auto axes_changed = [this] {
        if (zoom()->isZoomed()) zoom()->reset();
        else rebuild();
    };
    connect(log_y_, &QCheckBox::toggled, this, axes_changed);
    connect(zoom_, &QCheckBox::toggled, this, axes_changed);

    chartView()->viewport()->setMouseTracking(true);
    chartView()->viewport()->installEventFilter(this);
    setEmptyText(tr("No experiment is open.\n\nOpen a bundled example or create a new experiment from the "
                    "File menu."));
    registerAxis(axis_y_log_);
    restyle();
}

void FrontierChartView::updateSeriesColors() {
    const QPalette p = palette();
    const QColor base = p.color(QPalette::Base);
    QColor trial = chart_color(p, ChartRole::Trial);
    QPen error_bar(trial);
    error_bar.setWidthF(1.2);
    error_bar_item_->setPen(error_bar);
    range_shade_->setPalette(p);
    all_->setBorderColor(trial);
    trial.setAlpha(215);
    all_->setColor(trial);
    // The staircase is a line in its own colour, so that the legend does not show it in the
    // frontier markers' blue (issue 17, item 4).
    QPen step_pen(chart_color(p, ChartRole::BestStep));
    step_pen.setWidthF(2.0);
    step_->setPen(step_pen);
    frontier_->setColor(chart_color(p, ChartRole::Frontier));
    frontier_->setBorderColor(base);
    const QColor newest = chart_color(p, ChartRole::Newest);
    newest_->setColor(newest);
    newest_->setBorderColor(with_contrast(newest, base, kTextContrast));
    selected_->setColor(Qt::transparent);
    QPen ring(chart_color(p, ChartRole::Selected));
    ring.setWidthF(2.5);
    selected_->setPen(ring);
    const QColor excluded = chart_color(p, ChartRole::Excluded);
    excluded_->setColor(excluded);  // the legend's swatch
    excluded_->setLightMarker(cross_marker(excluded));
    const QColor off_axis = chart_color(p, ChartRole::OffAxis);
    for (QScatterSeries* s : {beyond_high_, beyond_low_}) s->setColor(off_axis);
    beyond_high_->setLightMarker(arrow_marker(true, off_axis, base));
    beyond_low_->setLightMarker(arrow_marker(false, off_axis, base));
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
    error_bars_.clear();
    QList<QPointF> all, frontier, excluded, newest, step, beyond_high, beyond_low;
    if (!snapshot_) return;
    const ExperimentSnapshot& s = *snapshot_;
    const Experiment& e = s.experiment;
    const bool groups = e.space.has_groups();
    const int d = e.max_sparsity();

    // The values on the chart (excluded trials too: they are shown), and those of the frontier.
    std::vector<double> values, frontier_values;
    double f_x_max = 0.0;
    for (std::size_t i = 0; i < e.trials.size(); ++i) {
        const Trial& t = e.trials[i];
        if (t.status != TrialStatus::Completed || !e.objective_value(t) || s.sparsity[i] < 0) continue;
        values.push_back(*e.objective_value(t));
        if (s.isPareto(t.index)) {
            frontier_values.push_back(*e.objective_value(t));
            f_x_max = std::max(f_x_max, static_cast<double>(s.sparsity[i]));
        }
    }

    // The objective axis from the bulk of the values (or of the frontier's when zoomed).
    const bool frontier_only = zoom_->isChecked() && !frontier_values.empty();
    const bool positive = log_axis_possible(values);
    log_y_->setEnabled(positive);
    // Zoomed in, the axis stays as it is (the automatic choice could switch it under the user's zoom).
    const LogScale log = log_automatic_ && !zoom()->isZoomed() ? LogScale::Automatic
                         : (log_automatic_ ? logScale() : log_y_->isChecked()) ? LogScale::On
                                                                                : LogScale::Off;
    const AxisRange range = value_axis_range(frontier_only ? frontier_values : values, {log, false});
    if (log_automatic_) {
        const QSignalBlocker block(log_y_);
        log_y_->setChecked(range.logarithmic);
    }

    for (std::size_t i = 0; i < e.trials.size(); ++i) {
        const Trial& t = e.trials[i];
        if (t.status != TrialStatus::Completed || !e.objective_value(t) || s.sparsity[i] < 0) continue;
        // Zoomed to the frontier, other trials may fall outside the axis (they are not moved
        // into its bands).
        const bool banded = !frontier_only || s.isPareto(t.index);
        const double y = banded ? range.place(*e.objective_value(t)) : *e.objective_value(t);
        const int beyond = banded ? range.side(*e.objective_value(t)) : 0;
        QPointF p;
        if (t.exclusion) {
            p = QPointF(s.sparsity[i] + jitter(t.index), y);
            excluded << p;
            markers_.push_back({p, t.index, excluded_, beyond});
        } else if (s.isPareto(t.index)) {
            p = QPointF(s.sparsity[i], y);
            frontier << p;
            markers_.push_back({p, t.index, frontier_, beyond});
        } else {
            p = QPointF(s.sparsity[i] + jitter(t.index), y);
            all << p;
            markers_.push_back({p, t.index, all_, beyond});
        }
        // ±1 SEM, within the part of the axis where values are drawn where they are.
        const Measurement* measured = e.objective_measurement(t);
        if (measured->sem && *measured->sem > 0.0 && beyond == 0 && y >= range.shown_low && y <= range.shown_high)
            error_bars_.push_back({t.index, p.x(), std::max(y - *measured->sem, range.shown_low),
                                   std::min(y + *measured->sem, range.shown_high)});
        if (beyond > 0) beyond_high << QPointF(p.x(), range.arrow(*e.objective_value(t)));
        if (beyond < 0) beyond_low << QPointF(p.x(), range.arrow(*e.objective_value(t)));
    }
    if (s.newest_completed)
        if (auto p = markerValue(*s.newest_completed)) newest << *p;

    // "Best with at most k active" as a staircase: flat until a sparser-or-equal trial improves.
    std::optional<double> previous;
    for (const FrontierReport::Level& level : s.report.levels) {
        if (!level.best_objective) continue;
        const double y = range.place(*level.best_objective);
        if (previous && *previous != y) step << QPointF(level.k, *previous);
        step << QPointF(level.k, y);
        previous = y;
    }
    if (previous && !step.isEmpty() && step.last().x() < d) step << QPointF(d, *previous);

    all_->replace(all);
    frontier_->replace(frontier);
    excluded_->replace(excluded);
    newest_->replace(newest);
    step_->replace(step);
    beyond_high_->replace(beyond_high);
    beyond_low_->replace(beyond_low);
    // Legend entries only for what is on the chart (one entry for both arrow series).
    const auto show_in_legend = [&](QXYSeries* series, bool shown) {
        for (QLegendMarker* m : chart()->legend()->markers(series)) m->setVisible(shown);
    };
    show_in_legend(excluded_, !excluded.isEmpty());
    show_in_legend(beyond_high_, !beyond_high.isEmpty() || !beyond_low.isEmpty());
    show_in_legend(beyond_low_, false);

    // Axes: every count from 0 to D; or only the frontier's region.
    const double x_high = frontier_only ? f_x_max + std::max(1.5, 0.15 * f_x_max) : d + 0.5;
    setAxis(axis_x_, -0.5, x_high, niceInterval(std::floor(x_high), 10, 1.0));
    axis_x_->setTitleText(groups ? tr("Active groups (of %1)").arg(d) : tr("Active parameters (of %1)").arg(d));
    useAxisY(range.logarithmic ? static_cast<QAbstractAxis*>(axis_y_log_) : axis_y_);
    if (!values.empty()) {
        if (range.logarithmic) {
            axis_y_log_->setBase(log_axis_base(range.low, range.high));
            axis_y_log_->setMinorTickCount(axis_y_log_->base() == 10.0 ? 8 : 0);
            axis_y_log_->setRange(range.low, range.high);
        } else {
            setAxis(axis_y_, range.low, range.high, niceInterval(range.high - range.low, 5));
        }
    }
    const QString name = QString::fromStdString(e.primary_objective().metric);
    current_y_->setTitleText(e.primary_objective().minimize ? tr("%1 (lower is better)").arg(name)
                                                  : tr("%1 (higher is better)").arg(name));
    updateSelection();
    updateErrorBarPath();
    range_shade_->setRange(e.method.min_active, e.method.max_active);
    keepZoom();

    // Say why the chart is empty rather than showing blank axes.
    if (e.space.dimension() == 0) {
        setEmptyText(tr("No experiment is open.\n\nOpen a bundled example or create a new experiment from the "
                        "File menu."));
    } else if (markers_.empty()) {
        const int pending = e.count(TrialStatus::Pending);
        const int failed = e.count(TrialStatus::Failed);
        QString text;
        if (e.trials.empty() && e.evaluator.kind == EvaluatorSpec::Kind::Manual)
            text = tr("No trials yet.\n\nPress Step (F5) for the first configuration to try. Run it yourself, "
                      "then enter the observed value in the Configuration panel.");
        else if (e.trials.empty())
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

void FrontierChartView::updateErrorBarPath() {
    QPainterPath path;
    const QRectF area = chart()->plotArea();
    if (!error_bars_.empty() && area.isValid()) {
        const double cap = 3.0;  // half the width of the bar's ends, in pixels
        for (const ErrorBar& bar : error_bars_) {
            QPointF low = chart()->mapToPosition(QPointF(bar.x, bar.low), all_);
            QPointF high = chart()->mapToPosition(QPointF(bar.x, bar.high), all_);
            // Zoomed in, a bar may lie partly or wholly outside the plot: draw only what is inside.
            if (low.x() < area.left() || low.x() > area.right() || high.y() > area.bottom() || low.y() < area.top())
                continue;
            const bool low_cut = low.y() > area.bottom(), high_cut = high.y() < area.top();
            low.setY(std::min(low.y(), area.bottom()));
            high.setY(std::max(high.y(), area.top()));
            path.moveTo(low);
            path.lineTo(high);
            for (const auto& [end, cut] : {std::pair{low, low_cut}, std::pair{high, high_cut}}) {
                if (cut) continue;
                path.moveTo(end.x() - cap, end.y());
                path.lineTo(end.x() + cap, end.y());
            }
        }
    }
    error_bar_item_->setPath(path);
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

QList<int> FrontierChartView::trialsAt(QPoint position, double radius) const {
    const std::optional<int> nearest = trialAt(position, radius);
    if (!nearest) return {};
    const std::optional<QPoint> spot = trialPosition(*nearest);
    QList<int> trials{*nearest};
    for (const Marker& m : markers_) {
        if (m.trial == *nearest || trials.contains(m.trial)) continue;
        const QPointF p = chartView()->mapFromScene(chart()->mapToScene(chart()->mapToPosition(m.value, m.series)));
        if (spot && std::hypot(p.x() - spot->x(), p.y() - spot->y()) <= kSameSpot) trials << m.trial;
    }
    std::sort(trials.begin() + 1, trials.end());
    return trials;
}

QString FrontierChartView::tooltipFor(const QList<int>& trials) const {
    if (trials.size() <= 1) return trials.isEmpty() ? QString() : tooltipFor(trials.first());
    QList<int> sorted = trials;
    std::sort(sorted.begin(), sorted.end());
    QStringList numbers;
    for (int t : sorted) numbers << QString::number(t);
    QString text = tr("<b>%1 trials on this spot</b>: %2").arg(trials.size()).arg(numbers.join(", "));
    // Each one in full, up to a tooltip's worth; the rest by number above.
    constexpr int kDetailed = 4;
    for (int i = 0; i < std::min<int>(kDetailed, static_cast<int>(trials.size())); ++i)
        text += "<hr>" + tooltipFor(trials[i]);
    if (trials.size() > kDetailed) text += "<hr>" + tr("and %1 more").arg(trials.size() - kDetailed);
    return text;
}

QString FrontierChartView::tooltipFor(int trial) const {
    if (!snapshot_) return {};
    const Trial* t = snapshot_->trial(trial);
    const Experiment& e = snapshot_->experiment;
    const Measurement* value = t ? e.objective_measurement(*t) : nullptr;
    if (!value) return {};
    QString text = tr("<b>Trial %1</b>").arg(trial);
    if (snapshot_->isPareto(trial)) text += tr(" &middot; on the frontier");
    text += "<br>" + QString::fromStdString(e.primary_objective().metric).toHtmlEscaped() + ": " + display_number(value->mean);
    if (value->sem) text += QString(" ± %1").arg(display_number(*value->sem, 3));
    for (const Marker& m : markers_)
        if (m.trial == trial && m.beyond != 0)
            text += "<br><i>" + (m.beyond > 0 ? tr("Far above the other values: drawn at the top of the axis")
                                              : tr("Far below the other values: drawn at the bottom of the axis")) +
                    "</i>";
    if (t->exclusion)
        text += "<br><b>" + tr("Excluded from analysis") + "</b>: " +
                QString::fromStdString(t->exclusion->reason).toHtmlEscaped();
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
        if (const QList<int> trials = trialsAt(help->pos()); !trials.isEmpty()) {
            QToolTip::showText(help->globalPos(), tooltipFor(trials), chartView()->viewport());
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
