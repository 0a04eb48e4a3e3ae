#include "model/jittered_cholesky.h"

#include <algorithm>
#include <cassert>

namespace sebo {

CholeskyStatus jittered_cholesky(const Eigen::MatrixXd& A, Eigen::MatrixXd& factor) {
    assert(A.rows() == A.cols() && A.rows() >= 1);
    factor.resize(A.rows(), A.cols());
    return likelihood_kernel::generic::jittered_factor(A.data(), factor.data(), A.rows());
}

CholeskyStatus draw_factor(Eigen::MatrixXd A, Eigen::MatrixXd& factor) {
    A.diagonal().array() += 1e-8 * std::max(A.diagonal().mean(), 1e-300);
    const CholeskyStatus status = jittered_cholesky(A, factor);
    factor.triangularView<Eigen::StrictlyUpper>().setZero();
    return status;
}

}  // namespace sebo
