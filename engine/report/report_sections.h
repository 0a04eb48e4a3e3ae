#pragma once
// The parts of report/report_html.cpp's document, shared by its two source files (the question,
// method and provenance there; the findings — frontier, chosen configurations, progress and
// warnings — in report_findings.cpp). Internal to the report.

#include <map>
#include <string>
#include <vector>

#include "experiment/analytics.h"
#include "experiment/experiment.h"

namespace sebo::report_detail {

// A trial as the raw views show it: a configuration measured more than once with the mean of its
// measurements (experiment/replicates.h), named by its first trial.
class ShownTrials {
public:
    explicit ShownTrials(const Experiment& experiment);
    // The trial merged with its replicates (itself when it has none, or does not count).
    Trial shown(const Trial& trial) const;
    // How many trials that count measured the trial's configuration (0 when it does not count).
    int measurements(int trial) const;

private:
    const Experiment& experiment_;
    std::map<int, std::vector<int>> group_of_;  // trial index → its configuration's trials
};

// Escaped user text (report/html_text.h).
std::string esc(const std::string& text);
// A metric value as the tables show it: 6 significant digits, "± sem" when there is one.
std::string value_text(const Measurement& m);
// "p99_ms <= 50" for a constrained metric, "maximize"/"minimize" for an objective, "tracked".
std::string metric_role(const Experiment& experiment, const std::string& metric);
// "1 trial", "3 trials".
std::string count_of(std::size_t n, const std::string& singular, const std::string& plural);
// "3, 7 and 9".
std::string list_of(const std::vector<int>& numbers);

std::string section_frontier(const Experiment& experiment, const FrontierReport& frontier, const ShownTrials& shown);
std::string section_chosen(const Experiment& experiment, const ShownTrials& shown);
std::string section_progress(const Experiment& experiment, const FrontierReport& frontier);
std::string section_warnings(const Experiment& experiment);

}  // namespace sebo::report_detail
