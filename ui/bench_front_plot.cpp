// bench_front_chart (bench_plots.h): the fronts of a benchmark with several objectives.

#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <limits>

#include "bench/bench_summary.h"
#include "bench_chart_parts.h"
#include "bench_plots.h"

namespace sebo::ui {

using namespace bench_parts;

namespace {

// One plotted axis: an objective's direction and its side of the reference point.
struct FrontAxis {
    bool minimize = true;
    double reference = 0.0;

    bool inside(double v) const { return minimize ? v <= reference : v >= reference; }
    double worse(double a, double b) const { return minimize ? std::max(a, b) : std::min(a, b); }
};

// The attainment staircase of a two-objective front sorted by the first objective: from the
// reference box's edge through every point, each corner at the worse of two neighbours' values.
QList<QPointF> staircase(const QList<QPointF>& front, const FrontAxis& x, const FrontAxis& y) {
    QList<QPointF> line;
    if (front.isEmpty()) return line;
    line << QPointF(front.front().x(), y.reference) << front.front();
    for (qsizetype i = 1; i < front.size(); ++i) {
        line << QPointF(x.worse(front[i - 1].x(), front[i].x()), y.worse(front[i - 1].y(), front[i].y()));
        // The corner equals one of the points when they share a value: no degenerate step.
        if (line.back() == front[i - 1]) line.removeLast();
        line << front[i];
    }
    line << QPointF(x.reference, front.back().y());
    return line;
}

}  // namespace

std::unique_ptr<QChart> bench_front_chart(const ProblemSummary& problem, std::size_t level) {
    if (problem.objectives.size() < 2 || level >= problem.front_levels.size()) return nullptr;
    const BenchObjective& first = problem.objectives[0];
    const BenchObjective& second = problem.objectives[1];
    const FrontAxis x{first.minimize, first.reference};
    const FrontAxis y{second.minimize, second.reference};
    const bool two = problem.objectives.size() == 2;
    const int k = problem.front_levels[level];

    const QString changes = k >= problem.dimension ? QString("any number of parameters changed")
                                                   : QString("at most %1 parameters changed").arg(k);
    auto chart = new_chart(QString("%1: each seed's front%2, %3")
                               .arg(problem_title(problem),
                                    two ? QString() : QString(" (first two of %1 objectives)").arg(problem.objectives.size()),
                                    changes));
    const auto axis_title = [](const BenchObjective& o) {
        return QString("%1 (%2 is better)").arg(label(o.metric), o.minimize ? "lower" : "higher");
    };
    auto* axis_x = new QValueAxis;
    auto* axis_y = new QValueAxis;
    style_axis(axis_x, axis_title(first));
    style_axis(axis_y, axis_title(second));
    chart->addAxis(axis_x, Qt::AlignBottom);
    chart->addAxis(axis_y, Qt::AlignLeft);

    double x_low = x.reference, x_high = x.reference, y_low = y.reference, y_high = y.reference;
    int outside = 0;
    for (std::size_t i = 0; i < problem.strategies.size(); ++i) {
        const StrategySummary& s = problem.strategies[i];
        if (level >= s.fronts.size()) continue;
        const QColor color = strategy_color(i);
        auto* points = new QScatterSeries;
        int runs_with_points = 0;
        std::vector<QList<QPointF>> steps;
        for (const RunFront& run : s.fronts[level]) {
            QList<QPointF> front;
            for (const std::vector<double>& p : run.points) {
                if (!x.inside(p[0]) || !y.inside(p[1])) {
                    ++outside;
                    continue;
                }
                front << QPointF(p[0], p[1]);
                x_low = std::min(x_low, p[0]);
                x_high = std::max(x_high, p[0]);
                y_low = std::min(y_low, p[1]);
                y_high = std::max(y_high, p[1]);
            }
            if (front.isEmpty()) continue;
            ++runs_with_points;
            points->append(front);
            if (two) steps.push_back(staircase(front, x, y));
        }
        points->setName(QString("%1 (%2 of %3 seeds)").arg(label(s.strategy)).arg(runs_with_points).arg(s.runs));
        attach(*chart, points, axis_x, axis_y);
        points->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        points->setMarkerSize(7.0);
        points->setColor(color);
        points->setBorderColor(color.darker(130));
        for (const QList<QPointF>& step : steps) {
            QLineSeries* line = mean_line(QString("%1 front").arg(label(s.strategy)), step);
            attach(*chart, line, axis_x, axis_y);
            QColor faint = color;
            faint.setAlpha(150);
            style_line(line, faint, 1.3);
            hide_from_legend(*chart, line);
        }
    }

    // The reference point: the corner of the box whose hypervolume counts.
    const double x_far = x.minimize ? x_low : x_high;
    const double y_far = y.minimize ? y_low : y_high;
    auto* reference = mean_line(QString("reference point (%1, %2)").arg(x.reference, 0, 'g', 6).arg(y.reference, 0, 'g', 6),
                                {QPointF(x.reference, y_far), QPointF(x.reference, y.reference), QPointF(x_far, y.reference)});
    attach(*chart, reference, axis_x, axis_y);
    QPen dashed(QColor(110, 110, 110));
    dashed.setWidthF(1.5);
    dashed.setStyle(Qt::DashLine);
    reference->setPen(dashed);

    set_value_range(axis_x, x_low, x_high);
    set_value_range(axis_y, y_low, y_high);
    if (outside > 0)
        axis_x->setTitleText(axis_x->titleText() +
                             QString("  ·  %1 front points outside the reference box not shown").arg(outside));
    return chart;
}

}  // namespace sebo::ui
