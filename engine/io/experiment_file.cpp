#include "io/experiment_file.h"

#include "io/experiment_text_cache.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>
#include <system_error>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/input_error.h"
#include "io/experiment_migration.h"
#include "io/utf8_text.h"

namespace sebo {
namespace {

// Written files keep a readable key order (ordered_json). Files are read into nlohmann::json,
// whose std::map objects insert and look up in O(log n) even for objects with thousands of keys.
using Json = nlohmann::ordered_json;
using Document = nlohmann::json;

// ---------------------------------------------------------------------------------------------
// Paths and messages

std::string member_path(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
}

std::string element_path(const std::string& parent, std::size_t i) {
    return parent + "[" + std::to_string(i) + "]";
}

[[noreturn]] void fail(const std::string& field, const std::string& message) { throw InputError(field, message); }

// Validation messages of the engine are "path: what is wrong"; the path never holds ": "
// except through user-chosen names, which the reader checks itself before it gets here.
[[noreturn]] void fail_with_message(const std::string& message) {
    const auto colon = message.find(": ");
    if (colon == std::string::npos) fail("", message);
    fail(message.substr(0, colon), message.substr(colon + 2));
}

std::string system_message(int error) { return std::error_code(error, std::generic_category()).message(); }

// A string from the file, quoted and escaped for a message, cut to a readable length (on a
// UTF-8 character boundary: the parser has already checked the encoding).
std::string shown_text(const std::string& text) {
    constexpr std::size_t kMaxShown = 60;
    if (text.size() <= kMaxShown) return Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
    std::size_t cut = kMaxShown;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    const std::string shown = Json(text.substr(0, cut)).dump(-1, ' ', false, Json::error_handler_t::replace);
    return shown.substr(0, shown.size() - 1) + "...\"";
}

// Names the value found in the file, for "expected X, got Y" messages.
std::string describe(const Document& value) {
    switch (value.type()) {
    case Document::value_t::null: return "null";
    case Document::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case Document::value_t::string: return "the string " + shown_text(value.get_ref<const std::string&>());
    case Document::value_t::number_integer: return std::to_string(value.get<std::int64_t>());
    case Document::value_t::number_unsigned: return std::to_string(value.get<std::uint64_t>());
    case Document::value_t::number_float: return format_number(value.get<double>());
    case Document::value_t::object: return "an object";
    case Document::value_t::array: return "an array";
    default: return "an unsupported value";
    }
}

// ---------------------------------------------------------------------------------------------
// Structure

const Document& expect_object(const Document& value, const std::string& path) {
    if (!value.is_object()) fail(path, "expected an object, got " + describe(value));
    return value;
}

const Document& expect_array(const Document& value, const std::string& path) {
    if (!value.is_array()) fail(path, "expected an array, got " + describe(value));
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
    if (!value.is_number()) fail(path, "expected a number, got " + describe(value));
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
        fail(path, "expected an integer, got " + describe(value));
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
        fail(path, "expected a non-negative integer, got " + describe(value));
    }
}

void read_value(const Document& value, const std::string& path, bool& out) {
    if (!value.is_boolean()) fail(path, "expected true or false, got " + describe(value));
    out = value.get<bool>();
}

void read_value(const Document& value, const std::string& path, std::string& out) {
    if (!value.is_string()) fail(path, "expected a string, got " + describe(value));
    out = value.get<std::string>();
}

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

void read_value(const Document& value, const std::string& path, TrialStatus& out) {
    read_enum(value, path, out, &trial_status_from_string,
              {TrialStatus::Pending, TrialStatus::Completed, TrialStatus::Failed, TrialStatus::Abandoned}, "status");
}

void read_value(const Document& value, const std::string& path, ParameterKind& out) {
    read_enum(value, path, out, &parameter_kind_from_string, {ParameterKind::Continuous, ParameterKind::Integer},
              "parameter kind");
}

void read_value(const Document& value, const std::string& path, EvaluatorSpec::Kind& out) {
    read_enum(value, path, out, &evaluator_kind_from_string,
              {EvaluatorSpec::Kind::Problem, EvaluatorSpec::Kind::Command, EvaluatorSpec::Kind::Manual},
              "evaluator kind");
}

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
Json to_json_value(StrategyKind kind) { return to_string(kind); }
Json to_json_value(ModelKind kind) { return to_string(kind); }
Json to_json_value(PenaltyKind kind) { return to_string(kind); }
Json to_json_value(NutsMode mode) { return to_string(mode); }

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

// ---------------------------------------------------------------------------------------------
// Field lists. These are the single place that names a settings field in the file: adding a
// member to MethodSettings (or ProblemSpec) takes one visit(...) line here, plus a read_value /
// to_json_value overload if its type is new (an enum, or a nested settings struct that gets its
// own field list). Every listed field is optional in the file and defaults to the struct's
// member initializer, so files written before the field existed still load.

struct VisitMethod {
    template <class Settings, class Visit>
    void operator()(Settings& m, Visit&& visit) const {
        visit("strategy", m.strategy);
        visit("initial_trials", m.initial_trials);
        visit("budget", m.budget);
        visit("model", m.model);
        visit("lambda", m.lambda);
        visit("penalty", m.penalty);
        visit("warp_objective", m.warp_objective);
        visit("raw_samples", m.raw_samples);
        visit("restarts", m.restarts);
        visit("homotopy_a_start", m.homotopy_a_start);
        visit("homotopy_a_end", m.homotopy_a_end);
        visit("homotopy_steps", m.homotopy_steps);
        visit("fixed_a", m.fixed_a);
        visit("nuts", m.nuts);
        visit("nuts_warmup", m.nuts_warmup);
        visit("nuts_samples", m.nuts_samples);
        visit("nuts_thinning", m.nuts_thinning);
        visit("nuts_max_tree_depth", m.nuts_max_tree_depth);
        visit("nuts_chains", m.nuts_chains);
        visit("nuts_warm_warmup", m.nuts_warm_warmup);
    }
};

// The SAAS-NUTS record of a trial (experiment/fit_record.h); "nuts" is required, the rest optional.
struct VisitFitRecord {
    template <class Record, class Visit>
    void operator()(Record& r, Visit&& visit) const {
        visit("nuts", r.nuts);
        visit("chains", r.chains);
        visit("start", r.start);
        visit("warmup", r.warmup);
        visit("draws", r.draws);
        visit("divergences", r.divergences);
        visit("rhat", r.rhat);
        visit("ess_bulk", r.ess_bulk);
        visit("seconds", r.seconds);
    }
};

struct VisitProblem {
    template <class Spec, class Visit>
    void operator()(Spec& p, Visit&& visit) const {
        visit("name", p.name);
        visit("dimension", p.dimension);
        visit("effective", p.effective);
        visit("target", p.target);
        visit("repetitions", p.repetitions);
        visit("world_seed", p.world_seed);
    }
};

// ---------------------------------------------------------------------------------------------
// Writing

Json parameter_to_json(const Parameter& p) {
    Json j = Json::object();
    j["name"] = p.name;
    j["kind"] = to_string(p.kind);
    j["lower"] = p.lower;
    j["upper"] = p.upper;
    j["log"] = p.log_scale;
    put(j, "target", p.target);
    if (!p.group.empty()) j["group"] = p.group;
    return j;
}

Json evaluator_to_json(const EvaluatorSpec& spec) {
    Json j = Json::object();
    j["kind"] = to_string(spec.kind);
    if (spec.kind == EvaluatorSpec::Kind::Problem) j["problem"] = write_fields(spec.problem, VisitProblem{});
    if (spec.kind == EvaluatorSpec::Kind::Command) {
        j["command"] = spec.command;
        j["timeout_seconds"] = spec.timeout_seconds;
        if (!spec.working_directory.empty()) j["working_directory"] = spec.working_directory;
        if (!spec.environment.empty()) {
            Json environment = Json::object();
            for (const auto& [name, value] : spec.environment) environment[name] = value;
            j["environment"] = std::move(environment);
        }
        j["max_concurrency"] = spec.max_concurrency;
    }
    return j;
}

Json fit_record_to_json(const FitRecord& r) {
    Json j = write_fields(r, VisitFitRecord{});
    if (!r.cold_start_reason.empty()) j["cold_start_reason"] = r.cold_start_reason;
    Json parameters = Json::array();
    for (const ParameterConvergenceRecord& p : r.parameters) {
        Json entry = Json::object();
        entry["name"] = p.parameter;
        put(entry, "rhat", p.rhat);
        put(entry, "ess_bulk", p.ess_bulk);
        parameters.push_back(std::move(entry));
    }
    j["parameters"] = std::move(parameters);
    return j;
}

Json trial_to_json(const Trial& t, const SearchSpace& space) {
    Json j = Json::object();
    j["index"] = t.index;
    j["status"] = to_string(t.status);
    Json values = Json::object();
    const std::size_t n = std::min(t.parameters.size(), static_cast<std::size_t>(space.dimension()));
    // Appended without ordered_json's operator[], which searches the keys linearly and would
    // make a trial of D parameters cost O(D^2). Names are unique in a valid space.
    auto& members = static_cast<Json::object_t::Container&>(values.get_ref<Json::object_t&>());
    members.reserve(n);
    for (std::size_t i = 0; i < n; ++i) members.emplace_back(space.parameter(static_cast<int>(i)).name, t.parameters[i]);
    j["parameters"] = std::move(values);
    put(j, "objective", t.objective);
    put(j, "sem", t.sem);
    j["generator"] = t.generator;
    if (!t.error.empty()) j["error"] = t.error;
    j["generation_seconds"] = t.generation_seconds;
    j["evaluation_seconds"] = t.evaluation_seconds;
    j["created_at"] = t.created_at;
    j["completed_at"] = t.completed_at;
    if (t.exclusion) j["excluded"] = Json{{"reason", t.exclusion->reason}, {"at", t.exclusion->at}};
    if (t.fit) j["fit"] = fit_record_to_json(*t.fit);
    return j;
}

Json sampler_state_to_json(const SamplerState& s) {
    Json j = Json::object();
    j["warp_objective"] = s.warp_objective;
    j["trials"] = s.trials;
    j["fingerprint"] = s.fingerprint;
    j["step_size"] = s.step_size;
    j["metric"] = s.dense_metric ? "dense" : "diagonal";
    j["positions"] = s.positions;
    j["inverse_metric"] = s.inverse_metric;
    return j;
}

// `with_trials` false: an empty "trials" array, for experiment_json_text's splicing.
Json experiment_to_json(const Experiment& e, bool with_trials = true) {
    Json j = Json::object();
    j["format"] = kExperimentFormat;
    j["version"] = kExperimentVersion;
    j["name"] = e.name;
    j["description"] = e.description;
    j["seed"] = e.seed;
    j["objective"] = Json{{"name", e.objective.name}, {"minimize", e.objective.minimize}};
    Json parameters = Json::array();
    for (const Parameter& p : e.space.parameters()) parameters.push_back(parameter_to_json(p));
    j["space"] = Json{{"parameters", std::move(parameters)}};
    j["evaluator"] = evaluator_to_json(e.evaluator);
    j["method"] = write_fields(e.method, VisitMethod{});
    put(j, "hypervolume_reference", e.hypervolume_reference);
    Json trials = Json::array();
    if (with_trials)
        for (const Trial& t : e.trials) trials.push_back(trial_to_json(t, e.space));
    j["trials"] = std::move(trials);
    Json chosen = Json::array();
    for (const ChosenConfiguration& c : e.chosen) chosen.push_back(Json{{"trial", c.trial}, {"note", c.note}});
    j["chosen"] = std::move(chosen);
    if (e.sampler_state) j["sampler_state"] = sampler_state_to_json(*e.sampler_state);
    return j;
}

// ---------------------------------------------------------------------------------------------
// Reading

// SearchSpace::validate() names a parameter "parameters[i] (name).field"; the file calls it
// "space.parameters[i].field". Validating one parameter at a time makes the prefix known exactly
// (names may contain any character, so the message is never searched for them).
void check_parameter(const Parameter& p, const std::string& path) {
    const auto error = SearchSpace({p}).validate();
    if (!error) return;
    const std::string prefix = "parameters[0] (" + p.name + ").";
    if (error->compare(0, prefix.size(), prefix) == 0) {
        const std::string rest = error->substr(prefix.size());
        const auto colon = rest.find(": ");
        if (colon != std::string::npos) fail(path + "." + rest.substr(0, colon), rest.substr(colon + 2));
    }
    fail(path, *error);
}

Parameter read_parameter(const Document& value, const std::string& path) {
    expect_object(value, path);
    Parameter p;
    read_required(value, path, "name", p.name);
    if (p.name.empty()) fail(member_path(path, "name"), "a parameter name must not be empty");
    read_optional(value, path, "kind", p.kind);
    read_required(value, path, "lower", p.lower);
    read_required(value, path, "upper", p.upper);
    read_optional(value, path, "log", p.log_scale);
    read_optional(value, path, "target", p.target);
    read_optional(value, path, "group", p.group);
    check_parameter(p, path);
    return p;
}

SearchSpace read_space(const Document& value, const std::string& path) {
    expect_object(value, path);
    const std::string list_path = member_path(path, "parameters");
    const Document& list = expect_array(required_member(value, path, "parameters"), list_path);
    if (list.empty()) fail(list_path, "the search space has no parameters");
    std::vector<Parameter> parameters;
    std::set<std::string> names;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = element_path(list_path, i);
        Parameter p = read_parameter(list[i], at);
        if (!names.insert(p.name).second) fail(member_path(at, "name"), "duplicate parameter name " + shown_text(p.name));
        parameters.push_back(std::move(p));
    }
    SearchSpace space(std::move(parameters));
    if (auto error = space.validate()) fail(path, *error);  // covered above; kept as a backstop
    return space;
}

