#include "trial_chart_panel.h"

#include <QChart>
#include <QChartView>
#include <QHelpEvent>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QXYSeries>
#include <algorithm>
#include <cmath>
#include <functional>

#include "experiment/outcomes.h"

namespace sebo::ui {

namespace {

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

}  // namespace

TrialChartPanel::TrialChartPanel(QWidget* parent) : ChartPanel(false, parent) {
    chartView()->viewport()->setMouseTracking(true);
    chartView()->viewport()->installEventFilter(this);
}

QImage TrialChartPanel::crossMarker(const QColor& color) {
    return marker_image([color](QPainter& p, double size) {
        QPen pen(color, size * 0.14, Qt::SolidLine, Qt::RoundCap);
        p.setPen(pen);
        const double a = size * 0.2, b = size * 0.8;
        p.drawLine(QPointF(a, a), QPointF(b, b));
        p.drawLine(QPointF(a, b), QPointF(b, a));
    });
}

QImage TrialChartPanel::arrowMarker(bool up, const QColor& fill, const QColor& outline) {
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

QString TrialChartPanel::trialFooter(const ExperimentSnapshot& snapshot, int trial) {
    const Trial* t = snapshot.trial(trial);
    if (!t) return {};
    QString text;
    if (t->exclusion)
        text += "<br><b>" + tr("Excluded from analysis") + "</b>: " +
                QString::fromStdString(t->exclusion->reason).toHtmlEscaped();
    const QStringList names = snapshot.activeNames(trial);
    text += "<br>" + count_text(names.size(), tr("active parameter"), tr("active parameters"));
    if (!names.isEmpty()) {
        constexpr int kShown = 12;
        QStringList shown = names.mid(0, kShown);
        for (QString& n : shown) n = n.toHtmlEscaped();
        text += ": " + shown.join(", ");
        if (names.size() > kShown) text += tr(" and %1 more").arg(names.size() - kShown);
    }
    if (const ChosenConfiguration* c = snapshot.chosen(trial)) {
        text += "<br>" + tr("Chosen");
        if (!c->note.empty()) text += ": " + QString::fromStdString(c->note).toHtmlEscaped();
    }
    return text;
}

const TrialChartPanel::Marker* TrialChartPanel::markerOf(int trial) const {
    for (const Marker& m : markers_)
        if (m.trial == trial) return &m;
    return nullptr;
}

QPointF TrialChartPanel::viewportPoint(const Marker& marker) const {
    const QPointF in_scene = chart()->mapToScene(chart()->mapToPosition(marker.value, marker.series));
    return chartView()->mapFromScene(in_scene);
}

std::optional<QPoint> TrialChartPanel::trialPosition(int trial) const {
    const Marker* m = markerOf(trial);
    if (!m) return std::nullopt;
    return viewportPoint(*m).toPoint();
}

std::optional<int> TrialChartPanel::trialAt(QPoint position, double radius) const {
    std::optional<int> best;
    bool best_on_top = false;
    double best_distance = radius * radius;
    for (const Marker& m : markers_) {
        const QPointF p = viewportPoint(m);
        const double dx = p.x() - position.x(), dy = p.y() - position.y();
        const double distance = dx * dx + dy * dy;
        const bool on_top = top_.contains(m.series);
        if (distance < best_distance || (distance == best_distance && on_top && !best_on_top) ||
            (!best && distance <= best_distance)) {
            best_distance = distance;
            best = m.trial;
            best_on_top = on_top;
        }
    }
    return best;
}

QList<int> TrialChartPanel::trialsAt(QPoint position, double radius) const {
    const std::optional<int> nearest = trialAt(position, radius);
    if (!nearest) return {};
    const std::optional<QPoint> spot = trialPosition(*nearest);
    QList<int> trials{*nearest};
    for (const Marker& m : markers_) {
        if (m.trial == *nearest || trials.contains(m.trial)) continue;
        const QPointF p = viewportPoint(m);
        if (spot && std::hypot(p.x() - spot->x(), p.y() - spot->y()) <= kSameSpot) trials << m.trial;
    }
    std::sort(trials.begin() + 1, trials.end());
    return trials;
}

QString TrialChartPanel::tooltipFor(const QList<int>& trials) const {
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

bool TrialChartPanel::eventFilter(QObject* watched, QEvent* event) {
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

void TrialChartPanel::resizeLines(std::vector<QLineSeries*>& lines, std::size_t count, QAbstractAxis* x,
                                  QAbstractAxis* y) {
    while (lines.size() > count) {
        chart()->removeSeries(lines.back());
        delete lines.back();
        lines.pop_back();
    }
    while (lines.size() < count) {
        auto* line = new QLineSeries;
        chart()->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
        lines.push_back(line);
    }
}

QString TrialChartPanel::boundName(const OutcomeConstraint& constraint) {
    return QString::fromStdString(constraint.text()).replace("<=", "≤").replace(">=", "≥");
}

}  // namespace sebo::ui
