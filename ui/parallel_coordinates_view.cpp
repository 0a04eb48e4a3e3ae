#include "parallel_coordinates_view.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollArea>
#include <QSet>
#include <QToolTip>
#include <QWheelEvent>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "chart_zoom.h"
#include "outcome_text.h"
#include "palette_colors.h"
#include "tinted_label.h"

namespace sebo::ui {

namespace {

constexpr double kMinAxisSpacing = 64.0;
constexpr double kSideMargin = 36.0;
constexpr double kAxisGrab = 10.0;  // pixels either side of an axis that start a brush

double distance_to_segment(QPointF p, QPointF a, QPointF b) {
    const QPointF ab = b - a;
    const double length2 = QPointF::dotProduct(ab, ab);
    const double t = length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, ab) / length2, 0.0, 1.0) : 0.0;
    const QPointF d = p - (a + t * ab);
    return std::hypot(d.x(), d.y());
}

// An axis's scale: its values as positions on a linear scale (logarithms for a log axis).
double scale_of(const ParallelCoordinatesView::Axis& a, double v) {
    return a.log_scale ? std::log(std::max(v, 1e-300)) : v;
}
double value_of(const ParallelCoordinatesView::Axis& a, double u) { return a.log_scale ? std::exp(u) : u; }

// An axis end as a number people read at a glance: plain digits from 0.01 to a million ("1400",
// "0.25", "12.5"; issue 32: "1.4…+03"), three significant digits otherwise.
QString axis_number(double v) {
    const double magnitude = std::abs(v);
    if (magnitude >= 1e6 || (magnitude > 0.0 && magnitude < 0.01) || !std::isfinite(v)) return display_number(v, 3);
    if (magnitude >= 100.0) return QString::number(std::llround(v));
    return display_number(v, 3);
}

}  // namespace

// The drawing surface inside the scroll area: paints and turns mouse gestures into brushes and
// clicks; the data and the geometry stay in the view.
class ParallelCoordinatesCanvas : public QWidget {
public:
    explicit ParallelCoordinatesCanvas(ParallelCoordinatesView* view) : QWidget(view), view_(view) {
        setMouseTracking(true);
        setFocusPolicy(Qt::ClickFocus);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

    QSize minimumSizeHint() const override {
        const int axes = static_cast<int>(view_->axes_.size());
        const int width = static_cast<int>(2 * kSideMargin + std::max(0, axes - 1) * view_->axisSpacing());
        // Three rows of labels above the plot and one below, and a plot of at least 50 pixels.
        return QSize(std::max(width, 200), fontMetrics().height() * 4 + 72);
    }
    QSize sizeHint() const override { return minimumSizeHint().expandedTo(QSize(480, 260)); }

protected:
    void paintEvent(QPaintEvent*) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent*) override {
        if (view_->isZoomed()) view_->resetZoom();
        else view_->clearBrushes();
    }
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override {
        if (event->key() == ParallelCoordinatesView::kClearBrushesKey && view_->isBrushing()) view_->clearBrushes();
        else QWidget::keyPressEvent(event);
    }
    bool event(QEvent* event) override {
        // Escape clears the brushes here, before the window's Cancel (whose shortcut is Escape
        // too) would stop a running step instead.
        if (event->type() == QEvent::ShortcutOverride &&
            static_cast<QKeyEvent*>(event)->key() == ParallelCoordinatesView::kClearBrushesKey &&
            view_->isBrushing()) {
            event->accept();
            return true;
        }
        if (event->type() == QEvent::ToolTip) {
            auto* help = static_cast<QHelpEvent*>(event);
            if (auto trial = view_->trialAt(help->pos())) QToolTip::showText(help->globalPos(), tooltip(*trial), this);
            else QToolTip::hideText();
            return true;
        }
        return QWidget::event(event);
    }

private:
    std::optional<std::size_t> axisNear(QPointF p) const {
        const QRectF plot = view_->plotRect();
        if (p.y() < plot.top() - kAxisGrab || p.y() > plot.bottom() + kAxisGrab) return std::nullopt;
        for (std::size_t a = 0; a < view_->axes_.size(); ++a)
            if (std::abs(p.x() - view_->axisX(a)) <= kAxisGrab) return a;
        return std::nullopt;
    }
    // The value at a height on an axis, within its shown range.
    double valueAtY(std::size_t axis, double y) const {
        const QRectF plot = view_->plotRect();
        const double t = std::clamp((plot.bottom() - y) / std::max(1.0, plot.height()), 0.0, 1.0);
        const ParallelCoordinatesView::Axis& a = view_->axes_[axis];
        const double low = scale_of(a, a.shown_low), high = scale_of(a, a.shown_high);
        return value_of(a, low + t * (high - low));
    }
    QString tooltip(int trial) const;

