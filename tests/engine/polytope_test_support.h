#pragma once
// Shared by the polytope tests: random non-empty polytopes in the unit cube, and polytopes from
// constraint texts over a small space.

#include <Eigen/Core>
#include <QtGlobal>
#include <cmath>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "io/linear_constraint_text.h"
#include "space/linear_constraint.h"
#include "space/polytope.h"
#include "space/search_space.h"

namespace sebo::test {

// A vector from its entries: vec({0.2, 0.5}).
inline Eigen::VectorXd vec(std::initializer_list<double> v) {
    Eigen::VectorXd x(static_cast<Eigen::Index>(v.size()));
    Eigen::Index i = 0;
    for (double a : v) x[i++] = a;
    return x;
}

// A polytope with `inequalities` random half-spaces and `equalities` random hyperplanes, all
// through or around one random point c in [0.15, 0.85]^d, so that it is never empty: each
// inequality keeps c at a random distance in [0.01, 0.4] inside, each equality passes through c.
// Returned with c.
inline std::pair<Polytope, Eigen::VectorXd> random_polytope(std::mt19937_64& rng, int d, int inequalities, int equalities) {
    std::uniform_real_distribution<double> inner(0.15, 0.85), margin(0.01, 0.4);
    std::normal_distribution<double> normal(0.0, 1.0);
    Eigen::VectorXd c(d);
    for (int j = 0; j < d; ++j) c[j] = inner(rng);
    Polytope p(d);
    const auto random_normal = [&]() {
        Eigen::VectorXd a(d);
        for (int j = 0; j < d; ++j) a[j] = normal(rng);
        return Eigen::VectorXd(a / a.norm());
    };
    for (int i = 0; i < inequalities; ++i) {
        const Eigen::VectorXd a = random_normal();
        // Scaled rows, as user constraints would give: the polytope normalizes them.
        const double scale = std::exp(normal(rng));
        p.add_inequality(a * scale, (a.dot(c) + margin(rng)) * scale);
    }
    for (int i = 0; i < equalities; ++i) {
        const Eigen::VectorXd a = random_normal();
        p.add_equality(a, a.dot(c));
    }
    return {p, c};
}

// fa, fb, fc, fd in [0,1].
inline SearchSpace unit_space(int d = 4) {
    std::vector<Parameter> params;
    for (int i = 0; i < d; ++i) {
        Parameter p;
        p.name = std::string("f") + static_cast<char>('a' + i);
        params.push_back(p);
    }
    return SearchSpace(params);
}

// The polytope of constraint texts over `space` (each must parse).
inline Polytope polytope_of(const SearchSpace& space, const std::vector<std::string>& texts) {
    std::vector<LinearConstraint> constraints;
    std::vector<std::string> labels;
    std::vector<std::string> names;
    for (const auto& p : space.parameters()) names.push_back(p.name);
    for (const auto& t : texts) {
        const ConstraintParse parsed = parse_linear_constraint(t, constraint_variables(space));
        if (!parsed.ok()) qFatal("'%s': %s", t.c_str(), parsed.error.describe().c_str());
        constraints.push_back(*parsed.constraint);
        labels.push_back(canonical_text(*parsed.constraint, names));
    }
    return Polytope::from_constraints(constraints, unit_coordinates(space), space.dimension(), labels);
}

}  // namespace sebo::test
