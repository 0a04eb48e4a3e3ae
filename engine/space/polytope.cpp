#include "space/polytope.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "core/format.h"

namespace sebo {

Polytope::Polytope(int dimension)
    : dimension_(dimension), a_(0, dimension), e_(0, dimension), b_(0), f_(0) {
    assert(dimension >= 0);
}

Polytope Polytope::from_constraints(const std::vector<LinearConstraint>& constraints,
                                    const std::vector<UnitCoordinate>& coordinates, int columns,
                                    const std::vector<std::string>& labels) {
    assert(labels.size() == constraints.size());
    Polytope polytope(columns);
    for (std::size_t k = 0; k < constraints.size(); ++k) {
        const LinearConstraint& c = constraints[k];
        const auto [low, high] = left_side_range(c, coordinates);
        const int source = polytope.add_source(
            labels[k], "its left side lies in [" + format_short(low, 6) + ", " + format_short(high, 6) + "] within the parameter bounds");
        const UnitConstraint unit = to_unit_constraint(c, coordinates, columns);
        const Eigen::VectorXd a = Eigen::Map<const Eigen::VectorXd>(unit.coefficients.data(), columns);
        if (unit.equality) polytope.add_equality(a, unit.bound, source);
        else polytope.add_inequality(a, unit.bound, source);
    }
    return polytope;
}

int Polytope::add_source(std::string label, std::string note) {
    labels_.push_back(std::move(label));
    notes_.push_back(std::move(note));
    return static_cast<int>(labels_.size()) - 1;
}

namespace {

void append_row(Eigen::MatrixXd& m, Eigen::VectorXd& rhs, std::vector<int>& sources, const Eigen::VectorXd& a, double b, int source) {
    // Unit norm, so that residuals are distances; a zero row (a constraint on fixed values only)
    // is kept as it is: 0 <= b holds or fails everywhere.
    double norm = a.norm();
    if (std::isinf(norm)) {  // the squares of coefficients near 1e308 overflowed
        const double largest = a.cwiseAbs().maxCoeff();
        norm = largest * (a / largest).norm();
    }
    const double scale = norm > 0.0 ? 1.0 / norm : 1.0;
    // (Above about 1e300 the reciprocal would lose digits as a subnormal number.)
    const Eigen::VectorXd row = norm > 1e300 ? Eigen::VectorXd(a / norm) : Eigen::VectorXd(a * scale);
    // Over the unit cube the left side lies in [low, high]. A right side far beyond that range
    // (a user's "x <= 9e16") gives the same set within the cube as one just past it, and keeps
    // the linear programs' tolerances, which scale with the data, from swallowing the other rows.
    const double low = row.cwiseMin(0.0).sum(), high = row.cwiseMax(0.0).sum();
    const Eigen::Index r = m.rows();
    m.conservativeResize(r + 1, Eigen::NoChange);
    rhs.conservativeResize(r + 1);
    m.row(r) = row.transpose();
    rhs[r] = std::clamp(norm > 1e300 ? b / norm : b * scale, low - 1.0, high + 1.0);
    sources.push_back(source);
}

}  // namespace

void Polytope::add_inequality(const Eigen::VectorXd& a, double b, int source) {
    assert(a.size() == dimension_ && source < source_count());
    append_row(a_, b_, inequality_sources_, a, b, source);
}

void Polytope::add_equality(const Eigen::VectorXd& a, double b, int source) {
    assert(a.size() == dimension_ && source < source_count());
    append_row(e_, f_, equality_sources_, a, b, source);
}

double Polytope::max_violation(const Eigen::VectorXd& u) const {
    assert(u.size() == dimension_);
    if (!u.allFinite()) return std::numeric_limits<double>::infinity();
    double worst = 0.0;
    if (dimension_ > 0) worst = std::max({0.0, -u.minCoeff(), u.maxCoeff() - 1.0});
    if (a_.rows() > 0) worst = std::max(worst, (a_ * u - b_).maxCoeff());
    if (e_.rows() > 0) worst = std::max(worst, (e_ * u - f_).cwiseAbs().maxCoeff());
    return worst;
}

}  // namespace sebo