    ParallelCoordinatesView* view_;
    std::optional<std::size_t> drag_axis_;  // brushing this axis
    std::optional<std::size_t> pan_axis_;   // panning this axis (a drag between the axes)
    QPointF press_;
    bool pressed_ = false;
};

// Zooms only the axis under the pointer. Every axis has its own units and its own range (as in
// HiPlot and Optuna Dashboard, whose axes scale and brush one at a time): zooming all of them at
// once about the same height would narrow every other parameter to an arbitrary part of its
// range. Users zoom one axis to see, and brush precisely, a crowded part of it.
void ParallelCoordinatesCanvas::wheelEvent(QWheelEvent* event) {
    const int steps = event->angleDelta().y();
    const auto axis = view_->axisUnder(event->position().x());
    // Shift + wheel (or a sideways wheel) scrolls a canvas wider than its panel.
    if (steps == 0 || (event->modifiers() & Qt::ShiftModifier) || !axis) return QWidget::wheelEvent(event);
    const QRectF plot = view_->plotRect();
    const double y = std::clamp(event->position().y(), plot.top(), plot.bottom());
    view_->zoomAxis(*axis, valueAtY(*axis, y), std::pow(ChartZoom::kWheelFactor, steps / 120.0));
    event->accept();
}

void ParallelCoordinatesCanvas::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    pressed_ = true;
    press_ = event->position();
    drag_axis_ = axisNear(press_);
    pan_axis_.reset();
}

void ParallelCoordinatesCanvas::mouseMoveEvent(QMouseEvent* event) {
    const QPointF p = event->position();
    if (pressed_ && drag_axis_ && std::abs(p.y() - press_.y()) >= 3) {
        const double a = valueAtY(*drag_axis_, press_.y()), b = valueAtY(*drag_axis_, p.y());
        view_->setBrush(*drag_axis_, ParallelCoordinatesView::Brush{std::min(a, b), std::max(a, b)});
        return;
    }
    if (pressed_ && !drag_axis_ && (pan_axis_ || std::abs(p.y() - press_.y()) >= 3)) {
        if (!pan_axis_) pan_axis_ = view_->axisUnder(press_.x());
        if (pan_axis_) {
            // The values follow the pointer: dragging down brings higher values into view.
            view_->panAxis(*pan_axis_, (p.y() - press_.y()) / std::max(1.0, view_->plotRect().height()));
            press_ = p;
            setCursor(Qt::ClosedHandCursor);
        }
        return;
    }
    if (!pressed_) setCursor(axisNear(p) ? Qt::SizeVerCursor : view_->trialAt(p) ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void ParallelCoordinatesCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !pressed_) return QWidget::mouseReleaseEvent(event);
    pressed_ = false;
    const QPointF p = event->position();
    const bool moved = std::abs(p.y() - press_.y()) >= 3 || std::abs(p.x() - press_.x()) >= 3;
    if (drag_axis_ && !moved) view_->setBrush(*drag_axis_, std::nullopt);  // a click on an axis
    else if (!drag_axis_ && !pan_axis_ && !moved)
        if (auto trial = view_->trialAt(p)) emit view_->trialClicked(*trial);
    if (pan_axis_) setCursor(Qt::ArrowCursor);
    drag_axis_.reset();
    pan_axis_.reset();
}

