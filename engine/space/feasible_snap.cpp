#include "space/feasible_snap.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

#include "space/polytope_projection.h"

namespace sebo {

SnapRule min_change_rule(const SearchSpace& space) {
    return [space](int column, double value) { return space.within_min_change_unit(column, value); };
}

namespace {

using Status = FeasibleSnap::Status;

std::vector<bool> on_target(const Eigen::VectorXd& x, const Eigen::VectorXd& target) {
    std::vector<bool> mask(static_cast<std::size_t>(x.size()));
    for (Eigen::Index j = 0; j < x.size(); ++j) mask[static_cast<std::size_t>(j)] = x[j] == target[j];
    return mask;
}

Status status_of(const PolytopeProjection& p) {
    switch (p.status) {
    case PolytopeProjection::Status::Ok: return Status::Ok;
    case PolytopeProjection::Status::Infeasible: return Status::Infeasible;
    case PolytopeProjection::Status::Failed: return Status::Failed;
    }
    return Status::Failed;
}

// Step 0: a point of P to start from.
FeasibleSnap start_inside(const Polytope& polytope, const Eigen::VectorXd& x, const Eigen::VectorXd& target) {
    FeasibleSnap s;
    if (polytope.contains(x)) {
        s.status = Status::Ok;
        s.x = x;
        return s;
    }
    s.projected_first = true;
    PolytopeProjection p = project_onto_polytope(polytope, x, on_target(x, target));
    if (p.status == PolytopeProjection::Status::Infeasible) p = project_onto_polytope(polytope, x);
    s.status = status_of(p);
    s.x = std::move(p.x);
    return s;
}

// Step 1, on a point of P.
void snap_inside(const Polytope& polytope, FeasibleSnap& s, const Eigen::VectorXd& target, const SnapRule& rule) {
    const std::vector<bool> already = on_target(s.x, target);
    std::vector<int> wanted;
    for (Eigen::Index j = 0; j < s.x.size(); ++j)
        if (!already[static_cast<std::size_t>(j)] && rule(static_cast<int>(j), s.x[j])) wanted.push_back(static_cast<int>(j));
    if (wanted.empty()) return;
    std::stable_sort(wanted.begin(), wanted.end(), [&](int a, int b) {
        return std::abs(s.x[a] - target[a]) < std::abs(s.x[b] - target[b]);
    });

    std::vector<bool> pins = already;
    Eigen::VectorXd y = s.x;
    for (int j : wanted) {
        y[j] = target[j];
        pins[static_cast<std::size_t>(j)] = true;
    }
    PolytopeProjection all = project_onto_polytope(polytope, y, pins);
    if (all.status == PolytopeProjection::Status::Ok) {
        s.x = std::move(all.x);
        s.snapped = wanted;
        std::sort(s.snapped.begin(), s.snapped.end());
        return;
    }
    pins = already;
    for (int j : wanted) {
        y = s.x;
        y[j] = target[j];
        pins[static_cast<std::size_t>(j)] = true;
        PolytopeProjection one = project_onto_polytope(polytope, y, pins);
        if (one.status == PolytopeProjection::Status::Ok) {
            s.x = std::move(one.x);
            s.snapped.push_back(j);
        } else {
            pins[static_cast<std::size_t>(j)] = false;
            s.kept_changed.push_back(j);
        }
    }
    std::sort(s.snapped.begin(), s.snapped.end());
    std::sort(s.kept_changed.begin(), s.kept_changed.end());
}

double grid_value(double u, int steps) { return std::clamp(std::round(u * steps), 0.0, static_cast<double>(steps)) / steps; }

// Step 2, on a point of P.
void round_inside(const Polytope& polytope, FeasibleSnap& s, const Eigen::VectorXd& target, const std::vector<IntegerColumn>& integers) {
    const std::vector<bool> targets = on_target(s.x, target);
    std::vector<IntegerColumn> loose;  // integer columns off target
    for (const IntegerColumn& c : integers) {
        assert(c.column >= 0 && c.column < s.x.size() && c.steps >= 1);
        if (!targets[static_cast<std::size_t>(c.column)]) loose.push_back(c);
    }
    if (loose.empty()) return;
    std::sort(loose.begin(), loose.end(), [](const IntegerColumn& a, const IntegerColumn& b) { return a.column < b.column; });

    std::vector<bool> pins = targets;
    Eigen::VectorXd y = s.x;
    for (const IntegerColumn& c : loose) {
        y[c.column] = grid_value(s.x[c.column], c.steps);
        pins[static_cast<std::size_t>(c.column)] = true;
    }
    PolytopeProjection all = project_onto_polytope(polytope, y, pins);
    if (all.status == PolytopeProjection::Status::Ok) {
        s.x = std::move(all.x);
        return;
    }
    // The dive.
    pins = targets;
    for (const IntegerColumn& c : loose) {
        const double scaled = s.x[c.column] * c.steps;
        const double k = std::clamp(std::round(scaled), 0.0, static_cast<double>(c.steps));
        const double nearest = k / c.steps;
        const double other = std::clamp(k > scaled ? k - 1.0 : k + 1.0, 0.0, static_cast<double>(c.steps)) / c.steps;
        pins[static_cast<std::size_t>(c.column)] = true;
        bool placed = false;
        for (double value : {nearest, other}) {
            y = s.x;
            y[c.column] = value;
            PolytopeProjection p = project_onto_polytope(polytope, y, pins);
            if (p.status == PolytopeProjection::Status::Ok) {
                s.x = std::move(p.x);
                placed = true;
                break;
            }
            if (p.status == PolytopeProjection::Status::Failed) {
                s.status = Status::Failed;
                return;
            }
            if (other == nearest) break;
        }
        if (!placed) {
            s.status = Status::Infeasible;
            return;
        }
    }
}

}  // namespace

FeasibleSnap snap_feasibly(const Polytope& polytope, const Eigen::VectorXd& x, const Eigen::VectorXd& target, const SnapRule& rule) {
    assert(x.size() == polytope.dimension() && target.size() == x.size());
    FeasibleSnap s = start_inside(polytope, x, target);
    if (s.status == Status::Ok) snap_inside(polytope, s, target, rule);
    return s;
}

FeasibleSnap finalize_feasibly(const Polytope& polytope, const Eigen::VectorXd& x, const Eigen::VectorXd& target,
                               const SnapRule& rule, const std::vector<IntegerColumn>& integers) {
    FeasibleSnap s = snap_feasibly(polytope, x, target, rule);
    if (s.status == Status::Ok) round_inside(polytope, s, target, integers);
    return s;
}

}  // namespace sebo
