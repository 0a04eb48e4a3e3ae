#pragma once
// The search space: parameters in user units, and the unit cube [0,1]^D where every model
// and optimizer works (SPEC §1). Log-scale parameters are mapped through log first; integer
// parameters are relaxed to the continuous interval and rounded when mapped back.
//
// Fixed parameters (ParameterKind::Fixed) are kept apart: parameters(), dimension() and every
// configuration vector (a trial's values, the unit cube) hold the parameters that vary only, in
// the order they were declared; the fixed ones are in fixed_parameters() and are added where a
// configuration leaves the engine (the evaluator, exports: declared_values()).
//
// Linear parameter constraints (issue 14, item 3; space/linear_constraint.h) belong to the space.
// Their terms index the constraint variables: the varying parameters 0 … D−1, then the fixed ones
// D … D+F−1 (constants in a constraint). Their polytope in the unit cube (space/polytope.h) is
// built once with the space; polytope() is null without constraints.
//
// Choice parameters (ParameterKind::Choice, issue 14 item 1) take the index of their value,
// 0 … K−1, in a configuration vector. In the unit cube value k is the middle of the k-th of K
// equal cells, u = (k + ½)/K, and any u maps back to the cell it falls in, k = ⌊uK⌋ (clamped):
// so a Sobol coordinate picks each value with probability 1/K. A choice is active when its index
// differs from the target's; it counts 1 in the L0 count and in group counts. It has no
// min_change and may not appear in a linear constraint. The models do not see the cell
// coordinate: model/input_encoding.h turns it into one-hot inputs (unordered) or one ordinal
// input k/(K−1) (ordered); choice_levels() tells the optimizers which columns are discrete.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "space/linear_constraint.h"
#include "space/parameter.h"

namespace sebo {

class Polytope;

class SearchSpace {
public:
    // Default tolerance (unit scale) under which a coordinate is set exactly to its target, for a
    // parameter without a min_change; the reference implementation used 0.01 (SPEC §9).
    static constexpr double kDefaultSnapTolerance = 1e-2;

    // A space must satisfy its constraints to 1e-9 relative to the constraint's magnitude
    // (linear_constraint.h, satisfies()).
    static constexpr double kConstraintTolerance = 1e-9;

    SearchSpace() = default;
    // `parameters` in their declared order, fixed ones among them.
    explicit SearchSpace(std::vector<Parameter> parameters, std::vector<LinearConstraint> constraints = {});

    // Empty when the space is usable; otherwise a message naming the parameter and field,
    // e.g. "parameters[2].upper: 0 is not above lower 1", or the constraint,
    // "parameter_constraints[0]: ...". Does not look for an empty feasible set or a target that
    // violates the constraints (space/space_constraints.h: a linear program, done on creation).
    std::optional<std::string> validate() const;
    // The checks of one parameter alone, as "field: message" (e.g. "upper: 0 is not above lower 1").
    static std::optional<std::string> validate_parameter(const Parameter& p);

    // The parameters that vary (the unit cube's columns), in declared order.
    int dimension() const { return static_cast<int>(parameters_.size()); }
    const std::vector<Parameter>& parameters() const { return parameters_; }
    // Every parameter, fixed ones included, in declared order; and the fixed ones alone.
    const std::vector<Parameter>& declared_parameters() const { return declared_; }
    const std::vector<Parameter>& fixed_parameters() const { return fixed_; }
    // A configuration of the varying parameters with the fixed values put in their declared places.
    std::vector<double> declared_values(const std::vector<double>& values) const;

