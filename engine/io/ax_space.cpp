#include "io/ax_space.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string_view>

#include "core/format.h"
#include "core/input_error.h"
#include "io/choice_json.h"
#include "io/json_document.h"
#include "io/python_json.h"

namespace sebo::ax {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) { throw InputError(path, message); }

// A validation message of the engine ("upper: 0 is not above lower 1") under `path`.
[[noreturn]] void fail_under(const std::string& path, const std::string& message) {
    const auto colon = message.find(": ");
    if (colon == std::string::npos) fail(path, message);
    fail(member_path(path, message.substr(0, colon)), message.substr(colon + 2));
}

// A choice or fixed value as Ax types it: STRING, INT, FLOAT or BOOL (ax/core/parameter.py).
ChoiceValue typed_value(const Document& value, const std::string& path) {
    ChoiceValue v;
    if (value.is_string()) {
        v.text = value.get<std::string>();
    } else if (value.is_boolean() || value.is_null()) {
        v.literal = true;
        v.text = value.dump();
    } else {
        v = number_choice_value(finite_number(value, path), !value.is_number_integer() && !value.is_number_unsigned());
    }
    return v;
}

// Warnings for the settings of an Ax parameter that SEBO has no counterpart for.
void warn_unmapped_settings(const Document& p, const std::string& name, std::vector<std::string>& warnings) {
    if (const Document* fidelity = optional(p, "is_fidelity"); fidelity && fidelity->is_boolean() && fidelity->get<bool>())
        warnings.push_back("parameter '" + name +
                           "' is a fidelity parameter in Ax; here it is an ordinary parameter (no multi-fidelity model)");
}

Parameter read_range(const Document& p, const std::string& path, const std::string& name, std::vector<std::string>& warnings) {
    Parameter out;
    out.name = name;
    const std::string type = enum_name(required(p, path, "parameter_type"), member_path(path, "parameter_type"));
    if (type == "FLOAT") out.kind = ParameterKind::Continuous;
    else if (type == "INT") out.kind = ParameterKind::Integer;
    else fail(member_path(path, "parameter_type"), "a range parameter of type " + type + " (expected FLOAT or INT)");
    out.lower = finite_number(required(p, path, "lower"), member_path(path, "lower"));
    out.upper = finite_number(required(p, path, "upper"), member_path(path, "upper"));
    if (const Document* log = optional(p, "log_scale")) out.log_scale = boolean_value(*log, member_path(path, "log_scale"));
    if (const Document* logit = optional(p, "logit_scale"); logit && boolean_value(*logit, member_path(path, "logit_scale")))
        warnings.push_back("parameter '" + name + "' is on a logit scale in Ax; here it is modelled on a linear scale");
    if (const Document* digits = optional(p, "digits"))
        warnings.push_back("parameter '" + name + "': Ax rounds its values to " +
                           std::to_string(integer_value(*digits, member_path(path, "digits"))) +
                           " decimal places; SEBO proposes values that are not rounded");
    warn_unmapped_settings(p, name, warnings);
    return out;
}

// A choice, or (with one value) a fixed parameter; unset when it has to be left out.
std::optional<Parameter> read_choice(const Document& p, const std::string& path, const std::string& name,
                                     std::vector<std::string>& warnings) {
    if (const Document* task = optional(p, "is_task"); task && boolean_value(*task, member_path(path, "is_task")))
        fail(member_path(path, "is_task"), "'" + name + "' is a task parameter (a multi-task experiment), which SEBO cannot model");
    if (optional(p, "dependents"))
        fail(member_path(path, "dependents"), "'" + name +
                                                  "' switches other parameters on and off (a hierarchical search space), "
                                                  "which SEBO cannot represent");
    const std::string at = member_path(path, "values");
    const Document& values = expect_array(required(p, path, "values"), at);
    Parameter out;
    out.name = name;
    out.kind = ParameterKind::Choice;
    for (std::size_t k = 0; k < values.size(); ++k) out.values.push_back(typed_value(values[k], element_path(at, k)));
    if (const Document* ordered = optional(p, "is_ordered")) out.ordered = boolean_value(*ordered, member_path(path, "is_ordered"));
    if (out.values.size() == 1) {
        // Ax keeps one-value choices in the modelling layer only; a stored one is a fixed value.
        if (!out.values.front().number) {
            warnings.push_back("parameter '" + name + "' has the single value " + out.values.front().text +
                               ", which is not a number: it is left out (SEBO's fixed parameters are numbers)");
            return std::nullopt;
        }
        Parameter fixed;
        fixed.name = name;
        fixed.kind = ParameterKind::Fixed;
        fixed.target = fixed.lower = fixed.upper = *out.values.front().number;
        return fixed;
    }
    if (const Document* log = optional(p, "log_scale"); log && log->is_boolean() && log->get<bool>())
        warnings.push_back("parameter '" + name + "' is a choice on a log scale in Ax; here its values are " +
                           (out.ordered ? "equally spaced steps of an ordered choice" : "unordered"));
    warn_unmapped_settings(p, name, warnings);
    return out;
}