Objective read_objective(const Document& value, const std::string& path) {
    expect_object(value, path);
    Objective objective;
    read_optional(value, path, "name", objective.name);
    // Required: a silently assumed direction would optimize the wrong way.
    read_required(value, path, "minimize", objective.minimize);
    return objective;
}

ProblemSpec read_problem(const Document& value, const std::string& path) {
    expect_object(value, path);
    required_member(value, path, "name");
    ProblemSpec spec;
    read_fields(value, path, spec, VisitProblem{});
    // Ranges only; whether the problem exists and accepts these settings is decided by
    // make_problem() when the experiment runs, so that a file naming a problem this build does
    // not know still opens (its trials can be inspected).
    if (spec.name.empty()) fail(member_path(path, "name"), "a problem name must not be empty");
    if (spec.dimension < 0) fail(member_path(path, "dimension"), std::to_string(spec.dimension) + " is negative");
    for (std::size_t i = 0; i < spec.effective.size(); ++i)
        if (spec.effective[i] < 0)
            fail(element_path(member_path(path, "effective"), i), std::to_string(spec.effective[i]) + " is negative");
    if (spec.target && (*spec.target < 0.0 || *spec.target > 1.0))
        fail(member_path(path, "target"), format_number(*spec.target) + " is outside the unit interval [0, 1]");
    if (spec.repetitions < 0)
        fail(member_path(path, "repetitions"), std::to_string(spec.repetitions) + " is negative");
    return spec;
}

