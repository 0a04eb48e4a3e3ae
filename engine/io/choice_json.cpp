#include "io/choice_json.h"

#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/input_error.h"
#include "io/json_document.h"

namespace sebo {

namespace {

std::string member(const std::string& path, const char* key) { return path + "." + key; }

// The values of a choice as the file lists them, for messages: "none", "lz4", 4.
std::string listed(const Parameter& p) {
    std::string text;
    for (std::size_t k = 0; k < p.values.size(); ++k)
        text += (k ? ", " : "") + (p.values[k].number || p.values[k].literal ? p.values[k].text : shown_text(p.values[k].text));
    return text;
}

}  // namespace

void read_choice_parameter(const nlohmann::json& object, const std::string& path, Parameter& p) {
    for (const char* key : {"lower", "upper"})
        if (object.contains(key))
            throw InputError(member(path, key), "a choice parameter has \"values\" instead of bounds");
    if (object.contains("value"))
        throw InputError(member(path, "value"), "only a fixed parameter (\"kind\": \"fixed\") has a value; this one is choice");
    if (object.contains("log")) throw InputError(member(path, "log"), "a choice parameter has no scale");
    if (object.contains("min_change"))
        throw InputError(member(path, "min_change"), "a choice changes or does not; it has no minimum change");
    const auto values = object.find("values");
    if (values == object.end())
        throw InputError(member(path, "values"), "a choice parameter needs its values, such as [\"none\", \"lz4\", \"zstd\"]");
    if (!values->is_array()) throw InputError(member(path, "values"), "expected an array of values, got " + describe_value(*values));
    for (std::size_t k = 0; k < values->size(); ++k) {
        const nlohmann::json& v = (*values)[k];
        const std::string at = member(path, "values") + "[" + std::to_string(k) + "]";
        ChoiceValue value;
        if (v.is_string()) {
            value.text = v.get<std::string>();
        } else if (v.is_number()) {
            const double x = v.get<double>();
            if (!std::isfinite(x)) throw InputError(at, format_number(x) + " is not a finite number");
            value = number_choice_value(x, v.is_number_float());
        } else if (v.is_boolean() || v.is_null()) {
            // Another tool's categorical value (parameter.h, ChoiceValue::literal).
            value.literal = true;
            value.text = v.dump();
        } else {
            throw InputError(at, "expected a string, a number, true, false or null, got " + describe_value(v));
        }
        p.values.push_back(std::move(value));
    }
    if (const auto ordered = object.find("ordered"); ordered != object.end()) {
        if (!ordered->is_boolean())
            throw InputError(member(path, "ordered"), "expected true or false, got " + describe_value(*ordered));
        p.ordered = ordered->get<bool>();
    }
    p.lower = 0.0;
    p.upper = static_cast<double>(p.values.size()) - 1.0;
    if (const auto target = object.find("target"); target != object.end()) p.target = read_choice_value(*target, member(path, "target"), p);
}

void put_choice_parameter(nlohmann::ordered_json& j, const Parameter& p) {
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (int k = 0; k < p.levels(); ++k) values.push_back(choice_value_json(p, k));
    j["values"] = std::move(values);
    j["ordered"] = p.ordered;
    if (p.target) j["target"] = choice_value_json(p, *p.target);
}

ChoiceValue number_choice_value(double number, bool real) {
    ChoiceValue v;
    v.number = number;
    v.text = format_number(number);
    // format_number writes 2.0 as "2"; a value written as a float keeps its point.
    if (real && v.text.find_first_not_of("-0123456789") == std::string::npos) v.text += ".0";
    return v;
}

nlohmann::ordered_json choice_value_json(const Parameter& p, double index) {
    if (!(index >= 0.0 && index < p.levels())) return nullptr;
    const ChoiceValue& v = p.values[static_cast<std::size_t>(index)];
    // An integral number as a JSON integer (a program can use it as a count without a cast),
    // unless it was written as a float ("2.0", number_choice_value).
    if (v.number && std::floor(*v.number) == *v.number && std::abs(*v.number) <= 9007199254740992.0 &&
        v.text.find_first_not_of("-0123456789") == std::string::npos)
        return static_cast<std::int64_t>(*v.number);
    if (v.number) return *v.number;
    if (v.literal) return v.text == "true" ? nlohmann::ordered_json(true) : v.text == "false" ? nlohmann::ordered_json(false) : nullptr;
    return v.text;
}

int read_choice_value(const nlohmann::json& value, const std::string& path, const Parameter& p) {
    std::string text;
    if (value.is_string()) {
        text = value.get<std::string>();
    } else if (value.is_number()) {
        text = format_number(value.get<double>());
    } else if (value.is_boolean() || value.is_null()) {
        text = value.dump();
    } else {
        throw InputError(path, "expected one of the values " + listed(p) + ", got " + describe_value(value));
    }
    // A string names a text value exactly; a number names a number value, and true, false and null
    // the literal (the file writes each as it is, so a string "4" for the number 4 is a mistake
    // worth naming).
    for (int k = 0; k < p.levels(); ++k) {
        const ChoiceValue& v = p.values[static_cast<std::size_t>(k)];
        const bool same = value.is_string()   ? !v.number && !v.literal && v.text == text
                          : value.is_number() ? v.number && *v.number == value.get<double>()
                                              : v.literal && v.text == text;
        if (same) return k;
    }
    throw InputError(path, (value.is_string() ? shown_text(text) : text) + " is not one of the values " + listed(p));
}

}  // namespace sebo
