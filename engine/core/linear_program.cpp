#include "core/linear_program.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

namespace sebo {

std::optional<std::string> LinearProgram::validate() const {
    const Eigen::Index n = cost.size();
    if (lower.size() != n || upper.size() != n) return "lower/upper: sizes differ from the cost's";
    if (inequality.rows() > 0 && inequality.cols() != n) return "inequality: column count differs from the cost's size";
    if (inequality.rows() != inequality_bound.size()) return "inequality_bound: size differs from the inequality's rows";
    if (equality.rows() > 0 && equality.cols() != n) return "equality: column count differs from the cost's size";
    if (equality.rows() != equality_bound.size()) return "equality_bound: size differs from the equality's rows";
    if (!cost.allFinite()) return "cost: not every entry is finite";
    if (!lower.allFinite() || !upper.allFinite()) return "lower/upper: every bound must be finite";
    if ((upper - lower).minCoeff() < 0.0) return "upper: below lower";
    if (!inequality.allFinite() || !inequality_bound.allFinite()) return "inequality: not every entry is finite";
    if (!equality.allFinite() || !equality_bound.allFinite()) return "equality: not every entry is finite";
    return std::nullopt;
}

std::optional<std::string> LinearProgramOptions::validate() const {
    if (!(feasibility_tolerance > 0)) return "feasibility_tolerance must be positive";
    if (!(pivot_tolerance > 0)) return "pivot_tolerance must be positive";
    if (pivot_limit_factor < 1) return "pivot_limit_factor: " + std::to_string(pivot_limit_factor) + " must be at least 1";
    return std::nullopt;
}

namespace {

using Tableau = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The tableau in canonical form: rows 0..m-1 are constraints (last column the right-hand side),
// row m the reduced costs (last column minus the objective value); basis[r] is row r's basic column.
class Simplex {
public:
    Simplex(Tableau tableau, std::vector<int> basis, double pivot_tolerance, int pivot_limit)
        : t_(std::move(tableau)), basis_(std::move(basis)), pivot_tolerance_(pivot_tolerance), pivot_limit_(pivot_limit) {}

    Tableau& tableau() { return t_; }
    const std::vector<int>& basis() const { return basis_; }
    int rows() const { return static_cast<int>(t_.rows()) - 1; }
    int rhs_column() const { return static_cast<int>(t_.cols()) - 1; }
    int pivots() const { return pivots_; }

    // Minimizes over the columns [0, allowed_columns). False on the pivot limit or when no row
    // can leave (possible only through round-off, since every variable is bounded).
    bool run(int allowed_columns) {
        const int m = rows(), rhs = rhs_column();
        bool bland = false;
        while (true) {
            int enter = -1;
            double most_negative = -pivot_tolerance_;
            for (int j = 0; j < allowed_columns; ++j) {
                const double d = t_(m, j);
                if (d < most_negative) {
                    enter = j;
                    most_negative = d;
                    if (bland) break;  // lowest index with a negative reduced cost
                }
            }
            if (enter < 0) return true;
            if (pivots_ >= pivot_limit_) return false;
            int leave = -1;
            double best_ratio = std::numeric_limits<double>::infinity();
            for (int r = 0; r < m; ++r) {
                const double a = t_(r, enter);
                if (a <= pivot_tolerance_) continue;
                const double ratio = std::max(0.0, t_(r, rhs)) / a;
                if (leave < 0 || ratio < best_ratio - 1e-12 * (1.0 + best_ratio)) {
                    leave = r;
                    best_ratio = ratio;
                } else if (ratio <= best_ratio + 1e-12 * (1.0 + best_ratio) &&
                           basis_[static_cast<std::size_t>(r)] < basis_[static_cast<std::size_t>(leave)]) {
                    leave = r;  // a tie: the lowest basic index leaves (Bland)
                    best_ratio = std::min(best_ratio, ratio);
                }
            }
            if (leave < 0) return false;
            bland = best_ratio <= 1e-14;  // degenerate: no progress; Bland's rule until there is
            pivot(leave, enter);
        }
    }

