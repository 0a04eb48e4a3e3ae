#include "space/linear_constraint.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/format.h"
#include "space/search_space.h"

namespace sebo {

const char* to_string(ConstraintRelation relation) {
    switch (relation) {
    case ConstraintRelation::LessEqual: return "<=";
    case ConstraintRelation::GreaterEqual: return ">=";
    case ConstraintRelation::Equal: return "=";
    }
    return "?";
}

double LinearConstraint::left_side(const std::vector<double>& values) const {
    double sum = 0.0;
    for (const LinearTerm& t : terms) {
        assert(t.parameter >= 0 && static_cast<std::size_t>(t.parameter) < values.size());
        sum += t.coefficient * values[static_cast<std::size_t>(t.parameter)];
    }
    return sum;
}

double LinearConstraint::violation(const std::vector<double>& values) const {
    const double lhs = left_side(values);
    switch (relation) {
    case ConstraintRelation::LessEqual: return std::max(0.0, lhs - bound);
    case ConstraintRelation::GreaterEqual: return std::max(0.0, bound - lhs);
    case ConstraintRelation::Equal: return std::abs(lhs - bound);
    }
    return 0.0;
}

std::vector<UnitCoordinate> unit_coordinates(const SearchSpace& space) {
    std::vector<UnitCoordinate> coordinates;
    coordinates.reserve(space.declared_parameters().size());
    for (int i = 0; i < space.dimension(); ++i) {
        const Parameter& p = space.parameter(i);
        coordinates.push_back({i, p.lower, p.upper - p.lower});
    }
    // Fixed parameters: constants.
    for (const Parameter& p : space.fixed_parameters()) coordinates.push_back({-1, p.resolved_target(), 0.0});
    return coordinates;
}

namespace {

const UnitCoordinate& coordinate_of(const LinearTerm& term, const std::vector<UnitCoordinate>& coordinates) {
    assert(term.parameter >= 0 && static_cast<std::size_t>(term.parameter) < coordinates.size());
    return coordinates[static_cast<std::size_t>(term.parameter)];
}

}  // namespace

double constraint_magnitude(const LinearConstraint& constraint, const std::vector<UnitCoordinate>& coordinates) {
    double sum = std::abs(constraint.bound);
    for (const LinearTerm& t : constraint.terms) {
        const UnitCoordinate& c = coordinate_of(t, coordinates);
        const double extent = c.column < 0 ? std::abs(c.offset) : std::max(std::abs(c.offset), std::abs(c.offset + c.scale));
        sum += std::abs(t.coefficient) * extent;
    }
    return sum;
}

bool satisfies(const LinearConstraint& constraint, const std::vector<double>& values,
               const std::vector<UnitCoordinate>& coordinates, double relative_tolerance) {
    return constraint.violation(values) <= relative_tolerance * constraint_magnitude(constraint, coordinates);
}

std::pair<double, double> left_side_range(const LinearConstraint& constraint, const std::vector<UnitCoordinate>& coordinates) {
    double low = 0.0, high = 0.0;
    for (const LinearTerm& t : constraint.terms) {
        const UnitCoordinate& c = coordinate_of(t, coordinates);
        const double a = t.coefficient * c.offset;
        const double b = c.column < 0 ? a : t.coefficient * (c.offset + c.scale);
        low += std::min(a, b);
        high += std::max(a, b);
    }
    return {low, high};
}

namespace {

// The unit-cube image's coefficients and bound in the arithmetic of Real, before the sign of ">=".
template <class Real>
std::pair<std::vector<Real>, Real> unit_image(const LinearConstraint& constraint, const std::vector<UnitCoordinate>& coordinates,
                                              int columns) {
    std::vector<Real> coefficients(static_cast<std::size_t>(columns), Real(0));
    Real constant = 0;
    for (const LinearTerm& t : constraint.terms) {
        const UnitCoordinate& c = coordinate_of(t, coordinates);
        constant += static_cast<Real>(t.coefficient) * static_cast<Real>(c.offset);
        if (c.column >= 0) {
            assert(c.column < columns);
            coefficients[static_cast<std::size_t>(c.column)] += static_cast<Real>(t.coefficient) * static_cast<Real>(c.scale);
        }
    }
    return {std::move(coefficients), static_cast<Real>(constraint.bound) - constant};
}

}  // namespace

UnitConstraint to_unit_constraint(const LinearConstraint& constraint, const std::vector<UnitCoordinate>& coordinates,
                                  int columns) {
    UnitConstraint unit;
    auto [coefficients, bound] = unit_image<double>(constraint, coordinates, columns);
    const auto finite = [](double v) { return std::isfinite(v); };
    if (std::isfinite(bound) && std::all_of(coefficients.begin(), coefficients.end(), finite)) {
        unit.coefficients = std::move(coefficients);
        unit.bound = bound;
    } else {
        // A large coefficient times a wide range overflowed (0.51e308*fb with fb in [-2, 3]). Again
        // in long double (range about 1e4932 where we build), then the whole row divided by a
        // power of two, which leaves the set as it is.
        const auto [wide, wide_bound] = unit_image<long double>(constraint, coordinates, columns);
        long double largest = std::fabs(wide_bound);
        for (long double a : wide) largest = std::max(largest, std::fabs(a));
        const long double divisor = std::ldexp(1.0L, std::ilogb(largest) + 1);
        for (long double a : wide) unit.coefficients.push_back(static_cast<double>(a / divisor));
        unit.bound = static_cast<double>(wide_bound / divisor);
    }
    unit.equality = constraint.relation == ConstraintRelation::Equal;
    if (constraint.relation == ConstraintRelation::GreaterEqual) {
        for (double& a : unit.coefficients) a = -a;
        unit.bound = -unit.bound;
    }
    return unit;
}

std::vector<ConstraintVariable> constraint_variables(const SearchSpace& space) {
    std::vector<ConstraintVariable> variables;
    variables.reserve(static_cast<std::size_t>(space.dimension()));
    for (const Parameter& p : space.parameters()) {
        ConstraintVariable v{p.name, std::nullopt};
        if (p.log_scale)
            v.excluded = "it is on a log scale; constraints are linear in user units, and a log-scale parameter's "
                         "unit-cube coordinate is not linear in its value (remove the log scale or the parameter)";
        if (p.kind == ParameterKind::Choice)
            v.excluded = "it is a choice; constraints are linear in numeric parameters, and a choice's values are not "
                         "numbers on a scale (remove the parameter from the constraint)";
        variables.push_back(std::move(v));
    }
    for (const Parameter& p : space.fixed_parameters()) variables.push_back({p.name, std::nullopt});
    return variables;
}

// ---------------------------------------------------------------------------------------------
// The names of the grammar (io/linear_constraint_text.h reads the rest of it).

namespace {

bool is_ascii_letter(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::size_t constraint_operator_length(std::string_view text, std::size_t i) {
    for (std::string_view op : {kLessEqualSign, kGreaterEqualSign, kMinusSign})
        if (text.substr(i, op.size()) == op) return op.size();
    return 0;
}

bool constraint_name_starts(std::string_view text, std::size_t i) {
    const auto c = static_cast<unsigned char>(text[i]);
    return is_ascii_letter(c) || c == '_' || (c >= 0x80 && constraint_operator_length(text, i) == 0);
}

bool constraint_name_continues(std::string_view text, std::size_t i) {
    const auto c = static_cast<unsigned char>(text[i]);
    return constraint_name_starts(text, i) || is_digit(c) || c == '.';
}

std::string constraint_name_text(const std::string& name) {
    bool plain = !name.empty() && constraint_name_starts(name, 0);
    for (std::size_t i = 0; plain && i < name.size(); ++i) plain = constraint_name_continues(name, i);
    if (plain) return name;
    std::string quoted = "'";
    for (char c : name) {
        if (c == '\'') quoted += '\'';
        quoted += c;
    }
    return quoted + "'";
}

std::string canonical_text(const LinearConstraint& constraint, const std::vector<std::string>& names) {
    std::string text;
    for (std::size_t k = 0; k < constraint.terms.size(); ++k) {
        const LinearTerm& t = constraint.terms[k];
        assert(t.parameter >= 0 && static_cast<std::size_t>(t.parameter) < names.size());
        const double magnitude = std::abs(t.coefficient);
        if (k == 0) text += t.coefficient < 0 ? "-" : "";
        else text += t.coefficient < 0 ? " - " : " + ";
        if (magnitude != 1.0) text += format_number(magnitude) + "*";
        text += constraint_name_text(names[static_cast<std::size_t>(t.parameter)]);
    }
    text += std::string(" ") + to_string(constraint.relation) + " " + format_number(constraint.bound == 0.0 ? 0.0 : constraint.bound);
    return text;
}

}  // namespace sebo
