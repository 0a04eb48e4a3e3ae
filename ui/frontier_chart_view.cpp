#include "frontier_chart_view.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLogValueAxis>
#include <QGraphicsPathItem>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include "axis_range.h"
#include "outcome_text.h"
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

}  // namespace

FrontierChartView::FrontierChartView(QWidget* parent) : TrialChartPanel(parent) {
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

    infeasible_ = new QScatterSeries;
    infeasible_->setName(tr("Infeasible"));
    infeasible_->setMarkerSize(9);

    beyond_high_ = new QScatterSeries;
    beyond_high_->setName(tr("Off the axis"));
    beyond_high_->setMarkerSize(14);
    beyond_low_ = new QScatterSeries;
    beyond_low_->setName(beyond_high_->name());
    beyond_low_->setMarkerSize(14);

    for (QXYSeries* s : std::initializer_list<QXYSeries*>{all_, infeasible_, step_, excluded_, frontier_, newest_,
                                                           beyond_high_, beyond_low_, selected_})
        c->addSeries(s);

    // Error bars: one path over the plot area, between the lines and the markers.
    error_bar_item_ = new QGraphicsPathItem(c);
    error_bar_item_->setZValue(5.5);
    connect(c, &QChart::plotAreaChanged, this, [this] { updateErrorBarPath(); });

    axis_x_ = dynamicAxis(tr("Active parameters"), "%d");
    axis_y_ = dynamicAxis({}, "%.4g");
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
    objective_box_ = new QComboBox(this);
    objective_box_->setToolTip(tr("The objective plotted against the number of active parameters"));
    objective_box_->setAccessibleName(tr("Objective plotted"));
    objective_box_->hide();
    connect(objective_box_, &QComboBox::activated, this, [this](int index) { setObjective(index); });
    optionsRow()->addWidget(objective_box_);
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

    setTopSeries({frontier_});
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
    excluded_->setLightMarker(crossMarker(excluded));
    // Hollow: measured, but a constraint does not hold.
    QPen hollow(chart_color(p, ChartRole::Trial));
    hollow.setWidthF(1.6);
    infeasible_->setPen(hollow);
    infeasible_->setColor(Qt::transparent);
    infeasible_->setBrush(Qt::NoBrush);
    infeasible_->setBorderColor(chart_color(p, ChartRole::Trial));
    QPen bound(error_text(p));
    bound.setWidthF(1.5);
    bound.setStyle(Qt::DashLine);
    for (QLineSeries* line : bounds_) line->setPen(bound);
    const QColor off_axis = chart_color(p, ChartRole::OffAxis);
    for (QScatterSeries* s : {beyond_high_, beyond_low_}) s->setColor(off_axis);
    beyond_high_->setLightMarker(arrowMarker(true, off_axis, base));
    beyond_low_->setLightMarker(arrowMarker(false, off_axis, base));
}

void FrontierChartView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    updateObjectiveBox();
    rebuild();
}

void FrontierChartView::updateObjectiveBox() {
    const std::size_t count = snapshot_ ? snapshot_->experiment.outcomes.objectives.size() : 1;
    if (objective_ >= count) objective_ = 0;
    QStringList names;
    for (std::size_t i = 0; snapshot_ && i < count; ++i) {
        const sebo::Objective& o = snapshot_->experiment.outcomes.objectives[i];
        names << (o.minimize ? tr("%1 (min)") : tr("%1 (max)")).arg(QString::fromStdString(o.metric));
    }
    QStringList shown;
    for (int i = 0; i < objective_box_->count(); ++i) shown << objective_box_->itemText(i);
    if (shown != names) {
        const QSignalBlocker block(objective_box_);
        objective_box_->clear();
        objective_box_->addItems(names);
    }
    objective_box_->setCurrentIndex(static_cast<int>(objective_));
    objective_box_->setVisible(count > 1);
}

void FrontierChartView::setObjective(int objective) {
    if (!snapshot_ || objective < 0 || objective >= static_cast<int>(snapshot_->experiment.outcomes.objectives.size()) ||
        static_cast<std::size_t>(objective) == objective_)
        return;
    objective_ = static_cast<std::size_t>(objective);
    objective_box_->setCurrentIndex(objective);
    // Another quantity on the axis: the whole chart, with the automatic log-scale choice.
    log_automatic_ = true;
    if (zoom()->isZoomed()) zoom()->reset();
    else rebuild();
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
    if (const Marker* m = markerOf(trial)) return m->value;
    return std::nullopt;
}

