#include "io/optuna_study.h"

#include <cmath>
#include <cstdio>
#include <ctime>

#include "core/format.h"
#include "core/input_error.h"
#include "io/json_document.h"
#include "io/python_json.h"

namespace sebo::optuna {

namespace {

[[noreturn]] void fail(const std::string& where, const std::string& message) { throw InputError(where, message); }

// A distribution is an object of attributes inside an object: three levels are plenty.
constexpr int kDistributionNesting = 4;

double number_attribute(const nlohmann::json& attributes, const char* key, const std::string& where) {
    const auto it = attributes.find(key);
    if (it == attributes.end()) fail(where, std::string("the distribution has no \"") + key + "\"");
    const auto x = python_float(*it);
    if (!x || !std::isfinite(*x))
        fail(where, std::string("the distribution's \"") + key + "\" is " + (x ? "the special float " + format_number(*x) : describe_value(*it)) +
                        ", not a finite number");
    return *x;
}

std::optional<double> optional_number(const nlohmann::json& attributes, const char* key, const std::string& where) {
    const auto it = attributes.find(key);
    if (it == attributes.end() || it->is_null()) return std::nullopt;
    return number_attribute(attributes, key, where);
}

bool boolean_attribute(const nlohmann::json& attributes, const char* key, const std::string& where) {
    const auto it = attributes.find(key);
    if (it == attributes.end() || it->is_null()) return false;
    if (!it->is_boolean()) fail(where, std::string("the distribution's \"") + key + "\" is " + describe_value(*it) + ", not true or false");
    return it->get<bool>();
}

std::vector<nlohmann::json> choices_of(const nlohmann::json& attributes, const std::string& where) {
    const auto it = attributes.find("choices");
    if (it == attributes.end() || !it->is_array()) fail(where, "the categorical distribution has no list of \"choices\"");
    std::vector<nlohmann::json> out;
    for (const nlohmann::json& c : *it) {
        if (c.is_object()) {
            // NaN, Infinity: read by parse_python_json as special-float objects.
            const auto x = python_float(c);
            fail(where, "the choice " + (x ? format_number(*x) : describe_value(c)) +
                            " cannot be a value of a choice parameter here (a choice is a string, a finite number, true, false or null)");
        }
        if (c.is_array()) fail(where, "the choice " + describe_value(c) + " is not a string, number, true, false or null");
        out.push_back(c);
    }
    if (out.empty()) fail(where, "the categorical distribution has no choices");
    return out;
}

}  // namespace

std::optional<TrialState> trial_state_from_name(const std::string& name) {
    if (name == "RUNNING") return TrialState::Running;
    if (name == "COMPLETE") return TrialState::Complete;
    if (name == "PRUNED") return TrialState::Pruned;
    if (name == "FAIL") return TrialState::Fail;
    if (name == "WAITING") return TrialState::Waiting;
    return std::nullopt;
}

std::optional<TrialState> trial_state_from_number(long long number) {
    if (number < 0 || number > 4) return std::nullopt;
    return static_cast<TrialState>(number);
}

const char* to_string(TrialState state) {
    switch (state) {
    case TrialState::Running: return "RUNNING";
    case TrialState::Complete: return "COMPLETE";
    case TrialState::Pruned: return "PRUNED";
    case TrialState::Fail: return "FAIL";
    case TrialState::Waiting: return "WAITING";
    }
    return "RUNNING";
}

bool Distribution::compatible(const Distribution& other) const {
    return kind == other.kind && log == other.log && step == other.step && choices == other.choices;
}

Distribution parse_distribution(const std::string& json, const std::string& where) {
    nlohmann::json d;
    try {
        d = parse_python_json(json, kDistributionNesting);
    } catch (const InputError& e) {
        fail(where, e.what());
    }
    if (!d.is_object()) fail(where, "the distribution is " + describe_value(d) + ", not a JSON object");
    Distribution out;
    out.json = json;
    const auto name = d.find("name");
    if (name == d.end()) {
        // The abbreviated form json_to_distribution also reads: {"type": "float" | "int" | "categorical", ...}.
        const auto type = d.find("type");
        if (type == d.end() || !type->is_string()) fail(where, "the distribution has neither a \"name\" nor a \"type\"");
        const std::string t = type->get<std::string>();
        if (t == "categorical") {
            out.kind = Distribution::Kind::Categorical;
            out.choices = choices_of(d, where);
            return out;
        }
        if (t != "float" && t != "int") fail(where, "unknown distribution type " + shown_text(t) + " (known: float, int, categorical)");
        out.kind = t == "float" ? Distribution::Kind::Float : Distribution::Kind::Int;
        out.low = number_attribute(d, "low", where);
        out.high = number_attribute(d, "high", where);
        out.log = boolean_attribute(d, "log", where);
        out.step = optional_number(d, "step", where);
        if (out.kind == Distribution::Kind::Int && !out.step) out.step = 1.0;
        return out;
    }
    if (!name->is_string()) fail(where, "the distribution's name is " + describe_value(*name) + ", not a string");
    const auto attributes_it = d.find("attributes");
    if (attributes_it == d.end() || !attributes_it->is_object()) fail(where, "the distribution has no object of \"attributes\"");
    const nlohmann::json& a = *attributes_it;
    const std::string n = name->get<std::string>();
    if (n == "CategoricalDistribution") {
        out.kind = Distribution::Kind::Categorical;
        out.choices = choices_of(a, where);
        return out;
    }
    out.low = number_attribute(a, "low", where);
    out.high = number_attribute(a, "high", where);
    if (n == "FloatDistribution" || n == "UniformDistribution" || n == "LogUniformDistribution" || n == "DiscreteUniformDistribution") {
        out.kind = Distribution::Kind::Float;
        out.log = n == "LogUniformDistribution" || (n == "FloatDistribution" && boolean_attribute(a, "log", where));
        out.step = n == "DiscreteUniformDistribution" ? std::optional<double>(number_attribute(a, "q", where))
                   : n == "FloatDistribution"         ? optional_number(a, "step", where)
                                                      : std::nullopt;
    } else if (n == "IntDistribution" || n == "IntUniformDistribution" || n == "IntLogUniformDistribution") {
        out.kind = Distribution::Kind::Int;
        out.log = n == "IntLogUniformDistribution" || (n == "IntDistribution" && boolean_attribute(a, "log", where));
        out.step = optional_number(a, "step", where).value_or(1.0);
    } else {
        fail(where, "unknown distribution " + shown_text(n) +
                        " (known: FloatDistribution, IntDistribution, CategoricalDistribution and Optuna 2's classes)");
    }
    if (out.step && !(*out.step > 0)) fail(where, "the distribution's step " + format_number(*out.step) + " is not positive");
    return out;
}

const ParamValue* TrialRecord::param(const std::string& name) const {
    for (const auto& [n, v] : params)
        if (n == name) return &v;
    return nullptr;
}

std::size_t select_study(const std::vector<OptunaStudySummary>& studies, const std::string& requested, const std::string& path) {
    const auto listing = [&] {
        std::string text;
        for (const OptunaStudySummary& s : studies)
            text += (text.empty() ? "" : ", ") + shown_text(s.name) + " (" + std::to_string(s.trials) + " trial" + (s.trials == 1 ? ")" : "s)");
        return text;
    };
    if (studies.empty()) fail("file", path + " holds no study");
    if (requested.empty()) {
        if (studies.size() == 1) return 0;
        fail("--study", path + " holds " + std::to_string(studies.size()) + " studies: " + listing() + "; choose one with --study NAME");
    }
    for (std::size_t i = 0; i < studies.size(); ++i)
        if (studies[i].name == requested) return i;
    fail("--study", "no study is named " + shown_text(requested) + " in " + path + "; it holds " + listing());
}

std::optional<double> time_seconds(const std::string& text) {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, consumed = 0;
    double second = 0;
    char separator = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2d%c%2d:%2d:%lf%n", &year, &month, &day, &separator, &hour, &minute, &second,
                    &consumed) != 7 ||
        (separator != ' ' && separator != 'T') || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 ||
        !(second >= 0 && second < 61))
        return std::nullopt;
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    double seconds = static_cast<double>(::timegm(&tm)) + second;
    // A zone ("+09:00", "Z") as the journal of Optuna 4 writes it.
    const std::string zone = text.substr(static_cast<std::size_t>(consumed));
    int zh = 0, zm = 0;
    char sign = 0;
    if (zone.size() >= 6 && std::sscanf(zone.c_str(), "%c%2d:%2d", &sign, &zh, &zm) == 3 && (sign == '+' || sign == '-'))
        seconds -= (sign == '+' ? 1 : -1) * (zh * 3600.0 + zm * 60.0);
    return seconds;
}

}  // namespace sebo::optuna
