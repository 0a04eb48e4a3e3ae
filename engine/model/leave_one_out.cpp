#include "model/leave_one_out.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <vector>

#include "model/jittered_cholesky.h"
#include "model/matern52_kernel.h"

namespace sebo {

LeaveOneOutPredictions leave_one_out(const GaussianProcess& gp) {
    assert(gp.status().ok);
    const TrainingData& d = gp.data();
    const GpHyperparameters& h = gp.hyperparameters();
    const Eigen::Index n = d.num_points();
    // The covariance GaussianProcess factored, rebuilt here (its factor is private); the same
    // matrix gives the same jitter decision.
    Eigen::MatrixXd K = matern52_covariance(d.inputs, d.inputs, h.inverse_squared_lengthscales, h.output_scale);
    K.diagonal().array() += h.noise;
    if (!d.noise_inferred()) K.diagonal() += d.noise_variances;
    Eigen::MatrixXd L;
    const CholeskyStatus status = jittered_cholesky(K, L);
    assert(status.ok);
    (void)status;
    // K⁻¹ = L⁻ᵀ L⁻¹; its diagonal is the column norms of L⁻¹ squared.
    Eigen::MatrixXd inverse_factor = Eigen::MatrixXd::Identity(n, n);
    L.triangularView<Eigen::Lower>().solveInPlace(inverse_factor);
    const Eigen::VectorXd precision_diagonal = inverse_factor.colwise().squaredNorm().transpose();
    const Eigen::VectorXd residual = d.targets.array() - h.mean;
    const Eigen::VectorXd alpha = inverse_factor.transpose() * (inverse_factor * residual);

    LeaveOneOutPredictions out;
    out.variance = precision_diagonal.cwiseInverse();
    out.mean = d.targets - alpha.cwiseProduct(out.variance);
    return out;
}

LeaveOneOutScore leave_one_out_score(const EnsemblePosterior& posterior) {
    assert(!posterior.empty());
    const Eigen::VectorXd& y = posterior.data().targets;
    const Eigen::Index n = y.size();
    const int members = posterior.size();
    Eigen::MatrixXd log_density(n, members);
    LeaveOneOutScore score;
    score.mean = Eigen::VectorXd::Zero(n);
    for (int s = 0; s < members; ++s) {
        const LeaveOneOutPredictions p = leave_one_out(posterior.members()[static_cast<std::size_t>(s)]);
        score.mean += p.mean / members;
        log_density.col(s) = -0.5 * ((y - p.mean).array().square() / p.variance.array() + p.variance.array().log() +
                                     std::log(2.0 * std::numbers::pi));
    }
    double total = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        // log of the mixture average, by log-sum-exp so that far-off points stay finite.
        const double top = log_density.row(i).maxCoeff();
        total += top + std::log((log_density.row(i).array() - top).exp().sum() / members);
    }
    score.mean_log_predictive_density = total / static_cast<double>(n);
    score.rmse = std::sqrt((y - score.mean).squaredNorm() / static_cast<double>(n));
    return score;
}

}  // namespace sebo