    void pivot(int row, int column) {
        t_.row(row) /= t_(row, column);
        for (Eigen::Index i = 0; i < t_.rows(); ++i) {
            if (i == row) continue;
            const double factor = t_(i, column);
            if (factor != 0.0) {
                t_.row(i) -= factor * t_.row(row);
                t_(i, column) = 0.0;
            }
        }
        t_(row, column) = 1.0;
        basis_[static_cast<std::size_t>(row)] = column;
        ++pivots_;
    }

private:
    Tableau t_;
    std::vector<int> basis_;
    double pivot_tolerance_;
    int pivot_limit_;
    int pivots_ = 0;
};

}  // namespace

LinearProgramResult solve_linear_program(const LinearProgram& program, const LinearProgramOptions& options) {
    assert(!program.validate());
    assert(!options.validate());
    const int n = static_cast<int>(program.cost.size());
    const int mi = static_cast<int>(program.inequality.rows());
    const int me = static_cast<int>(program.equality.rows());
    // Shift x = lower + y with 0 <= y <= width. Rows: inequalities (slack s), equalities,
    // then y_j + t_j = width_j for the upper bounds (slack t).
    const Eigen::VectorXd width = program.upper - program.lower;
    const int m = mi + me + n;
    Eigen::VectorXd rhs(m);
    if (mi > 0) rhs.head(mi) = program.inequality_bound - program.inequality * program.lower;
    if (me > 0) rhs.segment(mi, me) = program.equality_bound - program.equality * program.lower;
    rhs.tail(n) = width;
    // A row needs an artificial variable unless its slack can start as the basic variable:
    // equalities always, inequalities whose right-hand side is negative (the row is negated).
    std::vector<int> artificial_rows;
    for (int r = 0; r < mi + me; ++r)
        if (r >= mi || rhs[r] < 0.0) artificial_rows.push_back(r);
    const int structural_and_slacks = n + mi + n;
    const int columns = structural_and_slacks + static_cast<int>(artificial_rows.size());

    Tableau t = Tableau::Zero(m + 1, columns + 1);
    std::vector<int> basis(static_cast<std::size_t>(m), -1);
    for (int r = 0; r < mi; ++r) {
        t.row(r).head(n) = program.inequality.row(r);
        t(r, n + r) = 1.0;
        basis[static_cast<std::size_t>(r)] = n + r;
    }
    for (int k = 0; k < me; ++k) t.row(mi + k).head(n) = program.equality.row(k);
    for (int j = 0; j < n; ++j) {
        const int r = mi + me + j;
        t(r, j) = 1.0;
        t(r, n + mi + j) = 1.0;
        basis[static_cast<std::size_t>(r)] = n + mi + j;
    }
    t.col(columns).head(m) = rhs;
    for (std::size_t k = 0; k < artificial_rows.size(); ++k) {
        const int r = artificial_rows[k];
        if (rhs[r] < 0.0) t.row(r) *= -1.0;
        const int a = structural_and_slacks + static_cast<int>(k);
        t(r, a) = 1.0;
        basis[static_cast<std::size_t>(r)] = a;
        // Phase 1 minimizes the sum of the artificials: reduced costs are minus the sum of their rows.
        t.row(m) -= t.row(r);
        t(m, a) = 0.0;
    }

    const int pivot_limit = options.pivot_limit_factor * (m + columns);
    Simplex simplex(std::move(t), std::move(basis), options.pivot_tolerance, pivot_limit);
    LinearProgramResult result;
    const auto finish = [&](LinearProgramResult::Status status) {
        result.status = status;
        result.pivots = simplex.pivots();
        return result;
    };
    if (!simplex.run(columns)) return finish(LinearProgramResult::Status::Failed);
    Tableau& tab = simplex.tableau();
    const double scale = std::max(1.0, rhs.size() > 0 ? rhs.cwiseAbs().maxCoeff() : 0.0);
    if (-tab(m, columns) > options.feasibility_tolerance * scale) return finish(LinearProgramResult::Status::Infeasible);

    // Drive artificials out of the basis (they are at zero); a row where that is impossible is a
    // linear combination of others and keeps its artificial, which can then never change.
    for (int r = 0; r < m; ++r) {
        if (simplex.basis()[static_cast<std::size_t>(r)] < structural_and_slacks) continue;
        int best = -1;
        double largest = options.pivot_tolerance;
        for (int j = 0; j < structural_and_slacks; ++j) {
            if (std::abs(tab(r, j)) > largest) {
                largest = std::abs(tab(r, j));
                best = j;
            }
        }
        if (best >= 0) simplex.pivot(r, best);
    }

    // Phase 2: the real costs, expressed in the current basis.
    tab.row(m).setZero();
    tab.row(m).head(n) = program.cost.transpose();
    for (int r = 0; r < m; ++r) {
        const int b = simplex.basis()[static_cast<std::size_t>(r)];
        if (b < n && tab(m, b) != 0.0) {
            tab.row(m) -= tab(m, b) * tab.row(r);
            tab(m, b) = 0.0;
        }
    }
    if (!simplex.run(structural_and_slacks)) return finish(LinearProgramResult::Status::Failed);

    Eigen::VectorXd y = Eigen::VectorXd::Zero(n);
    for (int r = 0; r < m; ++r) {
        const int b = simplex.basis()[static_cast<std::size_t>(r)];
        if (b < n) y[b] = tab(r, columns);
    }
    result.x = (program.lower + y).cwiseMax(program.lower).cwiseMin(program.upper);
    result.value = program.cost.dot(result.x);
    return finish(LinearProgramResult::Status::Optimal);
}

}  // namespace sebo