EvaluatorSpec read_evaluator(const Document& value, const std::string& path) {
    expect_object(value, path);
    EvaluatorSpec spec;
    read_required(value, path, "kind", spec.kind);
    if (spec.kind == EvaluatorSpec::Kind::Problem)
        spec.problem = read_problem(required_member(value, path, "problem"), member_path(path, "problem"));
    if (spec.kind == EvaluatorSpec::Kind::Command) {
        const std::string command_path = member_path(path, "command");
        read_required(value, path, "command", spec.command);
        if (spec.command.empty()) fail(command_path, "the command needs at least the program to run");
        if (spec.command.front().empty()) fail(element_path(command_path, 0), "the program name must not be empty");
        if (read_optional(value, path, "timeout_seconds", spec.timeout_seconds) && !(spec.timeout_seconds > 0.0))
            fail(member_path(path, "timeout_seconds"), format_number(spec.timeout_seconds) + " is not positive");
        read_optional(value, path, "working_directory", spec.working_directory);
        // An object of NAME: value strings (names are unique, so their order does not matter).
        if (const Document* environment = optional_member(value, "environment")) {
            const std::string environment_path = member_path(path, "environment");
            expect_object(*environment, environment_path);
            for (auto it = environment->begin(); it != environment->end(); ++it) {
                const std::string at = member_path(environment_path, it.key());
                if (it.key().empty() || it.key().find_first_of(std::string("=\0", 2)) != std::string::npos)
                    fail(at, "an environment variable name must be non-empty, without '=' or NUL");
                std::string text;
                read_value(it.value(), at, text);
                if (text.find('\0') != std::string::npos) fail(at, "the value contains a NUL character");
                spec.environment.emplace_back(it.key(), std::move(text));
            }
        }
        if (read_optional(value, path, "max_concurrency", spec.max_concurrency) &&
            (spec.max_concurrency < 1 || spec.max_concurrency > EvaluatorSpec::kMaxConcurrency))
            fail(member_path(path, "max_concurrency"), std::to_string(spec.max_concurrency) + " is outside [1, " +
                                                           std::to_string(EvaluatorSpec::kMaxConcurrency) + "]");
    }
    return spec;
}

