#include "bench_plots.h"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QCoreApplication>
#include <QDir>
#include <QFont>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "bench/bench_plan.h"
#include "bench/bench_summary.h"
#include "bench_chart_parts.h"
#include "chart_panel.h"

namespace sebo::ui {

using namespace bench_parts;

namespace {

// As in the paper's interpretation figure: effective parameters orange, the others grey.
const QColor kEffective(255, 127, 14);
const QColor kOther(160, 160, 160);
const QColor kUnknownEffective(148, 103, 189);  // the explorer's activation bars

bool same_level(const LevelBest& a, const LevelBest& b) {
    if (a.best.has_value() != b.best.has_value() || a.found != b.found) return false;
    return !a.best || (a.best->mean == b.best->mean && a.best->se == b.best->se);
}

// The points of the frontier chart of a strategy: "best with at most k active" of the first
// objective, or with several objectives the objectives' hypervolume with at most k active (every
// run counts, so every level is "found" by all).
std::vector<LevelBest> frontier_levels(const ProblemSummary& problem, const StrategySummary& s) {
    if (problem.objectives.size() < 2) return s.frontier;
    std::vector<LevelBest> levels;
    for (std::size_t k = 0; k < s.objectives_hypervolume_by_k.size(); ++k)
        levels.push_back({static_cast<int>(k), s.objectives_hypervolume_by_k[k], s.runs});
    return levels;
}

QString objective_names(const ProblemSummary& problem) {
    QStringList names;
    for (const BenchObjective& o : problem.objectives) names << label(o.metric);
    return names.join(", ");
}

}  // namespace

QColor bench_strategy_color(std::size_t index) { return strategy_color(index); }

QString bench_file_label(const std::string& text) {
    QString out = QString::fromStdString(text);
    for (QChar& c : out) {
        const char16_t u = c.unicode();
        const bool ok = (u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || u == '.' ||
                        u == '_' || u == '-';
        if (!ok) c = QChar('_');
    }
    return out;
}

std::unique_ptr<QChart> bench_frontier_chart(const ProblemSummary& problem) {
    const bool several = problem.objectives.size() > 1;
    const QString what = several ? QString("hypervolume of (%1) with at most k active").arg(objective_names(problem))
                                 : QString("best objective with at most k active");
    auto chart = new_chart(QString("%1: %2, mean ± 2 SE over %3").arg(problem_title(problem), what, seeds_text(problem)));
    std::vector<std::vector<LevelBest>> levels;
    for (const StrategySummary& s : problem.strategies) levels.push_back(frontier_levels(problem, s));
    const std::size_t count = problem.strategies.size();

    // The x range: up to the last level where some strategy still improves (one more, to show
    // that it stays flat), and at least the largest level of interest.
    int last_change = 0;
    for (const std::vector<LevelBest>& frontier : levels)
        for (std::size_t k = 1; k < frontier.size(); ++k)
            if (!same_level(frontier[k], frontier[k - 1])) last_change = std::max(last_change, frontier[k].k);
    int x_max = last_change + 1;
    for (int level : problem.levels) x_max = std::max(x_max, level);
    x_max = std::clamp(x_max, 1, std::max(problem.dimension, 1));

    // Strategies sit side by side around each k so their error bars stay apart; caps are a few
    // pixels wide whatever the range.
    const double pixels_per_unit = kAssumedPlotWidth / (x_max + 1.0);
    const double shift = std::min(0.6 / std::max<std::size_t>(count, 1), 10.0 / pixels_per_unit);
    const double cap = std::min(4.0 / pixels_per_unit, 0.4 * std::max(shift, 1.0 / pixels_per_unit));
    // Markers shrink when the levels are close together (D = 50 and more).
    const double marker = std::clamp(0.18 * pixels_per_unit, 2.5, kLineMarkerSize);

    auto* axis_x = new QValueAxis;
    style_axis(axis_x, QString("Active parameters k (of %1)").arg(problem.dimension));
    axis_x->setRange(-0.5, x_max + 0.5);
    axis_x->setTickType(QValueAxis::TicksDynamic);
    axis_x->setTickAnchor(0.0);
    axis_x->setTickInterval(ChartPanel::niceInterval(x_max, 10, 1.0));
    axis_x->setLabelFormat("%d");
    // Like the GUI's frontier: a log axis when every mean is positive and they span two decades
    // or more (Branin: 300 at the all-target point, 0.4 at its optimum); error bar ends at or
    // below zero are then drawn at the axis' bottom.
    double smallest_mean = std::numeric_limits<double>::infinity();
    double largest_end = 0.0;
    bool positive = true;
    for (const std::vector<LevelBest>& frontier : levels)
        for (const LevelBest& level : frontier) {
            if (level.k > x_max || !level.best) continue;
            positive = positive && level.best->mean > 0.0;
            smallest_mean = std::min(smallest_mean, level.best->mean);
            largest_end = std::max(largest_end, level.best->mean + kSeMultiple * level.best->se);
        }
    const QString y_title = several ? QString("Hypervolume of the objectives (higher is better)")
                                    : QString("Best objective (%1)").arg(direction(problem));
    QAbstractAxis* axis_y = nullptr;
    QValueAxis* linear_y = nullptr;
    double log_bottom = 0.0;
    if (positive && std::isfinite(smallest_mean) && largest_end / smallest_mean >= 100.0) {
        auto* log_axis = new QLogValueAxis;
        style_axis(log_axis, y_title + ", log scale");
        log_axis->setBase(10.0);
        log_axis->setLabelFormat("%.3g");
        log_axis->setMinorTickCount(8);
        log_bottom = std::pow(10.0, std::floor(std::log10(smallest_mean / 1.2)));
        const double top = std::pow(10.0, std::ceil(std::log10(largest_end * 1.2)));
        log_axis->setRange(log_bottom * (1.0 - 1e-9), top * (1.0 + 1e-9));
        axis_y = log_axis;
    } else {
        linear_y = new QValueAxis;
        style_axis(linear_y, y_title);
        axis_y = linear_y;
    }
    chart->addAxis(axis_x, Qt::AlignBottom);
    chart->addAxis(axis_y, Qt::AlignLeft);

    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    bool partial = false;
    for (std::size_t i = 0; i < count; ++i) {
        const StrategySummary& s = problem.strategies[i];
        const QColor color = bench_strategy_color(i);
        const double offset = (static_cast<double>(i) - 0.5 * static_cast<double>(count - 1)) * shift;
        QList<QPointF> means;
        std::vector<int> partial_points;
        std::vector<QLineSeries*> bars;
        for (const LevelBest& level : levels[i]) {
            if (level.k > x_max || !level.best) continue;
            const double x = level.k + offset;
            const double y = level.best->mean;
            if (level.found < s.runs) partial_points.push_back(static_cast<int>(means.size()));
            means << QPointF(x, y);
            const double lo = linear_y ? y - kSeMultiple * level.best->se
                                       : std::max(y - kSeMultiple * level.best->se, log_bottom);
            const double hi = y + kSeMultiple * level.best->se;
            low = std::min(low, lo);
            high = std::max(high, hi);
            if (level.best->se > 0.0) {
                // The bar and its caps as one path: bottom cap, bar, top cap.
                auto* bar = new QLineSeries;
                bar->append(QList<QPointF>{{x - cap, lo}, {x + cap, lo}, {x, lo}, {x, hi}, {x - cap, hi}, {x + cap, hi}});
                bar->setName(QString("%1 ± 2 SE").arg(label(s.strategy)));
                bars.push_back(bar);
            }
        }
        for (QLineSeries* bar : bars) {
            attach(*chart, bar, axis_x, axis_y);
            style_line(bar, color, 1.4);
            hide_from_legend(*chart, bar);
        }
        QLineSeries* line = mean_line(label(s.strategy), means);
        attach(*chart, line, axis_x, axis_y);
        style_line(line, color);
        line->setPointsVisible(true);
        line->setMarkerSize(marker);
        // Open markers where not every seed found a configuration with at most k active (the
        // mean is over those that did): the line's own marker is hidden there.
        if (!partial_points.empty()) {
            partial = true;
            auto* open = new QScatterSeries;
            open->setName(QString("%1 (not every seed)").arg(label(s.strategy)));
            for (int index : partial_points) {
                open->append(means[index]);
                line->setPointConfiguration(index, QXYSeries::PointConfiguration::Visibility, false);
            }
            attach(*chart, open, axis_x, axis_y);
            open->setMarkerShape(QScatterSeries::MarkerShapeCircle);
            open->setMarkerSize(2.0 * marker);
            open->setColor(Qt::white);
            QPen pen(color);
            pen.setWidthF(2.2);
            open->setPen(pen);
            hide_from_legend(*chart, open);
        }
    }
    if (linear_y) {
        set_value_range(linear_y, several ? 0.0 : low, high);
        // A hypervolume is never negative: the axis starts at 0 (error bars reaching below are clipped).
        if (several) linear_y->setMin(0.0);
    }
    if (partial)
        axis_x->setTitleText(axis_x->titleText() +
                             "  ·  open markers: found by some seeds only");
    return chart;
}

std::unique_ptr<QChart> bench_hypervolume_chart(const ProblemSummary& problem) {
    auto chart = new_chart(
        QString("%1: hypervolume, mean ± 2 SE over %2").arg(problem_title(problem), seeds_text(problem)));
    int trials = 0;
    for (const StrategySummary& s : problem.strategies)
        trials = std::max(trials, static_cast<int>(s.hypervolume_trace.size()));
    auto* axis_x = trial_axis(trials);
    auto* axis_y = new QValueAxis;
    style_axis(axis_y, problem.objectives.size() > 1
                           ? QString("Hypervolume of (%1, active parameters)").arg(objective_names(problem))
                           : QString("Hypervolume of (objective, active parameters)"));
    chart->addAxis(axis_x, Qt::AlignBottom);
    chart->addAxis(axis_y, Qt::AlignLeft);

    double high = 0.0;
    for (std::size_t i = 0; i < problem.strategies.size(); ++i) {
        const StrategySummary& s = problem.strategies[i];
        const QColor color = bench_strategy_color(i);
        QList<QPointF> means, upper, lower;
        for (std::size_t t = 0; t < s.hypervolume_trace.size(); ++t) {
            const MeanSe& m = s.hypervolume_trace[t];
            const double x = static_cast<double>(t + 1);
            means << QPointF(x, m.mean);
            upper << QPointF(x, m.mean + kSeMultiple * m.se);
            lower << QPointF(x, m.mean - kSeMultiple * m.se);
            high = std::max(high, m.mean + kSeMultiple * m.se);
        }
        QAreaSeries* area = band(*chart, QString("%1 ± 2 SE").arg(label(s.strategy)), upper, lower);
        attach(*chart, area, axis_x, axis_y);
        style_band(area, color, problem.strategies.size());
        hide_from_legend(*chart, area);
        QLineSeries* line = mean_line(label(s.strategy), means);
        attach(*chart, line, axis_x, axis_y);
        style_line(line, color);
        line->setPointsVisible(means.size() <= 30);
    }
    // The hypervolume is never negative: the axis starts at 0 (a band reaching below is clipped).
    set_value_range(axis_y, 0.0, high > 0.0 ? high : 1.0);
    axis_y->setMin(0.0);
    return chart;
}

std::unique_ptr<QChart> bench_regret_chart(const ProblemSummary& problem, std::size_t level) {
    if (!problem.optimum || level >= problem.levels.size()) return nullptr;
    struct Trace {
        std::size_t strategy;
        QList<QPointF> means, upper, lower;
    };
    std::vector<Trace> traces;
    int trials = 0;
    bool positive = true;
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    double smallest_positive = low;
    for (std::size_t i = 0; i < problem.strategies.size(); ++i) {
        const StrategySummary& s = problem.strategies[i];
        if (level >= s.regret_traces.size()) continue;
        Trace trace{i, {}, {}, {}};
        const std::vector<std::optional<MeanSe>>& values = s.regret_traces[level];
        trials = std::max(trials, static_cast<int>(values.size()));
        for (std::size_t t = 0; t < values.size(); ++t) {
            if (!values[t]) continue;
            const double x = static_cast<double>(t + 1);
            const double mean = values[t]->mean;
            const double lo = mean - kSeMultiple * values[t]->se;
            const double hi = mean + kSeMultiple * values[t]->se;
            trace.means << QPointF(x, mean);
            trace.upper << QPointF(x, hi);
            trace.lower << QPointF(x, lo);
            positive = positive && mean > 0.0;
            low = std::min(low, lo);
            high = std::max(high, hi);
            for (double v : {mean, lo})
                if (v > 0.0) smallest_positive = std::min(smallest_positive, v);
        }
        if (!trace.means.isEmpty()) traces.push_back(std::move(trace));
    }
    if (traces.empty()) return nullptr;

    const int k = problem.levels[level];
    auto chart = new_chart(QString("%1: simple regret with at most %2 active, mean ± 2 SE over %3")
                               .arg(problem_title(problem))
                               .arg(k)
                               .arg(seeds_text(problem)));
    auto* axis_x = trial_axis(trials);
    chart->addAxis(axis_x, Qt::AlignBottom);
    QAbstractAxis* axis_y = nullptr;
    const QString y_title = QString("Simple regret (optimum %1)").arg(*problem.optimum, 0, 'g', 6);
    // Within less than a decade a log axis would label at most two ticks: linear instead.
    if (positive && std::max(high, smallest_positive) / smallest_positive >= 10.0) {
        // Regret shrinks by decades (Fig. 3 left / middle): a log axis, with band edges at or
        // below zero drawn at its bottom.
        auto* log_axis = new QLogValueAxis;
        style_axis(log_axis, y_title + ", log scale");
        log_axis->setBase(10.0);
        log_axis->setLabelFormat("%.3g");
        log_axis->setMinorTickCount(8);
        // Whole decades with a little room, so that at least two ticks are labelled.
        const double bottom = std::pow(10.0, std::floor(std::log10(smallest_positive / 1.2)));
        const double top = std::pow(10.0, std::ceil(std::log10(std::max(high, smallest_positive) * 1.2)));
        // Nudged outwards so that rounding in the axis' logarithms cannot drop the end labels.
        log_axis->setRange(bottom * (1.0 - 1e-9), top * (1.0 + 1e-9));
        for (Trace& trace : traces)
            for (QPointF& p : trace.lower) p.setY(std::max(p.y(), log_axis->min()));
        axis_y = log_axis;
    } else {
        auto* value_axis = new QValueAxis;
        style_axis(value_axis, y_title);
        set_value_range(value_axis, std::min(low, 0.0), high);
        axis_y = value_axis;
    }
    chart->addAxis(axis_y, Qt::AlignLeft);

    for (const Trace& trace : traces) {
        const StrategySummary& s = problem.strategies[trace.strategy];
        const QColor color = bench_strategy_color(trace.strategy);
        QAreaSeries* area = band(*chart, QString("%1 ± 2 SE").arg(label(s.strategy)), trace.upper, trace.lower);
        attach(*chart, area, axis_x, axis_y);
        style_band(area, color, problem.strategies.size());
        hide_from_legend(*chart, area);
        QLineSeries* line = mean_line(label(s.strategy), trace.means);
        attach(*chart, line, axis_x, axis_y);
        style_line(line, color);
        line->setPointsVisible(trace.means.size() <= 30);
    }
    return chart;
}

std::unique_ptr<QChart> bench_activation_chart(const ProblemSummary& problem, std::size_t strategy) {
    if (strategy >= problem.strategies.size()) return nullptr;
    const StrategySummary& s = problem.strategies[strategy];
    const std::vector<double>& frequency = s.activation_frequency;
    // Only model-based strategies: the share of a quasi-random design says nothing about which
    // parameters matter.
    if (!s.seconds_per_iteration || std::none_of(frequency.begin(), frequency.end(), [](double f) { return f > 0.0; }))
        return nullptr;

    const int d = static_cast<int>(frequency.size());
    std::vector<int> shown(static_cast<std::size_t>(d));
    std::iota(shown.begin(), shown.end(), 0);
    const auto effective = [&](int i) {
        return std::find(problem.effective_parameters.begin(), problem.effective_parameters.end(), i) !=
               problem.effective_parameters.end();
    };
    const bool top_only = d > kActivationAllLimit;
    int never = 0;  // parameters left out because they are never active (top_only)
    if (top_only) {
        // The most frequent first (ties by index), up to kActivationTop of those ever active;
        // the effective parameters always, so a missed one shows as a short orange bar.
        std::stable_sort(shown.begin(), shown.end(), [&](int a, int b) {
            return frequency[static_cast<std::size_t>(a)] > frequency[static_cast<std::size_t>(b)];
        });
        std::vector<int> kept;
        for (int i : shown) {
            const bool active = frequency[static_cast<std::size_t>(i)] > 0.0;
            if (!active) ++never;
            if ((active && static_cast<int>(kept.size()) < kActivationTop) || effective(i)) kept.push_back(i);
        }
        std::stable_sort(kept.begin(), kept.end(), [&](int a, int b) {
            return frequency[static_cast<std::size_t>(a)] > frequency[static_cast<std::size_t>(b)];
        });
        shown = kept;
    }

    // The problem's own names when this program knows it (results.csv records indices only).
    const std::vector<std::string> names = bench_parameter_names(problem.problem);
    const bool named = names.size() == frequency.size();
    auto chart = new_chart(QString("%1, %2: activation on the final frontier, mean over %3")
                               .arg(problem_title(problem), label(s.strategy))
                               .arg(s.runs == 1 ? QString("1 seed") : QString("%1 seeds").arg(s.runs)));
    const bool known = !problem.effective_parameters.empty();
    const auto name = [&](int i) {
        return named ? QString::fromStdString(names[static_cast<std::size_t>(i)]) : QString("x%1").arg(i);
    };
    // Names longer than the indices would be elided under many upright bars: lying bars give each
    // its line, the first at the top (Qt draws the first category at the bottom).
    const bool sideways = shown.size() > 8 && std::any_of(shown.begin(), shown.end(), [&](int i) { return name(i).size() > 4; });
    std::vector<int> order = shown;
    if (sideways) std::reverse(order.begin(), order.end());
    auto* effective_set = new QBarSet(known ? "Effective parameter" : "Parameter");
    auto* other_set = new QBarSet("Other parameter");
    QStringList categories;
    for (int i : order) {
        const double percent = 100.0 * frequency[static_cast<std::size_t>(i)];
        categories << name(i);
        const bool highlight = !known || effective(i);
        *effective_set << (highlight ? percent : 0.0);
        *other_set << (highlight ? 0.0 : percent);
    }
    QAbstractBarSeries* series = sideways ? static_cast<QAbstractBarSeries*>(new QHorizontalStackedBarSeries)
                                          : static_cast<QAbstractBarSeries*>(new QStackedBarSeries);
    series->append(effective_set);
    if (known) series->append(other_set);
    else delete other_set;
    // Few bars stay bar-shaped rather than filling the width.
    series->setBarWidth(0.7 * std::min(1.0, static_cast<double>(shown.size()) / 8.0));

    auto* parameter_axis = new QBarCategoryAxis;
    QString axis_title = "Parameter";
    if (top_only) {
        const int active = d - never;
        axis_title += active > kActivationTop
                          ? QString(" (the %1 most often active of %2").arg(kActivationTop).arg(d)
                          : QString(" (the %1 ever active of %2").arg(active).arg(d);
        axis_title += known ? ", and the effective ones)" : ")";
    }
    style_axis(parameter_axis, axis_title);
    parameter_axis->append(categories);
    parameter_axis->setGridLineVisible(false);
    // Qt Charts shows only "…" for every name when the names are taller than a bar's line (more
    // than about 20 at the plots' size): smaller type then.
    if (sideways && shown.size() > 20) parameter_axis->setLabelsFont(plot_font(7.0));
    auto* share_axis = new QValueAxis;
    style_axis(share_axis, "Active in % of frontier configurations");
    share_axis->setRange(0.0, 100.0);
    share_axis->setTickCount(6);
    share_axis->setLabelFormat("%d%%");
    chart->addAxis(parameter_axis, sideways ? Qt::AlignLeft : Qt::AlignBottom);
    chart->addAxis(share_axis, sideways ? Qt::AlignBottom : Qt::AlignLeft);
    attach(*chart, series, parameter_axis, share_axis);
    effective_set->setColor(known ? kEffective : kUnknownEffective);
    effective_set->setBorderColor(known ? kEffective : kUnknownEffective);
    if (known) {
        other_set->setColor(kOther);
        other_set->setBorderColor(kOther);
    } else {
        chart->legend()->hide();
    }
    return chart;
}

bool save_bench_chart(QChart& chart, const QString& path, QSize size) {
    QGraphicsScene scene;
    scene.addItem(&chart);
    chart.setGeometry(QRectF(QPointF(0, 0), QSizeF(size)));
    // A title wider than the image would be elided: shrink it to fit (down to a readable 8 pt).
    QFont title_font = chart.titleFont();
    while (title_font.pointSizeF() > 8.0 &&
           QFontMetricsF(title_font).horizontalAdvance(chart.title()) > size.width() - 40.0)
        title_font.setPointSizeF(title_font.pointSizeF() - 0.5);
    chart.setTitleFont(title_font);
    scene.setSceneRect(chart.geometry());
    // The chart lays out its axes, legend and series on posted layout requests.
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        scene.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), scene.sceneRect());
    }
    // The chart stays with its owner.
    scene.removeItem(&chart);
    return image.save(path, "PNG");
}

