#include "bench_chart_parts.h"

#include <QAreaSeries>
#include <QChart>
#include <QFont>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "bench/bench_summary.h"
#include "chart_panel.h"

namespace sebo::ui::bench_parts {

namespace {

// The explorer's charts draw with the "tab10" colours (blue trace, orange highlight, green
// hypervolume, …); strategies take them in order of appearance.
const QColor kPalette[] = {QColor(31, 119, 180), QColor(214, 39, 40),   QColor(44, 160, 44),
                           QColor(255, 127, 14), QColor(148, 103, 189), QColor(140, 86, 75),
                           QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34),
                           QColor(23, 190, 207)};

}  // namespace

QColor strategy_color(std::size_t index) { return kPalette[index % std::size(kPalette)]; }

QFont plot_font(double points, bool bold) {
    QFont font("DejaVu Sans");
    font.setStyleHint(QFont::SansSerif);
    font.setPointSizeF(points);
    font.setBold(bold);
    return font;
}

std::unique_ptr<QChart> new_chart(const QString& title) {
    auto chart = std::make_unique<QChart>();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(10, 6, 14, 6));
    chart->setTitle(title);
    chart->setTitleFont(plot_font(13.0, true));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setFont(plot_font(10.5));
    return chart;
}

void style_axis(QAbstractAxis* axis, const QString& title) {
    axis->setTitleText(title);
    axis->setTitleFont(plot_font(11.0));
    axis->setLabelsFont(plot_font(10.0));
    axis->setGridLineColor(QColor(225, 225, 225));
}

void attach(QChart& chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart.addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

void hide_from_legend(QChart& chart, QAbstractSeries* series) {
    for (QLegendMarker* marker : chart.legend()->markers(series)) marker->setVisible(false);
}

QString label(const std::string& text) { return QString::fromStdString(text); }

QString direction(const ProblemSummary& p) { return p.minimize ? "lower is better" : "higher is better"; }

// "2 seeds" when every strategy ran as often, otherwise "seeds".
QString seeds_text(const ProblemSummary& p) {
    if (p.strategies.empty()) return "seeds";
    const int runs = p.strategies.front().runs;
    for (const StrategySummary& s : p.strategies)
        if (s.runs != runs) return "seeds";
    return runs == 1 ? QString("1 seed") : QString("%1 seeds").arg(runs);
}

QString problem_title(const ProblemSummary& p) {
    return QString("%1 (D = %2)").arg(label(p.problem)).arg(p.dimension);
}

// A value axis over [low, high] with a few readable ticks; a window around a single value.
void set_value_range(QValueAxis* axis, double low, double high) {
    if (!std::isfinite(low) || !std::isfinite(high)) {
        low = 0.0;
        high = 1.0;
    } else if (high <= low) {
        const double half = std::max(0.5, 0.1 * std::abs(high));
        low -= half;
        high += half;
    } else {
        const double pad = 0.05 * (high - low);
        low -= pad;
        high += pad;
    }
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    ChartPanel::setAxis(axis, low, high, ChartPanel::niceInterval(high - low, 6));
}

QValueAxis* trial_axis(int trials) {
    auto* axis = new QValueAxis;
    style_axis(axis, "Trial");
    const int last = std::max(trials, 1);
    axis->setRange(0.5, last + 0.5);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(ChartPanel::niceInterval(last, 10, 1.0));
    axis->setLabelFormat("%d");
    return axis;
}

QLineSeries* mean_line(const QString& name, const QList<QPointF>& points) {
    auto* line = new QLineSeries;
    line->setName(name);
    line->append(points);
    return line;
}

// Styles are set once the series is in the chart, so the theme cannot replace them.
void style_line(QLineSeries* line, const QColor& color, double width) {
    QPen pen(color);
    pen.setWidthF(width);
    line->setPen(pen);
}

// The ±2 SE band under a mean line: an area between two line series the chart owns.
QAreaSeries* band(QChart& chart, const QString& name, const QList<QPointF>& upper,
                  const QList<QPointF>& lower) {
    auto* up = new QLineSeries(&chart);
    auto* down = new QLineSeries(&chart);
    up->append(upper);
    down->append(lower);
    auto* area = new QAreaSeries(up, down);
    area->setName(name);
    return area;
}

// Overlapping bands of many strategies stay legible when each is fainter.
void style_band(QAreaSeries* area, const QColor& color, std::size_t strategies) {
    QColor fill = color;
    fill.setAlpha(strategies <= 2 ? 55 : 35);
    area->setColor(fill);
    area->setBorderColor(Qt::transparent);
    QPen pen(Qt::transparent);
    pen.setWidthF(0.0);
    area->setPen(pen);
}

}  // namespace sebo::ui::bench_parts