QString ParallelCoordinatesCanvas::tooltip(int trial) const {
    const auto& s = *view_->snapshot_;
    const Trial* t = s.trial(trial);
    if (!t || t->status != TrialStatus::Completed) return {};
    QString text = ParallelCoordinatesView::tr("<b>Trial %1</b>").arg(trial);
    if (s.isPareto(trial)) text += ParallelCoordinatesView::tr(" &middot; on the frontier");
    // Every metric, as the charts' tooltips say them.
    text += outcome_lines(s.experiment, *t, s.experiment.primary_objective().metric);
    text += "<br>" + count_text(s.sparsityOf(trial), ParallelCoordinatesView::tr("active parameter"),
                                ParallelCoordinatesView::tr("active parameters"));
    return text;
}

void ParallelCoordinatesCanvas::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QPalette p = palette();
    const QColor base = p.color(QPalette::Base);
    const QColor text = p.color(QPalette::Text);
    painter.fillRect(rect(), base);
    const auto& axes = view_->axes_;
    if (axes.empty()) return;
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF plot = view_->plotRect();

    // Lines: faded (outside the brushes) first, then the others, the frontier, the selection.
    const QList<int> matching = view_->matchingTrials();
    const QSet<int> match(matching.begin(), matching.end());
    const QColor trial_color = chart_color(p, ChartRole::Trial);
    const QColor frontier_color = chart_color(p, ChartRole::Frontier);
    const QColor selected_color = chart_color(p, ChartRole::Selected);
    const QColor highlight = with_contrast(p.color(QPalette::Highlight), base, kGraphicContrast);
    // A value the trial lacks (a tracked metric it did not record) breaks its line there.
    auto path_of = [&](std::size_t i) {
        QPainterPath path;
        bool open = false;
        for (std::size_t a = 0; a < axes.size(); ++a) {
            if (!std::isfinite(view_->value(static_cast<int>(i), a))) {
                open = false;
                continue;
            }
            const QPointF point = view_->pointOf(static_cast<int>(i), a);
            if (open) path.lineTo(point);
            else path.moveTo(point);
            open = true;
        }
        return path;
    };
    const std::size_t n = view_->trials_.size();
    std::optional<std::size_t> selected;
    // Zoomed in, lines leave the plot at its top and bottom.
    painter.setClipRect(QRectF(0.0, plot.top() - 1.0, width(), plot.height() + 2.0));
    for (int pass = 0; pass < 3; ++pass) {
        for (std::size_t i = 0; i < n; ++i) {
            const int trial = view_->trials_[i];
            if (trial == view_->selected_trial_) {
                selected = i;
                continue;
            }
            const bool in = !view_->isBrushing() || match.contains(trial);
            const bool frontier = view_->frontier_[i];
            const int layer = !in ? 0 : frontier ? 2 : 1;
            if (layer != pass) continue;
            QColor color = !in ? mix(trial_color, base, 0.75) : frontier ? frontier_color : trial_color;
            if (in && !frontier) color.setAlpha(view_->isBrushing() ? 230 : 150);
            if (in && view_->isBrushing() && !frontier) color = highlight;
            painter.setPen(QPen(color, frontier ? 1.8 : 1.1));
            painter.drawPath(path_of(i));
        }
    }
    if (selected) {
        painter.setPen(QPen(selected_color, 2.6));
        painter.drawPath(path_of(*selected));
    }
    painter.setClipping(false);

    // Axes, brushes and labels.
    const QFontMetrics fm = fontMetrics();
    const double spacing = axes.size() > 1 ? view_->axisX(1) - view_->axisX(0) : plot.width();
    for (std::size_t a = 0; a < axes.size(); ++a) {
        const double x = view_->axisX(a);
        const ParallelCoordinatesView::Axis& axis = axes[a];
        // A zoomed axis is dashed: it shows part of its range.
        const bool zoomed = axis.shown_low != axis.low || axis.shown_high != axis.high;
        painter.setPen(QPen(chart_color(p, ChartRole::AxisLine), 1.2, zoomed ? Qt::DashLine : Qt::SolidLine));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        painter.setClipRect(QRectF(0.0, plot.top() - 1.0, width(), plot.height() + 2.0));
        if (auto it = view_->brushes_.find(a); it != view_->brushes_.end()) {
            const double y1 = plot.bottom() - view_->normalized(a, it->second.high) * plot.height();
            const double y2 = plot.bottom() - view_->normalized(a, it->second.low) * plot.height();
            QColor fill = highlight;
            fill.setAlpha(70);
            painter.setPen(QPen(highlight, 1.5));
            painter.setBrush(fill);
            painter.drawRect(QRectF(x - 7, y1, 14, std::max(2.0, y2 - y1)));
            painter.setBrush(Qt::NoBrush);
        }
        painter.setClipping(false);
        const auto label = [&](const QString& s, double y, bool bold, double room) {
            QFont f = font();
            f.setBold(bold);
            painter.setFont(f);
            const int width = static_cast<int>(std::max(30.0, room));
            const QString shown = QFontMetrics(f).elidedText(s, Qt::ElideMiddle, width);
            painter.setPen(text);
            painter.drawText(QRectF(x - width / 2.0, y, width, fm.height()), Qt::AlignHCenter | Qt::AlignTop, shown);
        };
        // Names take two rows, so each has the room of two axes (issue 32: "thr…put" at every
        // size); the first and last move inwards from the canvas's edges (nameBox).
        {
            QFont bold = font();
            bold.setBold(true);
            painter.setFont(bold);
            const QRectF box = view_->nameBox(a);
            painter.setPen(text);
            painter.drawText(box, Qt::AlignHCenter | Qt::AlignTop,
                             QFontMetrics(bold).elidedText(axis.name, Qt::ElideMiddle, static_cast<int>(box.width())));
        }
        const double tick_room = spacing - 6.0;
        const std::vector<ParallelCoordinatesView::Tick> ticks = view_->tickLabels(a);
        if (axis.categories.isEmpty()) {
            label(ticks[0].text, plot.top() - fm.height() - 4, false, tick_room);
            label(ticks[1].text, plot.bottom() + 4, false, tick_room);
            continue;
        }
        // A choice's values beside the axis at their places (left of the last axis), each with a
        // tick; one too close to the last drawn is left out rather than drawn over it.
        painter.setFont(font());
        const bool left = a + 1 == axes.size() && axes.size() > 1;
        const int room = static_cast<int>(std::max(30.0, spacing / 2.0 - 8.0));
        std::optional<double> last_y;
        for (const ParallelCoordinatesView::Tick& tick : ticks) {
            const double y = plot.bottom() - view_->normalized(a, tick.value) * plot.height();
            painter.setPen(QPen(chart_color(p, ChartRole::AxisLine), 1.2));
            painter.drawLine(QPointF(x - 4, y), QPointF(x + 4, y));
            if (last_y && std::abs(y - *last_y) < fm.height()) continue;
            last_y = y;
            // On the base colour, so that the lines crossing behind it do not hide the value.
            const QString shown = fm.elidedText(tick.text, Qt::ElideRight, room);
            const double w = fm.horizontalAdvance(shown) + 4.0;
            const QRectF box = left ? QRectF(x - 6 - w, y - fm.height() / 2.0, w, fm.height())
                                    : QRectF(x + 6, y - fm.height() / 2.0, w, fm.height());
            QColor halo = base;
            halo.setAlpha(220);
            painter.fillRect(box, halo);
            painter.setPen(text);
            painter.drawText(box, Qt::AlignHCenter | Qt::AlignVCenter, shown);
        }
    }
}

