#include "model/ensemble_posterior.h"

#include <cassert>

#include "model/input_encoding.h"

namespace sebo {

EnsemblePosterior::EnsemblePosterior(std::shared_ptr<const TrainingData> data,
                                     const std::vector<GpHyperparameters>& samples)
    : data_(std::move(data)) {
    assert(data_ && !data_->validate());
    model_data_ = data_->encoding ? encoded_training_data(*data_) : data_;
    members_.reserve(samples.size());
    for (const GpHyperparameters& h : samples) {
        GaussianProcess gp(model_data_, h);
        if (gp.status().ok)
            members_.push_back(std::move(gp));
        else
            ++dropped_;
    }
}

EnsembleMoments EnsemblePosterior::predict(const Eigen::MatrixXd& X_unit) const {
    assert(!empty());
    const Eigen::MatrixXd X = data_->encoding ? data_->encoding->encode(X_unit) : X_unit;
    EnsembleMoments out;
    out.mean.resize(X.rows(), size());
    out.variance.resize(X.rows(), size());
    for (int s = 0; s < size(); ++s) {
        PosteriorMoments p = members_[static_cast<std::size_t>(s)].predict(X);
        out.mean.col(s) = p.mean;
        out.variance.col(s) = p.variance;
    }
    return out;
}

EnsembleMomentsWithGradients EnsemblePosterior::predict_with_gradients(const Eigen::MatrixXd& X_unit) const {
    assert(!empty());
    const Eigen::MatrixXd X = data_->encoding ? data_->encoding->encode(X_unit) : X_unit;
    EnsembleMomentsWithGradients out;
    out.mean.resize(X.rows(), size());
    out.variance.resize(X.rows(), size());
    out.mean_gradient.reserve(members_.size());
    out.variance_gradient.reserve(members_.size());
    for (int s = 0; s < size(); ++s) {
        PosteriorMomentsWithGradients p = members_[static_cast<std::size_t>(s)].predict_with_gradients(X);
        out.mean.col(s) = p.mean;
        out.variance.col(s) = p.variance;
        if (data_->encoding) {
            out.mean_gradient.push_back(data_->encoding->pull_back(p.mean_gradient));
            out.variance_gradient.push_back(data_->encoding->pull_back(p.variance_gradient));
        } else {
            out.mean_gradient.push_back(std::move(p.mean_gradient));
            out.variance_gradient.push_back(std::move(p.variance_gradient));
        }
    }
    return out;
}

std::vector<Eigen::MatrixXd> EnsemblePosterior::covariances(const Eigen::MatrixXd& X_unit) const {
    const Eigen::MatrixXd X = data_->encoding ? data_->encoding->encode(X_unit) : X_unit;
    std::vector<Eigen::MatrixXd> out;
    out.reserve(members_.size());
    for (const GaussianProcess& member : members_) out.push_back(member.posterior_covariance(X));
    return out;
}

PosteriorMoments EnsemblePosterior::mixture(const Eigen::MatrixXd& X) const {
    const EnsembleMoments e = predict(X);
    PosteriorMoments out;
    out.mean = e.mean.rowwise().mean();
    const Eigen::MatrixXd centred = e.mean.colwise() - out.mean;
    out.variance = e.variance.rowwise().mean() + centred.rowwise().squaredNorm() / static_cast<double>(size());
    return out;
}

}  // namespace sebo