std::optional<Parameter> read_fixed(const Document& p, const std::string& path, const std::string& name,
                                    std::vector<std::string>& warnings) {
    if (optional(p, "dependents"))
        fail(member_path(path, "dependents"), "'" + name +
                                                  "' switches other parameters on and off (a hierarchical search space), "
                                                  "which SEBO cannot represent");
    const ChoiceValue value = typed_value(required(p, path, "value"), member_path(path, "value"));
    if (!value.number) {
        warnings.push_back("fixed parameter '" + name + "' = " + value.text +
                           " is left out: SEBO's fixed parameters are numbers, so suggestions do not carry it "
                           "(add it when you attach a trial in Ax)");
        return std::nullopt;
    }
    Parameter out;
    out.name = name;
    out.kind = ParameterKind::Fixed;
    out.target = out.lower = out.upper = *value.number;
    return out;
}

// A linear constraint in Ax's text form, as its encoder writes it ("1.0 * x1 + -1.0 * x2 <= 0.0",
// "… == 1.0") and as people write it ("x1 + x2 <= 1"): terms [coefficient " * "] name joined by
// " + " (a coefficient may be negative), a relation, and a number. Names are matched against the
// space's names, longest first, so a name holding " + " or " * " still reads.
struct ConstraintTerms {
    std::vector<std::pair<std::string, double>> terms;
    ConstraintRelation relation = ConstraintRelation::LessEqual;
    double bound = 0.0;
};

std::optional<double> read_float(std::string_view text) {
    const std::string s(text);
    char* end = nullptr;
    const double x = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(x)) return std::nullopt;
    return x;
}

std::string trim(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return std::string(s);
}

