#include "space/feasible_point.h"

#include <cassert>

#include "space/polytope.h"
#include "space/polytope_projection.h"

namespace sebo {

std::vector<IntegerColumn> integer_columns(const SearchSpace& space) {
    std::vector<IntegerColumn> columns;
    for (int i = 0; i < space.dimension(); ++i) {
        const Parameter& p = space.parameter(i);
        if (p.kind == ParameterKind::Integer) columns.push_back({i, static_cast<int>(p.upper - p.lower)});
    }
    return columns;
}

Eigen::VectorXd target_unit_vector(const SearchSpace& space) {
    const std::vector<double> t = space.target_unit();
    return Eigen::Map<const Eigen::VectorXd>(t.data(), static_cast<Eigen::Index>(t.size()));
}

std::vector<double> user_values(const SearchSpace& space, const Eigen::VectorXd& unit) {
    assert(unit.size() == space.dimension());
    const std::vector<double> target = space.target();
    const Eigen::VectorXd target_unit = target_unit_vector(space);
    std::vector<double> values(static_cast<std::size_t>(unit.size()));
    for (int i = 0; i < space.dimension(); ++i)
        values[static_cast<std::size_t>(i)] =
            unit[i] == target_unit[i] ? target[static_cast<std::size_t>(i)] : space.from_unit(i, unit[i]);
    return values;
}

std::optional<std::vector<double>> feasible_configuration(const SearchSpace& space, const Eigen::VectorXd& unit) {
    assert(space.polytope());
    const FeasibleSnap snapped =
        finalize_feasibly(*space.polytope(), unit, target_unit_vector(space), min_change_rule(space), integer_columns(space));
    if (snapped.status != FeasibleSnap::Status::Ok) return std::nullopt;
    std::vector<double> values = user_values(space, snapped.x);
    if (!space.violated_constraints(values).empty()) return std::nullopt;
    return values;
}

Eigen::VectorXd into_polytope(const Polytope& polytope, const Eigen::VectorXd& x, const Eigen::VectorXd& target) {
    if (polytope.contains(x)) return x;
    std::vector<bool> pinned(static_cast<std::size_t>(x.size()));
    for (Eigen::Index i = 0; i < x.size(); ++i) pinned[static_cast<std::size_t>(i)] = x[i] == target[i];
    PolytopeProjection p = project_onto_polytope(polytope, x, pinned);
    if (p.status == PolytopeProjection::Status::Infeasible) p = project_onto_polytope(polytope, x);
    return p.status == PolytopeProjection::Status::Ok ? p.x : x;
}

}  // namespace sebo