MethodSettings read_method(const Document& value, const std::string& path) {
    expect_object(value, path);
    MethodSettings method;
    read_fields(value, path, method, VisitMethod{});
    if (auto error = method.validate()) fail_with_message(*error);
    return method;
}

// Durations and standard errors: optional, finite and not negative.
void read_nonnegative(const Document& object, const std::string& path, const char* key, double& out) {
    if (read_optional(object, path, key, out) && out < 0.0)
        fail(member_path(path, key), format_number(out) + " is negative");
}

void read_nonnegative(const Document& object, const std::string& path, const char* key, std::optional<double>& out) {
    if (read_optional(object, path, key, out) && *out < 0.0)
        fail(member_path(path, key), format_number(*out) + " is negative");
}

std::vector<double> read_trial_parameters(const Document& value, const std::string& path, const SearchSpace& space,
                                          const std::unordered_map<std::string, int>& index_of) {
    expect_object(value, path);
    const auto d = static_cast<std::size_t>(space.dimension());
    std::vector<double> values(d, 0.0);
    std::vector<bool> seen(d, false);
    for (auto it = value.begin(); it != value.end(); ++it) {
        const std::string at = member_path(path, it.key());
        const auto found = index_of.find(it.key());
        if (found == index_of.end())
            fail(at, "unknown parameter " + shown_text(it.key()) + "; the search space has no parameter of that name");
        const auto i = static_cast<std::size_t>(found->second);
        read_value(it.value(), at, values[i]);
        seen[i] = true;
    }
    for (std::size_t i = 0; i < d; ++i) {
        const std::string& name = space.parameter(static_cast<int>(i)).name;
        if (!seen[i]) fail(member_path(path, name), "missing value for parameter " + shown_text(name));
    }
    if (!space.check_point(values)) return values;
    // check_point reports "name: problem". Find the parameter by checking each value alone
    // (the others at their valid targets), so the path names it even when names look alike.
    const std::vector<double> target = space.target();
    for (std::size_t i = 0; i < d; ++i) {
        std::vector<double> probe = target;
        probe[i] = values[i];
        if (const auto error = space.check_point(probe)) {
            const std::string& name = space.parameter(static_cast<int>(i)).name;
            const std::string prefix = name + ": ";
            const bool named = error->compare(0, prefix.size(), prefix) == 0;
            fail(member_path(path, name), named ? error->substr(prefix.size()) : *error);
        }
    }
    fail(path, *space.check_point(values));
}

FitRecord read_fit_record(const Document& value, const std::string& path) {
    expect_object(value, path);
    required_member(value, path, "nuts");
    FitRecord r;
    read_fields(value, path, r, VisitFitRecord{});
    read_optional(value, path, "cold_start_reason", r.cold_start_reason);
    if (const Document* parameters = optional_member(value, "parameters")) {
        const std::string list = member_path(path, "parameters");
        expect_array(*parameters, list);
        for (std::size_t i = 0; i < parameters->size(); ++i) {
            const std::string at = element_path(list, i);
            const Document& entry = expect_object((*parameters)[i], at);
            ParameterConvergenceRecord p;
            read_required(entry, at, "name", p.parameter);
            read_optional(entry, at, "rhat", p.rhat);
            read_optional(entry, at, "ess_bulk", p.ess_bulk);
            r.parameters.push_back(std::move(p));
        }
    }
    if (auto error = r.validate(path)) fail_with_message(*error);
    return r;
}