ParallelCoordinatesView::ParallelCoordinatesView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* options = new QHBoxLayout;
    options->setContentsMargins(6, 2, 6, 0);
    summary_ = new QLabel(this);
    summary_->setTextFormat(Qt::PlainText);
    summary_->setWordWrap(true);
    show_all_ = new QCheckBox(tr("All changed parameters"), this);
    show_all_->setToolTip(tr("Also the parameters that only trials off the frontier change"));
    options->addWidget(summary_, 1);
    options->addWidget(show_all_);
    layout->addLayout(options);
    empty_ = new TintedLabel(TintedLabel::Tint::Muted, this);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setMargin(16);
    layout->addWidget(empty_, 1);
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    // A panel shorter than the canvas's least height scrolls rather than cutting the lower half
    // (issue 32, at 1024×700).
    scroll_->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    canvas_ = new ParallelCoordinatesCanvas(this);
    scroll_->setWidget(canvas_);
    layout->addWidget(scroll_, 1);
    setToolTip(tr("Drag along an axis to select the trials in a range; click the axis to remove it, Escape "
                  "to remove all. The wheel zooms the axis under the pointer, a drag between the axes pans "
                  "it, a double click shows everything."));
    connect(show_all_, &QCheckBox::toggled, this, [this] { rebuild(); });
    rebuild();
}

