#pragma once
// The pieces every benchmark figure (bench_plots.h) is built from: the look (fonts, axes,
// colours), ±2 SE bands and the titles. Internal to the bench plots.

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>
#include <cstddef>
#include <memory>
#include <string>

class QAbstractAxis;
class QAbstractSeries;
class QAreaSeries;
class QChart;
class QFont;
class QLineSeries;
class QValueAxis;

namespace sebo {
struct ProblemSummary;
}

namespace sebo::ui::bench_parts {

// Bands and error bars are drawn for 2 standard errors, as the paper's (§6).
inline constexpr double kSeMultiple = 2.0;
// The width the layout helpers assume for the plot area, in pixels; only cosmetic offsets (error
// bar caps, the side-by-side shift of strategies) depend on it.
inline constexpr double kAssumedPlotWidth = 880.0;
// The largest radius of line markers (QLineSeries draws markers with this radius; a scatter
// marker's size is its diameter).
inline constexpr double kLineMarkerSize = 7.0;

// The explorer's "tab10" colours, in order of appearance of the strategies.
QColor strategy_color(std::size_t index);

QFont plot_font(double points, bool bold = false);
// A white chart without animation, its title bold and its legend at the bottom.
std::unique_ptr<QChart> new_chart(const QString& title);
void style_axis(QAbstractAxis* axis, const QString& title);
// Adds series to chart and attaches it to both axes.
void attach(QChart& chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y);
void hide_from_legend(QChart& chart, QAbstractSeries* series);

QString label(const std::string& text);
// "lower is better" / "higher is better" (the first objective).
QString direction(const ProblemSummary& p);
// "2 seeds" when every strategy ran as often, otherwise "seeds".
QString seeds_text(const ProblemSummary& p);
// "branin (D = 50)".
QString problem_title(const ProblemSummary& p);

// A value axis over [low, high] (5 % padding) with a few readable ticks; a window around a single
// value; [0, 1] when either end is not finite.
void set_value_range(QValueAxis* axis, double low, double high);
// The x axis of traces: trials 1..trials.
QValueAxis* trial_axis(int trials);

QLineSeries* mean_line(const QString& name, const QList<QPointF>& points);
// Styles are set once the series is in the chart, so the theme cannot replace them.
void style_line(QLineSeries* line, const QColor& color, double width = 2.2);
// The ±2 SE band under a mean line: an area between two line series the chart owns.
QAreaSeries* band(QChart& chart, const QString& name, const QList<QPointF>& upper, const QList<QPointF>& lower);
// Overlapping bands of many strategies stay legible when each is fainter.
void style_band(QAreaSeries* area, const QColor& color, std::size_t strategies);

}  // namespace sebo::ui::bench_parts
