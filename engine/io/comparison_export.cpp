#include "io/comparison_export.h"

#include <algorithm>

#include "core/format.h"
#include "io/csv_cell.h"

namespace sebo {

namespace {

std::string trial_names(const std::vector<int>& trials) {
    std::string text;
    for (int t : trials) text += (text.empty() ? "" : ", ") + std::to_string(t);
    return text;
}

std::string role(const MetricComparison& m) {
    if (m.objective) return m.objective->minimize ? "minimize" : "maximize";
    return m.constrained ? "constraint" : "tracked";
}

std::string changes_line(const CandidateComparison& c) {
    if (c.changes.empty()) return "no change (the status quo)";
    return std::to_string(c.changes.size()) + (c.changes.size() == 1 ? " change: " : " changes: ") + describe(c.changes);
}

std::string metric_lines(const Experiment& experiment, const CandidateComparison& c, const std::string& indent) {
    std::string text;
    for (const MetricComparison& m : c.metrics) {
        text += indent + metric_label(experiment, m.metric) + ": " + describe_value(m);
        if (const std::string estimate = describe_estimate(m); !estimate.empty()) text += "; " + estimate;
        text += "\n";
    }
    if (!experiment.outcomes.constraints.empty())
        text += indent + "constraints: " + constraints_text(c.feasibility) + "\n";
    return text;
}

std::string status_quo_line(const Comparison& comparison) {
    if (!comparison.status_quo)
        return "No status quo (the configuration that changes nothing) was measured: values without differences.\n";
    const std::vector<int>& trials = comparison.status_quo_trials;
    std::string text = "Compared with the status quo (" + std::string(trials.size() == 1 ? "trial " : "trials ") +
                       trial_names(trials) + "):";
    std::string values;
    for (const MetricComparison& m : comparison.status_quo->metrics)
        values += (values.empty() ? " " : ", ") + m.metric + " " + describe_value(m);
    return text + values + "\n";
}

std::string optional_number(const std::optional<double>& value) { return value ? format_number(*value) : std::string(); }

void csv_rows(std::string& out, const CandidateComparison& c) {
    for (const MetricComparison& m : c.metrics) {
        const std::vector<std::string> row{
            std::to_string(c.trial),
            c.is_status_quo ? "true" : "false",
            csv_text_cell(c.changes.empty() ? std::string() : describe(c.changes, "; ")),
            std::to_string(c.sparsity),
            csv_text_cell(m.metric),
            role(m),
            optional_number(m.value),
            optional_number(m.sem),
            std::to_string(m.count),
            optional_number(m.difference),
            m.relative ? format_number(100.0 * *m.relative) : std::string(),
            m.estimate ? format_number(m.estimate->mean) : std::string(),
            m.estimate ? format_number(m.estimate->lower) : std::string(),
            m.estimate ? format_number(m.estimate->upper) : std::string(),
            optional_number(m.p_better_than_status_quo),
        };
        for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + row[i];
        out += "\n";
    }
}

}  // namespace

std::string comparison_text(const Experiment& experiment, const Comparison& comparison) {
    std::string text = status_quo_line(comparison);
    for (const CandidateComparison& c : comparison.candidates) {
        text += "\nTrial " + std::to_string(c.trial);
        if (c.measurements.size() > 1)
            text += " (measured " + std::to_string(c.measurements.size()) + " times: trials " + trial_names(c.measurements) + ")";
        text += ": " + changes_line(c) + "\n";
        text += metric_lines(experiment, c, "  ");
    }
    return text;
}

std::string comparison_csv(const Experiment& /*experiment*/, const Comparison& comparison) {
    std::string out =
        "trial,status_quo,changes,active,metric,role,value,sem,count,difference,difference_percent,model_mean,model_lower,"
        "model_upper,p_better_than_status_quo\n";
    if (comparison.status_quo) csv_rows(out, *comparison.status_quo);
    for (const CandidateComparison& c : comparison.candidates)
        if (!c.is_status_quo || !comparison.status_quo) csv_rows(out, c);
    return out;
}

std::string change_request_text(const Experiment& experiment, int trial, const RecommendationReport* estimates) {
    const Comparison comparison = compare_candidates(experiment, {trial}, estimates);
    const CandidateComparison& c = comparison.candidates.front();
    std::string text = "Change request: the configuration of trial " + std::to_string(trial);
    if (!experiment.name.empty()) text += " of the experiment \"" + experiment.name + "\"";
    text += "\n\n";
    if (c.changes.empty()) {
        text += "Change nothing: this is the status quo (every parameter at its target).\n";
    } else {
        text += "Change " + std::to_string(c.changes.size()) + (c.changes.size() == 1 ? " parameter" : " parameters") +
                " (every other one stays as it is):\n";
        for (const ParameterChange& change : c.changes) text += "  " + describe(change) + "\n";
    }
    text += "\nExpected effect, as measured";
    if (c.measurements.size() > 1) text += " (mean of trials " + trial_names(c.measurements) + ")";
    text += ":\n";
    text += metric_lines(experiment, c, "  ");
    text += "\n" + status_quo_line(comparison);
    const auto chosen = std::find_if(experiment.chosen.begin(), experiment.chosen.end(),
                                     [&](const ChosenConfiguration& ch) { return ch.trial == trial; });
    if (chosen != experiment.chosen.end() && !chosen->note.empty()) text += "\nNote: " + chosen->note + "\n";
    return text;
}

}  // namespace sebo
