#pragma once
// Linear constraints between numeric parameters, in the user's units (SPEC §10, issue 14):
//
//     2*fa + fb + fc <= 1        fa - 0.5*fb >= -1        fa + fb = fc
//
// printed in a canonical form, checked on configurations, and mapped exactly onto the unit cube where
// models and optimizers work. They are read from text by io/linear_constraint_text.h (the grammar is
// there).
//
// Integer parameters are allowed: the constraint holds on their relaxation in the unit cube, and
// rounding is reconciled with it afterwards (space/feasible_snap.h).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sebo {

class SearchSpace;

enum class ConstraintRelation { LessEqual, GreaterEqual, Equal };

const char* to_string(ConstraintRelation relation);  // "<=", ">=", "="

struct LinearTerm {
    int parameter = 0;  // index into the parameters the constraint was parsed against
    double coefficient = 1.0;

    bool operator==(const LinearTerm&) const = default;
};

// Σ coefficient · value(parameter)  relation  bound, in user units. Terms name distinct parameters
// with finite non-zero coefficients, in the order they first appeared in the text.
struct LinearConstraint {
    std::vector<LinearTerm> terms;
    ConstraintRelation relation = ConstraintRelation::LessEqual;
    double bound = 0.0;

    bool operator==(const LinearConstraint&) const = default;

    double left_side(const std::vector<double>& values) const;
    // How far the values are from satisfying the constraint, in user units (0 when they do).
    double violation(const std::vector<double>& values) const;
};

// How a parameter's value in user units relates to a unit-cube column:
//     value = offset + scale · u[column]
// A parameter that does not vary has column −1 and value `offset`.
struct UnitCoordinate {
    int column = -1;
    double offset = 0.0;
    double scale = 1.0;
};

// Column i for parameter i: offset = lower, scale = upper − lower. Only for linear-scale
// parameters (a log-scale parameter gets its column but the map does not describe it; the
// parser refuses them, see constraint_variables). The space's fixed parameters follow, as
// constants (column −1, offset = the value): SearchSpace's constraint variables.
std::vector<UnitCoordinate> unit_coordinates(const SearchSpace& space);

// The magnitude that "relative" tolerances refer to: Σ |coefficient|·max(|lowest|, |highest|
// value of the parameter) + |bound|. Independent of the configuration, and positive.
double constraint_magnitude(const LinearConstraint& constraint, const std::vector<UnitCoordinate>& coordinates);

// True when the violation is at most relative_tolerance · constraint_magnitude.
bool satisfies(const LinearConstraint& constraint, const std::vector<double>& values,
               const std::vector<UnitCoordinate>& coordinates, double relative_tolerance = 1e-9);

// The smallest and largest value of the left side over the parameters' ranges.
std::pair<double, double> left_side_range(const LinearConstraint& constraint, const std::vector<UnitCoordinate>& coordinates);

// The same constraint on the unit cube: Σ_j coefficients[j]·u_j (<= or =) bound, with ">="
// constraints negated into "<=" and the terms of parameters that do not vary moved into the bound.
struct UnitConstraint {
    std::vector<double> coefficients;  // one per column
    double bound = 0.0;
    bool equality = false;
};
UnitConstraint to_unit_constraint(const LinearConstraint& constraint, const std::vector<UnitCoordinate>& coordinates,
                                  int columns);

// What the parser knows about one parameter.
struct ConstraintVariable {
    std::string name;
    // Why the parameter cannot appear in a linear constraint ("it is on a log scale…"); empty
    // when it can.
    std::optional<std::string> excluded;
};

// The space's constraint variables (SearchSpace::variable_names: the varying parameters, then the
// fixed ones, which are constants in a constraint), with log-scale ones excluded.
std::vector<ConstraintVariable> constraint_variables(const SearchSpace& space);

// The grammar's names (io/linear_constraint_text.h): whether text[i] may start or continue a plain
// name, and the length of ≤, ≥ or − (UTF-8) at text[i] (0 when there is none).
bool constraint_name_starts(std::string_view text, std::size_t i);
bool constraint_name_continues(std::string_view text, std::size_t i);
std::size_t constraint_operator_length(std::string_view text, std::size_t i);
inline constexpr std::string_view kLessEqualSign = "\xE2\x89\xA4";     // ≤
inline constexpr std::string_view kGreaterEqualSign = "\xE2\x89\xA5";  // ≥
inline constexpr std::string_view kMinusSign = "\xE2\x88\x92";         // −


// Canonical text: terms in order with "+"/"-" between them, coefficients 1 left out, numbers in
// their shortest round-trip form, names quoted only when they must be:
//     2*fa + fb - 0.5*'cache size' <= 1
// parse_linear_constraint(canonical_text(c, names), …) (io/linear_constraint_text.h) gives back c
// exactly.
std::string canonical_text(const LinearConstraint& constraint, const std::vector<std::string>& names);

// A name as it must be written in a constraint: as is when it is a plain name (the grammar in
// io/linear_constraint_text.h),
// otherwise in single quotes with quotes doubled.
std::string constraint_name_text(const std::string& name);

}  // namespace sebo
