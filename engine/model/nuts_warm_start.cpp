#include "model/nuts_warm_start.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cassert>
#include <cmath>

#include "core/format.h"

namespace sebo {

std::optional<std::string> NutsWarmStart::check(int expected, NutsMetric kind) const {
    const Eigen::Index d = positions.cols();
    if (positions.rows() < 1 || d < 1) return "it has no chain positions";
    if (d != expected)
        return "it has " + std::to_string(d) + " coordinates, the model has " + std::to_string(expected);
    if (!positions.allFinite()) return "a chain position is not finite";
    if (!(step_size > 0.0 && step_size <= 1e7)) return "its step size " + format_number(step_size) + " is not in (0, 1e7]";
    if (metric != kind)
        return std::string("its metric is ") + to_string(metric) + ", this fit uses a " + to_string(kind) + " metric";
    if (!inverse_metric.allFinite()) return "its inverse metric has a value that is not finite";
    if (kind == NutsMetric::Diagonal) {
        if (inverse_metric.rows() != d || inverse_metric.cols() != 1)
            return "its diagonal inverse metric is " + std::to_string(inverse_metric.rows()) + " x " +
                   std::to_string(inverse_metric.cols()) + ", expected " + std::to_string(d) + " x 1";
        if (!(inverse_metric.array() > 0.0).all()) return "its inverse metric has a variance that is not positive";
        return std::nullopt;
    }
    if (inverse_metric.rows() != d || inverse_metric.cols() != d)
        return "its dense inverse metric is " + std::to_string(inverse_metric.rows()) + " x " +
               std::to_string(inverse_metric.cols()) + ", expected " + std::to_string(d) + " x " + std::to_string(d);
    const double scale = inverse_metric.cwiseAbs().maxCoeff();
    if (!((inverse_metric - inverse_metric.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * scale))
        return "its inverse metric is not symmetric";
    if (!(inverse_metric.diagonal().array() > 0.0).all()) return "its inverse metric has a variance that is not positive";
    if (Eigen::LLT<Eigen::MatrixXd>(inverse_metric).info() != Eigen::Success)
        return "its inverse metric is not positive definite";
    return std::nullopt;
}

NutsWarmStart warm_start_from_chains(const std::vector<NutsResult>& chains, NutsMetric kind, int first_iteration,
                                     double dense_min_draws_per_dimension) {
    assert(!chains.empty());
    const Eigen::Index d = chains.front().trace.cols();
    NutsWarmStart warm;
    warm.metric = kind;
    warm.positions.resize(static_cast<Eigen::Index>(chains.size()), d);
    double log_step = 0.0;
    DiagonalMetricEstimator diagonal(static_cast<int>(d));
    DenseMetricEstimator dense(kind == NutsMetric::Dense ? static_cast<int>(d) : 1);
    int draws = 0;
    for (std::size_t c = 0; c < chains.size(); ++c) {
        const Eigen::MatrixXd& trace = chains[c].trace;
        assert(trace.rows() >= 1 && trace.cols() == d);
        warm.positions.row(static_cast<Eigen::Index>(c)) = trace.row(trace.rows() - 1);
        log_step += std::log(chains[c].step_size);
        for (Eigen::Index i = std::min<Eigen::Index>(first_iteration, trace.rows() - 1); i < trace.rows(); ++i) {
            const Eigen::VectorXd x = trace.row(i).transpose();
            if (kind == NutsMetric::Dense) dense.add(x);
            else diagonal.add(x);
            ++draws;
        }
    }
    warm.step_size = std::exp(log_step / static_cast<double>(chains.size()));
    if (draws < 2) {  // nothing to estimate from: the identity
        if (kind == NutsMetric::Dense) warm.inverse_metric = Eigen::MatrixXd::Identity(d, d);
        else warm.inverse_metric = Eigen::MatrixXd::Ones(d, 1);
        return warm;
    }
    if (kind == NutsMetric::Diagonal) {
        Eigen::VectorXd variance;
        diagonal.regularized_variance(variance);
        warm.inverse_metric = variance;
        return warm;
    }
    Eigen::MatrixXd covariance;
    dense.regularized_covariance(covariance);
    const bool enough = draws >= dense_min_draws_per_dimension * static_cast<double>(d);
    if (!enough || Eigen::LLT<Eigen::MatrixXd>(covariance).info() != Eigen::Success) {
        const Eigen::VectorXd variances = covariance.diagonal();
        covariance = variances.asDiagonal();
    }
    warm.inverse_metric = covariance;
    return warm;
}

}  // namespace sebo