SamplerState read_sampler_state(const Document& value, const std::string& path, const SearchSpace& space) {
    expect_object(value, path);
    SamplerState s;
    read_optional(value, path, "warp_objective", s.warp_objective);
    read_required(value, path, "trials", s.trials);
    read_required(value, path, "fingerprint", s.fingerprint);
    read_required(value, path, "step_size", s.step_size);
    std::string metric;
    read_required(value, path, "metric", metric);
    if (metric != "dense" && metric != "diagonal")
        fail(member_path(path, "metric"), shown_text(metric) + " is not a metric kind; expected dense or diagonal");
    s.dense_metric = metric == "dense";
    read_required(value, path, "positions", s.positions);
    read_required(value, path, "inverse_metric", s.inverse_metric);
    if (auto error = s.validate(space.dimension(), path)) fail_with_message(*error);
    return s;
}

Trial read_trial(const Document& value, const std::string& path, const SearchSpace& space,
                 const std::unordered_map<std::string, int>& index_of) {
    expect_object(value, path);
    Trial t;
    read_required(value, path, "index", t.index);
    if (t.index < 0) fail(member_path(path, "index"), std::to_string(t.index) + " is negative");
    read_required(value, path, "status", t.status);
    t.parameters = read_trial_parameters(required_member(value, path, "parameters"), member_path(path, "parameters"),
                                         space, index_of);
    read_optional(value, path, "objective", t.objective);
    if (t.status == TrialStatus::Completed && !t.objective)
        fail(member_path(path, "objective"), "a completed trial needs an objective value");
    read_nonnegative(value, path, "sem", t.sem);
    read_optional(value, path, "generator", t.generator);
    read_optional(value, path, "error", t.error);
    read_nonnegative(value, path, "generation_seconds", t.generation_seconds);
    read_nonnegative(value, path, "evaluation_seconds", t.evaluation_seconds);
    read_optional(value, path, "created_at", t.created_at);
    read_optional(value, path, "completed_at", t.completed_at);
    if (const Document* excluded = optional_member(value, "excluded")) {
        const std::string at = member_path(path, "excluded");
        expect_object(*excluded, at);
        if (t.status != TrialStatus::Completed)
            fail(at, std::string("only a completed trial can be excluded from analysis (this one is ") +
                         to_string(t.status) + ")");
        TrialExclusion exclusion;
        read_required(*excluded, at, "reason", exclusion.reason);
        if (exclusion.reason.empty()) fail(member_path(at, "reason"), "the reason must not be empty");
        read_optional(*excluded, at, "at", exclusion.at);
        t.exclusion = std::move(exclusion);
    }
    if (const Document* fit = optional_member(value, "fit")) t.fit = read_fit_record(*fit, member_path(path, "fit"));
    return t;
}

std::vector<Trial> read_trials(const Document& value, const std::string& path, const SearchSpace& space) {
    expect_array(value, path);
    std::unordered_map<std::string, int> index_of;
    for (int i = 0; i < space.dimension(); ++i) index_of.emplace(space.parameter(i).name, i);
    std::vector<Trial> trials;
    trials.reserve(value.size());
    std::set<int> indices;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string at = element_path(path, i);
        Trial t = read_trial(value[i], at, space, index_of);
        if (!indices.insert(t.index).second)
            fail(member_path(at, "index"), "duplicate trial index " + std::to_string(t.index));
        trials.push_back(std::move(t));
    }
    return trials;
}

std::vector<ChosenConfiguration> read_chosen(const Document& value, const std::string& path,
                                             const std::vector<Trial>& trials) {
    expect_array(value, path);
    std::set<int> indices;
    for (const Trial& t : trials) indices.insert(t.index);
    std::vector<ChosenConfiguration> chosen;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string at = element_path(path, i);
        expect_object(value[i], at);
        ChosenConfiguration c;
        read_required(value[i], at, "trial", c.trial);
        if (!indices.count(c.trial)) fail(member_path(at, "trial"), "no trial with index " + std::to_string(c.trial));
        read_optional(value[i], at, "note", c.note);
        chosen.push_back(std::move(c));
    }
    return chosen;
}

int read_version(const Document& document) {
    const Document& value = required_member(document, "", "version");
    int version = 0;
    read_value(value, "version", version);
    if (version > kExperimentVersion)
        fail("version", "this file has version " + std::to_string(version) + ", but this program reads versions up to " +
                            std::to_string(kExperimentVersion) + "; open it with a newer SEBO Explorer");
    if (version < 1) fail("version", std::to_string(version) + " is not a valid version (versions start at 1)");
    return version;
}

Experiment read_experiment(Document& document) {
    expect_object(document, "");
    const auto format = document.find("format");
    if (format == document.end())
        fail("format", std::string("required field is missing: this is not a SEBO experiment file ") +
                           "(expected \"format\": \"" + kExperimentFormat + "\")");
    if (!format->is_string() || format->get_ref<const std::string&>() != kExperimentFormat)
        fail("format", describe(*format) + " is not a SEBO experiment file format (expected \"" + kExperimentFormat + "\")");
    migrate_experiment_document(document, read_version(document));

    Experiment e;
    read_optional(document, "", "name", e.name);
    read_optional(document, "", "description", e.description);
    read_optional(document, "", "seed", e.seed);
    e.objective = read_objective(required_member(document, "", "objective"), "objective");
    e.space = read_space(required_member(document, "", "space"), "space");
    if (const Document* evaluator = optional_member(document, "evaluator"))
        e.evaluator = read_evaluator(*evaluator, "evaluator");
    if (const Document* method = optional_member(document, "method")) e.method = read_method(*method, "method");
    read_optional(document, "", "hypervolume_reference", e.hypervolume_reference);
    if (const Document* trials = optional_member(document, "trials")) e.trials = read_trials(*trials, "trials", e.space);
    if (const Document* chosen = optional_member(document, "chosen"))
        e.chosen = read_chosen(*chosen, "chosen", e.trials);
    if (const Document* state = optional_member(document, "sampler_state"))
        e.sampler_state = read_sampler_state(*state, "sampler_state", e.space);
    // Everything above is checked field by field; this is the experiment's own consistency
    // check, so that a rule added there is enforced on load too.
    if (auto error = e.validate()) fail_with_message(*error);
    return e;
}

