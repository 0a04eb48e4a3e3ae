#include "io/csv_export.h"

#include <cassert>
#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/input_error.h"

namespace sebo {
namespace {

std::string optional_number(const std::optional<double>& value) { return value ? format_number(*value) : std::string(); }

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

std::string csv_quote(const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string quoted = "\"";
    for (char c : field) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string trials_to_csv(const Experiment& experiment) {
    const SearchSpace& space = experiment.space;
    std::string out;
    std::vector<std::string> header = {"trial", "status", "objective", "sem", "active", "generator"};
    for (const Parameter& p : space.parameters()) header.push_back(csv_quote(p.name));
    header.push_back("error");
    header.push_back("excluded");
    append_row(out, header);
    for (const Trial& t : experiment.trials) {
        assert(static_cast<int>(t.parameters.size()) == space.dimension());
        std::vector<std::string> row = {std::to_string(t.index),
                                        to_string(t.status),
                                        optional_number(t.objective),
                                        optional_number(t.sem),
                                        std::to_string(experiment.sparsity(t)),
                                        csv_quote(t.generator)};
        for (double value : t.parameters) row.push_back(format_number(value));
        row.push_back(csv_quote(t.error));
        row.push_back(t.exclusion ? csv_quote(t.exclusion->reason) : std::string());
        append_row(out, row);
    }
    return out;
}

std::string configuration_to_csv(const Experiment& experiment, int trial, bool changed_only) {
    const Trial& t = require_trial(experiment, trial);
    const SearchSpace& space = experiment.space;
    std::string out;
    append_row(out, {"parameter", "value", "target", "changed"});
    for (int i = 0; i < space.dimension(); ++i) {
        const double value = t.parameters[static_cast<std::size_t>(i)];
        const bool changed = space.is_active(i, value);
        if (changed_only && !changed) continue;
        append_row(out, {csv_quote(space.parameter(i).name), format_number(value),
                         format_number(space.parameter(i).resolved_target()), changed ? "true" : "false"});
    }
    return out;
}

std::string configuration_to_json(const Experiment& experiment, int trial, bool changed_only) {
    using Json = nlohmann::ordered_json;  // keeps the parameter order of the search space
    const Trial& t = require_trial(experiment, trial);
    const SearchSpace& space = experiment.space;
    Json parameters = Json::object();
    for (int i = 0; i < space.dimension(); ++i) {
        const Parameter& p = space.parameter(i);
        const double value = t.parameters[static_cast<std::size_t>(i)];
        if (changed_only && !space.is_active(i, value)) continue;
        // Integer parameters hold integral values within their bounds (Experiment::validate),
        // so scripts reading the export get 3, not 3.0.
        if (p.kind == ParameterKind::Integer && std::abs(value) < 9.0e15)
            parameters[p.name] = static_cast<std::int64_t>(value);
        else
            parameters[p.name] = value;
    }
    Json out = Json::object();
    out["trial"] = t.index;
    out["objective"] = t.objective ? Json(*t.objective) : Json(nullptr);
    out["active"] = experiment.sparsity(t);
    if (t.exclusion) out["excluded"] = t.exclusion->reason;
    out["parameters"] = std::move(parameters);
    return out.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace sebo
