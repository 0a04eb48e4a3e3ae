#include "model/nuts_metric.h"

#include <cassert>

namespace sebo {

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

}  // namespace sebo
