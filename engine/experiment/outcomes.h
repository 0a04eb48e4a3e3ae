#pragma once
// What an experiment measures and what it wants (SPEC §10, issue 13): named metrics; one to four
// of them are objectives (maximized or minimized, each with an optional threshold); any metric
// may carry outcome constraints ("p99_ms <= 50"); the metrics that are neither are only tracked.
//
// Values are in the user's sign everywhere here: a threshold or a bound is a value of its metric
// as measured. The analysis turns objectives into maximization form ("utility", Objective::
// to_utility) where it needs one direction.

#include <optional>
#include <string>
#include <vector>

namespace sebo {

struct Objective {
    std::string metric;
    bool minimize = false;
    // The value worse than which the objective is worthless (user sign): the objective's side of
    // the hypervolume reference point. Unset: the default rule (experiment/analytics.h).
    std::optional<double> threshold;

    double to_utility(double value) const { return minimize ? -value : value; }
    double from_utility(double utility) const { return minimize ? -utility : utility; }
};

enum class ConstraintSense { AtMost, AtLeast };  // "<=", ">="

const char* to_string(ConstraintSense sense);  // "<=", ">="
std::optional<ConstraintSense> constraint_sense_from_string(const std::string& text);

// NAME <= bound or NAME >= bound, on a metric's recorded value (the bound itself is allowed).
struct OutcomeConstraint {
    std::string metric;
    ConstraintSense sense = ConstraintSense::AtMost;
    double bound = 0.0;

    bool holds(double value) const { return sense == ConstraintSense::AtMost ? value <= bound : value >= bound; }
    // "p99_ms <= 50", the bound in the shortest form that reads back to the same double.
    std::string text() const;
};

struct Outcomes {
    static constexpr int kMaxObjectives = 4;

    // Every metric, in the order used for display and export: objectives, constraints and
    // tracked metrics refer to these names.
    std::vector<std::string> metrics;
    std::vector<Objective> objectives;  // 1 .. kMaxObjectives, each on a different metric
    std::vector<OutcomeConstraint> constraints;

    // One maximized or minimized metric and nothing else: what every experiment of the first
    // file versions had.
    static Outcomes single(std::string metric, bool minimize, std::optional<double> threshold = std::nullopt);

    bool has_metric(const std::string& name) const;
    // The objective on `name`, or nullptr when it is not an objective.
    const Objective* objective_on(const std::string& name) const;
    bool is_constrained(const std::string& name) const;
    // Neither an objective nor constrained.
    bool is_tracked(const std::string& name) const;
    // The metrics a model-based strategy has to model: the objectives', then the constrained
    // ones that are not objectives, each once.
    std::vector<std::string> modelled_metrics() const;
    // "the metrics are a, b, c" style list for messages.
    std::string metric_list() const;
    // One line: "throughput (max), p99_ms (min, threshold 80); p99_ms <= 50; tracked: cost".
    std::string summary() const;

    // Empty when consistent; otherwise "path: what is wrong" with the path of the experiment
    // file ("objectives[1].metric: ..."): metric names non-empty and unique; 1 to 4 objectives,
    // each on a known metric and no metric twice; finite thresholds and bounds; every
    // constraint on a known metric.
    std::optional<std::string> validate() const;
};

}  // namespace sebo
