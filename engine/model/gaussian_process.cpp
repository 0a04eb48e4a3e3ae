#include "model/gaussian_process.h"

#include <cassert>
#include <cmath>
#include <limits>
#include <numbers>

#include "model/matern52_kernel.h"

namespace sebo {

GaussianProcess::GaussianProcess(std::shared_ptr<const TrainingData> data, GpHyperparameters hyperparameters)
    : data_(std::move(data)), hyperparameters_(std::move(hyperparameters)) {
    assert(data_ && !data_->validate());
    assert(!hyperparameters_.validate() && hyperparameters_.dimension() == data_->dimension());
    const TrainingData& d = *data_;
    const GpHyperparameters& h = hyperparameters_;

    Eigen::MatrixXd K = matern52_covariance(d.inputs, d.inputs, h.inverse_squared_lengthscales, h.output_scale);
    K.diagonal().array() += h.noise;
    if (!d.noise_inferred()) K.diagonal() += d.noise_variances;
    status_ = jittered_cholesky(K, factor_);
    if (!status_.ok) {
        log_marginal_likelihood_ = -std::numeric_limits<double>::infinity();
        return;
    }
    const Eigen::VectorXd residual = d.targets.array() - h.mean;
    alpha_ = factor_.triangularView<Eigen::Lower>().solve(residual);
    const double quadratic = alpha_.squaredNorm();  // (y − m)ᵀ K⁻¹ (y − m) = ‖L⁻¹(y − m)‖²
    factor_.transpose().triangularView<Eigen::Upper>().solveInPlace(alpha_);
    log_marginal_likelihood_ = -0.5 * quadratic - factor_.diagonal().array().log().sum() -
                               0.5 * static_cast<double>(d.num_points()) * std::log(2.0 * std::numbers::pi);
}

void GaussianProcess::cross_covariance(const Eigen::MatrixXd& X, Eigen::MatrixXd& Kx, Eigen::MatrixXd* dKx) const {
    const double output_scale = hyperparameters_.output_scale;
    Kx = scaled_squared_distances(X, data_->inputs, hyperparameters_.inverse_squared_lengthscales);
    if (dKx) dKx->resize(Kx.rows(), Kx.cols());
    for (Eigen::Index j = 0; j < Kx.cols(); ++j) {
        for (Eigen::Index i = 0; i < Kx.rows(); ++i) {
            const Matern52Value c = matern52(Kx(i, j));
            Kx(i, j) = output_scale * c.value;
            if (dKx) (*dKx)(i, j) = output_scale * c.derivative;
        }
    }
}

PosteriorMoments GaussianProcess::predict(const Eigen::MatrixXd& X) const {
    assert(status_.ok && X.cols() == dimension());
    Eigen::MatrixXd Kx;
    cross_covariance(X, Kx, nullptr);
    PosteriorMoments out;
    out.mean = (Kx * alpha_).array() + hyperparameters_.mean;
    Eigen::MatrixXd V = Kx.transpose();  // n×m
    // Eigen's in-place triangular solve reads element (0, 0) even of an empty right-hand side.
    if (V.cols() > 0) factor_.triangularView<Eigen::Lower>().solveInPlace(V);
    out.variance = (hyperparameters_.output_scale - V.colwise().squaredNorm().transpose().array()).max(0.0);
    return out;
}

Eigen::MatrixXd GaussianProcess::posterior_covariance(const Eigen::MatrixXd& X) const {
    assert(status_.ok && X.cols() == dimension());
    Eigen::MatrixXd Kx;
    cross_covariance(X, Kx, nullptr);
    Eigen::MatrixXd V = Kx.transpose();  // n×m: L⁻¹ k(x)
    if (V.cols() > 0) factor_.triangularView<Eigen::Lower>().solveInPlace(V);
    Eigen::MatrixXd covariance =
        matern52_covariance(X, X, hyperparameters_.inverse_squared_lengthscales, hyperparameters_.output_scale);
    covariance.noalias() -= V.transpose() * V;
    return covariance;
}

PosteriorMomentsWithGradients GaussianProcess::predict_with_gradients(const Eigen::MatrixXd& X) const {
    assert(status_.ok && X.cols() == dimension());
    const Eigen::MatrixXd& Xn = data_->inputs;
    const Eigen::VectorXd& rho = hyperparameters_.inverse_squared_lengthscales;
    Eigen::MatrixXd Kx, dKx;
    cross_covariance(X, Kx, &dKx);

    PosteriorMomentsWithGradients out;
    out.mean = (Kx * alpha_).array() + hyperparameters_.mean;
    Eigen::MatrixXd V = Kx.transpose();  // n×m: L⁻¹ k(x), then β = K⁻¹ k(x)
    if (V.cols() > 0) factor_.triangularView<Eigen::Lower>().solveInPlace(V);
    const Eigen::VectorXd raw_variance =
        (hyperparameters_.output_scale - V.colwise().squaredNorm().transpose().array()).matrix();
    out.variance = raw_variance.cwiseMax(0.0);
    if (V.cols() > 0) factor_.transpose().triangularView<Eigen::Upper>().solveInPlace(V);

    // Σ_i w_ti dk/ds_ti (x_td − x_id) for all t, d at once: (diag(rowsum(A)) X − A Xₙ) with
    // A_ti = w_ti dk/ds_ti; then each column d is scaled by 2ρ_d.
    const auto weighted_difference = [&](const Eigen::MatrixXd& A) {
        Eigen::MatrixXd G = A.rowwise().sum().asDiagonal() * X;
        G.noalias() -= A * Xn;
        return G;
    };
    const Eigen::RowVectorXd two_rho = 2.0 * rho.transpose();

    Eigen::MatrixXd A = dKx.array().rowwise() * alpha_.transpose().array();
    out.mean_gradient = weighted_difference(A).array().rowwise() * two_rho.array();

    A = dKx.cwiseProduct(V.transpose());
    out.variance_gradient = weighted_difference(A).array().rowwise() * (-2.0 * two_rho).array();
    for (Eigen::Index t = 0; t < X.rows(); ++t)
        if (raw_variance[t] <= 0.0) out.variance_gradient.row(t).setZero();
    return out;
}

}  // namespace sebo
