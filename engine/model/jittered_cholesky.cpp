#include "model/jittered_cholesky.h"

#include <Eigen/Cholesky>
#include <cassert>
#include <cmath>

namespace sebo {

namespace {

// In-place LLT of `factor`'s lower triangle; true when usable.
bool factor_in_place(Eigen::MatrixXd& factor) {
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>, Eigen::Lower> llt(factor);
    if (llt.info() != Eigen::Success) return false;
    for (Eigen::Index i = 0; i < factor.rows(); ++i) {
        const double pivot = factor(i, i);
        if (!(std::isfinite(pivot) && pivot > 0.0)) return false;
    }
    return true;
}

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
