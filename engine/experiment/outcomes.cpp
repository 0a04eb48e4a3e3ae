#include "experiment/outcomes.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/format.h"

namespace sebo {

const char* to_string(ConstraintSense sense) { return sense == ConstraintSense::AtMost ? "<=" : ">="; }

std::optional<ConstraintSense> constraint_sense_from_string(const std::string& text) {
    if (text == "<=") return ConstraintSense::AtMost;
    if (text == ">=") return ConstraintSense::AtLeast;
    return std::nullopt;
}

std::string OutcomeConstraint::text() const { return metric + " " + to_string(sense) + " " + format_number(bound); }

Outcomes Outcomes::single(std::string metric, bool minimize, std::optional<double> threshold) {
    Outcomes outcomes;
    outcomes.metrics = {metric};
    outcomes.objectives = {Objective{std::move(metric), minimize, threshold}};
    return outcomes;
}

bool Outcomes::has_metric(const std::string& name) const {
    return std::find(metrics.begin(), metrics.end(), name) != metrics.end();
}

const Objective* Outcomes::objective_on(const std::string& name) const {
    for (const Objective& o : objectives)
        if (o.metric == name) return &o;
    return nullptr;
}

bool Outcomes::is_constrained(const std::string& name) const {
    return std::any_of(constraints.begin(), constraints.end(), [&](const OutcomeConstraint& c) { return c.metric == name; });
}

bool Outcomes::is_tracked(const std::string& name) const {
    return has_metric(name) && !objective_on(name) && !is_constrained(name);
}

std::vector<std::string> Outcomes::modelled_metrics() const {
    std::vector<std::string> names;
    for (const Objective& o : objectives) names.push_back(o.metric);
    for (const OutcomeConstraint& c : constraints)
        if (std::find(names.begin(), names.end(), c.metric) == names.end()) names.push_back(c.metric);
    return names;
}

std::string Outcomes::metric_list() const {
    std::string text;
    for (const std::string& name : metrics) text += (text.empty() ? "'" : ", '") + name + "'";
    return text.empty() ? "none" : text;
}

std::string Outcomes::summary() const {
    std::string text;
    for (const Objective& o : objectives) {
        text += (text.empty() ? "" : ", ") + o.metric + " (" + (o.minimize ? "min" : "max");
        if (o.threshold) text += ", threshold " + format_number(*o.threshold);
        text += ")";
    }
    for (const OutcomeConstraint& c : constraints) text += "; " + c.text();
    std::string tracked;
    for (const std::string& name : metrics)
        if (is_tracked(name)) tracked += (tracked.empty() ? "" : ", ") + name;
    if (!tracked.empty()) text += "; tracked: " + tracked;
    return text;
}

std::optional<std::string> Outcomes::validate() const {
    std::set<std::string> names;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const std::string at = "metrics[" + std::to_string(i) + "]";
        if (metrics[i].empty()) return at + ": a metric name must not be empty";
        if (!names.insert(metrics[i]).second) return at + ": the metric '" + metrics[i] + "' is listed twice";
    }
    if (objectives.empty()) return std::string("objectives: an experiment needs at least one objective");
    if (objectives.size() > static_cast<std::size_t>(kMaxObjectives))
        return "objectives: " + std::to_string(objectives.size()) + " objectives; at most " +
               std::to_string(kMaxObjectives) + " are possible";
    for (std::size_t i = 0; i < objectives.size(); ++i) {
        const Objective& o = objectives[i];
        const std::string at = "objectives[" + std::to_string(i) + "]";
        if (!has_metric(o.metric))
            return at + ".metric: unknown metric '" + o.metric + "'; the metrics are " + metric_list();
        for (std::size_t j = 0; j < i; ++j)
            if (objectives[j].metric == o.metric)
                return at + ".metric: '" + o.metric + "' is already objectives[" + std::to_string(j) +
                       "]; a metric is one objective at most";
        if (o.threshold && !std::isfinite(*o.threshold))
            return at + ".threshold: " + format_number(*o.threshold) + " is not a finite number";
    }
    for (std::size_t i = 0; i < constraints.size(); ++i) {
        const OutcomeConstraint& c = constraints[i];
        const std::string at = "constraints[" + std::to_string(i) + "]";
        if (!has_metric(c.metric))
            return at + ".metric: unknown metric '" + c.metric + "'; the metrics are " + metric_list();
        if (!std::isfinite(c.bound)) return at + ".bound: " + format_number(c.bound) + " is not a finite number";
    }
    return std::nullopt;
}

}  // namespace sebo
