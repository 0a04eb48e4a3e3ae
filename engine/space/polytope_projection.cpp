#include "space/polytope_projection.h"

#include <Eigen/QR>
#include <algorithm>
#include <cassert>
#include <cmath>

#include "core/linear_program.h"

namespace sebo {

namespace {

// A reduced row whose free part is shorter than this is a constant: it holds or fails whatever
// the free coordinates are.
constexpr double kConstantRow = 1e-12;

// The problem on the free coordinates: general rows (kind: inequality row, equality row), plus
// the box 0 <= z <= 1 handled as rows upper_j: z_j <= 1 and lower_j: −z_j <= 0.
struct Reduced {
    std::vector<int> free;            // free coordinate indices
    Eigen::MatrixXd a, e;             // rows restricted to free coordinates
    Eigen::VectorXd b, f;             // bounds with pinned values substituted
    std::vector<int> a_rows, e_rows;  // original row index of each kept row
};

enum class RowKind { Inequality, Upper, Lower };

struct Row {
    RowKind kind;
    int index;  // into Reduced::a (Inequality) or the free coordinates (Upper, Lower)
};

}  // namespace

PolytopeProjection project_onto_polytope(const Polytope& polytope, const Eigen::VectorXd& point, const std::vector<bool>& pinned) {
    const int d = polytope.dimension();
    assert(point.size() == d && point.allFinite());
    assert(pinned.empty() || static_cast<int>(pinned.size()) == d);
    const double tol = Polytope::kTolerance;
    PolytopeProjection result;
    result.inequality_multipliers = Eigen::VectorXd::Zero(polytope.inequality_matrix().rows());
    result.equality_multipliers = Eigen::VectorXd::Zero(polytope.equality_matrix().rows());
    result.lower_multipliers = Eigen::VectorXd::Zero(d);
    result.upper_multipliers = Eigen::VectorXd::Zero(d);

    Reduced r;
    Eigen::VectorXd fixed = Eigen::VectorXd::Zero(d);  // pinned values, zero elsewhere
    for (int j = 0; j < d; ++j) {
        if (!pinned.empty() && pinned[static_cast<std::size_t>(j)]) {
            if (point[j] < -tol || point[j] > 1.0 + tol) {
                result.status = PolytopeProjection::Status::Infeasible;
                return result;
            }
            fixed[j] = std::clamp(point[j], 0.0, 1.0);
        } else {
            r.free.push_back(j);
        }
    }
    const auto n = static_cast<Eigen::Index>(r.free.size());
    const auto restrict = [&](const Eigen::MatrixXd& m, const Eigen::VectorXd& rhs, bool equality, Eigen::MatrixXd& out,
                              Eigen::VectorXd& out_rhs, std::vector<int>& rows) -> bool {
        std::vector<int> kept;
        Eigen::MatrixXd restricted(m.rows(), n);
        for (Eigen::Index k = 0; k < n; ++k) restricted.col(k) = m.col(r.free[static_cast<std::size_t>(k)]);
        const Eigen::VectorXd shifted = rhs - m * fixed;
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            if (restricted.row(i).norm() > kConstantRow) {
                kept.push_back(static_cast<int>(i));
                continue;
            }
            // Nothing free in this row: it must already hold.
            const double residual = -shifted[i];
            if (equality ? std::abs(residual) > tol : residual > tol) return false;
        }
        out.resize(static_cast<Eigen::Index>(kept.size()), n);
        out_rhs.resize(static_cast<Eigen::Index>(kept.size()));
        for (std::size_t k = 0; k < kept.size(); ++k) {
            out.row(static_cast<Eigen::Index>(k)) = restricted.row(kept[k]);
            out_rhs[static_cast<Eigen::Index>(k)] = shifted[kept[k]];
        }
        rows = std::move(kept);
        return true;
    };
    if (!restrict(polytope.inequality_matrix(), polytope.inequality_bound(), false, r.a, r.b, r.a_rows) ||
        !restrict(polytope.equality_matrix(), polytope.equality_bound(), true, r.e, r.f, r.e_rows)) {
        result.status = PolytopeProjection::Status::Infeasible;
        return result;
    }

    Eigen::VectorXd y(n);
    for (Eigen::Index k = 0; k < n; ++k) y[k] = point[r.free[static_cast<std::size_t>(k)]];
    const auto assemble = [&](const Eigen::VectorXd& z) {
        Eigen::VectorXd x = fixed;
        for (Eigen::Index k = 0; k < n; ++k) x[r.free[static_cast<std::size_t>(k)]] = std::clamp(z[k], 0.0, 1.0);
        return x;
    };
    const auto finish = [&](const Eigen::VectorXd& z) {
        result.x = assemble(z);
        result.status = polytope.contains(result.x) ? PolytopeProjection::Status::Ok : PolytopeProjection::Status::Failed;
        return result;
    };

    // The box projection of y is the answer when it already satisfies the rows.
    const Eigen::VectorXd clamped = y.cwiseMax(0.0).cwiseMin(1.0);
    const bool rows_hold = (r.a.rows() == 0 || (r.a * clamped - r.b).maxCoeff() <= tol) &&
                           (r.e.rows() == 0 || (r.e * clamped - r.f).cwiseAbs().maxCoeff() <= tol);
    if (rows_hold) {
        for (Eigen::Index k = 0; k < n; ++k) {
            const int j = r.free[static_cast<std::size_t>(k)];
            if (y[k] < 0.0) result.lower_multipliers[j] = -y[k];
            if (y[k] > 1.0) result.upper_multipliers[j] = y[k] - 1.0;
        }
        return finish(clamped);
    }

