#pragma once
// The search space: parameters in user units, and the unit cube [0,1]^D where every model
// and optimizer works (SPEC §1). Log-scale parameters are mapped through log first; integer
// parameters are relaxed to the continuous interval and rounded when mapped back.

#include <optional>
#include <string>
#include <vector>

#include "space/parameter.h"

namespace sebo {

class SearchSpace {
public:
    // Default tolerance (unit scale) under which a coordinate is set exactly to its target, for a
    // parameter without a min_change; the reference implementation used 0.01 (SPEC §9).
    static constexpr double kDefaultSnapTolerance = 1e-2;

    SearchSpace() = default;
    explicit SearchSpace(std::vector<Parameter> parameters);

    // Empty when the space is usable; otherwise a message naming the parameter and field,
    // e.g. "parameters[2].upper: 0 is not above lower 1".
    std::optional<std::string> validate() const;

    int dimension() const { return static_cast<int>(parameters_.size()); }
    const std::vector<Parameter>& parameters() const { return parameters_; }
    const Parameter& parameter(int i) const { return parameters_[static_cast<std::size_t>(i)]; }
    std::optional<int> index_of(const std::string& name) const;

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
    // out of bounds, non-integral integer. Message names the parameter.
    std::optional<std::string> check_point(const std::vector<double>& values) const;

private:
    std::vector<Parameter> parameters_;
    std::vector<int> group_index_;
    std::vector<std::string> group_names_;
};

}  // namespace sebo
