#include "objective_scatter_view.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSpinBox>
#include <QValueAxis>
#include <algorithm>
#include <set>

#include "axis_range.h"
#include "chart_zoom.h"
#include "outcome_text.h"
#include "palette_colors.h"

namespace sebo::ui {

namespace {

// A perceptually ordered ramp (viridis' stops) from few changes to many; each class's colour is
// then brought to graphic contrast on the palette's base, so light and dark themes both read.
QColor ramp(double t) {
    static const QColor stops[] = {QColor(0x44, 0x01, 0x54), QColor(0x41, 0x44, 0x87), QColor(0x2a, 0x78, 0x8e),
                                   QColor(0x22, 0xa8, 0x84), QColor(0x7a, 0xd1, 0x51), QColor(0xfd, 0xe7, 0x25)};
    constexpr int kLast = 5;
    t = std::clamp(t, 0.0, 1.0) * kLast;
    const int i = std::min(static_cast<int>(t), kLast - 1);
    return mix(stops[i], stops[i + 1], t - i);
}

// The classes of active counts present: each count its own while there are few, otherwise
// doubling ranges (0, 1, 2, 3, 4–7, 8–15, …), the last one open up to D.
std::vector<std::pair<int, int>> active_classes(const std::set<int>& present, int d, int max_classes) {
    std::vector<std::pair<int, int>> classes;
    if (static_cast<int>(present.size()) <= max_classes) {
        for (int k : present) classes.push_back({k, k});
        return classes;
    }
    std::vector<std::pair<int, int>> ranges{{0, 0}, {1, 1}, {2, 2}, {3, 3}};
    for (int low = 4; low <= d; low *= 2) ranges.push_back({low, std::min(d, 2 * low - 1)});
    for (const auto& [low, high] : ranges)
        if (present.lower_bound(low) != present.end() && *present.lower_bound(low) <= high) classes.push_back({low, high});
    // Too many still (a very large D): the last classes merge.
    while (static_cast<int>(classes.size()) > max_classes) {
        classes[classes.size() - 2].second = classes.back().second;
        classes.pop_back();
    }
    return classes;
}

QString metric_title(const sebo::Objective& o) { return objective_axis_title(o); }

}  // namespace

ObjectiveScatterView::ObjectiveScatterView(QWidget* parent) : TrialChartPanel(parent) {
    QChart* c = chart();
    halo_ = new QScatterSeries;
    halo_->setName(tr("Front with ≤ k changed"));
    halo_->setMarkerSize(17);
    infeasible_ = new QScatterSeries;
    infeasible_->setName(tr("Infeasible"));
    infeasible_->setMarkerSize(9);
    excluded_ = new QScatterSeries;
    excluded_->setName(tr("Excluded"));
    excluded_->setMarkerSize(12);
    selected_ = new QScatterSeries;
    selected_->setName(tr("Selected"));
    selected_->setMarkerSize(22);
    highlight_step_ = new QLineSeries;
    highlight_step_->setName(tr("Front with ≤ k changed"));

    c->addSeries(highlight_step_);
    c->addSeries(halo_);
    c->addSeries(infeasible_);
    for (int i = 0; i < kMaxClasses; ++i) {
        auto* series = new QScatterSeries;
        series->setMarkerSize(9);
        c->addSeries(series);
        classes_.push_back({0, 0, series});
    }
    c->addSeries(excluded_);
    c->addSeries(selected_);

    axis_x_ = dynamicAxis({}, "%.4g");
    axis_y_ = dynamicAxis({}, "%.4g");
    c->addAxis(axis_x_, Qt::AlignBottom);
    c->addAxis(axis_y_, Qt::AlignLeft);
    for (QAbstractSeries* s : c->series()) {
        s->attachAxis(axis_x_);
        s->attachAxis(axis_y_);
    }
    // Up to ten entries: in a column beside the plot they stay whole.
    c->legend()->setAlignment(Qt::AlignRight);
    // The halo's legend entry is the step line's; the ring explains itself.
    for (QScatterSeries* s : {halo_, selected_})
        for (QLegendMarker* m : c->legend()->markers(s)) m->setVisible(false);

    x_label_ = new QLabel(tr("X:"), this);
    x_box_ = new QComboBox(this);
    x_box_->setAccessibleName(tr("Objective on the horizontal axis"));
    x_label_->setBuddy(x_box_);
    y_label_ = new QLabel(tr("Y:"), this);
    y_box_ = new QComboBox(this);
    y_box_->setAccessibleName(tr("Objective on the vertical axis"));
    y_label_->setBuddy(y_box_);
    auto* level_label = new QLabel(tr("At &most"), this);
    level_box_ = new QSpinBox(this);
    level_box_->setRange(0, 0);
    level_box_->setAccessibleName(tr("At most k parameters changed"));
    level_box_->setToolTip(tr("Highlight the front of the trials that change at most this many parameters, and list "
                              "only those trials in the Trials table"));
    level_label->setBuddy(level_box_);
    level_suffix_ = new QLabel(tr("parameters changed"), this);
    for (QWidget* w : std::initializer_list<QWidget*>{x_label_, x_box_, y_label_, y_box_}) {
        optionsRow()->addWidget(w);
        w->hide();
    }
    optionsRow()->addStretch(1);
    optionsRow()->addWidget(level_label);
    optionsRow()->addWidget(level_box_);
    optionsRow()->addWidget(level_suffix_);
    connect(x_box_, &QComboBox::activated, this, [this](int x) { setObjectives(x, x == y_ ? x_ : y_); });
    connect(y_box_, &QComboBox::activated, this, [this](int y) { setObjectives(y == x_ ? y_ : x_, y); });
    connect(level_box_, &QSpinBox::valueChanged, this, [this] { rebuild(); });

    setEmptyText(tr("No experiment is open."));
    restyle();
}

void ObjectiveScatterView::updateSeriesColors() {
    const QPalette p = palette();
    const QColor base = p.color(QPalette::Base);
    const int used = static_cast<int>(std::count_if(classes_.begin(), classes_.end(),
                                                    [](const ActiveClass& c) { return c.series->count() > 0; }));
    for (std::size_t i = 0; i < classes_.size(); ++i) {
        const QColor color = with_contrast(ramp(used > 1 ? static_cast<double>(i) / (used - 1) : 0.0), base,
                                           kGraphicContrast);
        classes_[i].series->setColor(color);
        classes_[i].series->setBorderColor(base);
    }
    for (std::size_t i = 0; i < front_lines_.size(); ++i) {
        QColor color = classes_[static_cast<std::size_t>(std::max(0, classOf(front_line_levels_[i])))].series->color();
        color.setAlpha(170);
        QPen pen(color);
        pen.setWidthF(1.2);
        front_lines_[i]->setPen(pen);
    }
    QPen step(chart_color(p, ChartRole::BestStep));
    step.setWidthF(3.0);
    highlight_step_->setPen(step);
    QColor halo = chart_color(p, ChartRole::BestStep);
    halo.setAlpha(110);
    halo_->setColor(halo);
    halo_->setBorderColor(Qt::transparent);
    const QColor trial = chart_color(p, ChartRole::Trial);
    QPen hollow(trial);
    hollow.setWidthF(1.6);
    infeasible_->setPen(hollow);
    infeasible_->setColor(Qt::transparent);
    infeasible_->setBrush(Qt::NoBrush);
    infeasible_->setBorderColor(trial);
    const QColor excluded = chart_color(p, ChartRole::Excluded);
    excluded_->setColor(excluded);
    excluded_->setLightMarker(crossMarker(excluded));
    selected_->setColor(Qt::transparent);
    QPen ring(chart_color(p, ChartRole::Selected));
    ring.setWidthF(2.5);
    selected_->setPen(ring);
    QPen bound(error_text(p));
    bound.setWidthF(1.5);
    bound.setStyle(Qt::DashLine);
    for (QLineSeries* line : bounds_) line->setPen(bound);
}

void ObjectiveScatterView::setSnapshot(SnapshotPtr snapshot) {
    const bool other = !snapshot_ || !snapshot ||
                       snapshot_->experiment.outcomes.objectives.size() != snapshot->experiment.outcomes.objectives.size() ||
                       snapshot_->experiment.max_sparsity() != snapshot->experiment.max_sparsity();
    snapshot_ = std::move(snapshot);
    const int d = snapshot_ ? snapshot_->experiment.max_sparsity() : 0;
    {
        // A new experiment starts at every level (k = D); the same one keeps the chosen level.
        const QSignalBlocker block(level_box_);
        level_box_->setRange(0, d);
        if (other) level_box_->setValue(d);
    }
    const int m = snapshot_ ? static_cast<int>(snapshot_->experiment.outcomes.objectives.size()) : 0;
    if (x_ >= m || y_ >= m || x_ == y_) {
        x_ = 0;
        y_ = m > 1 ? 1 : 0;
    }
    level_suffix_->setText(snapshot_ && snapshot_->experiment.space.has_groups() ? tr("groups changed (of %1)").arg(d)
                                                                                 : tr("parameters changed (of %1)").arg(d));
    updateChoosers();
    rebuild();
}

void ObjectiveScatterView::updateChoosers() {
    const int m = snapshot_ ? static_cast<int>(snapshot_->experiment.outcomes.objectives.size()) : 0;
    QStringList names;
    for (int i = 0; i < m; ++i)
        names << QString::fromStdString(snapshot_->experiment.outcomes.objectives[static_cast<std::size_t>(i)].metric);
    for (QComboBox* box : {x_box_, y_box_}) {
        QStringList shown;
        for (int i = 0; i < box->count(); ++i) shown << box->itemText(i);
        if (shown != names) {
            const QSignalBlocker block(box);
            box->clear();
            box->addItems(names);
        }
    }
    x_box_->setCurrentIndex(x_);
    y_box_->setCurrentIndex(y_);
    for (QWidget* w : std::initializer_list<QWidget*>{x_label_, x_box_, y_label_, y_box_}) w->setVisible(m > 2);
}

void ObjectiveScatterView::setObjectives(int x, int y) {
    const int m = snapshot_ ? static_cast<int>(snapshot_->experiment.outcomes.objectives.size()) : 0;
    if (x < 0 || y < 0 || x >= m || y >= m || x == y) return;
    x_ = x;
    y_ = y;
    updateChoosers();
    if (zoom()->isZoomed()) zoom()->reset();
    else rebuild();
}

void ObjectiveScatterView::setLevel(int k) { level_box_->setValue(k); }
int ObjectiveScatterView::level() const { return level_box_->value(); }

void ObjectiveScatterView::setSelectedTrial(int trial) {
    selected_trial_ = trial;
    updateSelection();
}

void ObjectiveScatterView::updateSelection() {
    QList<QPointF> points;
    if (const Marker* m = selected_trial_ >= 0 ? markerOf(selected_trial_) : nullptr) points << m->value;
    selected_->replace(points);
}

int ObjectiveScatterView::classOf(int active) const {
    for (std::size_t i = 0; i < classes_.size(); ++i)
        if (classes_[i].series->count() > 0 && active >= classes_[i].low && active <= classes_[i].high)
            return static_cast<int>(i);
    return -1;
}

QList<QPointF> ObjectiveScatterView::stepLine(const std::vector<int>& front, const AxisRange& x_range,
                                              const AxisRange& y_range) const {
    const Experiment& e = snapshot_->experiment;
    const auto xo = static_cast<std::size_t>(x_), yo = static_cast<std::size_t>(y_);
    // Best first on the horizontal objective (maximization form); the corner between two
    // neighbours is at the next one's x and this one's y: the region the front dominates.
    std::vector<const Trial*> trials;
    for (int index : front)
        if (const Trial* t = snapshot_->trial(index)) trials.push_back(t);
    std::sort(trials.begin(), trials.end(),
              [&](const Trial* a, const Trial* b) { return *e.utility(*a, xo) > *e.utility(*b, xo); });
    QList<QPointF> line;
    for (std::size_t i = 0; i < trials.size(); ++i) {
        const QPointF p(x_range.place(*e.objective_value(*trials[i], xo)),
                        y_range.place(*e.objective_value(*trials[i], yo)));
        if (i > 0) line << QPointF(p.x(), line.last().y());
        line << p;
    }
    return line;
}

void ObjectiveScatterView::updateBounds(const AxisRange& x_range, const AxisRange& y_range) {
    const Experiment& e = snapshot_->experiment;
    const std::string& x_metric = e.outcomes.objectives[static_cast<std::size_t>(x_)].metric;
    const std::string& y_metric = e.outcomes.objectives[static_cast<std::size_t>(y_)].metric;
    std::vector<std::pair<const OutcomeConstraint*, bool>> shown;  // the constraint, vertical
    for (const OutcomeConstraint& c : e.outcomes.constraints) {
        if (c.metric == x_metric && x_range.side(c.bound) == 0) shown.push_back({&c, true});
        if (c.metric == y_metric && y_range.side(c.bound) == 0) shown.push_back({&c, false});
    }
    resizeLines(bounds_, shown.size(), axis_x_, axis_y_);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const auto& [c, vertical] = shown[i];
        bounds_[i]->setName(boundName(*c));
        if (vertical) bounds_[i]->replace({QPointF(c->bound, y_range.low), QPointF(c->bound, y_range.high)});
        else bounds_[i]->replace({QPointF(x_range.low, c->bound), QPointF(x_range.high, c->bound)});
    }
}

