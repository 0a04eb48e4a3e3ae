#include "io/csv_export.h"

#include <cassert>
#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/input_error.h"
#include "io/choice_json.h"

namespace sebo {
namespace {

std::string optional_number(const std::optional<double>& value) { return value ? format_number(*value) : std::string(); }

std::string feasibility_text(Feasibility feasibility) {
    switch (feasibility) {
    case Feasibility::Feasible: return "true";
    case Feasibility::Infeasible: return "false";
    case Feasibility::Unknown: return "unknown";
    }
    return "unknown";
}

// Appends one CSV row (fields already quoted where needed).
void append_row(std::string& out, const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i > 0) out += ',';
        out += cells[i];
    }
    out += '\n';
}

const Trial& require_trial(const Experiment& experiment, int index) {
    const Trial* trial = experiment.find_trial(index);
    if (!trial) throw InputError("trial", "no trial with index " + std::to_string(index));
    assert(static_cast<int>(trial->parameters.size()) == experiment.space.dimension());
    return *trial;
}

}  // namespace

std::string trials_to_csv(const Experiment& experiment) {
    const SearchSpace& space = experiment.space;
    std::string out;
    const Outcomes& outcomes = experiment.outcomes;
    const bool constrained = !outcomes.constraints.empty();
    std::vector<std::string> header = {"trial", "status"};
    for (const std::string& metric : outcomes.metrics) {
        header.push_back(csv_text_cell(metric));
        header.push_back(csv_text_cell(metric + "_sem"));
    }
    header.push_back("active");
    if (constrained) header.push_back("feasible");
    header.push_back("generator");
    for (const Parameter& p : space.declared_parameters()) header.push_back(csv_text_cell(p.name));
    header.push_back("error");
    header.push_back("excluded");
    append_row(out, header);
    for (const Trial& t : experiment.trials) {
        assert(static_cast<int>(t.parameters.size()) == space.dimension());
        std::vector<std::string> row = {std::to_string(t.index), to_string(t.status)};
        for (const std::string& metric : outcomes.metrics) {
            const Measurement* m = t.measurement(metric);
            row.push_back(m ? format_number(m->mean) : std::string());
            row.push_back(m ? optional_number(m->sem) : std::string());
        }
        row.push_back(std::to_string(experiment.sparsity(t)));
        if (constrained)
            row.push_back(t.status == TrialStatus::Completed ? feasibility_text(experiment.feasibility(t)) : std::string());
        row.push_back(csv_text_cell(t.generator));
        const std::vector<double> values = space.declared_values(t.parameters);
        for (std::size_t j = 0; j < values.size(); ++j)
            row.push_back(csv_text_cell(value_text(space.declared_parameters()[j], values[j])));
        row.push_back(csv_text_cell(t.error));
        row.push_back(t.exclusion ? csv_text_cell(t.exclusion->reason) : std::string());
        append_row(out, row);
    }
    return out;
}

namespace {

// The rows of configuration_to_csv without its header: parameter, value, target, changed.
std::vector<std::vector<std::string>> configuration_rows(const Experiment& experiment, int trial, bool changed_only) {
    const Trial& t = require_trial(experiment, trial);
    const SearchSpace& space = experiment.space;
    std::vector<std::vector<std::string>> rows;
    // Declared order; a fixed parameter is its own target, never changed, and says "fixed".
    const std::vector<double> values = space.declared_values(t.parameters);
    int varying = 0;
    for (std::size_t j = 0; j < values.size(); ++j) {
        const Parameter& p = space.declared_parameters()[j];
        const bool fixed = p.kind == ParameterKind::Fixed;
        const bool changed = !fixed && space.is_active(varying++, values[j]);
        if (changed_only && !changed) continue;
        rows.push_back({csv_text_cell(p.name), csv_text_cell(value_text(p, values[j])),
                        csv_text_cell(value_text(p, p.resolved_target())), fixed ? "fixed" : changed ? "true" : "false"});
    }
    return rows;
}

}  // namespace