void ParallelCoordinatesView::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    rebuild();
}

void ParallelCoordinatesView::setSelectedTrial(int trial) {
    selected_trial_ = trial;
    canvas_->update();
}

void ParallelCoordinatesView::setShowAllChanged(bool on) { show_all_->setChecked(on); }

QWidget* ParallelCoordinatesView::canvas() const { return canvas_; }

QString ParallelCoordinatesView::emptyText() const { return empty_->isHidden() ? QString() : empty_->text(); }

void ParallelCoordinatesView::rebuild() {
    // Brushes are kept by axis name, so that a new trial does not remove them.
    std::map<QString, Brush> kept;
    for (const auto& [axis, brush] : brushes_)
        if (axis < axes_.size()) kept[axes_[axis].name] = brush;
    // So are zoomed ranges: the user's view stays while trials arrive.
    std::map<QString, std::pair<double, double>> kept_zoom;
    for (const Axis& a : axes_)
        if (a.shown_low != a.low || a.shown_high != a.high) kept_zoom[a.name] = {a.shown_low, a.shown_high};
    axes_.clear();
    trials_.clear();
    values_.clear();
    frontier_.clear();
    brushes_.clear();

    const Experiment* e = snapshot_ ? &snapshot_->experiment : nullptr;
    const int d = e ? e->space.dimension() : 0;
    if (e && d > 0) {
        // Completed trials with a value (excluded ones are not part of the analysis).
        std::vector<const Trial*> shown;
        for (const Trial& t : e->trials)
            if (t.status == TrialStatus::Completed && e->objective_value(t) && t.parameters.size() == static_cast<std::size_t>(d))
                shown.push_back(&t);
        // Which parameters get an axis: changed on the frontier (most often first), or by any trial.
        const std::vector<double>& frequency = snapshot_->report.activation_frequency;
        std::vector<int> changed_anywhere(static_cast<std::size_t>(d), 0);
        for (const Trial* t : shown) {
            const std::vector<bool> mask = e->space.active_mask(t->parameters);
            for (int i = 0; i < d; ++i) changed_anywhere[static_cast<std::size_t>(i)] += mask[static_cast<std::size_t>(i)];
        }
        std::vector<int> order(static_cast<std::size_t>(d));
        std::iota(order.begin(), order.end(), 0);
        const auto freq = [&](int i) {
            return static_cast<std::size_t>(i) < frequency.size() ? frequency[static_cast<std::size_t>(i)] : 0.0;
        };
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            if (freq(a) != freq(b)) return freq(a) > freq(b);
            return changed_anywhere[static_cast<std::size_t>(a)] > changed_anywhere[static_cast<std::size_t>(b)];
        });
        std::vector<int> parameters;
        for (int i : order)
            if (freq(i) > 0.0 || (show_all_->isChecked() && changed_anywhere[static_cast<std::size_t>(i)] > 0))
                parameters.push_back(i);

        Axis active;
        active.kind = Axis::Kind::Active;
        active.name = e->space.has_groups() ? tr("Active groups") : tr("Active");
        active.high = e->max_sparsity();
        active.integer = true;
        axes_.push_back(active);
        // An axis per metric: the objectives in their order, then the constrained and tracked
        // metrics (issue 32: only the first objective had one).
        std::vector<std::string> metrics;
        for (const Objective& o : e->outcomes.objectives) metrics.push_back(o.metric);
        for (const std::string& m : e->outcomes.metrics)
            if (!e->outcomes.objective_on(m)) metrics.push_back(m);
        for (const std::string& m : metrics) {
            Axis axis;
            axis.kind = Axis::Kind::Metric;
            axis.metric = QString::fromStdString(m);
            const Objective* o = e->outcomes.objective_on(m);
            axis.name = o ? objective_axis_title(*o) : axis.metric;
            double lo = std::numeric_limits<double>::infinity(), hi = -lo;
            for (const Trial* t : shown)
                if (const auto v = t->value(m)) {
                    lo = std::min(lo, *v);
                    hi = std::max(hi, *v);
                }
            if (std::isfinite(lo)) {
                axis.low = lo;
                axis.high = hi;
            }
            if (!(axis.high > axis.low)) {
                axis.low -= 0.5;
                axis.high += 0.5;
            }
            axes_.push_back(axis);
        }
        for (int i : parameters) {
            const Parameter& parameter = e->space.parameter(i);
            Axis axis;
            axis.parameter = i;
            axis.name = QString::fromStdString(parameter.name);
            axis.low = parameter.lower;
            axis.high = parameter.upper;
            axis.log_scale = parameter.log_scale && parameter.lower > 0;
            axis.integer = parameter.kind == ParameterKind::Integer || parameter.kind == ParameterKind::Choice;
            if (parameter.kind == ParameterKind::Choice)
                for (const ChoiceValue& v : parameter.values) axis.categories << QString::fromStdString(v.text);
            axes_.push_back(axis);
        }
        for (const Trial* t : shown) {
            trials_.push_back(t->index);
            frontier_.push_back(snapshot_->isPareto(t->index));
            std::vector<double> row;
            row.push_back(e->sparsity(*t));
            // A metric the trial did not record (a tracked one): no value, the line is broken there.
            for (const std::string& m : metrics) row.push_back(t->value(m).value_or(std::numeric_limits<double>::quiet_NaN()));
            for (int i : parameters) row.push_back(t->parameters[static_cast<std::size_t>(i)]);
            values_.push_back(std::move(row));
        }
        for (std::size_t a = 0; a < axes_.size(); ++a) {
            if (auto it = kept.find(axes_[a].name); it != kept.end()) brushes_[a] = it->second;
            const auto zoom = kept_zoom.find(axes_[a].name);
            axes_[a].shown_low = zoom != kept_zoom.end() ? zoom->second.first : axes_[a].low;
            axes_[a].shown_high = zoom != kept_zoom.end() ? zoom->second.second : axes_[a].high;
        }

        summary_->setText(tr("%1 over %2 and %3")
                              .arg(count_text(static_cast<long long>(trials_.size()), tr("trial"), tr("trials")))
                              .arg(count_text(static_cast<long long>(metrics.size()), tr("metric"), tr("metrics")))
                              .arg(count_text(static_cast<long long>(parameters.size()), tr("changed parameter"),
                                              tr("changed parameters"))));
    }

    QString empty;
    if (!e || d == 0) empty = tr("No experiment is open.");
    else if (trials_.empty()) empty = tr("The parallel coordinates appear once a trial has completed.");
    empty_->setText(empty);
    empty_->setVisible(!empty.isEmpty());
    scroll_->setVisible(empty.isEmpty());
    summary_->setVisible(empty.isEmpty());
    show_all_->setVisible(e && d > 0);
    canvas_->updateGeometry();
    canvas_->update();
    if (!kept.empty()) emit brushChanged(matchingTrials(), isBrushing());
}