void ObjectiveScatterView::rebuild() {
    std::vector<Marker>& marks = markers();
    marks.clear();
    highlighted_.clear();
    if (!snapshot_ || snapshot_->experiment.outcomes.objectives.size() < 2) {
        for (QXYSeries* s : std::initializer_list<QXYSeries*>{halo_, infeasible_, excluded_, selected_, highlight_step_})
            s->clear();
        for (ActiveClass& c : classes_) c.series->clear();
        for (QLineSeries* line : front_lines_) line->clear();
        for (QLineSeries* line : bounds_) line->clear();
        setEmptyText(tr("This view plots two objectives against each other; the experiment has one."));
        return;
    }
    const ExperimentSnapshot& s = *snapshot_;
    const Experiment& e = s.experiment;
    const auto xo = static_cast<std::size_t>(x_), yo = static_cast<std::size_t>(y_);
    const int d = e.max_sparsity();
    const int k = std::clamp(level_box_->value(), 0, d);
    fronts_ = objective_fronts(s, {xo, yo});
    if (k < static_cast<int>(s.report.levels.size()))
        for (int t : s.report.levels[static_cast<std::size_t>(k)].front) highlighted_ << t;

    // The trials with both values, and the axes from the bulk of their values (with the bounds of
    // constraints on the plotted metrics when they lie near them).
    std::vector<const Trial*> plotted;
    std::vector<double> xs, ys;
    std::set<int> present;
    for (std::size_t i = 0; i < e.trials.size(); ++i) {
        const Trial& t = e.trials[i];
        if (t.status != TrialStatus::Completed || s.sparsity[i] < 0 || !e.objective_value(t, xo) ||
            !e.objective_value(t, yo))
            continue;
        plotted.push_back(&t);
        xs.push_back(*e.objective_value(t, xo));
        ys.push_back(*e.objective_value(t, yo));
        if (!t.exclusion && e.feasible(t)) present.insert(s.sparsity[i]);
    }
    const auto with_bounds = [&](std::vector<double> values, const std::string& metric) {
        std::vector<double> bounds;
        for (const OutcomeConstraint& c : e.outcomes.constraints)
            if (c.metric == metric) bounds.push_back(c.bound);
        return with_nearby_marks(std::move(values), bounds);
    };
    const AxisRange x_range = value_axis_range(with_bounds(xs, e.outcomes.objectives[xo].metric), {LogScale::Off, false});
    const AxisRange y_range = value_axis_range(with_bounds(ys, e.outcomes.objectives[yo].metric), {LogScale::Off, false});

    // Colour classes of the active counts of the feasible trials.
    const std::vector<std::pair<int, int>> ranges = active_classes(present, d, kMaxClasses);
    for (std::size_t i = 0; i < classes_.size(); ++i) {
        ActiveClass& c = classes_[i];
        if (i < ranges.size()) {
            c.low = ranges[i].first;
            c.high = ranges[i].second;
        } else {
            c.low = c.high = -1;
        }
    }
    std::vector<QList<QPointF>> class_points(classes_.size());
    QList<QPointF> infeasible, excluded, halo;
    for (const Trial* t : plotted) {
        const int active = s.sparsityOf(t->index);
        const double xv = *e.objective_value(*t, xo), yv = *e.objective_value(*t, yo);
        const QPointF p(x_range.place(xv), y_range.place(yv));
        const int beyond = x_range.side(xv) != 0 ? x_range.side(xv) : y_range.side(yv);
        QXYSeries* series = nullptr;
        if (t->exclusion) {
            excluded << p;
            series = excluded_;
        } else if (!e.feasible(*t)) {
            infeasible << p;
            series = infeasible_;
        } else {
            for (std::size_t i = 0; i < ranges.size(); ++i)
                if (active >= ranges[i].first && active <= ranges[i].second) {
                    class_points[i] << p;
                    series = classes_[i].series;
                }
        }
        if (highlighted_.contains(t->index)) halo << p;
        if (series) marks.push_back({p, t->index, series, beyond});
    }
    for (std::size_t i = 0; i < classes_.size(); ++i) {
        ActiveClass& c = classes_[i];
        c.series->replace(class_points[i]);
        c.series->setName(c.low == c.high ? tr("%1 changed").arg(c.low) : tr("%1–%2 changed").arg(c.low).arg(c.high));
        for (QLegendMarker* m : chart()->legend()->markers(c.series)) m->setVisible(!class_points[i].isEmpty());
    }
    infeasible_->replace(infeasible);
    excluded_->replace(excluded);
    halo_->replace(halo);
    for (QLegendMarker* m : chart()->legend()->markers(infeasible_)) m->setVisible(!infeasible.isEmpty());
    for (QLegendMarker* m : chart()->legend()->markers(excluded_)) m->setVisible(!excluded.isEmpty());

    // Each level's front where it differs from the level below (k = 0 first).
    std::vector<std::pair<int, QList<QPointF>>> lines;
    const std::vector<int>* previous = nullptr;
    for (std::size_t level = 0; level < fronts_.levels.size(); ++level) {
        const std::vector<int>& front = fronts_.levels[level];
        if (front.empty() || (previous && *previous == front)) continue;
        previous = &front;
        lines.push_back({static_cast<int>(level), stepLine(front, x_range, y_range)});
    }
    if (front_lines_.size() < lines.size()) {
        while (front_lines_.size() < lines.size()) {
            auto* line = new QLineSeries;
            chart()->addSeries(line);
            line->attachAxis(axis_x_);
            line->attachAxis(axis_y_);
            for (QLegendMarker* m : chart()->legend()->markers(line)) m->setVisible(false);
            front_lines_.push_back(line);
        }
        // The highlighted front is drawn over the others: added again after them.
        chart()->removeSeries(highlight_step_);
        chart()->addSeries(highlight_step_);
        highlight_step_->attachAxis(axis_x_);
        highlight_step_->attachAxis(axis_y_);
    }
    while (front_lines_.size() > lines.size()) {
        chart()->removeSeries(front_lines_.back());
        delete front_lines_.back();
        front_lines_.pop_back();
    }
    front_line_levels_.clear();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        front_lines_[i]->replace(lines[i].second);
        front_line_levels_.push_back(lines[i].first);
    }
    // The highlighted level: the front of the plotted objectives at k.
    highlight_step_->replace(static_cast<std::size_t>(k) < fronts_.levels.size()
                                 ? stepLine(fronts_.levels[static_cast<std::size_t>(k)], x_range, y_range)
                                 : QList<QPointF>{});
    highlight_step_->setName(e.space.has_groups() ? tr("Front, ≤ %1 groups changed").arg(k)
                                                  : tr("Front, ≤ %1 changed").arg(k));
    for (QLegendMarker* m : chart()->legend()->markers(highlight_step_)) m->setVisible(highlight_step_->count() > 0);

    updateBounds(x_range, y_range);
    setAxis(axis_x_, x_range.low, x_range.high, niceInterval(x_range.high - x_range.low, 6));
    setAxis(axis_y_, y_range.low, y_range.high, niceInterval(y_range.high - y_range.low, 5));
    axis_x_->setTitleText(metric_title(e.outcomes.objectives[xo]));
    axis_y_->setTitleText(metric_title(e.outcomes.objectives[yo]));
    updateSeriesColors();
    updateSelection();
    keepZoom();
    if (plotted.empty())
        setEmptyText(tr("No trial has values of both objectives yet.\n\nCompleted trials appear here, each at its "
                        "two values."));
    else
        setEmptyText({});
    emit levelChanged(k, highlighted_);
}

QString ObjectiveScatterView::tooltipFor(int trial) const {
    if (!snapshot_) return {};
    const Trial* t = snapshot_->trial(trial);
    if (!t || !markerOf(trial)) return {};
    const Experiment& e = snapshot_->experiment;
    QString text = tr("<b>Trial %1</b>").arg(trial);
    if (highlighted_.contains(trial)) text += tr(" &middot; on the front with ≤ %1 changed").arg(level());
    else if (snapshot_->isPareto(trial)) text += tr(" &middot; on the frontier");
    text += configuration_lines(*snapshot_, *t, e.outcomes.objectives[static_cast<std::size_t>(x_)].metric);
    if (const Marker* m = markerOf(trial); m && m->beyond != 0)
        text += "<br><i>" + tr("Far from the other values: drawn at the end of the axis") + "</i>";
    return text + trialFooter(*snapshot_, trial);
}

}  // namespace sebo::ui