// Refuses deep nesting before parsing. The parser itself is iterative, but serializing and
// walking a document recurse per level, and the format needs only four levels; a limit makes
// hostile input harmless whatever the library version does.
void check_nesting(const std::string& text) {
    int depth = 0;
    bool in_string = false, escaped = false;
    std::size_t line = 1, column = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            column = 0;
        } else {
            ++column;
        }
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonNesting)
                fail("", "arrays and objects are nested deeper than " + std::to_string(kMaxJsonNesting) +
                             " levels at line " + std::to_string(line) + ", column " + std::to_string(column) +
                             " (byte " + std::to_string(i + 1) + ")");
        } else if (c == ']' || c == '}') {
            if (depth > 0) --depth;
        }
    }
}

// Builds the document as nlohmann's own DOM parser does, and also knows the JSON path of the
// value being parsed. That path names the field of a number beyond the double range (the parser
// refuses "1e400" as a number overflow rather than storing infinity) and of a duplicate key
// (which nlohmann would silently resolve to the last value).
class DocumentBuilder final : public nlohmann::json_sax<Document> {
public:
    explicit DocumentBuilder(const std::string& text) : text_(text) {}
    Document take() { return std::move(root_); }

    bool null() override { return add(Document(nullptr)); }
    bool boolean(bool value) override { return add(Document(value)); }
    bool number_integer(number_integer_t value) override { return add(Document(value)); }
    bool number_unsigned(number_unsigned_t value) override { return add(Document(value)); }
    bool number_float(number_float_t value, const string_t&) override { return add(Document(value)); }
    bool string(string_t& value) override { return add(Document(std::move(value))); }
    bool binary(binary_t& value) override { return add(Document::binary(std::move(value))); }
    bool start_object(std::size_t) override { return open(Document::object()); }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(Document::array()); }
    bool end_array() override { return close(); }

    bool key(string_t& name) override {
        Level& level = levels_.back();
        const auto [slot, inserted] = level.container->get_ref<Document::object_t&>().try_emplace(name);
        level.key = std::move(name);
        if (!inserted) fail(current_path(), "the key " + shown_text(level.key) + " appears twice");
        level.slot = &slot->second;
        return true;
    }

    bool parse_error(std::size_t byte, const std::string& token, const nlohmann::json::exception& error) override {
        const std::string what = error.what();
        if (error.id == 406)  // out_of_range: number overflow
            fail(current_path(), token + " is not a finite number (it is beyond the range of a double)");
        // A bad key is not the value of the key before it: name the object instead.
        std::string where = current_path();
        if (what.find("object key") != std::string::npos && !levels_.empty()) {
            const std::string object = path_of(levels_.size() - 1);
            where = object.empty() ? "a key of the top-level object" : "a key of " + object;
        }
        // error.what() is "[json.exception.parse_error.101] parse error at line L, column C: why;
        // last read: '<raw bytes>'[; expected ...]"; keep "at line L, column C" and "why", add the
        // byte offset, the field being read and the offending text (the raw bytes may not be UTF-8).
        const auto start = what.find("parse error");
        const auto colon = start == std::string::npos ? std::string::npos : what.find(": ", start);
        if (colon == std::string::npos) fail("", "not valid JSON: " + escape_invalid_utf8(what));
        const std::string position = what.substr(start + 11, colon - start - 11);
        std::string why = what.substr(colon + 2);
        if (const auto last = why.find("; last read: '"); last != std::string::npos) {
            const auto expected = why.find("'; expected", last);
            why = why.substr(0, last) + (expected == std::string::npos ? "" : why.substr(expected + 1));
        }
        fail("", "not valid JSON" + position + " (byte " + std::to_string(byte) + ")" +
                     (where.empty() ? "" : ", in " + where) + ": " + why + "; found " + offending_text(byte, token, what));
    }