double ParallelCoordinatesView::value(int trial_position, std::size_t axis) const {
    return values_[static_cast<std::size_t>(trial_position)][axis];
}

double ParallelCoordinatesView::normalized(std::size_t axis, double v) const {
    const Axis& a = axes_[axis];
    if (!(a.shown_high > a.shown_low)) return 0.5;
    const double low = scale_of(a, a.shown_low), high = scale_of(a, a.shown_high);
    return (scale_of(a, v) - low) / (high - low);
}

std::vector<ParallelCoordinatesView::Tick> ParallelCoordinatesView::tickLabels(std::size_t axis) const {
    const Axis& a = axes_[axis];
    if (a.categories.isEmpty()) {
        const auto number = [&](double v) { return a.integer ? QString::number(std::llround(v)) : axis_number(v); };
        return {{a.shown_high, number(a.shown_high)}, {a.shown_low, number(a.shown_low)}};
    }
    std::vector<Tick> ticks;
    for (qsizetype k = a.categories.size() - 1; k >= 0; --k)
        if (static_cast<double>(k) >= a.shown_low - 1e-9 && static_cast<double>(k) <= a.shown_high + 1e-9)
            ticks.push_back({static_cast<double>(k), a.categories[k]});
    return ticks;
}

void ParallelCoordinatesView::zoomAxis(std::size_t axis, double value, double factor) {
    if (axis >= axes_.size() || !(factor > 0.0) || factor == 1.0) return;
    Axis& a = axes_[axis];
    const double low = scale_of(a, a.shown_low), high = scale_of(a, a.shown_high);
    const double full = scale_of(a, a.high) - scale_of(a, a.low);
    const double centre = scale_of(a, value);
    if ((high - low) / factor >= full) {  // zoomed out to the whole range: stop there
        a.shown_low = a.low;
        a.shown_high = a.high;
    } else {
        // The value under the pointer stays where it is.
        double new_low = centre - (centre - low) / factor, new_high = centre + (high - centre) / factor;
        // A choice axis shows at least one value's span: any closed range as long as the distance
        // between two neighbouring values holds one of them, so the axis never loses its labels.
        if (!a.categories.isEmpty() && new_high - new_low < 1.0) {
            const double below = (centre - new_low) / (new_high - new_low);
            new_low = centre - below;
            new_high = new_low + 1.0;
        }
        a.shown_low = value_of(a, new_low);
        a.shown_high = value_of(a, new_high);
    }
    canvas_->update();
}

