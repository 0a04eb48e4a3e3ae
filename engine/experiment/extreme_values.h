#pragma once
// A new measurement that is absurd next to the others — an error sentinel (1e9, 1e308), a timeout
// reported as a latency, a unit slip — found so that the CLI can print one warning line and the
// GUI can offer to exclude the trial (experiment/trial_exclusion.h). Nothing is changed here.
//
// The rule (core/robust_spread.h): the trial's value is more than kExtremeFactor (1e3) robust
// scales from the median of the *other* trials that count in the analysis (completed, not
// excluded), where the scale is their interquartile range, or |median| when that is 0. It needs
// at least kRobustMinimumCount (5) other trials: below that no value is called extreme. The rule
// is symmetric, so the objective's direction does not matter. Every metric is checked (in the
// experiment's order), each against the other trials' values of that metric: an absurd latency
// is as much a failed measurement as an absurd throughput.

#include <optional>
#include <string>

#include "experiment/experiment.h"

namespace sebo {

struct ExtremeValue {
    int trial = 0;
    std::string metric;
    double value = 0.0;      // the trial's value of the metric, user sign
    double median = 0.0;     // of the other trials' values
    double scale = 0.0;      // their interquartile range (or |median|)
    bool scale_is_interquartile_range = true;
    double distance = 0.0;   // |value − median| / scale; may be +inf
    int others = 0;          // how many other trials the median and scale come from
};

// Unset unless `trial` counts in the analysis and a value of it is extreme (rule above); the
// first such metric.
std::optional<ExtremeValue> find_extreme_value(const Experiment& experiment, int trial);

// One line without a trailing period, e.g. "trial 7: latency = 1e+308 lies 4.2e+307 interquartile
// ranges (2.4) from the median (31.5) of the other 12 trials".
std::string describe(const ExtremeValue& extreme);

}  // namespace sebo
