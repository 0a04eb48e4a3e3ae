#pragma once
// The figures of a benchmark comparison (`sebo bench`, `sebo-plot`), drawn from the aggregates of
// bench/bench_summary.h in the look of the explorer's charts, as in the paper (§6 "Evaluation
// plots", Fig. 3-5 and 7): means across seeds with error bars or bands of two standard errors.
//
//   <problem>-frontier.png             best objective with at most k active, per strategy
//   <problem>-hypervolume.png          hypervolume after each trial, per strategy
//   <problem>-regret-k<K>.png          simple regret with at most K active (known optimum only)
//   <problem>-front-k<K>.png            several objectives: each seed's front with at most K active
//   <problem>-activation-<strategy>.png  activation frequency on the final frontier, per
//                                      model-based strategy
//
// Each chart is built by its own function, so tests can inspect the series; rendering puts the
// chart in an offscreen view (no OpenGL) and needs a QApplication.

#include <QColor>
#include <QSize>
#include <QString>
#include <QStringList>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

class QChart;

namespace sebo {
struct ProblemSummary;
}

namespace sebo::ui {

inline constexpr QSize kBenchPlotSize{1000, 650};

// The colour of the i-th strategy of a problem, the same in every chart of that problem.
QColor bench_strategy_color(std::size_t index);

// `text` usable in a file name: every character outside [A-Za-z0-9._-] becomes '_'.
QString bench_file_label(const std::string& text);

// Fig. 3 right / Fig. 4: for k = 0..D, the mean "best with at most k active" of each strategy
// (with several objectives instead the mean hypervolume of the objectives with at most k active)
// (one QLineSeries named after the strategy), with ±2 SE error bars (one QLineSeries per level,
// drawn as an "I": the bar and its two caps; hidden from the legend). The x range stops at the
// last level where some strategy's value still changes (at least the largest level of interest).
std::unique_ptr<QChart> bench_frontier_chart(const ProblemSummary& problem);

// Several objectives (the first two are plotted): every run's front of the objectives with at most
// problem.front_levels[level] active, as its points and (with two objectives) its attainment
// staircase, coloured by strategy, with the reference point as a dashed corner. The view is the
// reference box: points outside it add no hypervolume and are left out (the x axis' title says how
// many). Null with one objective or a level out of range.
std::unique_ptr<QChart> bench_front_chart(const ProblemSummary& problem, std::size_t level);

// Fig. 7: mean hypervolume after each trial (x = trial number, from 1) of each strategy, with a
// translucent ±2 SE band (a QAreaSeries hidden from the legend).
std::unique_ptr<QChart> bench_hypervolume_chart(const ProblemSummary& problem);

// Fig. 3 left / middle: simple regret with at most problem.levels[level] active, per trial,
// mean with a ±2 SE band; logarithmic when every mean is positive and the values span a decade
// or more (band edges below the axis are drawn at its bottom). Null when the optimum is unknown or no strategy has a trace.
std::unique_ptr<QChart> bench_regret_chart(const ProblemSummary& problem, std::size_t level);

// Fig. 5 right / appendix "interpretation": the share of final frontier configurations in which
// each parameter is active, for one strategy; effective parameters in orange, others in grey
// (two QBarSets of a stacked series). With more than kActivationAllLimit parameters only the
// kActivationTop most frequent of those ever active are shown (effective ones always), most
// frequent first; otherwise all, by index. Null for a strategy without model-based trials or without any
// activation.
inline constexpr int kActivationAllLimit = 25;
inline constexpr int kActivationTop = 20;
std::unique_ptr<QChart> bench_activation_chart(const ProblemSummary& problem, std::size_t strategy);

// Renders `chart` at `size` pixels into a PNG; false when the file cannot be written.
bool save_bench_chart(QChart& chart, const QString& path, QSize size);

// Every chart above for every problem, written into out_dir (created if needed); returns the
// paths written, in order. Throws std::runtime_error naming the file it could not write.
QStringList render_bench_plots(const std::vector<ProblemSummary>& problems, const QString& out_dir,
                               QSize size = kBenchPlotSize);

}  // namespace sebo::ui