void ParallelCoordinatesView::panAxis(std::size_t axis, double fraction) {
    if (axis >= axes_.size() || fraction == 0.0) return;
    Axis& a = axes_[axis];
    const double low = scale_of(a, a.shown_low), high = scale_of(a, a.shown_high);
    const double shift = fraction * (high - low);
    a.shown_low = value_of(a, low + shift);
    a.shown_high = value_of(a, high + shift);
    canvas_->update();
}

void ParallelCoordinatesView::resetZoom() {
    for (Axis& a : axes_) {
        a.shown_low = a.low;
        a.shown_high = a.high;
    }
    canvas_->update();
}

bool ParallelCoordinatesView::isZoomed() const {
    return std::any_of(axes_.begin(), axes_.end(),
                       [](const Axis& a) { return a.shown_low != a.low || a.shown_high != a.high; });
}

std::optional<std::size_t> ParallelCoordinatesView::axisUnder(double x) const {
    std::optional<std::size_t> nearest;
    for (std::size_t a = 0; a < axes_.size(); ++a)
        if (!nearest || std::abs(x - axisX(a)) < std::abs(x - axisX(*nearest))) nearest = a;
    return nearest;
}

QRectF ParallelCoordinatesView::plotRect() const {
    const int line = canvas_->fontMetrics().height();
    const QRectF r = canvas_->rect();
    return QRectF(r.left() + kSideMargin, r.top() + 3 * line + 12, std::max(1.0, r.width() - 2 * kSideMargin),
                  std::max(1.0, r.height() - 4 * line - 20));
}

