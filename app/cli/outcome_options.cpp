#include "cli/outcome_options.h"

#include <algorithm>

#include "core/format.h"
#include "core/input_error.h"
#include "io/outcome_text.h"

namespace sebo::cli {

namespace {

// An InputError of the text parsers ("--constraint: 'p99<' is not a constraint ...") as usage.
template <class Parse>
auto parsed(Parse parse) {
    try {
        return parse();
    } catch (const InputError& e) {
        throw UsageError(e.what());
    }
}

}  // namespace

std::vector<OptionSpec> outcome_option_specs() {
    return {{"objective", "NAME[:min|:max]", "a metric to optimize (maximized unless :min); repeatable, up to 4", false, true},
            {"threshold", "NAME=V", "objective NAME is worthless beyond V: its hypervolume reference (default: from the "
                                    "data); repeatable", false, true},
            {"constraint", "\"NAME<=V\"", "an outcome constraint, NAME<=V or NAME>=V, on any metric; repeatable", false, true},
            {"metric", "NAME", "another metric that is measured (tracked, or constrained with --constraint); repeatable",
             false, true}};
}

bool has_outcome_options(const Arguments& parser) {
    return parser.has("objective") || parser.has("threshold") || parser.has("constraint") || parser.has("metric");
}

Outcomes outcomes_from_options(const Arguments& parser, const std::optional<Outcomes>& base) {
    Outcomes outcomes;
    for (const std::string& text : parser.values("objective")) {
        Objective objective = parsed([&] { return parse_objective_text(text, "--objective"); });
        if (base && !base->has_metric(objective.metric))
            throw UsageError("--objective: " + single_quoted(objective.metric) + " is not a metric of the problem; its metrics are " +
                             base->metric_list());
        if (outcomes.objective_on(objective.metric))
            throw UsageError("--objective: " + single_quoted(objective.metric) + " is given twice; a metric is one objective at most");
        outcomes.metrics.push_back(objective.metric);
        outcomes.objectives.push_back(std::move(objective));
    }
    if (outcomes.objectives.size() > static_cast<std::size_t>(Outcomes::kMaxObjectives))
        throw UsageError("--objective: " + std::to_string(outcomes.objectives.size()) + " objectives (" +
                         parser.values("objective").back() + " is the " +
                         std::to_string(outcomes.objectives.size()) + "th); at most " +
                         std::to_string(Outcomes::kMaxObjectives) + " are possible");
    if (outcomes.objectives.empty()) {
        if (!base) throw UsageError("--objective NAME[:min|:max] is required (the metric to optimize)");
        outcomes.objectives = base->objectives;
        for (const Objective& o : outcomes.objectives) outcomes.metrics.push_back(o.metric);
    }
    for (const std::string& name : parser.values("metric")) {
        if (name.empty()) throw UsageError("--metric: the metric name is empty");
        if (outcomes.objective_on(name))
            throw UsageError("--metric: " + single_quoted(name) + " is already an objective (--metric declares the other metrics)");
        if (outcomes.has_metric(name)) throw UsageError("--metric: " + single_quoted(name) + " is given twice");
        outcomes.metrics.push_back(name);
    }
    if (base)
        for (const std::string& name : base->metrics)
            if (!outcomes.has_metric(name)) outcomes.metrics.push_back(name);

    std::vector<std::string> thresholds;
    for (const std::string& text : parser.values("threshold")) {
        const auto [name, value] = parsed([&] { return parse_named_number(text, "--threshold"); });
        const auto it = std::find_if(outcomes.objectives.begin(), outcomes.objectives.end(),
                                     [&metric = name](const Objective& o) { return o.metric == metric; });
        if (it == outcomes.objectives.end()) {
            std::string objectives;
            for (const Objective& o : outcomes.objectives) objectives += (objectives.empty() ? "'" : ", '") + o.metric + "'";
            throw UsageError("--threshold: " + single_quoted(text) + " names " + single_quoted(name) +
                             ", which is not an objective (the objectives: " + objectives + ")");
        }
        if (std::find(thresholds.begin(), thresholds.end(), name) != thresholds.end())
            throw UsageError("--threshold: " + single_quoted(name) + " is given twice");
        thresholds.push_back(name);
        it->threshold = value;
    }
    for (const std::string& text : parser.values("constraint")) {
        OutcomeConstraint constraint = parsed([&] { return parse_constraint_text(text, "--constraint"); });
        if (!outcomes.has_metric(constraint.metric))
            throw UsageError("--constraint: " + single_quoted(text) + " is on the unknown metric " + single_quoted(constraint.metric) +
                             "; the metrics are " + outcomes.metric_list() + " (declare another one with --metric " +
                             constraint.metric + ")");
        outcomes.constraints.push_back(std::move(constraint));
    }
    if (base && parser.values("constraint").empty()) outcomes.constraints = base->constraints;
    if (auto error = outcomes.validate()) throw UsageError(*error);
    return outcomes;
}

}  // namespace sebo::cli
