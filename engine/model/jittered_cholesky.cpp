#include "model/jittered_cholesky.h"

#include <Eigen/Core>
#include <cassert>
#include <cmath>

namespace sebo {

namespace {

using MatrixRef = Eigen::Ref<Eigen::MatrixXd>;

// Up to this size the factorization runs column by column; above it, it splits in halves so
// that most of the work is in Eigen's blocked triangular solve and rank update (at n = 100
// about 1.4× as fast as Eigen's LLT, whose panels are 8 columns wide there).
constexpr Eigen::Index kUnblockedSize = 50;

// In-place lower Cholesky factor of M's lower triangle (LAPACK's recursive dpotrf): with
// M = [A ·; B C], L = [L_A 0; B L_A⁻ᵀ  chol(C − L_B L_Bᵀ)]. Reads and writes only the lower
// triangle. False at the first pivot that is not finite and positive.
bool factor_lower(MatrixRef M) {
    const Eigen::Index n = M.rows();
    if (n <= kUnblockedSize) {
        // Left-looking: column j minus the already factored columns, then scaled by its pivot.
        for (Eigen::Index j = 0; j < n; ++j) {
            const Eigen::Index m = n - j;
            if (j > 0) M.col(j).tail(m).noalias() -= M.bottomLeftCorner(m, j) * M.row(j).head(j).transpose();
            const double pivot_squared = M(j, j);
            if (!(std::isfinite(pivot_squared) && pivot_squared > 0.0)) return false;
            const double pivot = std::sqrt(pivot_squared);
            M(j, j) = pivot;
            M.col(j).tail(m - 1) /= pivot;
        }
        return true;
    }
    const Eigen::Index n1 = n / 2;
    const Eigen::Index n2 = n - n1;
    auto A = M.topLeftCorner(n1, n1);
    auto B = M.bottomLeftCorner(n2, n1);
    auto C = M.bottomRightCorner(n2, n2);
    if (!factor_lower(A)) return false;
    A.triangularView<Eigen::Lower>().transpose().solveInPlace<Eigen::OnTheRight>(B);
    C.selfadjointView<Eigen::Lower>().rankUpdate(B, -1.0);
    return factor_lower(C);
}

// In-place factorization of `factor`'s lower triangle; true when usable. A non-finite entry
// below the diagonal reaches the pivot of its row, so checking the pivots suffices.
bool factor_in_place(Eigen::MatrixXd& factor) { return factor_lower(factor); }

}  // namespace

CholeskyStatus jittered_cholesky(const Eigen::MatrixXd& A, Eigen::MatrixXd& factor) {
    assert(A.rows() == A.cols() && A.rows() >= 1);
    CholeskyStatus status;
    factor = A;
    status.attempts = 1;
    if (factor_in_place(factor)) {
        status.ok = true;
        return status;
    }
    const double mean_diagonal = A.diagonal().mean();
    if (!std::isfinite(mean_diagonal) || mean_diagonal <= 0.0) return status;
    for (const double level : kJitterLevels) {
        const double jitter = level * mean_diagonal;
        factor = A;
        factor.diagonal().array() += jitter;
        ++status.attempts;
        if (factor_in_place(factor)) {
            status.ok = true;
            status.jitter = jitter;
            return status;
        }
    }
    return status;
}

}  // namespace sebo
