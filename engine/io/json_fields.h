#pragma once
// The generic readers and writers behind the experiment file (io/experiment_file.cpp): a value
// read with its field path named in every message, optional and required members, and a field
// list's read and write. Internal to engine/io (it includes nlohmann/json.hpp); kept apart so that
// the reader itself holds only the format's layout.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment/experiment.h"
#include "io/json_document.h"

namespace sebo::json_fields {

// Written files keep a readable key order (ordered_json). Files are read into nlohmann::json,
// whose std::map objects insert and look up in O(log n) even for objects with thousands of keys.
using Json = nlohmann::ordered_json;
using Document = nlohmann::json;

// ---------------------------------------------------------------------------------------------
// Paths and messages

[[noreturn]] void fail(const std::string& field, const std::string& message);

// Validation messages of the engine are "path: what is wrong"; the path never holds ": "
// except through user-chosen names, which the reader checks itself before it gets here.
[[noreturn]] void fail_with_message(const std::string& message);

// ---------------------------------------------------------------------------------------------
// Structure

const Document& expect_object(const Document& value, const std::string& path);

const Document& expect_array(const Document& value, const std::string& path);

// An optional member: nullptr when absent or null (null is how other tools write "no value").
const Document* optional_member(const Document& object, const char* key);

const Document& required_member(const Document& object, const std::string& object_path, const char* key);

// ---------------------------------------------------------------------------------------------
// Typed values. One read_value/to_json_value overload per type; experiment_file.cpp's field lists
// use them. New overloads go in this section, before read_optional/put: argument-dependent lookup
// does not search this namespace for the engine's types, so templates see only earlier
// declarations.

void read_value(const Document& value, const std::string& path, double& out);

void read_value(const Document& value, const std::string& path, int& out);

void read_value(const Document& value, const std::string& path, std::uint64_t& out);

void read_value(const Document& value, const std::string& path, bool& out);

void read_value(const Document& value, const std::string& path, std::string& out);


void read_value(const Document& value, const std::string& path, StrategyKind& out);

void read_value(const Document& value, const std::string& path, ModelKind& out);

void read_value(const Document& value, const std::string& path, PenaltyKind& out);

void read_value(const Document& value, const std::string& path, NutsMode& out);

void read_value(const Document& value, const std::string& path, NoisyAcquisition& out);

void read_value(const Document& value, const std::string& path, TrialStatus& out);

void read_value(const Document& value, const std::string& path, ParameterKind& out);

void read_value(const Document& value, const std::string& path, EvaluatorSpec::Kind& out);

template <class T>
void read_value(const Document& value, const std::string& path, std::vector<T>& out) {
    expect_array(value, path);
    std::vector<T> items(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) read_value(value[i], element_path(path, i), items[i]);
    out = std::move(items);
}

template <class T>
void read_value(const Document& value, const std::string& path, std::optional<T>& out) {
    T x{};
    read_value(value, path, x);
    out = x;
}

// Reads an optional member into `out`; when absent (or null) `out` keeps its default.
template <class T>
bool read_optional(const Document& object, const std::string& path, const char* key, T& out) {
    const Document* value = optional_member(object, key);
    if (value) read_value(*value, member_path(path, key), out);
    return value != nullptr;
}

template <class T>
void read_required(const Document& object, const std::string& path, const char* key, T& out) {
    read_value(required_member(object, path, key), member_path(path, key), out);
}

template <class T>
Json to_json_value(const T& value) {
    return Json(value);
}

Json to_json_value(StrategyKind kind);

Json to_json_value(ModelKind kind);

Json to_json_value(PenaltyKind kind);

Json to_json_value(NutsMode mode);

Json to_json_value(NoisyAcquisition mode);

template <class T>
void put(Json& object, const char* key, const T& value) {
    object[key] = to_json_value(value);
}

// Optional values are written only when set, so that "unset" survives the round trip.
template <class T>
void put(Json& object, const char* key, const std::optional<T>& value) {
    if (value) object[key] = to_json_value(*value);
}

// Reads every listed member that is present; absent members keep the struct's default.
template <class Struct, class Visit>
void read_fields(const Document& object, const std::string& path, Struct& target, Visit visit_fields) {
    visit_fields(target, [&](const char* key, auto& field) { read_optional(object, path, key, field); });
}

template <class Struct, class Visit>
Json write_fields(const Struct& source, Visit visit_fields) {
    Json object = Json::object();
    visit_fields(source, [&](const char* key, const auto& field) { put(object, key, field); });
    return object;
}

}  // namespace sebo::json_fields
