#include "model/marginal_likelihood.h"

#include <cassert>
#include <cmath>
#include <limits>
#include <numbers>

#include "model/matern52_kernel.h"

namespace sebo {

namespace {

// M = L⁻¹ for lower-triangular L (LAPACK's unblocked dtrti2, right to left): column j of M is
// −M[j+1:, j+1:] L[j+1:, j] / L_jj below M_jj = 1/L_jj. Each step is one triangular
// matrix–vector product over contiguous columns; n³/6 multiply-adds in all, a third of what
// solving against the identity costs. Only the lower triangle of M is written.
void invert_lower_triangular(const Eigen::MatrixXd& L, Eigen::MatrixXd& M) {
    const Eigen::Index n = L.rows();
    for (Eigen::Index j = n - 1; j >= 0; --j) {
        const double inverse_pivot = 1.0 / L(j, j);
        M(j, j) = inverse_pivot;
        const Eigen::Index m = n - j - 1;
        if (m == 0) continue;
        M.col(j).tail(m).noalias() = M.bottomRightCorner(m, m).triangularView<Eigen::Lower>() * L.col(j).tail(m);
        M.col(j).tail(m) *= -inverse_pivot;
    }
}

// Lower triangle of G = Mᵀ M for lower-triangular M (LAPACK's dlauu2): G_ij = Σ_{k≥i} M_ki M_kj
// for i ≥ j, one transposed triangular matrix–vector product per column; n³/6 multiply-adds.
void lower_gram(const Eigen::MatrixXd& M, Eigen::MatrixXd& G) {
    const Eigen::Index n = M.rows();
    for (Eigen::Index j = 0; j < n; ++j) {
        const Eigen::Index m = n - j;
        G.col(j).tail(m).noalias() =
            M.bottomRightCorner(m, m).transpose().triangularView<Eigen::Upper>() * M.col(j).tail(m);
    }
}

}  // namespace

LikelihoodData::LikelihoodData(TrainingData data) : data_(std::move(data)) {
    assert(!data_.validate());
    const Eigen::Index n = data_.inputs.rows();
    const Eigen::Index D = data_.inputs.cols();
    pair_squared_differences_.resize(n * (n - 1) / 2, D);
    // Column by column of Δ² so that each write is contiguous.
    for (Eigen::Index d = 0; d < D; ++d) {
        Eigen::Index p = 0;
        for (Eigen::Index j = 0; j < n; ++j) {
            const double xj = data_.inputs(j, d);
            for (Eigen::Index i = j + 1; i < n; ++i, ++p) {
                const double diff = data_.inputs(i, d) - xj;
                pair_squared_differences_(p, d) = diff * diff;
            }
        }
    }
}

LmlWorkspace::LmlWorkspace(const LikelihoodData& data) {
    const Eigen::Index n = data.num_points();
    const Eigen::Index D = data.dimension();
    const Eigen::Index P = n * (n - 1) / 2;
    rho.resize(D);
    pair_r2.resize(P);
    pair_dk.resize(P);
    pair_weight.resize(P);
    rho_gradient.resize(D);
    residual.resize(n);
    alpha.resize(n);
    covariance.resize(n, n);
    factor.resize(n, n);
    inverse_factor.resize(n, n);
    inverse.resize(n, n);
}

LmlResult log_marginal_likelihood(const LikelihoodData& data, const Eigen::VectorXd& theta,
                                  Eigen::VectorXd* gradient, LmlWorkspace& ws) {
    const UnconstrainedLayout layout = data.layout();
    assert(theta.size() == layout.size());
    const Eigen::Index n = data.num_points();
    const Eigen::Index D = data.dimension();
    const TrainingData& td = data.data();

    ws.rho = theta.head(D).array().exp();
    const double output_scale = std::exp(theta[layout.output_scale_index()]);
    const double noise = layout.noise_inferred ? std::exp(theta[layout.noise_index()]) : 0.0;
    const double mean = theta[layout.mean_index()];

    // K: the pairwise part from r² = Δ² ρ, then the diagonal σ² + noise (+ known variances).
    ws.pair_r2.noalias() = data.pair_squared_differences() * ws.rho;
    {
        Eigen::Index p = 0;
        for (Eigen::Index j = 0; j < n; ++j) {
            for (Eigen::Index i = j + 1; i < n; ++i, ++p) {
                const Matern52Value c = matern52(ws.pair_r2[p]);
                ws.covariance(i, j) = output_scale * c.value;
                ws.pair_dk[p] = output_scale * c.derivative;
            }
        }
    }
    for (Eigen::Index i = 0; i < n; ++i) ws.covariance(i, i) = output_scale + noise;
    if (!layout.noise_inferred) ws.covariance.diagonal() += td.noise_variances;

    LmlResult result;
    result.cholesky = jittered_cholesky(ws.covariance, ws.factor);
    if (!result.cholesky.ok) {
        result.value = -std::numeric_limits<double>::infinity();
        if (gradient) gradient->setZero(theta.size());
        return result;
    }
    const auto L = ws.factor.triangularView<Eigen::Lower>();
    const auto Lt = ws.factor.transpose().triangularView<Eigen::Upper>();

    ws.residual = td.targets.array() - mean;
    ws.alpha = ws.residual;
    L.solveInPlace(ws.alpha);
    Lt.solveInPlace(ws.alpha);
    result.value = -0.5 * ws.residual.dot(ws.alpha) - ws.factor.diagonal().array().log().sum() -
                   0.5 * static_cast<double>(n) * std::log(2.0 * std::numbers::pi);
    if (!gradient) return result;

    // K⁻¹ = L⁻ᵀ L⁻¹ (lower triangle only), as LAPACK's dpotri does.
    invert_lower_triangular(ws.factor, ws.inverse_factor);
    lower_gram(ws.inverse_factor, ws.inverse);

    // W = ½(ααᵀ − K⁻¹): diagonal terms feed σ² and the noise; pair terms (counted twice by
    // symmetry) feed σ² and, weighted by dk/ds, every ρ_d at once.
    double trace_w = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) trace_w += 0.5 * (ws.alpha[i] * ws.alpha[i] - ws.inverse(i, i));
    double pair_wk = 0.0;
    {
        Eigen::Index p = 0;
        for (Eigen::Index j = 0; j < n; ++j) {
            const double aj = ws.alpha[j];
            for (Eigen::Index i = j + 1; i < n; ++i, ++p) {
                const double two_w = ws.alpha[i] * aj - ws.inverse(i, j);
                ws.pair_weight[p] = two_w * ws.pair_dk[p];
                pair_wk += two_w * ws.covariance(i, j);
            }
        }
    }
    ws.rho_gradient.noalias() = data.pair_squared_differences().transpose() * ws.pair_weight;

    gradient->resize(theta.size());
    gradient->head(D) = ws.rho.cwiseProduct(ws.rho_gradient);
    (*gradient)[layout.output_scale_index()] = trace_w * output_scale + pair_wk;
    if (layout.noise_inferred) (*gradient)[layout.noise_index()] = trace_w * noise;
    (*gradient)[layout.mean_index()] = ws.alpha.sum();
    return result;
}

}  // namespace sebo