    // Linear parameter constraints.
    const std::vector<LinearConstraint>& constraints() const { return constraints_; }
    bool has_constraints() const { return !constraints_.empty(); }
    // The constraint variables' names (varying parameters, then fixed ones), and a configuration
    // of the varying parameters extended with the fixed values, in that order.
    std::vector<std::string> variable_names() const;
    std::vector<double> with_fixed(const std::vector<double>& values) const;
    // Canonical text of constraint k ("fa + fb + fc <= 1").
    std::string constraint_text(int k) const;
    // The constraints a configuration (varying parameters) violates by more than
    // kConstraintTolerance, by index.
    std::vector<int> violated_constraints(const std::vector<double>& values) const;
    // "fa + fb <= 1 (fa + fb = 1.2 with fa = 0.7, fb = 0.5)": constraint k, its left side at
    // `values` and the values of its parameters.
    std::string describe_violation(int k, const std::vector<double>& values) const;
    // The constraints' polytope in the unit cube; null without constraints (or when validate() fails).
    const Polytope* polytope() const { return polytope_.get(); }
    std::shared_ptr<const Polytope> shared_polytope() const { return polytope_; }
    const Parameter& parameter(int i) const { return parameters_[static_cast<std::size_t>(i)]; }
    std::optional<int> index_of(const std::string& name) const;
    // Per varying parameter: its number of values K when it is a choice, 0 otherwise.
    std::vector<int> choice_levels() const;
    bool has_choices() const;
    // The number of model inputs (model/input_encoding.h): one per parameter, K for an unordered
    // choice of K values.
    int model_input_count() const;
    // The unit-cube coordinate of choice value k of K, and the value a coordinate falls on.
    static double choice_unit(int k, int levels) { return (k + 0.5) / levels; }
    static int choice_of_unit(double u, int levels);

    // User units <-> unit cube. to_unit does not clamp (values outside the bounds map outside
    // [0,1]); from_unit clamps to [0,1], maps back, rounds integer parameters and clamps to bounds.
    double to_unit(int i, double value) const;
    double from_unit(int i, double u) const;
    std::vector<double> to_unit(const std::vector<double>& values) const;
    std::vector<double> from_unit(const std::vector<double>& unit) const;

    std::vector<double> target() const;       // user units
    std::vector<double> target_unit() const;  // unit cube

    // Whether a value of parameter i is a change from its target too small to count, and is set
    // onto the target by snap(): closer than the parameter's min_change (user units, or percent of
    // the unit scale), or without one within kDefaultSnapTolerance on the unit scale. A value on
    // the target is within. The _unit form takes a unit-cube coordinate, mapped to user units
    // without rounding (so the optimizer's relaxed integers are judged by their relaxed value).
    bool within_min_change(int i, double value) const;
    bool within_min_change_unit(int i, double u) const;

    // Sets every coordinate that is within_min_change exactly onto its target (user units in,
    // user units out).
    std::vector<double> snap(const std::vector<double>& values) const;

    // A parameter is active when its value differs from its target (exact comparison; snap
    // first). Group counts treat an ungrouped parameter as its own group.
    bool is_active(int i, double value) const;
    std::vector<bool> active_mask(const std::vector<double>& values) const;
    int active_count(const std::vector<double>& values) const;
    int group_count() const { return static_cast<int>(group_names_.size()); }
    // group_of(i) is the group index of parameter i, in order of first appearance.
    int group_of(int i) const { return group_index_[static_cast<std::size_t>(i)]; }
    const std::string& group_name(int g) const { return group_names_[static_cast<std::size_t>(g)]; }
    int active_group_count(const std::vector<double>& values) const;
    bool has_groups() const { return group_count() != dimension(); }

    // Rejects a configuration that is not inside the space: wrong length, non-finite,
    // out of bounds, non-integral integer. Message names the parameter. Constraints are not
    // checked here (historical results that violate them are data: violated_constraints()).
    std::optional<std::string> check_point(const std::vector<double>& values) const;

private:
    std::vector<Parameter> declared_, parameters_, fixed_;
    std::vector<LinearConstraint> constraints_;
    std::shared_ptr<const Polytope> polytope_;
    std::vector<int> group_index_;
    std::vector<std::string> group_names_;
};

}  // namespace sebo