private:
    // What the parser stopped at: the end of the text, the first byte that is not UTF-8, the
    // string read so far (a bad escape or control character), or the word (NaN, Infinity, 0x10,
    // ...) or character at the error.
    std::string offending_text(std::size_t byte, const std::string& token, const std::string& what) const {
        if (byte == 0 || byte > text_.size()) return "the end of the text (it is cut short)";
        const std::size_t at = byte - 1;
        if (what.find("UTF-8") != std::string::npos) {
            if (const auto bad = find_invalid_utf8(std::string_view(text_).substr(0, byte)))
                return "the byte " + hex_byte(text_[*bad]) + " at byte " + std::to_string(*bad + 1) + " (not UTF-8 text)";
        }
        if (what.find("invalid string") != std::string::npos) {
            constexpr std::size_t kMaxShown = 60;  // the tail: the problem is at the end of the token
            const std::string shown = token.size() <= kMaxShown ? token : "..." + token.substr(token.size() - kMaxShown);
            return escape_invalid_utf8(shown);
        }
        const auto word_char = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
        };
        // A number cut short ("1.", "1e") fails at the character after it: show the number.
        const std::size_t anchor = !word_char(text_[at]) && at > 0 && word_char(text_[at - 1]) ? at - 1 : at;
        if (word_char(text_[anchor])) {
            constexpr std::size_t kMaxWord = 40;
            std::size_t first = anchor, last = anchor + 1;
            while (first > 0 && anchor - first < kMaxWord && word_char(text_[first - 1])) --first;
            while (last < text_.size() && last - anchor < kMaxWord && word_char(text_[last])) ++last;
            return "'" + text_.substr(first, last - first) + "'";
        }
        const auto c = static_cast<unsigned char>(text_[at]);
        if (c < 0x20 || c >= 0x7F) return "the byte " + hex_byte(text_[at]);
        return "'" + std::string(1, text_[at]) + "'";
    }

    static std::string hex_byte(char c) {
        constexpr char kDigits[] = "0123456789ABCDEF";
        const auto b = static_cast<unsigned char>(c);
        return std::string("0x") + kDigits[b >> 4] + kDigits[b & 0xF];
    }

    struct Level {
        Document* container;
        std::string key;           // objects: the key of the value being read
        Document* slot = nullptr;  // objects: where that value goes (std::map nodes do not move)
    };

    bool add(Document&& value) { return place(std::move(value)) != nullptr; }

    // Pointers into parents stay valid: a parent does not grow while a child is open.
    Document* place(Document&& value) {
        if (levels_.empty()) {
            root_ = std::move(value);
            return &root_;
        }
        Document& parent = *levels_.back().container;
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        Document* slot = levels_.back().slot;
        *slot = std::move(value);
        return slot;
    }

    bool open(Document&& container) {
        levels_.push_back({place(std::move(container)), {}, nullptr});
        return true;
    }

    bool close() {
        levels_.pop_back();
        return true;
    }

    // The path of the child being read at level `depth` (an open container, or for the
    // innermost level, the value being parsed).
    std::string path_of(std::size_t depth) const {
        std::string path;
        for (std::size_t i = 0; i < depth; ++i) {
            const Level& level = levels_[i];
            if (level.container->is_array())
                path = element_path(path, level.container->size() - 1);
            else
                path = member_path(path, level.key);
        }
        return path;
    }

    std::string current_path() const {
        if (levels_.empty()) return "";
        const Level& inner = levels_.back();
        const std::string outer = path_of(levels_.size() - 1);
        return inner.container->is_array() ? element_path(outer, inner.container->size())
                                           : member_path(outer, inner.key);
    }

    const std::string& text_;
    Document root_;
    std::vector<Level> levels_;
};

Document parse_document(const std::string& text) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) fail("", "the file is empty");
    check_nesting(text);
    DocumentBuilder builder(text);
    // Every error reaches builder.parse_error, which throws InputError.
    if (!Document::sax_parse(text, &builder)) fail("", "not valid JSON");
    return builder.take();
}

// Closes a file descriptor on every path out of a function.
struct FileDescriptor {
    int fd = -1;
    explicit FileDescriptor(int f) : fd(f) {}
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;
    ~FileDescriptor() {
        if (fd >= 0) ::close(fd);
    }
    // Closes now and reports the result (close can report a delayed write error).
    int close_now() {
        const int result = ::close(fd);
        fd = -1;
        return result;
    }
};

}  // namespace