std::string configuration_to_csv(const Experiment& experiment, int trial, bool changed_only) {
    std::string out;
    append_row(out, {"parameter", "value", "target", "changed"});
    for (const std::vector<std::string>& row : configuration_rows(experiment, trial, changed_only)) append_row(out, row);
    return out;
}

std::string configuration_to_json(const Experiment& experiment, int trial, bool changed_only) {
    using Json = nlohmann::ordered_json;  // keeps the parameter order of the search space
    const Trial& t = require_trial(experiment, trial);
    const SearchSpace& space = experiment.space;
    Json parameters = Json::object();
    Json fixed = Json::array();
    const std::vector<double> values = space.declared_values(t.parameters);
    int varying = 0;
    for (std::size_t j = 0; j < values.size(); ++j) {
        const Parameter& p = space.declared_parameters()[j];
        const double value = values[j];
        const bool changed = p.kind != ParameterKind::Fixed && space.is_active(varying++, value);
        if (changed_only && !changed) continue;
        if (p.kind == ParameterKind::Fixed) fixed.push_back(p.name);
        // Integer parameters hold integral values within their bounds (Experiment::validate),
        // so scripts reading the export get 3, not 3.0.
        if (p.kind == ParameterKind::Choice)
            parameters[p.name] = choice_value_json(p, value);
        else if ((p.kind == ParameterKind::Integer || (p.kind == ParameterKind::Fixed && std::floor(value) == value)) &&
            std::abs(value) < 9.0e15)
            parameters[p.name] = static_cast<std::int64_t>(value);
        else
            parameters[p.name] = value;
    }
    Json metrics = Json::object();
    for (const std::string& metric : experiment.outcomes.metrics)
        if (const Measurement* m = t.measurement(metric)) {
            Json value = Json{{"mean", m->mean}};
            if (m->sem) value["sem"] = *m->sem;
            metrics[metric] = std::move(value);
        }
    Json out = Json::object();
    out["trial"] = t.index;
    if (experiment.outcomes.objectives.size() == 1) {
        const auto value = experiment.objective_value(t);
        out["objective"] = value ? Json(*value) : Json(nullptr);
    }
    out["metrics"] = std::move(metrics);
    out["active"] = experiment.sparsity(t);
    if (!experiment.outcomes.constraints.empty()) {
        const Feasibility feasibility = experiment.feasibility(t);
        out["feasible"] = feasibility == Feasibility::Unknown ? Json("unknown") : Json(feasibility == Feasibility::Feasible);
    }
    if (t.exclusion) out["excluded"] = t.exclusion->reason;
    out["parameters"] = std::move(parameters);
    if (!fixed.empty()) out["fixed"] = std::move(fixed);
    return out.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string chosen_to_csv(const Experiment& experiment, bool changed_only) {
    std::string out;
    append_row(out, {"trial", "note", "parameter", "value", "target", "changed"});
    for (const ChosenConfiguration& c : experiment.chosen)
        for (std::vector<std::string>& row : configuration_rows(experiment, c.trial, changed_only)) {
            row.insert(row.begin(), {std::to_string(c.trial), csv_text_cell(c.note)});
            append_row(out, row);
        }
    return out;
}

std::string chosen_to_json(const Experiment& experiment, bool changed_only) {
    using Json = nlohmann::ordered_json;
    Json out;
    out["experiment"] = experiment.name;
    out["objective"] = {{"name", experiment.primary_objective().metric}, {"minimize", experiment.primary_objective().minimize}};
    Json objectives = Json::array();
    for (const Objective& o : experiment.outcomes.objectives) objectives.push_back({{"name", o.metric}, {"minimize", o.minimize}});
    out["objectives"] = std::move(objectives);
    out["changed_only"] = changed_only;
    out["configurations"] = Json::array();
    for (const ChosenConfiguration& c : experiment.chosen) {
        Json one = Json::parse(configuration_to_json(experiment, c.trial, changed_only));
        one["note"] = c.note;
        out["configurations"].push_back(std::move(one));
    }
    return out.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace sebo
