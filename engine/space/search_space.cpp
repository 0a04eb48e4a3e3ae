#include "space/search_space.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <set>

#include "core/format.h"
#include "space/polytope.h"

namespace sebo {

const char* to_string(ParameterKind kind) {
    switch (kind) {
    case ParameterKind::Continuous: return "continuous";
    case ParameterKind::Integer: return "integer";
    case ParameterKind::Fixed: return "fixed";
    case ParameterKind::Choice: return "choice";
    }
    return "continuous";
}

std::optional<ParameterKind> parameter_kind_from_string(const std::string& text) {
    if (text == "continuous") return ParameterKind::Continuous;
    if (text == "integer") return ParameterKind::Integer;
    if (text == "fixed") return ParameterKind::Fixed;
    if (text == "choice") return ParameterKind::Choice;
    return std::nullopt;
}

double Parameter::resolved_target() const {
    if (target) return *target;
    if (kind == ParameterKind::Choice) return 0.0;
    return (lower <= 0.0 && 0.0 <= upper) ? 0.0 : lower;
}

std::string value_text(const Parameter& p, double value) {
    if (p.kind == ParameterKind::Choice && std::isfinite(value) && value >= 0.0 && value < p.levels() &&
        std::floor(value) == value)
        return p.values[static_cast<std::size_t>(value)].text;
    return format_number(value);
}

std::optional<int> choice_index(const Parameter& p, const std::string& text) {
    for (std::size_t k = 0; k < p.values.size(); ++k)
        if (p.values[k].text == text) return static_cast<int>(k);
    // A number value also answers to another spelling of the number ("4" for 4.0, "1e3" for 1000).
    char* end = nullptr;
    const double number = text.empty() ? 0.0 : std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
    for (std::size_t k = 0; k < p.values.size(); ++k)
        if (p.values[k].number && *p.values[k].number == number) return static_cast<int>(k);
    return std::nullopt;
}

namespace {

// Whether every term names a constraint variable that can be mapped linearly onto the unit cube
// (validate() says what is wrong otherwise).
bool constraints_mappable(const std::vector<LinearConstraint>& constraints, const std::vector<Parameter>& varying,
                          std::size_t variables) {
    for (const LinearConstraint& c : constraints)
        for (const LinearTerm& t : c.terms) {
            if (t.parameter < 0 || static_cast<std::size_t>(t.parameter) >= variables || !std::isfinite(t.coefficient))
                return false;
            if (static_cast<std::size_t>(t.parameter) < varying.size() &&
                (varying[static_cast<std::size_t>(t.parameter)].log_scale ||
                 varying[static_cast<std::size_t>(t.parameter)].kind == ParameterKind::Choice))
                return false;
        }
    return true;
}

}  // namespace

SearchSpace::SearchSpace(std::vector<Parameter> parameters, std::vector<LinearConstraint> constraints)
    : declared_(std::move(parameters)), constraints_(std::move(constraints)) {
    // A choice's bounds are its indices, whatever a caller left in them.
    for (Parameter& p : declared_)
        if (p.kind == ParameterKind::Choice) {
            p.lower = 0.0;
            p.upper = std::max(p.levels() - 1, 0);
        }
    for (const Parameter& p : declared_) (p.kind == ParameterKind::Fixed ? fixed_ : parameters_).push_back(p);
    if (!constraints_.empty() && constraints_mappable(constraints_, parameters_, parameters_.size() + fixed_.size())) {
        std::vector<std::string> labels;
        for (int k = 0; k < static_cast<int>(constraints_.size()); ++k) labels.push_back(constraint_text(k));
        polytope_ = std::make_shared<const Polytope>(
            Polytope::from_constraints(constraints_, unit_coordinates(*this), dimension(), labels));
    }
    group_index_.reserve(parameters_.size());
    for (const Parameter& p : parameters_) {
        // An ungrouped parameter is its own group, named after the parameter.
        const std::string key = p.group.empty() ? "\x01" + p.name : p.group;
        auto it = std::find(group_names_.begin(), group_names_.end(), key);
        if (it == group_names_.end()) {
            group_names_.push_back(key);
            it = group_names_.end() - 1;
        }
        group_index_.push_back(static_cast<int>(it - group_names_.begin()));
    }
    for (std::size_t g = 0; g < group_names_.size(); ++g)
        if (!group_names_[g].empty() && group_names_[g][0] == '\x01') group_names_[g].erase(0, 1);
}

std::optional<std::string> SearchSpace::validate_parameter(const Parameter& p) {
    if (p.name.empty()) return "name: must not be empty";
    if (p.kind == ParameterKind::Fixed) {
        if (!p.target) return "value: a fixed parameter needs a value";
        const double v = *p.target;
        if (!std::isfinite(v)) return "value: " + format_number(v) + " is not a finite number";
        if (!std::isfinite(p.lower)) return "lower: " + format_number(p.lower) + " is not a finite number";
        if (!std::isfinite(p.upper)) return "upper: " + format_number(p.upper) + " is not a finite number";
        if (v < p.lower || v > p.upper)
            return "value: " + format_number(v) + " is outside the bounds [" + format_number(p.lower) + ", " +
                   format_number(p.upper) + "] given for the fixed parameter";
        if (p.log_scale) return "log: a fixed parameter is never varied, so it has no scale";
        if (p.min_change) return "min_change: a fixed parameter is never varied, so it has no minimum change";
        if (!p.group.empty()) return "group: a fixed parameter is never active, so it belongs to no group";
        return std::nullopt;
    }
    if (p.kind == ParameterKind::Choice) {
        if (p.values.size() < 2)
            return "values: a choice needs at least two values, got " + std::to_string(p.values.size());
        for (std::size_t k = 0; k < p.values.size(); ++k) {
            if (p.values[k].text.empty()) return "values: value " + std::to_string(k + 1) + " is empty";
            if (p.values[k].literal && (p.values[k].number || (p.values[k].text != "true" && p.values[k].text != "false" &&
                                                               p.values[k].text != "null")))
                return "values: value " + std::to_string(k + 1) + " is marked as a JSON literal, but '" + p.values[k].text +
                       "' is not true, false or null";
            for (std::size_t j = 0; j < k; ++j)
                if (p.values[j].text == p.values[k].text ||
                    (p.values[j].number && p.values[k].number && *p.values[j].number == *p.values[k].number))
                    return "values: '" + p.values[k].text + "' appears twice (values " + std::to_string(j + 1) + " and " +
                           std::to_string(k + 1) + ")";
        }
        const double t = p.resolved_target();
        if (!(t >= 0.0 && t < p.levels() && std::floor(t) == t))
            return "target: " + format_number(t) + " is not the index of one of the " + std::to_string(p.levels()) + " values";
        if (p.log_scale) return "log: a choice has no scale";
        if (p.min_change) return "min_change: a choice changes or does not; it has no minimum change";
        return std::nullopt;
    }
    if (!std::isfinite(p.lower)) return "lower: " + format_number(p.lower) + " is not a finite number";
    if (!std::isfinite(p.upper)) return "upper: " + format_number(p.upper) + " is not a finite number";
    if (!(p.lower < p.upper)) return "upper: " + format_number(p.upper) + " is not above lower " + format_number(p.lower);
    // The unit-cube map divides by upper − lower; beyond the largest double it would turn
    // every value into 0 and every proposal into NaN.
    if (!std::isfinite(p.upper - p.lower))
        return "upper: the range from " + format_number(p.lower) + " to " + format_number(p.upper) +
               " is wider than the largest number (about 1.8e308)";
    if (p.kind == ParameterKind::Integer) {
        if (std::floor(p.lower) != p.lower) return "lower: " + format_number(p.lower) + " is not an integer";
        if (std::floor(p.upper) != p.upper) return "upper: " + format_number(p.upper) + " is not an integer";
    }
    if (p.log_scale && p.lower <= 0.0) return "lower: log scale needs a positive lower bound, got " + format_number(p.lower);
    const double t = p.resolved_target();
    if (!std::isfinite(t)) return "target: " + format_number(t) + " is not a finite number";
    if (t < p.lower || t > p.upper)
        return "target: " + format_number(t) + " is outside the bounds [" + format_number(p.lower) + ", " +
               format_number(p.upper) + "]";
    if (p.kind == ParameterKind::Integer && std::floor(t) != t) return "target: " + format_number(t) + " is not an integer";
    if (p.min_change) {
        const MinChange& m = *p.min_change;
        const std::string shown = "'" + to_text(m) + "'";
        if (!std::isfinite(m.amount)) return "min_change: " + shown + " is not a finite number";
        if (m.amount < 0.0) return "min_change: " + shown + " is negative";
        if (m.percent && m.amount > 100.0) return "min_change: " + shown + " is more than the whole range (100%)";
        if (!m.percent && m.amount > p.upper - p.lower)
            return "min_change: " + shown + " is larger than the range " + format_number(p.upper - p.lower) + " (from " +
                   format_number(p.lower) + " to " + format_number(p.upper) + ")";
    }
    return std::nullopt;
}

std::optional<std::string> SearchSpace::validate() const {
    if (declared_.empty()) return "parameters: the search space has no parameters";
    std::set<std::string> seen;
    for (std::size_t i = 0; i < declared_.size(); ++i) {
        const Parameter& p = declared_[i];
        const std::string at = "parameters[" + std::to_string(i) + "]";
        if (p.name.empty()) return at + ".name: must not be empty";
        const std::string named = at + " (" + p.name + ")";
        if (!seen.insert(p.name).second) return named + ".name: duplicate name '" + p.name + "'";
        if (auto error = validate_parameter(p)) return named + "." + *error;
    }
    if (parameters_.empty()) return "parameters: every parameter is fixed; at least one must vary";
    const std::size_t variables = parameters_.size() + fixed_.size();
    for (std::size_t k = 0; k < constraints_.size(); ++k) {
        const std::string at = "parameter_constraints[" + std::to_string(k) + "]";
        for (const LinearTerm& t : constraints_[k].terms) {
            if (t.parameter < 0 || static_cast<std::size_t>(t.parameter) >= variables)
                return at + ": term of parameter " + std::to_string(t.parameter) + ", which the space does not have";
            if (!std::isfinite(t.coefficient)) return at + ": the coefficient " + format_number(t.coefficient) + " is not finite";
            if (static_cast<std::size_t>(t.parameter) < parameters_.size() &&
                parameters_[static_cast<std::size_t>(t.parameter)].log_scale)
                return at + ": '" + parameters_[static_cast<std::size_t>(t.parameter)].name +
                       "' is on a log scale; constraints are linear in user units";
            if (static_cast<std::size_t>(t.parameter) < parameters_.size() &&
                parameters_[static_cast<std::size_t>(t.parameter)].kind == ParameterKind::Choice)
                return at + ": '" + parameters_[static_cast<std::size_t>(t.parameter)].name +
                       "' is a choice; constraints are linear in numeric parameters";
        }
        if (!std::isfinite(constraints_[k].bound)) return at + ": the bound " + format_number(constraints_[k].bound) + " is not finite";
    }
    return std::nullopt;
}

std::vector<double> SearchSpace::declared_values(const std::vector<double>& values) const {
    assert(static_cast<int>(values.size()) == dimension());
    std::vector<double> out;
    out.reserve(declared_.size());
    std::size_t k = 0;
    for (const Parameter& p : declared_) out.push_back(p.kind == ParameterKind::Fixed ? p.resolved_target() : values[k++]);
    return out;
}

std::vector<std::string> SearchSpace::variable_names() const {
    std::vector<std::string> names;
    for (const Parameter& p : parameters_) names.push_back(p.name);
    for (const Parameter& p : fixed_) names.push_back(p.name);
    return names;
}

std::vector<double> SearchSpace::with_fixed(const std::vector<double>& values) const {
    std::vector<double> out = values;
    for (const Parameter& p : fixed_) out.push_back(p.resolved_target());
    return out;
}

std::string SearchSpace::constraint_text(int k) const {
    return canonical_text(constraints_[static_cast<std::size_t>(k)], variable_names());
}

std::vector<int> SearchSpace::violated_constraints(const std::vector<double>& values) const {
    std::vector<int> violated;
    if (constraints_.empty()) return violated;
    const std::vector<double> all = with_fixed(values);
    const std::vector<UnitCoordinate> coordinates = unit_coordinates(*this);
    for (std::size_t k = 0; k < constraints_.size(); ++k)
        if (!satisfies(constraints_[k], all, coordinates, kConstraintTolerance)) violated.push_back(static_cast<int>(k));
    return violated;
}

std::string SearchSpace::describe_violation(int k, const std::vector<double>& values) const {
    const LinearConstraint& c = constraints_[static_cast<std::size_t>(k)];
    const std::vector<std::string> names = variable_names();
    const std::vector<double> all = with_fixed(values);
    std::string text = constraint_text(k);
    const std::string lhs = text.substr(0, text.rfind(std::string(" ") + to_string(c.relation) + " "));
    text += " (" + lhs + " = " + format_number(c.left_side(all)) + " with ";
    for (std::size_t j = 0; j < c.terms.size(); ++j) {
        const auto i = static_cast<std::size_t>(c.terms[j].parameter);
        text += (j ? ", " : "") + names[i] + " = " + format_number(all[i]);
    }
    return text + ")";
}

std::optional<int> SearchSpace::index_of(const std::string& name) const {
    for (std::size_t i = 0; i < parameters_.size(); ++i)
        if (parameters_[i].name == name) return static_cast<int>(i);
    return std::nullopt;
}

std::vector<int> SearchSpace::choice_levels() const {
    std::vector<int> levels;
    levels.reserve(parameters_.size());
    for (const Parameter& p : parameters_) levels.push_back(p.kind == ParameterKind::Choice ? p.levels() : 0);
    return levels;
}

bool SearchSpace::has_choices() const {
    return std::any_of(parameters_.begin(), parameters_.end(), [](const Parameter& p) { return p.kind == ParameterKind::Choice; });
}

int SearchSpace::model_input_count() const {
    int inputs = 0;
    for (const Parameter& p : parameters_) inputs += p.kind == ParameterKind::Choice && !p.ordered ? p.levels() : 1;
    return inputs;
}

int SearchSpace::choice_of_unit(double u, int levels) {
    if (!(u > 0.0)) return 0;  // NaN too
    return std::min(static_cast<int>(u * levels), levels - 1);
}

double SearchSpace::to_unit(int i, double value) const {
    const Parameter& p = parameter(i);
    if (p.kind == ParameterKind::Choice) return choice_unit(static_cast<int>(std::floor(value)), p.levels());
    if (p.log_scale) {
        const double lo = std::log(p.lower), hi = std::log(p.upper);
        return (std::log(value) - lo) / (hi - lo);
    }
    return (value - p.lower) / (p.upper - p.lower);
}

double SearchSpace::from_unit(int i, double u) const {
    const Parameter& p = parameter(i);
    if (p.kind == ParameterKind::Choice) return choice_of_unit(u, p.levels());
    u = std::clamp(u, 0.0, 1.0);
    double value;
    if (p.log_scale) {
        const double lo = std::log(p.lower), hi = std::log(p.upper);
        value = std::exp(lo + u * (hi - lo));
    } else {
        value = p.lower + u * (p.upper - p.lower);
    }
    if (p.kind == ParameterKind::Integer) value = std::round(value);
    return std::clamp(value, p.lower, p.upper);
}

std::vector<double> SearchSpace::to_unit(const std::vector<double>& values) const {
    assert(static_cast<int>(values.size()) == dimension());
    std::vector<double> unit(values.size());
    for (int i = 0; i < dimension(); ++i) unit[static_cast<std::size_t>(i)] = to_unit(i, values[static_cast<std::size_t>(i)]);
    return unit;
}

std::vector<double> SearchSpace::from_unit(const std::vector<double>& unit) const {
    assert(static_cast<int>(unit.size()) == dimension());
    std::vector<double> values(unit.size());
    for (int i = 0; i < dimension(); ++i) values[static_cast<std::size_t>(i)] = from_unit(i, unit[static_cast<std::size_t>(i)]);
    return values;
}

std::vector<double> SearchSpace::target() const {
    std::vector<double> t;
    t.reserve(parameters_.size());
    for (const Parameter& p : parameters_) t.push_back(p.resolved_target());
    return t;
}

std::vector<double> SearchSpace::target_unit() const { return to_unit(target()); }

bool SearchSpace::within_min_change(int i, double value) const {
    const Parameter& p = parameter(i);
    const double t = p.resolved_target();
    if (value == t) return true;
    if (p.kind == ParameterKind::Choice) return false;
    if (!p.min_change) return std::abs(to_unit(i, value) - to_unit(i, t)) <= kDefaultSnapTolerance;
    // A change smaller than the floor is none; a change of exactly the floor counts (an integer
    // parameter with min_change 2 moves by 2 or more).
    if (p.min_change->percent) return std::abs(to_unit(i, value) - to_unit(i, t)) < p.min_change->amount / 100.0;
    return std::abs(value - t) < p.min_change->amount;
}

bool SearchSpace::within_min_change_unit(int i, double u) const {
    const Parameter& p = parameter(i);
    const double t = to_unit(i, p.resolved_target());
    if (u == t) return true;
    if (p.kind == ParameterKind::Choice) return choice_of_unit(u, p.levels()) == static_cast<int>(p.resolved_target());
    if (!p.min_change) return std::abs(u - t) <= kDefaultSnapTolerance;
    if (p.min_change->percent) return std::abs(u - t) < p.min_change->amount / 100.0;
    u = std::clamp(u, 0.0, 1.0);
    const double value = p.log_scale ? std::exp(std::log(p.lower) + u * (std::log(p.upper) - std::log(p.lower)))
                                     : p.lower + u * (p.upper - p.lower);
    return within_min_change(i, value);
}

std::vector<double> SearchSpace::snap(const std::vector<double>& values) const {
    assert(static_cast<int>(values.size()) == dimension());
    std::vector<double> out = values;
    for (int i = 0; i < dimension(); ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (within_min_change(i, values[k])) out[k] = parameter(i).resolved_target();
    }
    return out;
}

bool SearchSpace::is_active(int i, double value) const { return value != parameter(i).resolved_target(); }

std::vector<bool> SearchSpace::active_mask(const std::vector<double>& values) const {
    assert(static_cast<int>(values.size()) == dimension());
    std::vector<bool> mask(values.size());
    for (int i = 0; i < dimension(); ++i) mask[static_cast<std::size_t>(i)] = is_active(i, values[static_cast<std::size_t>(i)]);
    return mask;
}

int SearchSpace::active_count(const std::vector<double>& values) const {
    const auto mask = active_mask(values);
    return static_cast<int>(std::count(mask.begin(), mask.end(), true));
}

int SearchSpace::active_group_count(const std::vector<double>& values) const {
    const auto mask = active_mask(values);
    std::vector<bool> group_active(group_names_.size(), false);
    for (std::size_t i = 0; i < mask.size(); ++i)
        if (mask[i]) group_active[static_cast<std::size_t>(group_index_[i])] = true;
    return static_cast<int>(std::count(group_active.begin(), group_active.end(), true));
}

std::optional<std::string> SearchSpace::check_point(const std::vector<double>& values) const {
    if (static_cast<int>(values.size()) != dimension())
        return "expected " + std::to_string(dimension()) + " parameter values, got " + std::to_string(values.size());
    for (int i = 0; i < dimension(); ++i) {
        const Parameter& p = parameter(i);
        const double v = values[static_cast<std::size_t>(i)];
        if (!std::isfinite(v)) return p.name + ": " + format_number(v) + " is not a finite number";
        if (v < p.lower) return p.name + ": " + format_number(v) + " is below the lower bound " + format_number(p.lower);
        if (v > p.upper) return p.name + ": " + format_number(v) + " is above the upper bound " + format_number(p.upper);
        if (p.kind == ParameterKind::Integer && std::floor(v) != v)
            return p.name + ": " + format_number(v) + " is not an integer";
        if (p.kind == ParameterKind::Choice && std::floor(v) != v)
            return p.name + ": " + format_number(v) + " is not the index of a value";
    }
    return std::nullopt;
}

}  // namespace sebo
