#include "space/search_space.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <set>

#include "core/format.h"

namespace sebo {

const char* to_string(ParameterKind kind) {
    return kind == ParameterKind::Integer ? "integer" : "continuous";
}

std::optional<ParameterKind> parameter_kind_from_string(const std::string& text) {
    if (text == "continuous") return ParameterKind::Continuous;
    if (text == "integer") return ParameterKind::Integer;
    return std::nullopt;
}

double Parameter::resolved_target() const {
    if (target) return *target;
    return (lower <= 0.0 && 0.0 <= upper) ? 0.0 : lower;
}

SearchSpace::SearchSpace(std::vector<Parameter> parameters) : parameters_(std::move(parameters)) {
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

std::optional<std::string> SearchSpace::validate() const {
    if (parameters_.empty()) return "parameters: the search space has no parameters";
    std::set<std::string> seen;
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        const Parameter& p = parameters_[i];
        const std::string at = "parameters[" + std::to_string(i) + "]";
        if (p.name.empty()) return at + ".name: must not be empty";
        const std::string named = at + " (" + p.name + ")";
        if (!seen.insert(p.name).second) return named + ".name: duplicate name '" + p.name + "'";
        if (!std::isfinite(p.lower)) return named + ".lower: " + format_number(p.lower) + " is not a finite number";
        if (!std::isfinite(p.upper)) return named + ".upper: " + format_number(p.upper) + " is not a finite number";
        if (!(p.lower < p.upper))
            return named + ".upper: " + format_number(p.upper) + " is not above lower " + format_number(p.lower);
        // The unit-cube map divides by upper − lower; beyond the largest double it would turn
        // every value into 0 and every proposal into NaN.
        if (!std::isfinite(p.upper - p.lower))
            return named + ".upper: the range from " + format_number(p.lower) + " to " + format_number(p.upper) +
                   " is wider than the largest number (about 1.8e308)";
        if (p.kind == ParameterKind::Integer) {
            if (std::floor(p.lower) != p.lower)
                return named + ".lower: " + format_number(p.lower) + " is not an integer";
            if (std::floor(p.upper) != p.upper)
                return named + ".upper: " + format_number(p.upper) + " is not an integer";
        }
        if (p.log_scale && p.lower <= 0.0)
            return named + ".lower: log scale needs a positive lower bound, got " + format_number(p.lower);
        const double t = p.resolved_target();
        if (!std::isfinite(t)) return named + ".target: " + format_number(t) + " is not a finite number";
        if (t < p.lower || t > p.upper)
            return named + ".target: " + format_number(t) + " is outside the bounds [" + format_number(p.lower) +
                   ", " + format_number(p.upper) + "]";
        if (p.kind == ParameterKind::Integer && std::floor(t) != t)
            return named + ".target: " + format_number(t) + " is not an integer";
        if (p.min_change) {
            const MinChange& m = *p.min_change;
            const std::string shown = "'" + to_text(m) + "'";
            if (!std::isfinite(m.amount)) return named + ".min_change: " + shown + " is not a finite number";
            if (m.amount < 0.0) return named + ".min_change: " + shown + " is negative";
            if (m.percent && m.amount > 100.0) return named + ".min_change: " + shown + " is more than the whole range (100%)";
            if (!m.percent && m.amount > p.upper - p.lower)
                return named + ".min_change: " + shown + " is larger than the range " + format_number(p.upper - p.lower) +
                       " (from " + format_number(p.lower) + " to " + format_number(p.upper) + ")";
        }
    }
    return std::nullopt;
}

std::optional<int> SearchSpace::index_of(const std::string& name) const {
    for (std::size_t i = 0; i < parameters_.size(); ++i)
        if (parameters_[i].name == name) return static_cast<int>(i);
    return std::nullopt;
}

double SearchSpace::to_unit(int i, double value) const {
    const Parameter& p = parameter(i);
    if (p.log_scale) {
        const double lo = std::log(p.lower), hi = std::log(p.upper);
        return (std::log(value) - lo) / (hi - lo);
    }
    return (value - p.lower) / (p.upper - p.lower);
}

double SearchSpace::from_unit(int i, double u) const {
    const Parameter& p = parameter(i);
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
    }
    return std::nullopt;
}

}  // namespace sebo