std::string experiment_to_json_text(const Experiment& experiment) {
    // nlohmann writes doubles with the shortest digits that parse back to the same bits
    // (checked in tests/engine/test_experiment_file.cpp), so the round trip is lossless.
    return experiment_to_json(experiment).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string trial_json_text(const Trial& trial, const SearchSpace& space) {
    const std::string text = trial_to_json(trial, space).dump(2, ' ', false, Json::error_handler_t::replace);
    // An element of the root object's "trials" array is two levels deep. A string's line breaks
    // are escaped, so every '\n' of the text starts a line of the layout.
    constexpr std::string_view kIndent = "    ";
    std::string indented(kIndent);
    indented.reserve(text.size() + text.size() / 6);
    for (const char c : text) {
        indented += c;
        if (c == '\n') indented += kIndent;
    }
    return indented;
}

std::string experiment_json_text(const Experiment& experiment, const std::vector<const std::string*>& trial_texts) {
    if (trial_texts.size() != experiment.trials.size())
        throw std::logic_error("experiment_json_text: one text per trial is needed");
    std::string shell = experiment_to_json(experiment, false).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
    if (trial_texts.empty()) return shell;
    // The root's members are indented by two spaces (sampler_state's "trials" by four).
    constexpr std::string_view kEmptyTrials = "\n  \"trials\": []";
    const std::size_t at = shell.find(kEmptyTrials);
    if (at == std::string::npos) throw std::logic_error("experiment_json_text: no trials array in the layout");
    std::size_t size = shell.size() + 4 + 2 * trial_texts.size();
    for (const std::string* t : trial_texts) size += t->size();
    std::string text;
    text.reserve(size);
    text.append(shell, 0, at + kEmptyTrials.size() - 1);  // up to and including '['
    for (std::size_t i = 0; i < trial_texts.size(); ++i) {
        text += i == 0 ? "\n" : ",\n";
        text += *trial_texts[i];
    }
    text += "\n  ]";
    text.append(shell, at + kEmptyTrials.size(), std::string::npos);  // after ']'
    return text;
}

Experiment experiment_from_json_text(const std::string& text) {
    Document document = parse_document(text);
    return read_experiment(document);
}

SearchSpace space_from_json_text(const std::string& text) {
    const Document document = parse_document(text);
    return read_space(document, "");
}

Experiment load_experiment(const std::string& path) { return experiment_from_json_text(read_experiment_text(path)); }

std::string read_experiment_text(const std::string& path) {
    // O_NONBLOCK: opening a FIFO must not hang waiting for a writer; it is then refused below.
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (file.fd < 0) fail("file", "cannot open " + path + ": " + system_message(errno));
    struct stat info {};
    if (::fstat(file.fd, &info) != 0) fail("file", "cannot read " + path + ": " + system_message(errno));
    if (!S_ISREG(info.st_mode)) fail("file", path + " is not a regular file");
    const auto too_big = [&](std::uint64_t size) {
        fail("file", path + " is " + std::to_string(size) + " bytes; experiment files over " +
                         std::to_string(kMaxExperimentFileBytes >> 20) + " MiB are refused");
    };
    const auto size = static_cast<std::uint64_t>(info.st_size);
    if (size > kMaxExperimentFileBytes) too_big(size);
    std::string text;
    text.reserve(static_cast<std::size_t>(size));
    std::array<char, 1 << 16> buffer{};
    for (;;) {
        const ssize_t n = ::read(file.fd, buffer.data(), buffer.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("file", "cannot read " + path + ": " + system_message(errno));
        }
        if (n == 0) break;
        text.append(buffer.data(), static_cast<std::size_t>(n));
        // The file may grow while it is read; the limit holds for what is actually read.
        if (text.size() > kMaxExperimentFileBytes) too_big(text.size());
    }
    return text;
}

void save_experiment(const Experiment& experiment, const std::string& path, ExperimentTextCache* cache) {
    if (auto error = experiment.validate())
        throw std::runtime_error("cannot save " + path + ": the experiment is not valid (" + *error + ")");
    write_file_atomic(path, cache ? cache->text(experiment) : experiment_to_json_text(experiment));
}

namespace {

// Removes the "<name>.tmp-<pid>" files that saves killed mid-write left next to `path`, when
// their process no longer exists (a live one may be saving right now; a reused pid only delays
// the clean-up). Nothing else is touched, and failures are ignored: this is tidying, not saving.
// The folder is listed on a process's first save of each file only: the leftovers come from
// processes killed earlier, and an autosave after every trial should not list it every time.
void remove_stale_temporaries(const std::filesystem::path& path, const std::filesystem::path& folder) {
    {
        static std::mutex mutex;
        static std::set<std::string> tidied;
        const std::lock_guard lock(mutex);
        std::error_code error;
        const std::filesystem::path key = std::filesystem::absolute(path, error);
        if (!tidied.insert((error ? path : key).lexically_normal().string()).second) return;
    }
    const std::string prefix = path.filename().string() + ".tmp-";
    std::error_code error;
    for (std::filesystem::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string digits = name.substr(prefix.size());
        if (digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            continue;
        const pid_t pid = static_cast<pid_t>(std::stol(digits));
        if (pid <= 0 || pid == ::getpid() || ::kill(pid, 0) == 0 || errno != ESRCH) continue;
        std::error_code ignored;
        if (it->is_regular_file(ignored)) std::filesystem::remove(it->path(), ignored);
    }
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& text) {
    const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
    const auto failure = [&](const std::string& step, int error) {
        ::unlink(temporary.c_str());
        return std::runtime_error("cannot save " + path + ": " + step + ": " + system_message(error));
    };
    FileDescriptor file(::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
    if (file.fd < 0) {
        const int error = errno;
        throw std::runtime_error("cannot save " + path + ": cannot create " + temporary + ": " + system_message(error));
    }
    // Replacing a file keeps its permission bits (the new inode would otherwise get the umask's).
    struct stat existing {};
    if (::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)) ::fchmod(file.fd, existing.st_mode & 0777);
    // write(2) directly: there is no user-space buffer to flush, fsync then forces the data to disk
    // before the rename makes it visible, so a crash leaves either the old or the new file.
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(file.fd, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw failure("write", errno);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(file.fd) != 0) throw failure("fsync", errno);
    if (file.close_now() != 0) throw failure("close", errno);
    if (::rename(temporary.c_str(), path.c_str()) != 0) throw failure("rename", errno);
    // Make the rename itself durable. The new file is already in place, so a failure here (some
    // file systems do not support fsync on a directory) is not reported as a failed save.
    std::filesystem::path folder = std::filesystem::path(path).parent_path();
    if (folder.empty()) folder = ".";
    FileDescriptor directory(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (directory.fd >= 0) ::fsync(directory.fd);
    remove_stale_temporaries(path, folder);
}

}  // namespace sebo
