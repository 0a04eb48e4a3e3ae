#include "model/matern52_kernel.h"

#include <cassert>

namespace sebo {

Eigen::MatrixXd scaled_squared_distances(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                         const Eigen::VectorXd& inverse_squared_lengthscales) {
    assert(A.cols() == B.cols() && A.cols() == inverse_squared_lengthscales.size());
    // Built transposed, one row a of A at a time: column i of Sᵀ accumulates ρ_d (B_·d − a_d)²
    // over the contiguous columns of B, so each update is a vector operation over the n rows
    // of B (a candidate point against the training points is m = 1, n ≈ 100). The sum over d
    // runs in the same order as coordinate by coordinate.
    Eigen::MatrixXd St = Eigen::MatrixXd::Zero(B.rows(), A.rows());
    for (Eigen::Index i = 0; i < A.rows(); ++i) {
        auto column = St.col(i).array();
        for (Eigen::Index d = 0; d < A.cols(); ++d)
            column += inverse_squared_lengthscales[d] * (B.col(d).array() - A(i, d)).square();
    }
    return St.transpose();
}

Eigen::MatrixXd matern52_covariance(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                    const Eigen::VectorXd& inverse_squared_lengthscales, double output_scale) {
    Eigen::MatrixXd K = scaled_squared_distances(A, B, inverse_squared_lengthscales);
    for (Eigen::Index j = 0; j < K.cols(); ++j)
        for (Eigen::Index i = 0; i < K.rows(); ++i) K(i, j) = output_scale * matern52(K(i, j)).value;
    return K;
}

}  // namespace sebo
