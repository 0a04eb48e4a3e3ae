#include "space/polytope_analysis.h"

#include <Eigen/SVD>
#include <algorithm>
#include <cassert>

namespace sebo {

namespace {

// A row with less room than this (unit-cube distance) is flat: the set has no thickness there.
constexpr double kFlat = 1e-9;

// Every inequality of P including the box: the polytope's rows, then u_j <= 1, then −u_j <= 0.
struct Inequalities {
    Eigen::MatrixXd g;
    Eigen::VectorXd h;
};

Inequalities all_inequalities(const Polytope& p) {
    const int d = p.dimension();
    const Eigen::Index m = p.inequality_matrix().rows();
    Inequalities all{Eigen::MatrixXd(m + 2 * d, d), Eigen::VectorXd(m + 2 * d)};
    all.g.topRows(m) = p.inequality_matrix();
    all.h.head(m) = p.inequality_bound();
    all.g.middleRows(m, d).setIdentity();
    all.h.segment(m, d).setOnes();
    all.g.bottomRows(d) = -Eigen::MatrixXd::Identity(d, d);
    all.h.tail(d).setZero();
    return all;
}

Eigen::MatrixXd rows_of(const Eigen::MatrixXd& m, const std::vector<int>& rows) {
    Eigen::MatrixXd out(static_cast<Eigen::Index>(rows.size()), m.cols());
    for (std::size_t k = 0; k < rows.size(); ++k) out.row(static_cast<Eigen::Index>(k)) = m.row(rows[k]);
    return out;
}

Eigen::VectorXd entries_of(const Eigen::VectorXd& v, const std::vector<int>& rows) {
    Eigen::VectorXd out(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t k = 0; k < rows.size(); ++k) out[static_cast<Eigen::Index>(k)] = v[rows[k]];
    return out;
}

// Orthonormal basis of {v : E v = 0}.
Eigen::MatrixXd null_space(const Eigen::MatrixXd& e, int dimension) {
    if (e.rows() == 0) return Eigen::MatrixXd::Identity(dimension, dimension);
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(e, Eigen::ComputeFullV);
    const Eigen::VectorXd& s = svd.singularValues();
    const double threshold = 1e-9 * std::max(1.0, s.size() > 0 ? s[0] : 0.0);
    int rank = 0;
    for (Eigen::Index i = 0; i < s.size(); ++i)
        if (s[i] > threshold) ++rank;
    return svd.matrixV().rightCols(dimension - rank);
}

// The Chebyshev centre (u, r) of {G u <= h, E u = f} within the null space N of E.
LinearProgramResult chebyshev(const Inequalities& in, const Eigen::MatrixXd& e, const Eigen::VectorXd& f,
                              const Eigen::MatrixXd& directions, const LinearProgramOptions& options) {
    const Eigen::Index d = in.g.cols();
    LinearProgram lp;
    lp.cost = Eigen::VectorXd::Zero(d + 1);
    lp.cost[d] = -1.0;
    lp.inequality.resize(in.g.rows(), d + 1);
    lp.inequality.leftCols(d) = in.g;
    lp.inequality.col(d) = (in.g * directions).rowwise().norm();
    lp.inequality_bound = in.h;
    lp.equality = Eigen::MatrixXd::Zero(e.rows(), d + 1);
    lp.equality.leftCols(d) = e;
    lp.equality_bound = f;
    lp.lower = Eigen::VectorXd::Zero(d + 1);
    lp.upper = Eigen::VectorXd::Ones(d + 1);
    return solve_linear_program(lp, options);
}

LinearProgramResult feasibility(const Eigen::MatrixXd& g, const Eigen::VectorXd& h, const Eigen::MatrixXd& e,
                                const Eigen::VectorXd& f, int dimension, const LinearProgramOptions& options) {
    LinearProgram lp;
    lp.cost = Eigen::VectorXd::Zero(dimension);
    lp.inequality = g;
    lp.inequality_bound = h;
    lp.equality = e;
    lp.equality_bound = f;
    lp.lower = Eigen::VectorXd::Zero(dimension);
    lp.upper = Eigen::VectorXd::Ones(dimension);
    return solve_linear_program(lp, options);
}

// Rows of `in` that hold with equality everywhere on {in, E u = f} (a non-empty set).
std::optional<std::vector<int>> implicit_equalities(const Inequalities& in, const Eigen::MatrixXd& e, const Eigen::VectorXd& f,
                                                    const LinearProgramOptions& options) {
    const Eigen::Index d = in.g.cols(), rows = in.g.rows();
    std::vector<int> candidates(static_cast<std::size_t>(rows));
    for (Eigen::Index i = 0; i < rows; ++i) candidates[static_cast<std::size_t>(i)] = static_cast<int>(i);
    while (!candidates.empty()) {
        // maximize Σ s_c  s.t.  g_c·u + s_c <= h_c (candidates),  g_i·u <= h_i (others),  0 <= s <= 1.
        const auto k = static_cast<Eigen::Index>(candidates.size());
        LinearProgram lp;
        lp.cost = Eigen::VectorXd::Zero(d + k);
        lp.cost.tail(k).setConstant(-1.0);
        lp.inequality = Eigen::MatrixXd::Zero(rows, d + k);
        lp.inequality.leftCols(d) = in.g;
        for (Eigen::Index c = 0; c < k; ++c) lp.inequality(candidates[static_cast<std::size_t>(c)], d + c) = 1.0;
        lp.inequality_bound = in.h;
        lp.equality = Eigen::MatrixXd::Zero(e.rows(), d + k);
        lp.equality.leftCols(d) = e;
        lp.equality_bound = f;
        lp.lower = Eigen::VectorXd::Zero(d + k);
        lp.upper = Eigen::VectorXd::Ones(d + k);
        const LinearProgramResult r = solve_linear_program(lp, options);
        if (r.status != LinearProgramResult::Status::Optimal) return std::nullopt;
        std::vector<int> still;
        for (Eigen::Index c = 0; c < k; ++c)
            if (r.x[d + c] <= kFlat) still.push_back(candidates[static_cast<std::size_t>(c)]);
        if (still.size() == candidates.size()) break;  // none of them has room anywhere
        candidates = std::move(still);
    }
    return candidates;
}

std::string quoted_label(const Polytope& p, int source) {
    if (source < 0) return "an unnamed constraint";
    return "'" + p.source_label(source) + "'";
}

// Deletion filter: a minimal set of the user's constraints that cannot hold together.
PolytopeAnalysis explain_empty(const Polytope& p, const LinearProgramOptions& options) {
    const int d = p.dimension();
    const Eigen::Index mi = p.inequality_matrix().rows(), me = p.equality_matrix().rows();
    // Group rows by source; unnamed rows are groups of their own.
    std::vector<int> ineq_group(static_cast<std::size_t>(mi)), eq_group(static_cast<std::size_t>(me));
    std::vector<int> groups;  // group ids in order of first appearance
    const auto group_id = [&](int source, int unnamed) { return source >= 0 ? source : -1 - unnamed; };
    const auto note = [&](int id) {
        if (std::find(groups.begin(), groups.end(), id) == groups.end()) groups.push_back(id);
    };
    for (Eigen::Index i = 0; i < mi; ++i) {
        ineq_group[static_cast<std::size_t>(i)] = group_id(p.inequality_source(static_cast<int>(i)), static_cast<int>(i));
        note(ineq_group[static_cast<std::size_t>(i)]);
    }
    for (Eigen::Index k = 0; k < me; ++k) {
        eq_group[static_cast<std::size_t>(k)] = group_id(p.equality_source(static_cast<int>(k)), static_cast<int>(mi + k));
        note(eq_group[static_cast<std::size_t>(k)]);
    }
    std::vector<int> kept = groups;
    const auto infeasible_with = [&](const std::vector<int>& chosen) {
        const auto in = [&](int g) { return std::find(chosen.begin(), chosen.end(), g) != chosen.end(); };
        std::vector<int> ri, re;
        for (Eigen::Index i = 0; i < mi; ++i)
            if (in(ineq_group[static_cast<std::size_t>(i)])) ri.push_back(static_cast<int>(i));
        for (Eigen::Index k = 0; k < me; ++k)
            if (in(eq_group[static_cast<std::size_t>(k)])) re.push_back(static_cast<int>(k));
        const LinearProgramResult r = feasibility(rows_of(p.inequality_matrix(), ri), entries_of(p.inequality_bound(), ri),
                                                  rows_of(p.equality_matrix(), re), entries_of(p.equality_bound(), re), d, options);
        return r.status == LinearProgramResult::Status::Infeasible;
    };
    for (int g : groups) {
        std::vector<int> without;
        for (int k : kept)
            if (k != g) without.push_back(k);
        if (infeasible_with(without)) kept = std::move(without);
    }

    PolytopeAnalysis a;
    a.status = PolytopeAnalysis::Status::Empty;
    for (int g : kept) a.conflict.push_back(g >= 0 ? g : -1);
    if (kept.size() == 1 && kept.front() >= 0) {
        const int s = kept.front();
        a.message = "no configuration satisfies " + quoted_label(p, s);
        if (!p.source_note(s).empty()) a.message += ": " + p.source_note(s);
    } else if (!kept.empty()) {
        a.message = "no configuration within the parameter bounds satisfies these constraints together: ";
        for (std::size_t k = 0; k < kept.size(); ++k) a.message += (k ? ", " : "") + quoted_label(p, a.conflict[k]);
    } else {
        a.message = "no configuration satisfies the constraints";
    }
    return a;
}

PolytopeAnalysis failed(std::string what) {
    PolytopeAnalysis a;
    a.status = PolytopeAnalysis::Status::Failed;
    a.message = std::move(what);
    return a;
}

}  // namespace

PolytopeAnalysis analyze_polytope(const Polytope& polytope, const LinearProgramOptions& options) {
    const int d = polytope.dimension();
    const Inequalities all = all_inequalities(polytope);
    const Eigen::MatrixXd& e = polytope.equality_matrix();
    const Eigen::VectorXd& f = polytope.equality_bound();
    Eigen::MatrixXd directions = null_space(e, d);

    LinearProgramResult centre = chebyshev(all, e, f, directions, options);
    if (centre.status == LinearProgramResult::Status::Infeasible) return explain_empty(polytope, options);
    if (centre.status != LinearProgramResult::Status::Optimal)
        return failed("the linear program for the constraints' centre did not finish (numerical trouble)");

    PolytopeAnalysis a;
    a.status = PolytopeAnalysis::Status::Feasible;
    if (directions.cols() > 0 && centre.x[d] <= kFlat) {
        // Flatter than the equalities say: find the inequalities that hold with equality throughout.
        const auto implicit = implicit_equalities(all, e, f, options);
        if (!implicit) return failed("the linear program for the constraints' implicit equalities did not finish (numerical trouble)");
        const Eigen::Index m = polytope.inequality_matrix().rows();
        std::vector<int> free_rows;
        for (Eigen::Index i = 0; i < all.g.rows(); ++i)
            if (std::find(implicit->begin(), implicit->end(), static_cast<int>(i)) == implicit->end()) free_rows.push_back(static_cast<int>(i));
        for (int i : *implicit) {
            if (i < m) a.implicit_equalities.push_back(i);
            else {
                const int column = static_cast<int>((i - m) % d);
                if (std::find(a.fixed_columns.begin(), a.fixed_columns.end(), column) == a.fixed_columns.end())
                    a.fixed_columns.push_back(column);
            }
        }
        std::sort(a.fixed_columns.begin(), a.fixed_columns.end());
        Eigen::MatrixXd e2(e.rows() + static_cast<Eigen::Index>(implicit->size()), d);
        Eigen::VectorXd f2(e2.rows());
        e2.topRows(e.rows()) = e;
        f2.head(e.rows()) = f;
        e2.bottomRows(static_cast<Eigen::Index>(implicit->size())) = rows_of(all.g, *implicit);
        f2.tail(static_cast<Eigen::Index>(implicit->size())) = entries_of(all.h, *implicit);
        directions = null_space(e2, d);
        const Inequalities rest{rows_of(all.g, free_rows), entries_of(all.h, free_rows)};
        const LinearProgramResult again = chebyshev(rest, e2, f2, directions, options);
        if (again.status != LinearProgramResult::Status::Optimal)
            return failed("the linear program for the constraints' centre did not finish (numerical trouble)");
        centre = again;
    }
    a.centre = centre.x.head(d);
    // With no direction left, P is a single point and the "radius" variable was unconstrained.
    a.radius = directions.cols() > 0 ? centre.x[d] : 0.0;
    a.directions = std::move(directions);
    return a;
}

std::optional<Eigen::VectorXd> find_point_in_polytope(const Polytope& polytope, const LinearProgramOptions& options) {
    const LinearProgramResult r = feasibility(polytope.inequality_matrix(), polytope.inequality_bound(), polytope.equality_matrix(),
                                              polytope.equality_bound(), polytope.dimension(), options);
    if (r.status != LinearProgramResult::Status::Optimal) return std::nullopt;
    return r.x;
}

}  // namespace sebo
