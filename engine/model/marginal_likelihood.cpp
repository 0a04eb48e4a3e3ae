#include "model/marginal_likelihood.h"

#include <cassert>

namespace sebo {

LikelihoodData::LikelihoodData(TrainingData data) : data_(std::move(data)) {
    assert(!data_.validate());
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
    pair_weight.resize(n, n);
    weight_row_sums.resize(n);
    weighted_inputs.resize(n, D);
    rho_gradient.resize(D);
    residual.resize(n);
    alpha.resize(n);
    covariance.resize(n, n);
    factor.resize(n, n);
    inverse.resize(n, n);
}

likelihood_kernel::Buffers kernel_buffers(const LikelihoodData& data, LmlWorkspace& ws) {
    const TrainingData& td = data.data();
    likelihood_kernel::Buffers b;
    b.n = data.num_points();
    b.dimension = data.dimension();
    b.noise_inferred = td.noise_inferred();
    b.centred_inputs = data.centred_inputs().data();
    b.targets = td.targets.data();
    b.noise_variances = td.noise_inferred() ? nullptr : td.noise_variances.data();
    b.rho = ws.rho.data();
    b.scaled_inputs = ws.scaled_inputs.data();
    b.gram = ws.gram.data();
    b.gram_diagonal = ws.gram_diagonal.data();
    b.column_r2 = ws.column_r2.data();
    b.column_sqrt5_r = ws.column_sqrt5_r.data();
    b.column_exp = ws.column_exp.data();
    b.pair_dk = ws.pair_dk.data();
    b.pair_weight = ws.pair_weight.data();
    b.weight_row_sums = ws.weight_row_sums.data();
    b.weighted_inputs = ws.weighted_inputs.data();
    b.rho_gradient = ws.rho_gradient.data();
    b.residual = ws.residual.data();
    b.alpha = ws.alpha.data();
    b.covariance = ws.covariance.data();
    b.factor = ws.factor.data();
    b.inverse = ws.inverse.data();
    return b;
}

LmlResult log_marginal_likelihood(const LikelihoodData& data, const Eigen::VectorXd& theta,
                                  Eigen::VectorXd* gradient, LmlWorkspace& ws) {
    assert(theta.size() == data.layout().size());
    if (gradient) gradient->resize(theta.size());
    return likelihood_kernel::selected()(kernel_buffers(data, ws), theta.data(), gradient ? gradient->data() : nullptr);
}

}  // namespace sebo
