#pragma once
// The report's three charts as inline SVG (report/svg_writer.h): the frontier of one objective
// against the number of changed parameters, the hypervolume trace, and how often each parameter
// is changed on the frontier. They take plain data (report/report_html.cpp gathers it from the
// experiment's analyses), so that a chart says nothing the report's tables do not.

#include <string>
#include <vector>

namespace sebo {

struct FrontierChartPoint {
    int trial = 0;
    int changes = 0;     // Experiment::sparsity
    double value = 0.0;  // the objective, user sign
    bool feasible = true;
};

struct FrontierChartData {
    std::string objective;  // the metric's name
    bool minimize = false;
    std::string changes_title = "changed parameters";  // the x axis ("changed groups" with groups)
    std::vector<FrontierChartPoint> points;  // every trial that counts in the analysis
    // (k, best value with at most k changes) for the levels that have one, k ascending.
    std::vector<std::pair<int, double>> staircase;
    std::vector<int> best_trials;  // the trials on the staircase, drawn over the others
};

// Points (hollow: infeasible), the staircase of the best value with at most k changes, the trials
// on it marked.
std::string frontier_chart_svg(const FrontierChartData& data);

// Hypervolume after each trial (FrontierReport::hypervolume_trace), against the trial's position.
std::string hypervolume_chart_svg(const std::vector<double>& trace);

struct ActivationBar {
    std::string parameter;
    double share = 0.0;  // in [0, 1]
};

// One horizontal bar per parameter, in the order given.
std::string activation_chart_svg(const std::vector<ActivationBar>& bars);

}  // namespace sebo
