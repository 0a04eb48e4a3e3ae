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

// Up to this size lower_gram_in_place runs row by row; above it, it splits in halves so that
// most of the work is in Eigen's blocked rank update and triangular product.
constexpr Eigen::Index kUnblockedGramSize = 50;

// In place, lower triangle: M → Mᵀ M for lower-triangular M (LAPACK's recursive dlauum). With
// M = [A 0; B C], MᵀM = [AᵀA + BᵀB  ·; CᵀB  CᵀC]; n³/6 multiply-adds. The strict upper
// triangle is scratch.
void lower_gram_in_place(Eigen::Ref<Eigen::MatrixXd> M) {
    const Eigen::Index n = M.rows();
    if (n <= kUnblockedGramSize) {
        // dlauu2, top to bottom: row i becomes Σ_{k≥i} M_ki M_k·, reading only rows ≥ i.
        for (Eigen::Index i = 0; i < n; ++i) {
            const double pivot = M(i, i);
            const Eigen::Index below = n - i - 1;
            M(i, i) = M.col(i).tail(below + 1).squaredNorm();
            for (Eigen::Index j = 0; j < i; ++j)
                M(i, j) = pivot * M(i, j) + M.col(i).tail(below).dot(M.col(j).tail(below));
        }
        return;
    }
    const Eigen::Index n1 = n / 2;
    const Eigen::Index n2 = n - n1;
    auto A = M.topLeftCorner(n1, n1);
    auto B = M.bottomLeftCorner(n2, n1);
    auto C = M.bottomRightCorner(n2, n2);
    auto scratch = M.topRightCorner(n1, n2);
    lower_gram_in_place(A);
    A.selfadjointView<Eigen::Lower>().rankUpdate(B.transpose());
    scratch.noalias() = B.transpose() * C.triangularView<Eigen::Lower>();  // (CᵀB)ᵀ
    B = scratch.transpose();
    lower_gram_in_place(C);
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
    centred_inputs_ = data_.inputs.rowwise() - data_.inputs.colwise().mean();
}

LmlWorkspace::LmlWorkspace(const LikelihoodData& data) {
    const Eigen::Index n = data.num_points();
    const Eigen::Index D = data.dimension();
    const Eigen::Index P = n * (n - 1) / 2;
    rho.resize(D);
    scaled_inputs.resize(n, D);
    gram.resize(n, n);
    gram_diagonal.resize(n);
    column_r2.resize(n);
    column_sqrt5_r.resize(n);
    column_exp.resize(n);
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

    // K: the pairwise part from r² = G_ii + G_jj − 2 G_ij, then the diagonal σ² + noise (+ known
    // variances).
    ws.scaled_inputs.noalias() = data.centred_inputs() * ws.rho.cwiseSqrt().asDiagonal();
    ws.gram.triangularView<Eigen::Lower>().setZero();
    ws.gram.selfadjointView<Eigen::Lower>().rankUpdate(ws.scaled_inputs);
    // Column by column of the strict lower triangle, as arrays (vectorized sqrt and exp):
    // c = (1 + √5 r + 5r²/3) e^{−√5 r}, dc/ds = −(5/6)(1 + √5 r) e^{−√5 r} (model/matern52_kernel.h).
    ws.gram_diagonal = ws.gram.diagonal();
    for (Eigen::Index j = 0, p = 0; j < n; p += n - j - 1, ++j) {
        const Eigen::Index m = n - j - 1;
        auto r2 = ws.column_r2.head(m).array();
        auto sqrt5_r = ws.column_sqrt5_r.head(m).array();
        auto e = ws.column_exp.head(m).array();
        r2 = (ws.gram_diagonal.tail(m).array() + (ws.gram(j, j) - 2.0 * ws.gram.col(j).tail(m).array())).max(0.0);
        sqrt5_r = 2.2360679774997896964 * r2.sqrt();
        e = (-sqrt5_r).exp();
        ws.covariance.col(j).tail(m).array() = output_scale * ((1.0 + sqrt5_r + (5.0 / 3.0) * r2) * e);
        ws.pair_dk.segment(p, m).array() = (output_scale * (-5.0 / 6.0)) * ((1.0 + sqrt5_r) * e);
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
    ws.inverse.triangularView<Eigen::Lower>() = ws.inverse_factor;
    lower_gram_in_place(ws.inverse);

    // W = ½(ααᵀ − K⁻¹): diagonal terms feed σ² and the noise; pair terms (counted twice by
    // symmetry) feed σ² and, weighted by dk/ds, every ρ_d at once.
    double trace_w = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) trace_w += 0.5 * (ws.alpha[i] * ws.alpha[i] - ws.inverse(i, i));
    double pair_wk = 0.0;
    for (Eigen::Index j = 0, p = 0; j < n; p += n - j - 1, ++j) {
        const Eigen::Index m = n - j - 1;
        auto two_w = ws.column_r2.head(m).array();
        two_w = ws.alpha[j] * ws.alpha.tail(m).array() - ws.inverse.col(j).tail(m).array();
        ws.pair_weight.segment(p, m).array() = two_w * ws.pair_dk.segment(p, m).array();
        pair_wk += (two_w * ws.covariance.col(j).tail(m).array()).sum();
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
