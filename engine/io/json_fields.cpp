#include "io/json_fields.h"

#include <climits>
#include <cmath>

#include "core/format.h"
#include "core/input_error.h"

namespace sebo::json_fields {

namespace {

template <class Enum>
void read_enum(const Document& value, const std::string& path, Enum& out,
               std::optional<Enum> (*parse)(const std::string&), const std::vector<Enum>& all, const char* what) {
    std::string text;
    read_value(value, path, text);
    if (const auto parsed = parse(text)) {
        out = *parsed;
        return;
    }
    std::string known;
    for (Enum e : all) known += std::string(known.empty() ? "" : ", ") + to_string(e);
    fail(path, std::string("unknown ") + what + " " + shown_text(text) + "; expected one of " + known);
}

}  // namespace


// ---------------------------------------------------------------------------------------------
// Paths and messages

[[noreturn]] void fail(const std::string& field, const std::string& message) { throw InputError(field, message); }


// Validation messages of the engine are "path: what is wrong"; the path never holds ": "
// except through user-chosen names, which the reader checks itself before it gets here.
[[noreturn]] void fail_with_message(const std::string& message) {
    const auto colon = message.find(": ");
    if (colon == std::string::npos) fail("", message);
    fail(message.substr(0, colon), message.substr(colon + 2));
}


// ---------------------------------------------------------------------------------------------
// Structure

const Document& expect_object(const Document& value, const std::string& path) {
    if (!value.is_object()) fail(path, "expected an object, got " + describe_value(value));
    return value;
}


const Document& expect_array(const Document& value, const std::string& path) {
    if (!value.is_array()) fail(path, "expected an array, got " + describe_value(value));
    return value;
}


// An optional member: nullptr when absent or null (null is how other tools write "no value").
const Document* optional_member(const Document& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}


const Document& required_member(const Document& object, const std::string& object_path, const char* key) {
    const auto it = object.find(key);
    if (it == object.end()) fail(member_path(object_path, key), "required field is missing");
    return *it;
}


// ---------------------------------------------------------------------------------------------
// Typed values. One read_value/to_json_value overload per type; the field lists below use them.
// New overloads go in this section, before read_optional/put: they live in an unnamed namespace,
// which argument-dependent lookup does not search, so templates see only earlier declarations.

void read_value(const Document& value, const std::string& path, double& out) {
    if (!value.is_number()) fail(path, "expected a number, got " + describe_value(value));
    const double x = value.get<double>();
    // The parser turns literals beyond the double range (1e400) into infinity.
    if (!std::isfinite(x)) fail(path, format_number(x) + " is not a finite number");
    out = x;
}


void read_value(const Document& value, const std::string& path, int& out) {
    if (value.is_number_unsigned()) {
        const auto u = value.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(INT_MAX)) fail(path, std::to_string(u) + " is too large");
        out = static_cast<int>(u);
    } else if (value.is_number_integer()) {
        const auto i = value.get<std::int64_t>();
        if (i < INT_MIN || i > INT_MAX) fail(path, std::to_string(i) + " is out of range");
        out = static_cast<int>(i);
    } else if (value.is_number_float()) {
        // Accepted when integral: some tools write every number with a decimal point.
        const double x = value.get<double>();
        if (!std::isfinite(x)) fail(path, format_number(x) + " is not a finite number");
        if (std::floor(x) != x) fail(path, format_number(x) + " is not an integer");
        if (x < INT_MIN || x > INT_MAX) fail(path, format_number(x) + " is out of range");
        out = static_cast<int>(x);
    } else {
        fail(path, "expected an integer, got " + describe_value(value));
    }
}


void read_value(const Document& value, const std::string& path, std::uint64_t& out) {
    if (value.is_number_unsigned()) {
        out = value.get<std::uint64_t>();
    } else if (value.is_number_integer()) {
        fail(path, std::to_string(value.get<std::int64_t>()) + " is negative");
    } else if (value.is_number_float()) {
        const double x = value.get<double>();
        if (!std::isfinite(x)) fail(path, format_number(x) + " is not a finite number");
        if (std::floor(x) != x) fail(path, format_number(x) + " is not an integer");
        if (x < 0) fail(path, format_number(x) + " is negative");
        if (x >= 18446744073709551616.0) fail(path, format_number(x) + " is too large");
        out = static_cast<std::uint64_t>(x);
    } else {
        fail(path, "expected a non-negative integer, got " + describe_value(value));
    }
}


void read_value(const Document& value, const std::string& path, bool& out) {
    if (!value.is_boolean()) fail(path, "expected true or false, got " + describe_value(value));
    out = value.get<bool>();
}


void read_value(const Document& value, const std::string& path, std::string& out) {
    if (!value.is_string()) fail(path, "expected a string, got " + describe_value(value));
    out = value.get<std::string>();
}


void read_value(const Document& value, const std::string& path, StrategyKind& out) {
    read_enum(value, path, out, &strategy_kind_from_string, all_strategy_kinds(), "strategy");
}


void read_value(const Document& value, const std::string& path, ModelKind& out) {
    read_enum(value, path, out, &model_kind_from_string, all_model_kinds(), "model");
}


void read_value(const Document& value, const std::string& path, PenaltyKind& out) {
    read_enum(value, path, out, &penalty_kind_from_string, {PenaltyKind::L0, PenaltyKind::L1, PenaltyKind::GroupLasso},
              "penalty");
}


void read_value(const Document& value, const std::string& path, NutsMode& out) {
    read_enum(value, path, out, &nuts_mode_from_string, all_nuts_modes(), "NUTS setting");
}


void read_value(const Document& value, const std::string& path, NoisyAcquisition& out) {
    read_enum(value, path, out, &noisy_acquisition_from_string, all_noisy_acquisitions(), "noisy-acquisition setting");
}


void read_value(const Document& value, const std::string& path, TrialStatus& out) {
    read_enum(value, path, out, &trial_status_from_string,
              {TrialStatus::Pending, TrialStatus::Completed, TrialStatus::Failed, TrialStatus::Abandoned}, "status");
}


void read_value(const Document& value, const std::string& path, ParameterKind& out) {
    read_enum(value, path, out, &parameter_kind_from_string,
              {ParameterKind::Continuous, ParameterKind::Integer, ParameterKind::Choice, ParameterKind::Fixed},
              "parameter kind");
}


void read_value(const Document& value, const std::string& path, EvaluatorSpec::Kind& out) {
    read_enum(value, path, out, &evaluator_kind_from_string,
              {EvaluatorSpec::Kind::Problem, EvaluatorSpec::Kind::Command, EvaluatorSpec::Kind::Manual},
              "evaluator kind");
}

Json to_json_value(StrategyKind kind) { return to_string(kind); }

Json to_json_value(ModelKind kind) { return to_string(kind); }

Json to_json_value(PenaltyKind kind) { return to_string(kind); }

Json to_json_value(NutsMode mode) { return to_string(mode); }

Json to_json_value(NoisyAcquisition mode) { return to_string(mode); }

}  // namespace sebo::json_fields