ConstraintTerms parse_constraint_text(const std::string& text, const std::vector<std::string>& names, const std::string& path) {
    ConstraintTerms out;
    std::size_t relation_at = std::string::npos, relation_size = 2;
    for (const auto& [word, relation] : {std::pair{"<=", ConstraintRelation::LessEqual}, {">=", ConstraintRelation::GreaterEqual},
                                         {"==", ConstraintRelation::Equal}}) {
        const std::size_t at = text.rfind(word);
        if (at != std::string::npos && (relation_at == std::string::npos || at > relation_at)) {
            relation_at = at;
            out.relation = relation;
        }
    }
    if (relation_at == std::string::npos) fail(path, shown_text(text) + " has no relation (<=, >= or ==)");
    const auto bound = read_float(trim(std::string_view(text).substr(relation_at + relation_size)));
    if (!bound) fail(path, shown_text(text) + ": the right side is not a finite number");
    out.bound = *bound;
    std::vector<std::string> by_length = names;
    std::sort(by_length.begin(), by_length.end(), [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    const std::string left = trim(std::string_view(text).substr(0, relation_at));
    std::size_t at = 0;
    while (at < left.size()) {
        double coefficient = 1.0;
        // A coefficient: the text up to " * ", when it reads as a number.
        if (const std::size_t star = left.find(" * ", at); star != std::string::npos)
            if (const auto number = read_float(trim(std::string_view(left).substr(at, star - at)))) {
                coefficient = *number;
                at = star + 3;
            }
        const auto name = std::find_if(by_length.begin(), by_length.end(), [&](const std::string& n) {
            return left.compare(at, n.size(), n) == 0 &&
                   (at + n.size() == left.size() || left.compare(at + n.size(), 3, " + ") == 0);
        });
        if (name == by_length.end())
            fail(path, shown_text(text) + ": '" + left.substr(at) + "' does not start with a parameter of the search space");
        out.terms.emplace_back(*name, coefficient);
        at += name->size();
        if (at < left.size()) at += 3;  // " + "
    }
    if (out.terms.empty()) fail(path, shown_text(text) + " names no parameter");
    return out;
}

ConstraintTerms read_constraint(const Document& c, const std::string& path, const std::vector<std::string>& names) {
    const std::string type = type_of(c);
    ConstraintTerms out;
    const auto names_at = [&](const Document& list, const std::string& at) {
        expect_array(list, at);
        std::vector<std::string> listed;
        for (std::size_t i = 0; i < list.size(); ++i) listed.push_back(string_value(list[i], element_path(at, i)));
        return listed;
    };
    if (type == "OrderConstraint") {
        // lower_name <= upper_name
        out.terms = {{string_value(required(c, path, "lower_name"), member_path(path, "lower_name")), 1.0},
                     {string_value(required(c, path, "upper_name"), member_path(path, "upper_name")), -1.0}};
    } else if (type == "SumConstraint") {
        for (const std::string& n : names_at(required(c, path, "parameter_names"), member_path(path, "parameter_names")))
            out.terms.emplace_back(n, 1.0);
        // The encoder writes |bound|; the decoder reads "sum <= bound" or "sum >= bound".
        out.bound = finite_number(required(c, path, "bound"), member_path(path, "bound"));
        out.relation = boolean_value(required(c, path, "is_upper_bound"), member_path(path, "is_upper_bound"))
                           ? ConstraintRelation::LessEqual
                           : ConstraintRelation::GreaterEqual;
    } else if (type == "ParameterConstraint") {
        if (const Document* weights = optional(c, "constraint_dict")) {
            const std::string at = member_path(path, "constraint_dict");
            expect_object(*weights, at);
            for (const auto& [name, weight] : weights->items()) out.terms.emplace_back(name, finite_number(weight, member_path(at, name)));
            out.bound = finite_number(required(c, path, "bound"), member_path(path, "bound"));
        } else if (const Document* equality = optional(c, "equality")) {
            out = parse_constraint_text(string_value(*equality, member_path(path, "equality")), names, member_path(path, "equality"));
            if (out.relation != ConstraintRelation::Equal) fail(member_path(path, "equality"), "is not an equality (==)");
        } else {
            const std::string at = member_path(path, "inequality");
            out = parse_constraint_text(string_value(required(c, path, "inequality"), at), names, at);
            if (out.relation == ConstraintRelation::Equal) fail(at, "is an equality, not an inequality");
        }
    } else {
        fail(path, "unknown parameter constraint type " + shown_text(type) +
                       " (known: ParameterConstraint, SumConstraint, OrderConstraint)");
    }
    return out;
}

}  // namespace

AxSpace read_search_space(const Document& search_space, const std::string& path, std::vector<std::string>& warnings) {
    expect_object(search_space, path);
    const std::string space_type = type_of(search_space);
    if (space_type != "SearchSpace")
        fail(member_path(path, "__type"), "a " + (space_type.empty() ? std::string("search space without a type") : space_type) +
                                              " is not supported (hierarchical and robust search spaces cannot be represented); "
                                              "expected SearchSpace");
    AxSpace out;
    std::vector<Parameter> parameters;
    const std::string at = member_path(path, "parameters");
    const Document& list = expect_array(required(search_space, path, "parameters"), at);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string p_path = element_path(at, i);
        const Document& p = expect_object(list[i], p_path);
        const std::string name = string_value(required(p, p_path, "name"), member_path(p_path, "name"));
        const std::string type = type_of(p);
        std::optional<Parameter> parameter;
        if (type == "RangeParameter") {
            parameter = read_range(p, p_path, name, warnings);
        } else if (type == "ChoiceParameter") {
            parameter = read_choice(p, p_path, name, warnings);
        } else if (type == "FixedParameter") {
            parameter = read_fixed(p, p_path, name, warnings);
        } else if (type == "DerivedParameter") {
            std::string expression;
            if (const Document* e = optional(p, "expression_str"); e && e->is_string()) expression = " = " + e->get<std::string>();
            warnings.push_back("derived parameter '" + name + "'" + expression +
                               " is left out: Ax computes it from the others, so it is not a choice to make");
        } else {
            fail(member_path(p_path, "__type"), "unknown parameter type " + shown_text(type) +
                                                    " (known: RangeParameter, ChoiceParameter, FixedParameter, DerivedParameter)");
        }
        if (parameter) {
            if (const auto error = SearchSpace::validate_parameter(*parameter)) fail_under(p_path, *error);
            parameters.push_back(std::move(*parameter));
        } else {
            out.left_out.push_back(name);
        }
    }
    // Constraint terms index the constraint variables: the varying parameters, then the fixed ones.
    const SearchSpace plain(parameters);
    const std::vector<std::string> variables = plain.variable_names();
    std::vector<LinearConstraint> constraints;
    const std::string c_at = member_path(path, "parameter_constraints");
    if (const Document* list = optional(search_space, "parameter_constraints")) {
        expect_array(*list, c_at);
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string c_path = element_path(c_at, i);
            const ConstraintTerms read = read_constraint(expect_object((*list)[i], c_path), c_path, variables);
            LinearConstraint c;
            c.relation = read.relation;
            c.bound = read.bound;
            for (const auto& [name, coefficient] : read.terms) {
                const auto it = std::find(variables.begin(), variables.end(), name);
                if (it == variables.end())
                    fail(c_path, "the constraint names '" + name + "', which is not a parameter of the search space" +
                                     (std::find(out.left_out.begin(), out.left_out.end(), name) != out.left_out.end()
                                          ? " here (it is left out, see the warnings)"
                                          : ""));
                const int index = static_cast<int>(it - variables.begin());
                if (index < plain.dimension()) {
                    const Parameter& p = plain.parameter(index);
                    if (p.log_scale || p.kind == ParameterKind::Choice)
                        fail(c_path, "the constraint names '" + name + "', which is " +
                                         (p.log_scale ? "on a log scale" : "a choice") +
                                         ": a linear constraint can only hold linear-scale numeric parameters here");
                }
                if (coefficient == 0.0) continue;
                const auto same = std::find_if(c.terms.begin(), c.terms.end(), [&](const LinearTerm& t) { return t.parameter == index; });
                if (same != c.terms.end()) same->coefficient += coefficient;
                else c.terms.push_back({index, coefficient});
            }
            std::erase_if(c.terms, [](const LinearTerm& t) { return t.coefficient == 0.0; });
            if (c.terms.empty()) fail(c_path, "the constraint's coefficients are all 0");
            constraints.push_back(std::move(c));
        }
    }
    out.space = SearchSpace(std::move(parameters), std::move(constraints));
    // "parameter_constraints[0]: ..." or "parameters[1].upper: ...": paths of the space here too.
    if (const auto error = out.space.validate()) fail_under(path, *error);
    return out;
}