double ParallelCoordinatesView::axisSpacing() const {
    // Room for every axis's top and bottom values side by side (numbers are not elided), and for
    // half of its name (names take two rows); within bounds, so that many axes still scroll.
    const QFontMetrics fm = canvas_->fontMetrics();
    double widest = 0.0;
    for (std::size_t a = 0; a < axes_.size(); ++a) {
        if (!axes_[a].categories.isEmpty()) continue;
        for (const Tick& t : tickLabels(a)) widest = std::max(widest, static_cast<double>(fm.horizontalAdvance(t.text)));
    }
    double name = 0.0;
    QFont bold = canvas_->font();
    bold.setBold(true);
    for (const Axis& a : axes_) name = std::max(name, QFontMetrics(bold).horizontalAdvance(a.name) / 2.0);
    return std::clamp(std::max(widest, name) + 14.0, kMinAxisSpacing, 3.0 * kMinAxisSpacing);
}

double ParallelCoordinatesView::axisX(std::size_t axis) const {
    const QRectF plot = plotRect();
    if (axes_.size() <= 1) return plot.center().x();
    return plot.left() + plot.width() * static_cast<double>(axis) / static_cast<double>(axes_.size() - 1);
}

QRectF ParallelCoordinatesView::nameBox(std::size_t axis) const {
    QFont bold = canvas_->font();
    bold.setBold(true);
    const QFontMetrics fm(bold);
    const QRectF plot = plotRect();
    const double x = axisX(axis);
    const double spacing = axes_.size() > 1 ? axisX(1) - axisX(0) : plot.width();
    // The same row's neighbours are two axes away: each name may use up to the midpoint.
    const double low = std::max(2.0, x - spacing + 4.0);
    const double high = std::min(static_cast<double>(canvas_->width()) - 2.0, x + spacing - 4.0);
    const double width = std::min(static_cast<double>(fm.horizontalAdvance(axes_[axis].name)) + 2.0, std::max(0.0, high - low));
    const double left = std::clamp(x - width / 2.0, low, std::max(low, high - width));
    const double top = plot.top() - (axis % 2 == 0 ? 3.0 : 2.0) * canvas_->fontMetrics().height() - 8.0;
    return QRectF(left, top, width, fm.height());
}

QPointF ParallelCoordinatesView::pointOf(int trial_position, std::size_t axis) const {
    const QRectF plot = plotRect();
    return QPointF(axisX(axis), plot.bottom() - normalized(axis, value(trial_position, axis)) * plot.height());
}

std::optional<int> ParallelCoordinatesView::trialAt(QPointF position, double radius) const {
    // Lines are cut at the plot's top and bottom (zoomed axes).
    const QRectF plot = plotRect();
    if (position.y() < plot.top() - radius || position.y() > plot.bottom() + radius) return std::nullopt;
    std::optional<int> best;
    double best_distance = radius;
    for (std::size_t i = 0; i < trials_.size(); ++i) {
        for (std::size_t a = 0; a + 1 < axes_.size(); ++a) {
            const double distance =
                distance_to_segment(position, pointOf(static_cast<int>(i), a), pointOf(static_cast<int>(i), a + 1));
            // The selected trial is drawn on top: on a tie it wins.
            if (distance < best_distance || (distance == best_distance && trials_[i] == selected_trial_)) {
                best_distance = distance;
                best = trials_[i];
            }
        }
    }
    return best;
}

void ParallelCoordinatesView::setBrush(std::size_t axis, std::optional<Brush> brush) {
    if (axis >= axes_.size()) return;
    if (brush) brushes_[axis] = *brush;
    else if (brushes_.erase(axis) == 0) return;
    canvas_->update();
    emit brushChanged(matchingTrials(), isBrushing());
}

void ParallelCoordinatesView::clearBrushes() {
    if (brushes_.empty()) return;
    brushes_.clear();
    canvas_->update();
    emit brushChanged(matchingTrials(), false);
}

QList<int> ParallelCoordinatesView::matchingTrials() const {
    QList<int> out;
    for (std::size_t i = 0; i < trials_.size(); ++i) {
        bool in = true;
        for (const auto& [axis, brush] : brushes_) {
            const double v = values_[i][axis];
            if (!(v >= brush.low && v <= brush.high)) {  // no value (NaN) is outside every brush
                in = false;
                break;
            }
        }
        if (in) out << trials_[i];
    }
    return out;
}

}  // namespace sebo::ui
