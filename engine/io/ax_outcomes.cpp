#include "io/ax_outcomes.h"

#include <algorithm>

#include "core/input_error.h"
#include "io/json_document.h"

namespace sebo::ax {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) { throw InputError(path, message); }

std::string metric_name(const Document& metric, const std::string& path) {
    expect_object(metric, path);
    return string_value(required(metric, path, "name"), member_path(path, "name"));
}

// Ax 1.3's objective expression: metric names, each negated when minimized, separated by commas
// for several objectives (ax/core/objective.py). Anything else combines metrics.
std::vector<Objective> read_expression(const std::string& expression, const std::string& path) {
    std::vector<Objective> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = expression.find(',', start);
        std::string part = expression.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        while (!part.empty() && part.front() == ' ') part.erase(0, 1);
        while (!part.empty() && part.back() == ' ') part.pop_back();
        Objective o;
        if (!part.empty() && part.front() == '-') {
            o.minimize = true;
            part.erase(0, 1);
            while (!part.empty() && part.front() == ' ') part.erase(0, 1);
        }
        if (part.empty() || part.find_first_of("+*/() ") != std::string::npos)
            fail(path, shown_text(expression) +
                           " combines metrics (a weighted sum or a product); SEBO optimizes each objective as a metric of its own");
        o.metric = part;
        out.push_back(std::move(o));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

std::vector<Objective> read_objective(const Document& objective, const std::string& path) {
    expect_object(objective, path);
    const std::string type = type_of(objective);
    if (type == "Objective") {
        if (const Document* expression = optional(objective, "expression"))
            return read_expression(string_value(*expression, member_path(path, "expression")), member_path(path, "expression"));
        Objective o;
        o.metric = metric_name(required(objective, path, "metric"), member_path(path, "metric"));
        o.minimize = boolean_value(required(objective, path, "minimize"), member_path(path, "minimize"));
        return {o};
    }
    if (type == "MultiObjective") {
        const std::string at = member_path(path, "objectives");
        const Document& list = expect_array(required(objective, path, "objectives"), at);
        std::vector<Objective> out;
        for (std::size_t i = 0; i < list.size(); ++i)
            for (Objective& o : read_objective(list[i], element_path(at, i))) out.push_back(std::move(o));
        return out;
    }
    if (type == "ScalarizedObjective")
        fail(path, "a ScalarizedObjective (a weighted sum of metrics) cannot be imported: SEBO optimizes each objective as a "
                   "metric of its own");
    fail(path, "unknown objective type " + shown_text(type) + " (known: Objective, MultiObjective)");
}

// {metric, op: {"__type": "ComparisonOp", "name": "LEQ" | "GEQ"}, bound, relative}
struct Bound {
    std::string metric;
    ConstraintSense sense = ConstraintSense::AtMost;
    double bound = 0.0;
    bool relative = false;
};

Bound read_bound(const Document& c, const std::string& path) {
    expect_object(c, path);
    if (type_of(c) == "ScalarizedOutcomeConstraint")
        fail(path, "a ScalarizedOutcomeConstraint (a limit on a weighted sum of metrics) cannot be imported");
    Bound out;
    out.metric = metric_name(required(c, path, "metric"), member_path(path, "metric"));
    const std::string op = enum_name(required(c, path, "op"), member_path(path, "op"));
    if (op == "LEQ") out.sense = ConstraintSense::AtMost;
    else if (op == "GEQ") out.sense = ConstraintSense::AtLeast;
    else fail(member_path(path, "op"), "unknown comparison " + shown_text(op) + " (expected LEQ or GEQ)");
    out.bound = finite_number(required(c, path, "bound"), member_path(path, "bound"));
    if (const Document* relative = optional(c, "relative")) out.relative = boolean_value(*relative, member_path(path, "relative"));
    return out;
}

void add_metric(Outcomes& outcomes, const std::string& name) {
    if (!outcomes.has_metric(name)) outcomes.metrics.push_back(name);
}

}  // namespace

AxOutcomes read_outcomes(const Document& experiment, const std::string& path) {
    AxOutcomes out;
    Outcomes& outcomes = out.outcomes;
    const std::string at = member_path(path, "optimization_config");
    const Document* config = optional(experiment, "optimization_config");
    if (!config)
        fail(at, "the experiment has no optimization config, so nothing says what to optimize; set an objective in Ax first");
    expect_object(*config, at);
    const std::string type = type_of(*config);
    if (type != "OptimizationConfig" && type != "MultiObjectiveOptimizationConfig")
        fail(member_path(at, "__type"), "a " + shown_text(type) +
                                            " cannot be imported (known: OptimizationConfig, MultiObjectiveOptimizationConfig)");
    outcomes.objectives = read_objective(required(*config, at, "objective"), member_path(at, "objective"));
    for (const Objective& o : outcomes.objectives) add_metric(outcomes, o.metric);

    if (const Document* thresholds = optional(*config, "objective_thresholds")) {
        const std::string t_at = member_path(at, "objective_thresholds");
        expect_array(*thresholds, t_at);
        for (std::size_t i = 0; i < thresholds->size(); ++i) {
            const std::string t_path = element_path(t_at, i);
            const Bound b = read_bound((*thresholds)[i], t_path);
            const auto o = std::find_if(outcomes.objectives.begin(), outcomes.objectives.end(),
                                        [&](const Objective& x) { return x.metric == b.metric; });
            if (o == outcomes.objectives.end())
                fail(member_path(t_path, "metric"), "'" + b.metric + "' is not an objective; " + outcomes.metric_list());
            o->threshold = b.bound;
            if (b.relative)
                out.relative.push_back({true, static_cast<std::size_t>(o - outcomes.objectives.begin()), b.bound, t_path});
        }
    }
    if (const Document* constraints = optional(*config, "outcome_constraints")) {
        const std::string c_at = member_path(at, "outcome_constraints");
        expect_array(*constraints, c_at);
        for (std::size_t i = 0; i < constraints->size(); ++i) {
            const std::string c_path = element_path(c_at, i);
            const Bound b = read_bound((*constraints)[i], c_path);
            add_metric(outcomes, b.metric);
            outcomes.constraints.push_back({b.metric, b.sense, b.bound});
            if (b.relative) out.relative.push_back({false, outcomes.constraints.size() - 1, b.bound, c_path});
        }
    }
    if (const Document* tracking = optional(experiment, "tracking_metrics")) {
        const std::string m_at = member_path(path, "tracking_metrics");
        expect_array(*tracking, m_at);
        for (std::size_t i = 0; i < tracking->size(); ++i) add_metric(outcomes, metric_name((*tracking)[i], element_path(m_at, i)));
    }
    return out;
}

}  // namespace sebo::ax