ArmConfiguration read_arm(const AxSpace& space, const Document& arm, const std::string& path) {
    expect_object(arm, path);
    const std::string at = member_path(path, "parameters");
    const Document& given = expect_object(required(arm, path, "parameters"), at);
    ArmConfiguration out;
    for (const Parameter& p : space.space.parameters()) {
        const auto it = given.find(p.name);
        if (it == given.end()) {
            out.problem = "it has no value of parameter '" + p.name + "'";
            return out;
        }
        const std::string v_path = member_path(at, p.name);
        if (p.kind == ParameterKind::Choice) {
            const ChoiceValue v = typed_value(*it, v_path);
            const auto k = std::find_if(p.values.begin(), p.values.end(), [&](const ChoiceValue& c) {
                return v.number ? c.number && *c.number == *v.number : !c.number && c.literal == v.literal && c.text == v.text;
            });
            if (k == p.values.end()) {
                out.problem = p.name + " = " + v.text + " is not one of its values";
                return out;
            }
            out.values.push_back(static_cast<double>(k - p.values.begin()));
            continue;
        }
        const auto x = python_float(*it);
        if (!x) fail(v_path, "expected a number, got " + describe_value(*it));
        out.values.push_back(*x);
    }
    for (const Parameter& p : space.space.fixed_parameters()) {
        const auto it = given.find(p.name);
        const auto x = it == given.end() ? std::nullopt : python_float(*it);
        if (x && *x != p.resolved_target()) {
            out.problem = "its " + p.name + " = " + format_number(*x) + " differs from the fixed value " + format_number(p.resolved_target());
            return out;
        }
    }
    if (const auto problem = space.space.check_point(out.values)) out.problem = *problem;
    return out;
}

}  // namespace sebo::ax