QStringList render_bench_plots(const std::vector<ProblemSummary>& problems, const QString& out_dir, QSize size) {
    if (!QDir().mkpath(out_dir)) throw std::runtime_error("could not create the folder " + out_dir.toStdString());
    const QDir dir(out_dir);
    QStringList written;
    const auto save = [&](std::unique_ptr<QChart> chart, const QString& name) {
        if (!chart) return;
        const QString path = dir.filePath(name);
        if (!save_bench_chart(*chart, path, size)) throw std::runtime_error("could not write " + path.toStdString());
        written << path;
    };
    for (const ProblemSummary& problem : problems) {
        const QString stem = bench_file_label(problem.problem);
        save(bench_frontier_chart(problem), stem + "-frontier.png");
        save(bench_hypervolume_chart(problem), stem + "-hypervolume.png");
        for (std::size_t level = 0; level < problem.levels.size(); ++level)
            save(bench_regret_chart(problem, level), QString("%1-regret-k%2.png").arg(stem).arg(problem.levels[level]));
        for (std::size_t level = 0; level < problem.front_levels.size(); ++level)
            save(bench_front_chart(problem, level), QString("%1-front-k%2.png").arg(stem).arg(problem.front_levels[level]));
        for (std::size_t i = 0; i < problem.strategies.size(); ++i)
            save(bench_activation_chart(problem, i),
                 QString("%1-activation-%2.png").arg(stem, bench_file_label(problem.strategies[i].strategy)));
    }
    return written;
}

}  // namespace sebo::ui
