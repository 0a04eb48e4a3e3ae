#include "model/fantasy_posterior.h"

#include <cassert>
#include <map>

#include "model/input_encoding.h"
#include "model/jittered_cholesky.h"
#include "model/matern52_kernel.h"
#include "core/portable_random.h"

namespace sebo {

namespace {

// draw_factor, which succeeds on a posterior covariance (its jitter ends at 1e-2 of the diagonal).
Eigen::MatrixXd jittered_factor(Eigen::MatrixXd A) {
    Eigen::MatrixXd factor;
    [[maybe_unused]] const CholeskyStatus status = draw_factor(std::move(A), factor);
    assert(status.ok);
    return factor;
}

}  // namespace

FantasyPosterior::FantasyPosterior(std::shared_ptr<const EnsemblePosterior> posterior, const FantasyOptions& options)
    : FantasyPosterior(posterior, Eigen::MatrixXd(0, posterior->dimension()), options) {}

FantasyPosterior::FantasyPosterior(std::shared_ptr<const EnsemblePosterior> posterior, const Eigen::MatrixXd& leading,
                                   const FantasyOptions& options)
    : posterior_(std::move(posterior)), draws_per_member_(options.draws_per_member) {
    assert(posterior_ && !posterior_->empty() && draws_per_member_ >= 1 && leading.cols() == posterior_->dimension());
    const Eigen::MatrixXd& inputs = posterior_->data().inputs;
    // The distinct configurations, the leading ones first, then the data's in order of first
    // appearance (replicates are one point).
    std::map<std::vector<double>, int> index_of;
    const auto key_of = [](const Eigen::MatrixXd& X, Eigen::Index i) {
        std::vector<double> key(static_cast<std::size_t>(X.cols()));
        for (Eigen::Index d = 0; d < X.cols(); ++d) key[static_cast<std::size_t>(d)] = X(i, d);
        return key;
    };
    std::vector<Eigen::RowVectorXd> rows;
    for (Eigen::Index i = 0; i < leading.rows(); ++i) {
        [[maybe_unused]] const bool added = index_of.emplace(key_of(leading, i), static_cast<int>(rows.size())).second;
        assert(added);  // distinct
        rows.push_back(leading.row(i));
    }
    for (Eigen::Index i = 0; i < inputs.rows(); ++i) {
        const auto [it, added] = index_of.emplace(key_of(inputs, i), static_cast<int>(rows.size()));
        if (added) rows.push_back(inputs.row(i));
        baseline_of_row_.push_back(it->second);
    }
    const auto m = static_cast<Eigen::Index>(rows.size());
    baseline_.resize(m, inputs.cols());
    for (Eigen::Index u = 0; u < m; ++u) baseline_.row(u) = rows[static_cast<std::size_t>(u)];
    baseline_encoded_ = encoded(baseline_);

    // Standard normal vectors, in antithetic pairs.
    const int J = draws_per_member_;
    Eigen::MatrixXd z(m, J);
    PortableRandom random(options.seed);
    for (int j = 0; j < J; j += 2) {
        for (Eigen::Index u = 0; u < m; ++u) z(u, j) = random.normal();
        if (j + 1 < J) z.col(j + 1) = -z.col(j);
    }

    draws_.resize(m, static_cast<Eigen::Index>(posterior_->size()) * J);
    for (int s = 0; s < posterior_->size(); ++s) {
        const GaussianProcess& gp = posterior_->members()[static_cast<std::size_t>(s)];
        Member member;
        member.hyperparameters = gp.hyperparameters();
        const PosteriorMoments at_baseline = gp.predict(baseline_encoded_);
        const Eigen::MatrixXd draw_factor = jittered_factor(gp.posterior_covariance(baseline_encoded_));
        Eigen::MatrixXd f = draw_factor * z;
        f.colwise() += at_baseline.mean;
        draws_.middleCols(static_cast<Eigen::Index>(s) * J, J) = f;

        const GpHyperparameters& h = member.hyperparameters;
        member.factor = jittered_factor(
            matern52_covariance(baseline_encoded_, baseline_encoded_, h.inverse_squared_lengthscales, h.output_scale));
        member.weights = f.array() - h.mean;
        member.factor.triangularView<Eigen::Lower>().solveInPlace(member.weights);
        member.factor.transpose().triangularView<Eigen::Upper>().solveInPlace(member.weights);
        members_.push_back(std::move(member));
    }
}

Eigen::MatrixXd FantasyPosterior::encoded(const Eigen::MatrixXd& X) const {
    const InputEncoding* encoding = posterior_->data().encoding.get();
    return encoding ? encoding->encode(X) : X;
}

void FantasyPosterior::moments(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& variance,
                               Workspace* workspace) const {
    const Eigen::RowVectorXd point = encoded(x.transpose());
    const int J = draws_per_member_;
    mean.resize(size());
    variance.resize(size());
    if (workspace) {
        workspace->x = point;
        workspace->dk.resize(members_.size());
        workspace->beta.resize(members_.size());
    }
    const Eigen::Index m = baseline_encoded_.rows();
    for (std::size_t s = 0; s < members_.size(); ++s) {
        const Member& member = members_[s];
        const GpHyperparameters& h = member.hyperparameters;
        Eigen::RowVectorXd k = scaled_squared_distances(point, baseline_encoded_, h.inverse_squared_lengthscales);
        Eigen::RowVectorXd dk(workspace ? m : 0);
        for (Eigen::Index u = 0; u < m; ++u) {
            const Matern52Value c = matern52(k[u]);
            k[u] = h.output_scale * c.value;
            if (workspace) dk[u] = h.output_scale * c.derivative;
        }
        Eigen::VectorXd v = k.transpose();
        member.factor.triangularView<Eigen::Lower>().solveInPlace(v);
        const double raw_variance = h.output_scale - v.squaredNorm();
        const double var = std::max(raw_variance, 0.0);
        const auto first = static_cast<Eigen::Index>(s) * J;
        mean.segment(first, J) = (k * member.weights).transpose().array() + h.mean;
        variance.segment(first, J).setConstant(var);
        if (workspace) {
            member.factor.transpose().triangularView<Eigen::Upper>().solveInPlace(v);
            workspace->dk[s] = std::move(dk);
            // No variance gradient where the variance was clamped, as in GaussianProcess.
            workspace->beta[s] = raw_variance > 0.0 ? Eigen::RowVectorXd(v.transpose()) : Eigen::RowVectorXd::Zero(m);
        }
    }
}

Eigen::VectorXd FantasyPosterior::gradient(const Workspace& workspace, const Eigen::VectorXd& dmean,
                                           const Eigen::VectorXd& dvariance) const {
    const int J = draws_per_member_;
    const Eigen::RowVectorXd& x = workspace.x;
    Eigen::RowVectorXd total = Eigen::RowVectorXd::Zero(x.size());
    for (std::size_t s = 0; s < members_.size(); ++s) {
        const Member& member = members_[s];
        const auto first = static_cast<Eigen::Index>(s) * J;
        // Σ_j g_j ∂mean_j/∂x = ∂/∂x k(x)·(W g), and ∂var/∂x = −2 ∂k/∂x · β: one weighted sum of
        // ∂k(x, u)/∂x = 2ρ (x − u) dk/ds over the baseline for both.
        const Eigen::VectorXd combined = member.weights * dmean.segment(first, J);
        const double variance_weight = dvariance.segment(first, J).sum();
        const Eigen::RowVectorXd a =
            workspace.dk[s].array() * (combined.transpose().array() - 2.0 * variance_weight * workspace.beta[s].array());
        Eigen::RowVectorXd g = a.sum() * x - a * baseline_encoded_;
        total.array() += 2.0 * g.array() * member.hyperparameters.inverse_squared_lengthscales.transpose().array();
    }
    const InputEncoding* encoding = posterior_->data().encoding.get();
    if (encoding) return encoding->pull_back(total).row(0).transpose();
    return total.transpose();
}

void FantasyPosterior::batch_moments(const Eigen::MatrixXd& X, Eigen::MatrixXd& mean, Eigen::MatrixXd& variance) const {
    const Eigen::MatrixXd points = encoded(X);
    const int J = draws_per_member_;
    mean.resize(X.rows(), size());
    variance.resize(X.rows(), size());
    for (std::size_t s = 0; s < members_.size(); ++s) {
        const Member& member = members_[s];
        const GpHyperparameters& h = member.hyperparameters;
        Eigen::MatrixXd K = matern52_covariance(points, baseline_encoded_, h.inverse_squared_lengthscales, h.output_scale);
        const auto first = static_cast<Eigen::Index>(s) * J;
        mean.middleCols(first, J) = (K * member.weights).array() + h.mean;
        Eigen::MatrixXd V = K.transpose();
        if (V.cols() > 0) member.factor.triangularView<Eigen::Lower>().solveInPlace(V);
        const Eigen::VectorXd var = (h.output_scale - V.colwise().squaredNorm().transpose().array()).max(0.0);
        for (int j = 0; j < J; ++j) variance.col(first + j) = var;
    }
}

void FantasyPosteriorView::moments(const Eigen::VectorXd& x, Eigen::VectorXd& mean, Eigen::VectorXd& var,
                                   Eigen::MatrixXd* dmean, Eigen::MatrixXd* dvar) const {
    FantasyPosterior::Workspace workspace;
    fantasies_->moments(x, mean, var, dmean || dvar ? &workspace : nullptr);
    const int T = fantasies_->size();
    Eigen::VectorXd unit = Eigen::VectorXd::Zero(T), zero = Eigen::VectorXd::Zero(T);
    if (dmean) dmean->resize(x.size(), T);
    if (dvar) dvar->resize(x.size(), T);
    for (int t = 0; t < T; ++t) {
        unit[t] = 1.0;
        if (dmean) dmean->col(t) = fantasies_->gradient(workspace, unit, zero);
        if (dvar) dvar->col(t) = fantasies_->gradient(workspace, zero, unit);
        unit[t] = 0.0;
    }
}

PosteriorView::MomentsPullback FantasyPosteriorView::moments_with_pullback(const Eigen::VectorXd& x, Eigen::VectorXd& mean,
                                                                          Eigen::VectorXd& var) const {
    auto workspace = std::make_shared<FantasyPosterior::Workspace>();
    fantasies_->moments(x, mean, var, workspace.get());
    return [fantasies = fantasies_, workspace](const Eigen::VectorXd& dmean, const Eigen::VectorXd& dvar) {
        return fantasies->gradient(*workspace, dmean, dvar);
    };
}

}  // namespace sebo
