#include "report/report_html.h"

#include <algorithm>

#include "core/format.h"
#include "evaluators/command_evaluator.h"
#include "experiment/replicates.h"
#include "report/html_text.h"
#include "report/report_sections.h"

namespace sebo {

namespace report_detail {

ShownTrials::ShownTrials(const Experiment& experiment) : experiment_(experiment) {
    for (const Replicates& group : analyzed_replicates(experiment))
        for (int trial : group.trials) group_of_[trial] = group.trials;
}

Trial ShownTrials::shown(const Trial& trial) const {
    const auto it = group_of_.find(trial.index);
    if (it == group_of_.end() || it->second.size() < 2) return trial;
    return merged_trial(experiment_, it->second);
}

int ShownTrials::measurements(int trial) const {
    const auto it = group_of_.find(trial);
    return it == group_of_.end() ? 0 : static_cast<int>(it->second.size());
}

std::string esc(const std::string& text) { return html_escaped(text); }

std::string value_text(const Measurement& m) {
    return format_short(m.mean) + (m.sem ? " ± " + format_short(*m.sem, 3) : std::string());
}

std::string metric_role(const Experiment& e, const std::string& metric) {
    if (const Objective* o = e.outcomes.objective_on(metric)) return o->minimize ? "minimize" : "maximize";
    std::string text;
    for (const OutcomeConstraint& c : e.outcomes.constraints)
        if (c.metric == metric) text += (text.empty() ? "" : ", ") + c.text();
    return text.empty() ? "tracked" : text;
}

std::string count_of(std::size_t n, const std::string& singular, const std::string& plural) {
    return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

std::string list_of(const std::vector<int>& numbers) {
    std::string text;
    for (std::size_t i = 0; i < numbers.size(); ++i)
        text += (i == 0 ? "" : i + 1 == numbers.size() ? " and " : ", ") + std::to_string(numbers[i]);
    return text;
}

}  // namespace report_detail

namespace {

using namespace report_detail;

// Print-friendly, readable without colour; the charts' classes (report/report_charts.h) are here.
constexpr const char* kStyle = R"(body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #1a1a1a;
  background: #ffffff; max-width: 60rem; margin: 1.5rem auto; padding: 0 1rem; line-height: 1.45; font-size: 15px; }
h1 { font-size: 1.7rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; border-bottom: 2px solid #3a6ea5; padding-bottom: 0.2rem; margin-top: 2rem; }
h3 { font-size: 1.1rem; margin-bottom: 0.3rem; }
table { border-collapse: collapse; margin: 0.6rem 0 1rem; font-size: 0.9rem; }
th, td { border: 1px solid #b8b8b8; padding: 0.25rem 0.5rem; vertical-align: top; text-align: left; }
th { background: #e8eef5; }
td.number { text-align: right; white-space: nowrap; }
tr.level td { border-top: 2px solid #7a7a7a; }
.role { font-weight: normal; color: #555555; font-size: 0.85em; }
.badge { background: #3a6ea5; color: #ffffff; border-radius: 0.3rem; padding: 0 0.3rem; font-size: 0.8em; }
.note { color: #555555; }
.warning { color: #8a4b00; }
.chosen-note { white-space: pre-wrap; border-left: 4px solid #3a6ea5; padding-left: 0.6rem; }
.description { white-space: pre-wrap; }
code, .mono { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 0.9em; overflow-wrap: anywhere; }
code.hash { white-space: nowrap; overflow-wrap: normal; }
figure { margin: 0.8rem 0; break-inside: avoid; }
figcaption { color: #555555; font-size: 0.85rem; }
svg { max-width: 100%; height: auto; }
svg .grid { stroke: #e0e0e0; stroke-width: 1; }
svg .axis { stroke: #333333; stroke-width: 1; }
svg .tick { font-size: 11px; fill: #333333; }
svg .label { font-size: 12px; fill: #1a1a1a; }
svg .axis-title { font-size: 12px; fill: #1a1a1a; }
svg .staircase { fill: none; stroke: #3a6ea5; stroke-width: 2; }
svg .trace { fill: none; stroke: #2e7d32; stroke-width: 2; }
svg .point { fill: #9e9e9e; stroke: #616161; stroke-width: 1; }
svg .point.infeasible { fill: #ffffff; stroke: #c62828; }
svg .point.best { fill: #3a6ea5; stroke: #1a3d63; }
svg .bar { fill: #3a6ea5; }
article.chosen, table { break-inside: avoid; }
@page { size: A4; margin: 14mm; }
@media print { body { margin: 0; max-width: none; font-size: 11pt; } h2 { break-after: avoid; } }
)";

std::string kind_text(const Parameter& p) {
    if (p.kind == ParameterKind::Choice) return p.ordered ? "choice (ordered)" : "choice";
    return std::string(to_string(p.kind)) + (p.log_scale ? ", log scale" : "");
}

std::string range_text(const Parameter& p) {
    if (p.kind == ParameterKind::Choice) {
        std::string values;
        for (const ChoiceValue& v : p.values) values += (values.empty() ? "" : " | ") + v.text;
        return values;
    }
    return format_number(p.lower) + " to " + format_number(p.upper);
}

std::string section_question(const Experiment& e) {
    std::string html = "<section id=\"question\">\n<h2>The question</h2>\n<ul>\n";
    const bool several = e.outcomes.objectives.size() > 1;
    html += "<li><strong>" + std::string(several ? "Objectives" : "Objective") + ":</strong> ";
    for (std::size_t j = 0; j < e.outcomes.objectives.size(); ++j) {
        const Objective& o = e.outcomes.objectives[j];
        html += std::string(j ? "; " : "") + esc(o.metric) + " (" + (o.minimize ? "minimize" : "maximize");
        if (o.threshold)
            html += ", worth nothing " + std::string(o.minimize ? "above " : "below ") + esc(format_number(*o.threshold));
        html += ")";
    }
    html += "</li>\n<li><strong>Outcome constraints:</strong> ";
    if (e.outcomes.constraints.empty()) html += "none";
    for (std::size_t i = 0; i < e.outcomes.constraints.size(); ++i)
        html += (i ? "; " : "") + esc(e.outcomes.constraints[i].text());
    html += "</li>\n";
    std::string tracked;
    for (const std::string& metric : e.outcomes.metrics)
        if (e.outcomes.is_tracked(metric)) tracked += (tracked.empty() ? "" : ", ") + esc(metric);
    if (!tracked.empty()) html += "<li><strong>Tracked metrics:</strong> " + tracked + "</li>\n";

    int integers = 0, continuous = 0, choices = 0, logs = 0;
    for (const Parameter& p : e.space.parameters()) {
        integers += p.kind == ParameterKind::Integer;
        continuous += p.kind == ParameterKind::Continuous;
        choices += p.kind == ParameterKind::Choice;
        logs += p.log_scale;
    }
    std::string kinds;
    const auto add_kind = [&](int n, const char* name) {
        if (n > 0) kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + name;
    };
    add_kind(continuous, "continuous");
    add_kind(integers, "integer");
    add_kind(choices, choices == 1 ? "choice" : "choices");
    html += "<li><strong>Space:</strong> " + count_of(static_cast<std::size_t>(e.space.dimension()), "parameter", "parameters") +
            " to tune (" + kinds + (logs ? "; " + std::to_string(logs) + " on a log scale" : "") + ")";
    if (e.space.has_groups()) html += " in " + std::to_string(e.space.group_count()) + " groups that count as one change each";
    html += ".</li>\n";
    if (!e.space.fixed_parameters().empty()) {
        html += "<li><strong>Fixed:</strong> ";
        bool first = true;
        for (const Parameter& p : e.space.fixed_parameters()) {
            html += (first ? "" : ", ") + esc(p.name) + " = " + esc(format_number(p.resolved_target()));
            first = false;
        }
        html += "</li>\n";
    }
    html += "<li><strong>Linear constraints on the parameters:</strong> ";
    if (!e.space.has_constraints()) html += "none";
    for (int k = 0; k < static_cast<int>(e.space.constraints().size()); ++k)
        html += (k ? "; " : "") + std::string("<span class=\"mono\">") + esc(e.space.constraint_text(k)) + "</span>";
    html += "</li>\n</ul>\n";
    html += "<p>A change is a parameter set away from its status quo (its target, the value in use today); the fewer "
            "changes a configuration needs, the easier it is to adopt.</p>\n";
    html += "<table class=\"space\">\n<thead><tr><th>parameter</th><th>kind</th><th>values</th><th>status quo</th></tr></thead>\n<tbody>\n";
    for (const Parameter& p : e.space.parameters())
        html += "<tr><td>" + esc(p.name) + "</td><td>" + esc(kind_text(p)) + "</td><td>" + esc(range_text(p)) + "</td><td>" +
                esc(sebo::value_text(p, p.resolved_target())) + "</td></tr>\n";
    html += "</tbody>\n</table>\n</section>\n";
    return html;
}

std::string section_method(const Experiment& e) {
    const MethodSettings& m = e.method;
    std::string html = "<section id=\"method\">\n<h2>Method</h2>\n<table class=\"settings\">\n<tbody>\n";
    const auto row = [&](const std::string& name, const std::string& value) {
        html += "<tr><th>" + name + "</th><td>" + value + "</td></tr>\n";
    };
    row("strategy", esc(to_string(m.strategy)) + " — " + esc(describe(m.strategy)));
    if (uses_model(m.strategy)) {
        std::string model = to_string(m.resolved_model());
        if (m.resolved_model() == ModelKind::SaasNuts) model += ", NUTS " + std::string(to_string(m.nuts));
        row("model", esc(model));
        row("noisy acquisition", esc(to_string(m.noisy_acquisition)));
        if (is_sebo(m.strategy))
            row("dense start under noise",
                m.dense_steps == 0 ? std::string("off")
                                   : std::to_string(m.dense_steps) + (m.dense_steps == 1 ? " trial" : " trials") +
                                         (m.dense_steps_max > m.dense_steps
                                              ? ", up to " + std::to_string(m.dense_steps_max) + " while the model knows no parameter to matter"
                                              : std::string()) +
                                         (m.dense_thompson ? ", noisy EI, then Thompson sampling if it measures no better than the design"
                                                           : ", noisy EI"));
    }
    if (m.strategy == StrategyKind::EiEr || m.strategy == StrategyKind::EiIr)
        row("regularization", "λ = " + esc(format_number(m.lambda)) + ", penalty " + esc(to_string(m.resolved_penalty())));
    if (m.strategy == StrategyKind::Bonsai) row("pruning tolerance", esc(format_number(m.bonsai_tolerance)));
    row("initial trials", std::to_string(m.initial_trials) + (m.status_quo_first ? " (the status quo, then Sobol)" : " (Sobol)"));
    row("budget", std::to_string(m.budget) + " trials");
    if (m.min_active || m.max_active)
        row("sparsity range", std::to_string(m.min_active.value_or(0)) + " to " +
                                  std::to_string(m.max_active.value_or(e.max_sparsity())) + " changes");
    row("seed", std::to_string(e.seed));
    int fits = 0;
    std::optional<double> worst;
    for (const Trial& t : e.trials)
        if (t.fit) {
            ++fits;
            if (auto r = t.fit->max_rhat(); r && (!worst || *r > *worst)) worst = r;
        }
    if (fits > 0)
        row("model fits recorded", std::to_string(fits) + (worst ? ", largest R-hat " + format_short(*worst, 4) : std::string()));
    html += "</tbody>\n</table>\n</section>\n";
    return html;
}

std::string evaluator_text(const EvaluatorSpec& ev) {
    switch (ev.kind) {
    case EvaluatorSpec::Kind::Problem: {
        std::string text = "built-in problem " + ev.problem.name;
        if (ev.problem.dimension > 0) text += ", dimension " + std::to_string(ev.problem.dimension);
        return text;
    }
    case EvaluatorSpec::Kind::Command: {
        // Quoted as a shell would need it, so that one argument cannot pass for several.
        std::string text = "<code>" + esc(shell_quoted_command_line(ev.command)) + "</code>";
        if (!ev.working_directory.empty()) text += " in <code>" + esc(ev.working_directory) + "</code>";
        return text;
    }
    case EvaluatorSpec::Kind::Manual: return "manual: results entered by a person";
    }
    return "";
}

std::string section_source(const Experiment& e, const ReportSource& source, const ReportOptions& options) {
    std::string html = "<section id=\"source\">\n<h2>Where this came from</h2>\n<table class=\"settings\">\n<tbody>\n";
    const auto row = [&](const std::string& name, const std::string& value) {
        html += "<tr><th>" + name + "</th><td>" + value + "</td></tr>\n";
    };
    row("experiment file", source.path.empty() ? std::string("not saved to a file") : "<code>" + esc(source.path) + "</code>");
    if (!source.sha256.empty())
        row("SHA-256 of the file", "<code class=\"hash\">" + esc(source.sha256) + "</code>" +
                                       (source.unsaved_changes ? " (the file as saved; this report includes changes not saved to it)" : ""));
    std::string counts = std::to_string(e.trials.size()) + ": " + std::to_string(e.count(TrialStatus::Completed)) + " completed";
    if (e.excluded_count() > 0) counts += " (" + std::to_string(e.excluded_count()) + " excluded)";
    counts += ", " + std::to_string(e.count(TrialStatus::Failed)) + " failed, " + std::to_string(e.count(TrialStatus::Pending)) +
              " pending, " + std::to_string(e.count(TrialStatus::Abandoned)) + " abandoned";
    row("trials", counts);
    // ISO-8601 UTC texts compare as their times do.
    std::string first, last;
    for (const Trial& t : e.trials) {
        for (const std::string* at : {&t.created_at, &t.completed_at}) {
            if (at->empty()) continue;
            if (first.empty() || *at < first) first = *at;
            if (last.empty() || *at > last) last = *at;
        }
    }
    if (!first.empty()) row("first trial", esc(first));
    if (!last.empty()) row("last recorded", esc(last));
    row("evaluator", evaluator_text(e.evaluator));
    if (!options.generated_at.empty() || !options.program_version.empty())
        row("this report", (options.generated_at.empty() ? std::string() : "written " + esc(options.generated_at)) +
                               (options.program_version.empty() ? std::string() : " by " + esc(options.program_version)));
    html += "</tbody>\n</table>\n</section>\n";
    return html;
}

}  // namespace

std::string report_html(const Experiment& experiment, const FrontierReport& frontier, const ReportSource& source,
                        const ReportOptions& options) {
    const ShownTrials shown(experiment);
    const std::string title = experiment.name.empty() ? std::string("Experiment report") : experiment.name;
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
                       esc(title) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n";
    html += "<header>\n<h1>" + esc(title) + "</h1>\n";
    if (!experiment.description.empty()) html += "<p class=\"description\">" + esc(experiment.description) + "</p>\n";
    html += "</header>\n";
    html += section_question(experiment);
    html += section_frontier(experiment, frontier, shown);
    html += section_chosen(experiment, shown);
    html += section_progress(experiment, frontier);
    html += section_method(experiment);
    html += section_warnings(experiment);
    html += section_source(experiment, source, options);
    html += "</body>\n</html>\n";
    return html;
}

}  // namespace sebo
