#include "evaluators/command_protocol.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "io/choice_json.h"

namespace sebo {
namespace {

using Json = nlohmann::json;

// How much of a program's output a message quotes.
constexpr std::size_t kShownOutputBytes = 200;

// What a program should print, for messages: {"objective": 1.5} for an experiment with one
// metric, {"metrics": {"a": 1.5, "b": 1.5}} otherwise.
std::string output_example(const std::vector<std::string>& metrics) {
    if (metrics.size() == 1) return "{\"objective\": 1.5}";
    std::string values;
    for (const std::string& name : metrics)
        values += (values.empty() ? "" : ", ") + Json(name).dump(-1, ' ', false, Json::error_handler_t::replace) + ": 1.5";
    return "{\"metrics\": {" + values + "}}";
}

// The text a program wrote, quoted for a message: JSON-escaped, cut to a readable length.
std::string shown_output(const std::string& text) {
    std::string cut = text.substr(0, kShownOutputBytes);
    const std::string quoted = Json(cut).dump(-1, ' ', false, Json::error_handler_t::replace);
    return text.size() > kShownOutputBytes ? quoted.substr(0, quoted.size() - 1) + "...\"" : quoted;
}

std::string describe_json(const Json& value) {
    switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case Json::value_t::string: return "the string " + shown_output(value.get_ref<const std::string&>());
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    default: return value.dump();
    }
}

}  // namespace

std::string command_input_json(const SearchSpace& space, const Trial& trial) {
    nlohmann::ordered_json parameters = nlohmann::ordered_json::object();
    // Appended directly: ordered_json's operator[] searches the keys linearly (O(D^2) for a
    // trial); names are unique in a valid space.
    auto& members = static_cast<nlohmann::ordered_json::object_t::Container&>(
        parameters.get_ref<nlohmann::ordered_json::object_t&>());
    // Every parameter in declared order, fixed ones with their values (issue 14, item 2).
    const bool complete = trial.parameters.size() == static_cast<std::size_t>(space.dimension());
    const std::vector<Parameter>& declared = complete ? space.declared_parameters() : space.parameters();
    const std::vector<double> values = complete ? space.declared_values(trial.parameters) : trial.parameters;
    const std::size_t d = std::min(values.size(), declared.size());
    members.reserve(d);
    for (std::size_t i = 0; i < d; ++i) {
        const Parameter& p = declared[i];
        const double v = values[i];
        // Integers (and integral fixed values) as JSON integers, so that a program can use them as
        // counts without a cast.
        // A choice as its value: a JSON number when it was given as one, a string otherwise.
        if (p.kind == ParameterKind::Choice)
            members.emplace_back(p.name, choice_value_json(p, v));
        else if ((p.kind == ParameterKind::Integer || p.kind == ParameterKind::Fixed) && std::isfinite(v) && std::floor(v) == v &&
            std::abs(v) <= 9007199254740992.0)
            members.emplace_back(p.name, static_cast<std::int64_t>(v));
        else
            members.emplace_back(p.name, v);
    }
    nlohmann::ordered_json document = nlohmann::ordered_json::object();
    document["trial"] = trial.index;
    document["parameters"] = std::move(parameters);
    return document.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

EvaluationOutcome parse_command_output(const std::string& output, const std::vector<std::string>& metrics) {
    EvaluationOutcome outcome;
    const std::string example = output_example(metrics);
    auto failure = [&](std::string reason) {
        outcome.ok = false;
        outcome.error = std::move(reason);
        return outcome;
    };
    if (output.find_first_not_of(" \t\r\n") == std::string::npos)
        return failure("the command wrote nothing to stdout (expected one JSON object such as " + example + ")");
    Json document;
    try {
        document = Json::parse(output);
    } catch (const Json::exception& e) {
        std::string why = e.what();
        if (const auto bracket = why.find("] "); why.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
            why = why.substr(bracket + 2);
        std::string reason = "stdout is not one JSON object (" + why + "): " + shown_output(output);
        if (e.id == 406) reason = "a value is not a finite number (beyond the range of a double): " + shown_output(output);
        if (output.find("NaN") != std::string::npos || output.find("Infinity") != std::string::npos ||
            output.find("nan") != std::string::npos || output.find("inf") != std::string::npos)
            reason += "; NaN and Infinity are not finite numbers (and not JSON): a failed measurement should exit "
                      "with a non-zero status instead";
        else
            reason += "; write log messages to stderr, not stdout";
        return failure(reason);
    }
    if (!document.is_object())
        return failure("stdout is " + describe_json(document) + ", not a JSON object such as " + example);
    const auto objective = document.find("objective");
    const auto reported = document.find("metrics");
    const auto sem = document.find("sem");
    if (reported != document.end()) {
        if (objective != document.end())
            return failure("stdout has both \"metrics\" and \"objective\"; report every value under \"metrics\"");
        if (sem != document.end())
            return failure("stdout has \"metrics\" and a top-level \"sem\"; give a metric's standard error as "
                           "\"NAME\": {\"mean\": v, \"sem\": s}");
        if (!reported->is_object())
            return failure("\"metrics\" is " + describe_json(*reported) + ", not an object such as " + example);
        for (auto it = reported->begin(); it != reported->end(); ++it) {
            const std::string at = "metric \"" + it.key() + "\"";
            Measurement m;
            const Json* mean = &it.value();
            const Json* error = nullptr;
            if (it.value().is_object()) {
                const auto found = it.value().find("mean");
                if (found == it.value().end()) return failure(at + " has no \"mean\" (expected {\"mean\": v, \"sem\": s})");
                mean = &*found;
                if (const auto s = it.value().find("sem"); s != it.value().end() && !s->is_null()) error = &*s;
            }
            if (!mean->is_number()) return failure(at + " is " + describe_json(*mean) + ", not a number");
            m.mean = mean->get<double>();
            if (error) {
                if (!error->is_number() || !std::isfinite(error->get<double>()) || error->get<double>() < 0.0)
                    return failure("the \"sem\" of " + at + " is " + describe_json(*error) + ", not a finite number >= 0");
                m.sem = error->get<double>();
            }
            outcome.values.emplace(it.key(), m);
        }
    } else {
        if (objective == document.end())
            return failure("stdout has no \"metrics\" (expected a JSON object such as " + example + "): " +
                           shown_output(output));
        // The short form names no metric: it is the value of an experiment's only metric.
        if (metrics.size() != 1) {
            std::string names;
            for (const std::string& name : metrics) names += (names.empty() ? "\"" : ", \"") + name + "\"";
            return failure("stdout has \"objective\", the short form for an experiment with one metric; this one has " +
                           std::to_string(metrics.size()) + " (" + names + "): print " + example);
        }
        if (!objective->is_number()) return failure("\"objective\" is " + describe_json(*objective) + ", not a number");
        Measurement m;
        m.mean = objective->get<double>();
        if (sem != document.end() && !sem->is_null()) {
            if (!sem->is_number() || !std::isfinite(sem->get<double>()) || sem->get<double>() < 0.0)
                return failure("\"sem\" is " + describe_json(*sem) + ", not a finite number >= 0");
            m.sem = sem->get<double>();
        }
        outcome.values.emplace(metrics.front(), m);
    }
    if (const auto metadata = document.find("metadata"); metadata != document.end() && !metadata->is_null()) {
        if (!metadata->is_object()) return failure("\"metadata\" is " + describe_json(*metadata) + ", not an object");
        outcome.metadata = metadata->dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    outcome.ok = true;
    return outcome;
}

}  // namespace sebo