    // A feasible start.
    LinearProgram lp;
    lp.cost = Eigen::VectorXd::Zero(n);
    lp.inequality = r.a;
    lp.inequality_bound = r.b;
    lp.equality = r.e;
    lp.equality_bound = r.f;
    lp.lower = Eigen::VectorXd::Zero(n);
    lp.upper = Eigen::VectorXd::Ones(n);
    const LinearProgramResult start = solve_linear_program(lp);
    if (start.status == LinearProgramResult::Status::Infeasible) {
        result.status = PolytopeProjection::Status::Infeasible;
        return result;
    }
    if (start.status != LinearProgramResult::Status::Optimal) return result;  // Failed
    Eigen::VectorXd z = start.x;

    // All inequality rows of the reduced problem, general ones first, then the box.
    std::vector<Row> rows;
    for (Eigen::Index i = 0; i < r.a.rows(); ++i) rows.push_back({RowKind::Inequality, static_cast<int>(i)});
    for (Eigen::Index k = 0; k < n; ++k) rows.push_back({RowKind::Upper, static_cast<int>(k)});
    for (Eigen::Index k = 0; k < n; ++k) rows.push_back({RowKind::Lower, static_cast<int>(k)});
    const auto normal = [&](const Row& row) -> Eigen::VectorXd {
        if (row.kind == RowKind::Inequality) return r.a.row(row.index).transpose();
        Eigen::VectorXd v = Eigen::VectorXd::Zero(n);
        v[row.index] = row.kind == RowKind::Upper ? 1.0 : -1.0;
        return v;
    };
    const auto slack = [&](const Row& row) {
        switch (row.kind) {
        case RowKind::Inequality: return r.b[row.index] - r.a.row(row.index).dot(z);
        case RowKind::Upper: return 1.0 - z[row.index];
        case RowKind::Lower: return z[row.index];
        }
        return 0.0;
    };

    std::vector<int> working;  // indices into rows, treated as equalities with the rows of E
    const int limit = 10 * (static_cast<int>(rows.size()) + static_cast<int>(n)) + 50;
    Eigen::VectorXd multipliers;
    for (result.iterations = 0; result.iterations < limit; ++result.iterations) {
        const auto k_eq = r.e.rows();
        const auto k = k_eq + static_cast<Eigen::Index>(working.size());
        Eigen::MatrixXd m(n, k);  // normals of the active rows as columns
        if (k_eq > 0) m.leftCols(k_eq) = r.e.transpose();
        for (std::size_t w = 0; w < working.size(); ++w) m.col(k_eq + static_cast<Eigen::Index>(w)) = normal(rows[static_cast<std::size_t>(working[w])]);
        const Eigen::VectorXd g = y - z;  // steepest descent of ½‖z − y‖²
        Eigen::VectorXd p = g;
        Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr;
        if (k > 0) {
            qr.compute(m);
            qr.setThreshold(1e-10);
            const Eigen::Index rank = qr.rank();
            if (rank > 0) {
                const Eigen::MatrixXd q1 = qr.householderQ() * Eigen::MatrixXd::Identity(n, rank);
                p -= q1 * (q1.transpose() * g);
            }
        }
        if (p.norm() <= 1e-12 * std::max(1.0, g.norm())) {
            // Stationary on the working set: optimal when no inequality multiplier is negative.
            multipliers = k > 0 ? Eigen::VectorXd(qr.solve(g)) : Eigen::VectorXd();
            int drop = -1;
            double most_negative = -1e-12 * std::max(1.0, g.norm());
            for (std::size_t w = 0; w < working.size(); ++w) {
                const double mu = multipliers[k_eq + static_cast<Eigen::Index>(w)];
                if (mu < most_negative) {
                    most_negative = mu;
                    drop = static_cast<int>(w);
                }
            }
            if (drop < 0) break;
            working.erase(working.begin() + drop);
            continue;
        }
        // Step along p as far as the first inactive row allows.
        double alpha = 1.0;
        int blocking = -1;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            if (std::find(working.begin(), working.end(), static_cast<int>(i)) != working.end()) continue;
            const double rate = normal(rows[i]).dot(p);
            if (rate <= 1e-14) continue;
            const double step = std::max(0.0, slack(rows[i])) / rate;
            if (step < alpha) {
                alpha = step;
                blocking = static_cast<int>(i);
            }
        }
        z += alpha * p;
        if (blocking >= 0) working.push_back(blocking);
    }
    if (result.iterations >= limit) return result;  // Failed

    // The certificate, in the polytope's own rows.
    const auto k_eq = r.e.rows();
    for (Eigen::Index i = 0; i < k_eq; ++i) result.equality_multipliers[r.e_rows[static_cast<std::size_t>(i)]] = multipliers[i];
    for (std::size_t w = 0; w < working.size(); ++w) {
        const Row& row = rows[static_cast<std::size_t>(working[w])];
        const double mu = std::max(0.0, multipliers[k_eq + static_cast<Eigen::Index>(w)]);
        switch (row.kind) {
        case RowKind::Inequality: result.inequality_multipliers[r.a_rows[static_cast<std::size_t>(row.index)]] = mu; break;
        case RowKind::Upper: result.upper_multipliers[r.free[static_cast<std::size_t>(row.index)]] = mu; break;
        case RowKind::Lower: result.lower_multipliers[r.free[static_cast<std::size_t>(row.index)]] = mu; break;
        }
    }
    return finish(z);
}

}  // namespace sebo
