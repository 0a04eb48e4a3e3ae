#include "experiment/comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/format.h"
#include "core/input_error.h"
#include "experiment/replicates.h"

namespace sebo {

namespace {

// The trials merged into `trial`'s values: its configuration's group among the trials that count
// in the analysis, or the trial alone.
std::vector<int> measurements_of(const std::vector<Replicates>& groups, int trial) {
    for (const Replicates& group : groups)
        if (std::find(group.trials.begin(), group.trials.end(), trial) != group.trials.end()) return group.trials;
    return {trial};
}

CandidateComparison measure(const Experiment& experiment, const Trial& trial, std::vector<int> measurements,
                            const RecommendationReport* estimates) {
    CandidateComparison c;
    c.trial = trial.index;
    c.measurements = std::move(measurements);
    c.sparsity = experiment.sparsity(trial);
    c.changes = changes_from_target(experiment.space, trial.parameters);
    const ConfigurationEstimate* estimate = estimates ? estimates->find(trial.index) : nullptr;
    Trial merged = trial;  // the merged values, for feasibility
    merged.values.clear();
    for (const std::string& name : experiment.outcomes.metrics) {
        MetricComparison m;
        m.metric = name;
        if (const Objective* o = experiment.outcomes.objective_on(name)) m.objective = *o;
        m.constrained = experiment.outcomes.is_constrained(name);
        const MergedMeasurement measured = merged_measurement(experiment, c.measurements, name);
        if (measured.count > 0) {
            m.value = measured.mean;
            m.sem = measured.sem;
            m.count = measured.count;
            merged.values[name] = Measurement{measured.mean, measured.sem};
        }
        if (estimate) {
            if (const auto it = estimate->estimates.find(name); it != estimate->estimates.end()) m.estimate = it->second;
            if (const auto it = estimate->p_better_than_status_quo.find(name); it != estimate->p_better_than_status_quo.end())
                m.p_better_than_status_quo = it->second;
        }
        c.metrics.push_back(std::move(m));
    }
    c.feasibility = experiment.feasibility(merged);
    return c;
}

void add_differences(CandidateComparison& candidate, const CandidateComparison& status_quo) {
    for (std::size_t i = 0; i < candidate.metrics.size(); ++i) {
        MetricComparison& m = candidate.metrics[i];
        const MetricComparison& base = status_quo.metrics[i];
        if (!m.value || !base.value) continue;
        m.difference = *m.value - *base.value;
        if (*base.value != 0.0) m.relative = *m.difference / std::abs(*base.value);
        if (m.objective && *m.difference != 0.0) m.better = m.objective->to_utility(*m.difference) > 0.0;
    }
}

std::string signed_short(double value) { return (value > 0.0 ? "+" : "") + format_short(value); }

}  // namespace

Comparison compare_candidates(const Experiment& experiment, const std::vector<int>& trials,
                              const RecommendationReport* estimates) {
    if (trials.empty()) throw InputError("trials", "no trial to compare");
    const std::vector<Replicates> groups = analyzed_replicates(experiment);
    Comparison comparison;
    for (const Replicates& group : groups) {
        const Trial& first = *experiment.find_trial(group.trials.front());
        if (experiment.sparsity(first) != 0) continue;
        comparison.status_quo_trials = group.trials;
        comparison.status_quo = measure(experiment, first, group.trials, estimates);
        comparison.status_quo->is_status_quo = true;
        break;
    }
    std::vector<int> seen;
    for (int index : trials) {
        if (std::find(seen.begin(), seen.end(), index) != seen.end()) continue;
        seen.push_back(index);
        const Trial* t = experiment.find_trial(index);
        if (!t) throw InputError("trials", "there is no trial " + std::to_string(index));
        if (t->status != TrialStatus::Completed)
            throw InputError("trials", "trial " + std::to_string(index) + " is " + to_string(t->status) +
                                           "; only measured configurations can be compared");
        CandidateComparison c = measure(experiment, *t, measurements_of(groups, index), estimates);
        c.is_status_quo = std::find(comparison.status_quo_trials.begin(), comparison.status_quo_trials.end(), index) !=
                          comparison.status_quo_trials.end();
        if (comparison.status_quo) add_differences(c, *comparison.status_quo);
        comparison.candidates.push_back(std::move(c));
    }
    return comparison;
}

std::string metric_label(const Experiment& experiment, const std::string& metric) {
    std::vector<std::string> parts;
    if (const Objective* o = experiment.outcomes.objective_on(metric)) parts.push_back(o->minimize ? "minimized" : "maximized");
    for (const OutcomeConstraint& c : experiment.outcomes.constraints)
        if (c.metric == metric) parts.push_back(c.text());
    if (parts.empty()) parts.push_back("tracked");
    std::string text = metric + " (";
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? "; " : "") + parts[i];
    return text + ")";
}

std::string constraints_text(Feasibility feasibility) {
    switch (feasibility) {
    case Feasibility::Feasible: return "met";
    case Feasibility::Infeasible: return "not met";
    case Feasibility::Unknown: break;
    }
    return "unknown (a constrained metric was not recorded)";
}

std::string percent_text(double fraction) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%+.1f %%", 100.0 * fraction);
    return buffer;
}

std::string describe_value(const MetricComparison& metric) {
    if (!metric.value) return "\u2014";
    std::string text = format_short(*metric.value);
    if (metric.sem) text += " \u00b1 " + format_short(*metric.sem, 3);
    if (metric.count > 1) text += " (mean of " + std::to_string(metric.count) + ")";
    if (metric.difference) {
        text += " (" + signed_short(*metric.difference);
        if (metric.relative) text += ", " + percent_text(*metric.relative);
        text += ")";
    }
    return text;
}

std::string describe_estimate(const MetricComparison& metric) {
    if (!metric.estimate) return {};
    std::string text = "model " + format_short(metric.estimate->mean) + " (95 %: " + format_short(metric.estimate->lower, 4) +
                       " \u2013 " + format_short(metric.estimate->upper, 4) + ")";
    if (metric.p_better_than_status_quo) {
        char p[16];
        std::snprintf(p, sizeof p, "%.2f", *metric.p_better_than_status_quo);
        text += ", P(better than the status quo) " + std::string(p);
    }
    return text;
}

}  // namespace sebo
