#include "model/matern52_kernel.h"

#include <cassert>

namespace sebo {

Eigen::MatrixXd scaled_squared_distances(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                         const Eigen::VectorXd& inverse_squared_lengthscales) {
    assert(A.cols() == B.cols() && A.cols() == inverse_squared_lengthscales.size());
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(A.rows(), B.rows());
    for (Eigen::Index d = 0; d < A.cols(); ++d) {
        const double rho = inverse_squared_lengthscales[d];
        for (Eigen::Index j = 0; j < B.rows(); ++j) {
            const double b = B(j, d);
            S.col(j).array() += rho * (A.col(d).array() - b).square();
        }
    }
    return S;
}

Eigen::MatrixXd matern52_covariance(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                    const Eigen::VectorXd& inverse_squared_lengthscales, double output_scale) {
    Eigen::MatrixXd K = scaled_squared_distances(A, B, inverse_squared_lengthscales);
    for (Eigen::Index j = 0; j < K.cols(); ++j)
        for (Eigen::Index i = 0; i < K.rows(); ++i) K(i, j) = output_scale * matern52(K(i, j)).value;
    return K;
}

}  // namespace sebo
