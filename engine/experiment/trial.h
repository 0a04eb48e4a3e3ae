#pragma once
// One evaluated (or to-be-evaluated) configuration.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "experiment/fit_record.h"

namespace sebo {

enum class TrialStatus { Pending, Completed, Failed, Abandoned };

const char* to_string(TrialStatus status);
std::optional<TrialStatus> trial_status_from_string(const std::string& text);

// A completed trial whose measurement is not trusted (an error sentinel, a timeout reported as a
// value, a unit slip), left out of the analysis by the user: see Trial::exclusion.
struct TrialExclusion {
    std::string reason;  // never empty
    std::string at;      // ISO-8601 UTC timestamp of the decision; empty when unknown
    bool operator==(const TrialExclusion&) const = default;
};

// One metric's recorded value on a trial, in the user's sign (as measured), and its standard
// error when the evaluator reports one.
struct Measurement {
    double mean = 0.0;
    std::optional<double> sem;

    friend bool operator==(const Measurement&, const Measurement&) = default;
};

// A trial's measurements by metric name (experiment/outcomes.h names the metrics).
using MetricValues = std::map<std::string, Measurement>;

struct Trial {
    int index = 0;
    // Parameter values in user units, in the order of the search space's parameters.
    std::vector<double> parameters;
    TrialStatus status = TrialStatus::Pending;
    // What was measured, per metric. A completed trial has a value for every objective; a
    // constrained or tracked metric may be missing (see Experiment::feasibility). Only completed
    // trials count: values kept on another trial (a file written by hand) mean nothing.
    MetricValues values;
    // Which generator proposed the trial: "sobol", "sebo-l0", "manual", "import", ...
    std::string generator;
    // Why the trial failed or was abandoned.
    std::string error;
    // Wall-clock seconds spent proposing and evaluating it.
    double generation_seconds = 0.0;
    double evaluation_seconds = 0.0;
    // ISO-8601 UTC timestamps ("2026-11-25T22:31:07Z"); empty when unknown.
    std::string created_at;
    std::string completed_at;
    // Set on a completed trial that is excluded from analysis: it keeps its value (shown, exported,
    // saved) but counts nowhere — not in the model's training data, the frontier, the
    // hypervolume or the activation frequencies — until it is included again
    // (experiment/trial_exclusion.h). Failed, abandoned and pending trials are never excluded.
    std::optional<TrialExclusion> exclusion;
    // The SAAS-NUTS fit that proposed the trial: its sampling and convergence (unset for other
    // generators).
    std::optional<FitRecord> fit;
    // A built-in noisy problem's noise-free value of every metric at this configuration (issue
    // 30): what benchmarks and tests judge recommendations by. Never used by a strategy or the
    // analysis, and empty for every other evaluator.
    std::map<std::string, double> noise_free;

    // Every field equal (a merge of two copies of a file compares trials this way).
    bool operator==(const Trial&) const = default;

    // The measurement of `metric`, or nullptr when it was not recorded.
    const Measurement* measurement(const std::string& metric) const {
        const auto it = values.find(metric);
        return it == values.end() ? nullptr : &it->second;
    }
    std::optional<double> value(const std::string& metric) const {
        const Measurement* m = measurement(metric);
        return m ? std::optional<double>(m->mean) : std::nullopt;
    }
};

}  // namespace sebo
