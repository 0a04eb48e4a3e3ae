#include "model/nuts_metric.h"

#include <cassert>
#include <cmath>

namespace sebo {

const char* to_string(NutsMetric metric) {
    switch (metric) {
        case NutsMetric::Diagonal: return "diagonal";
        case NutsMetric::Dense: return "dense";
    }
    return "?";
}

EuclideanMetric::EuclideanMetric(NutsMetric kind, int dimension)
    : kind_(kind), diagonal_(Eigen::VectorXd::Ones(dimension)), llt_(kind == NutsMetric::Dense ? dimension : 0) {
    assert(dimension >= 1);
    if (kind_ == NutsMetric::Dense) {
        dense_ = Eigen::MatrixXd::Identity(dimension, dimension);
        cholesky_ = Eigen::MatrixXd::Identity(dimension, dimension);
        fallback_ = Eigen::MatrixXd::Zero(dimension, dimension);
    }
}

void EuclideanMetric::set_diagonal(const Eigen::VectorXd& inverse_diagonal) {
    assert(kind_ == NutsMetric::Diagonal);
    assert(inverse_diagonal.size() == diagonal_.size());
    assert((inverse_diagonal.array() > 0.0).all() && inverse_diagonal.allFinite());
    diagonal_ = inverse_diagonal;
}

bool EuclideanMetric::set_dense(const Eigen::MatrixXd& covariance) {
    assert(kind_ == NutsMetric::Dense);
    assert(covariance.rows() == dense_.rows() && covariance.cols() == dense_.cols());
    // Eigen's LLT lets NaN through its positivity test, hence the finiteness check; a finite
    // matrix that factors has a finite factor (|L_ij| ≤ √Σ_ii).
    if (!covariance.allFinite()) return false;
    llt_.compute(covariance);
    if (llt_.info() != Eigen::Success) return false;
    cholesky_ = llt_.matrixL();
    dense_ = covariance.selfadjointView<Eigen::Lower>();
    diagonal_ = dense_.diagonal();
    return true;
}

EuclideanMetric::CovarianceUpdate EuclideanMetric::set_from_covariance(const Eigen::MatrixXd& covariance) {
    if (set_dense(covariance)) return CovarianceUpdate::Full;
    fallback_.setZero();
    fallback_.diagonal() = covariance.diagonal();
    if ((fallback_.diagonal().array() > 0.0).all() && set_dense(fallback_)) return CovarianceUpdate::Diagonal;
    return CovarianceUpdate::Kept;
}

void EuclideanMetric::velocity(const Eigen::VectorXd& p, Eigen::VectorXd& velocity) const {
    assert(p.size() == diagonal_.size() && velocity.size() == p.size());
    if (kind_ == NutsMetric::Diagonal) {
        velocity = diagonal_.cwiseProduct(p);
    } else {
        velocity.noalias() = dense_ * p;
    }
}

double EuclideanMetric::kinetic_energy(const Eigen::VectorXd& p, Eigen::VectorXd& velocity) const {
    this->velocity(p, velocity);
    if (kind_ == NutsMetric::Diagonal) return 0.5 * (p.array().square() * diagonal_.array()).sum();
    return 0.5 * p.dot(velocity);
}

void EuclideanMetric::momentum_from_standard_normal(Eigen::VectorXd& z) const {
    assert(z.size() == diagonal_.size());
    if (kind_ == NutsMetric::Diagonal) {
        for (Eigen::Index i = 0; i < z.size(); ++i) z[i] /= std::sqrt(diagonal_[i]);
    } else {
        cholesky_.transpose().triangularView<Eigen::Upper>().solveInPlace(z);
    }
}

DiagonalMetricEstimator::DiagonalMetricEstimator(int dimension)
    : mean_(Eigen::VectorXd::Zero(dimension)),
      m2_(Eigen::VectorXd::Zero(dimension)),
      delta_(Eigen::VectorXd::Zero(dimension)) {
    assert(dimension >= 1);
}

void DiagonalMetricEstimator::add(const Eigen::VectorXd& draw) {
    assert(draw.size() == mean_.size());
    ++count_;
    delta_ = draw - mean_;
    mean_ += delta_ / static_cast<double>(count_);
    m2_.array() += delta_.array() * (draw - mean_).array();
}

void DiagonalMetricEstimator::restart() {
    count_ = 0;
    mean_.setZero();
    m2_.setZero();
}

void DiagonalMetricEstimator::regularized_variance(Eigen::VectorXd& inverse_metric) const {
    assert(count_ >= 2);
    const double n = static_cast<double>(count_);
    inverse_metric = (n / (n + 5.0)) * (m2_ / (n - 1.0)) + Eigen::VectorXd::Constant(m2_.size(), 1e-3 * 5.0 / (n + 5.0));
}

DenseMetricEstimator::DenseMetricEstimator(int dimension)
    : mean_(Eigen::VectorXd::Zero(dimension)),
      m2_(Eigen::MatrixXd::Zero(dimension, dimension)),
      delta_(Eigen::VectorXd::Zero(dimension)) {
    assert(dimension >= 1);
}

void DenseMetricEstimator::add(const Eigen::VectorXd& draw) {
    assert(draw.size() == mean_.size());
    ++count_;
    const double n = static_cast<double>(count_);
    delta_ = draw - mean_;
    mean_ += delta_ / n;
    // (x − x̄ₙ)(x − x̄ₙ₋₁)ᵀ = (n−1)/n · δδᵀ: symmetric, so only the lower triangle is updated.
    m2_.selfadjointView<Eigen::Lower>().rankUpdate(delta_, (n - 1.0) / n);
}

void DenseMetricEstimator::restart() {
    count_ = 0;
    mean_.setZero();
    m2_.setZero();
}

void DenseMetricEstimator::regularized_covariance(Eigen::MatrixXd& inverse_metric) const {
    assert(count_ >= 2);
    const double n = static_cast<double>(count_);
    inverse_metric = m2_.selfadjointView<Eigen::Lower>();
    inverse_metric *= n / ((n + 5.0) * (n - 1.0));
    inverse_metric.diagonal().array() += 1e-3 * 5.0 / (n + 5.0);
}

}  // namespace sebo
