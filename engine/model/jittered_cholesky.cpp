#include "model/jittered_cholesky.h"

#include <cassert>

namespace sebo {

CholeskyStatus jittered_cholesky(const Eigen::MatrixXd& A, Eigen::MatrixXd& factor) {
    assert(A.rows() == A.cols() && A.rows() >= 1);
    factor.resize(A.rows(), A.cols());
    return likelihood_kernel::generic::jittered_factor(A.data(), factor.data(), A.rows());
}

}  // namespace sebo