void FrontierChartView::rebuild() {
    std::vector<Marker>& marks = markers();
    marks.clear();
    error_bars_.clear();
    QList<QPointF> all, frontier, excluded, infeasible, newest, step, beyond_high, beyond_low;
    if (!snapshot_) return;
    const ExperimentSnapshot& s = *snapshot_;
    const Experiment& e = s.experiment;
    const std::size_t o = objective_;
    fronts_ = objective_fronts(s, {o});
    const sebo::Objective& objective = e.outcomes.objectives[o];
    const bool groups = e.space.has_groups();
    const int d = e.max_sparsity();

    // The values on the chart (excluded trials too: they are shown), and those of the frontier.
    std::vector<double> values, frontier_values;
    double f_x_max = 0.0;
    for (std::size_t i = 0; i < e.trials.size(); ++i) {
        const Trial& t = e.trials[i];
        if (t.status != TrialStatus::Completed || !e.objective_value(t, o) || s.sparsity[i] < 0) continue;
        values.push_back(*e.objective_value(t, o));
        // The model's 95 % intervals are drawn whole: their ends are on the axis too.
        if (const ConfigurationEstimate* c = s.estimateOf(t.index))
            if (const auto it = c->estimates.find(objective.metric); it != c->estimates.end()) {
                values.push_back(it->second.lower);
                values.push_back(it->second.upper);
            }
        if (fronts_.isPareto(t.index)) {
            frontier_values.push_back(*e.objective_value(t, o));
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
    // A constraint's bound near the values is on the axis too, so its line shows where the limit
    // lies (a bound far from every value would squash them).
    std::vector<double> bounds;
    for (const OutcomeConstraint& c : e.outcomes.constraints)
        if (c.metric == objective.metric && (c.bound > 0.0 || !positive)) bounds.push_back(c.bound);
    const AxisRange range = value_axis_range(with_nearby_marks(frontier_only ? frontier_values : values, bounds), {log, false});
    if (log_automatic_) {
        const QSignalBlocker block(log_y_);
        log_y_->setChecked(range.logarithmic);
    }

    for (std::size_t i = 0; i < e.trials.size(); ++i) {
        const Trial& t = e.trials[i];
        if (t.status != TrialStatus::Completed || !e.objective_value(t, o) || s.sparsity[i] < 0) continue;
        const double value = *e.objective_value(t, o);
        // Zoomed to the frontier, other trials may fall outside the axis (they are not moved
        // into its bands).
        const bool banded = !frontier_only || fronts_.isPareto(t.index);
        const double y = banded ? range.place(value) : value;
        const int beyond = banded ? range.side(value) : 0;
        QPointF p;
        if (t.exclusion) {
            p = QPointF(s.sparsity[i] + jitter(t.index), y);
            excluded << p;
            marks.push_back({p, t.index, excluded_, beyond});
        } else if (!e.feasible(t)) {
            p = QPointF(s.sparsity[i] + jitter(t.index), y);
            infeasible << p;
            marks.push_back({p, t.index, infeasible_, beyond});
        } else if (fronts_.isPareto(t.index)) {
            p = QPointF(s.sparsity[i], y);
            frontier << p;
            marks.push_back({p, t.index, frontier_, beyond});
        } else {
            p = QPointF(s.sparsity[i] + jitter(t.index), y);
            all << p;
            marks.push_back({p, t.index, all_, beyond});
        }
        // The model's 95 % interval, or ±1 SEM of a measurement, within the part of the axis where
        // values are drawn where they are.
        std::optional<std::pair<double, double>> bar;
        if (const ConfigurationEstimate* c = s.estimateOf(t.index)) {
            if (const auto it = c->estimates.find(objective.metric); it != c->estimates.end())
                bar = std::pair{it->second.lower, it->second.upper};
        } else if (const Measurement* measured = e.objective_measurement(t, o); measured->sem && *measured->sem > 0.0) {
            bar = std::pair{value - *measured->sem, value + *measured->sem};
        }
        if (bar && beyond == 0 && y >= range.shown_low && y <= range.shown_high)
            error_bars_.push_back({t.index, p.x(), std::max(bar->first, range.shown_low), std::min(bar->second, range.shown_high)});
        if (beyond > 0) beyond_high << QPointF(p.x(), range.arrow(value));
        if (beyond < 0) beyond_low << QPointF(p.x(), range.arrow(value));
    }
    if (s.newest_completed)
        if (auto p = markerValue(*s.newest_completed)) newest << *p;

    // "Best with at most k active" as a staircase: flat until a sparser-or-equal trial improves.
    // With the model's estimates it connects the configuration the model recommends for every k
    // (of several recommended, the best in the plotted objective).
    const std::vector<int> staircase = s.values == ValueView::ModelEstimates ? recommendedPath(s, o) : std::vector<int>{};
    std::optional<double> previous;
    for (std::size_t k = 0; k < fronts_.levels.size(); ++k) {
        const int trial = s.values == ValueView::ModelEstimates ? staircase[k] : fronts_.levels[k].empty() ? -1 : fronts_.levels[k].front();
        if (trial < 0) continue;
        const double y = range.place(*e.objective_value(*s.trial(trial), o));
        if (previous && *previous != y) step << QPointF(static_cast<double>(k), *previous);
        step << QPointF(static_cast<double>(k), y);
        previous = y;
    }
    if (previous && !step.isEmpty() && step.last().x() < d) step << QPointF(d, *previous);
    step_->setName(s.values == ValueView::ModelEstimates ? tr("Recommended with ≤ k active") : tr("Best with ≤ k active"));
    all_->setName(s.values == ValueView::ModelEstimates ? tr("Estimates (95 % interval)") : tr("Trials"));

    all_->replace(all);
    frontier_->replace(frontier);
    excluded_->replace(excluded);
    infeasible_->replace(infeasible);
    newest_->replace(newest);
    step_->replace(step);
    beyond_high_->replace(beyond_high);
    beyond_low_->replace(beyond_low);
    // Legend entries only for what is on the chart (one entry for both arrow series).
    const auto show_in_legend = [&](QXYSeries* series, bool shown) {
        for (QLegendMarker* m : chart()->legend()->markers(series)) m->setVisible(shown);
    };
    show_in_legend(excluded_, !excluded.isEmpty());
    show_in_legend(infeasible_, !infeasible.isEmpty());
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
    updateBounds(e, range, -0.5, x_high);
    current_y_->setTitleText(objective_axis_title(objective));
    updateSelection();
    updateErrorBarPath();
    range_shade_->setRange(e.method.min_active, e.method.max_active);
    keepZoom();

    // Say why the chart is empty rather than showing blank axes.
    if (e.space.dimension() == 0) {
        setEmptyText(tr("No experiment is open.\n\nOpen a bundled example or create a new experiment from the "
                        "File menu."));
    } else if (marks.empty()) {
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

void FrontierChartView::updateBounds(const Experiment& e, const AxisRange& range, double x_low, double x_high) {
    std::vector<const OutcomeConstraint*> shown;
    for (const OutcomeConstraint& c : e.outcomes.constraints)
        if (c.metric == e.outcomes.objectives[objective_].metric && range.side(c.bound) == 0 &&
            (!range.logarithmic || c.bound > 0.0))
            shown.push_back(&c);
    resizeLines(bounds_, shown.size(), axis_x_, current_y_);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        bounds_[i]->setName(boundName(*shown[i]));
        bounds_[i]->replace({QPointF(x_low, shown[i]->bound), QPointF(x_high, shown[i]->bound)});
    }
    if (!shown.empty()) updateSeriesColors();
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

std::vector<int> FrontierChartView::recommendedPath(const ExperimentSnapshot& s, std::size_t objective) {
    std::vector<int> path(static_cast<std::size_t>(s.experiment.max_sparsity()) + 1, -1);
    if (!s.estimates) return path;
    const RecommendationReport& r = *s.estimates;
    const Objective& o = s.experiment.outcomes.objectives[objective];
    for (const RecommendationReport::Level& level : r.levels) {
        if (level.k < 0 || static_cast<std::size_t>(level.k) >= path.size() || level.recommended.empty()) continue;
        const auto best = std::max_element(level.recommended.begin(), level.recommended.end(), [&](std::size_t a, std::size_t b) {
            return o.to_utility(r.configurations[a].estimates.at(o.metric).mean) <
                   o.to_utility(r.configurations[b].estimates.at(o.metric).mean);
        });
        path[static_cast<std::size_t>(level.k)] = r.configurations[*best].trial();
    }
    return path;
}

QString FrontierChartView::tooltipFor(int trial) const {
    if (!snapshot_) return {};
    const Trial* t = snapshot_->trial(trial);
    const Experiment& e = snapshot_->experiment;
    if (!t || !e.objective_measurement(*t, objective_)) return {};
    QString text = tr("<b>Trial %1</b>").arg(trial);
    if (fronts_.isPareto(trial)) text += tr(" &middot; on the frontier");
    // The plotted objective first, then the other metrics (the model's estimates and what was
    // measured, when the chart shows the estimates).
    text += configuration_lines(*snapshot_, *t, e.outcomes.objectives[objective_].metric);
    if (const Marker* m = markerOf(trial); m && m->beyond != 0)
        text += "<br><i>" + (m->beyond > 0 ? tr("Far above the other values: drawn at the top of the axis")
                                           : tr("Far below the other values: drawn at the bottom of the axis")) +
                "</i>";
    return text + trialFooter(*snapshot_, trial);
}

}  // namespace sebo::ui
