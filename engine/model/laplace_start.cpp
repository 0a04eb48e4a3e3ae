#include "model/laplace_start.h"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "core/format.h"
#include "core/portable_random.h"
#include "core/thread_pool.h"

namespace sebo {

std::optional<std::string> LaplaceStartOptions::validate() const {
    if (auto e = optimizer.validate()) return "laplace.optimizer." + *e;
    if (!(bound > 0.0 && std::isfinite(bound))) return "laplace.bound: " + format_number(bound) + " is not positive";
    if (restarts < 0) return "laplace.restarts: " + std::to_string(restarts) + " is negative";
    if (!(step > 0.0 && step < 1.0)) return "laplace.step: " + format_number(step) + " is not in (0, 1)";
    if (!(curvature_floor > 0.0 && std::isfinite(curvature_floor)))
        return "laplace.curvature_floor: " + format_number(curvature_floor) + " is not positive";
    return std::nullopt;
}

LaplaceStart laplace_start(const LogDensity& log_density, const Eigen::VectorXd& initial, int chains, NutsMetric kind,
                           std::uint64_t seed, const LaplaceStartOptions& options, std::stop_token stop, ThreadPool* pool,
                           const std::function<LogDensity()>& make_copy) {
    LaplaceStart result;
    const Eigen::Index d = initial.size();
    long long evaluations = 0;
    // A stop request ends an optimizer run at once (a non-finite value ends it at its best point).
    const ObjectiveWithGradient objective = [&](const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
        if (stop.stop_requested()) return std::numeric_limits<double>::quiet_NaN();
        ++evaluations;
        return log_density(theta, gradient);
    };
    const Eigen::VectorXd lower = Eigen::VectorXd::Constant(d, -options.bound);
    const Eigen::VectorXd upper = Eigen::VectorXd::Constant(d, options.bound);

    // The mode: a run that stalls (its line search met a cliff of the density) is continued from
    // its best point, which resets the L-BFGS memory.
    Eigen::VectorXd mode = initial.cwiseMax(lower).cwiseMin(upper);
    double best = -std::numeric_limits<double>::infinity();
    FitStatus status = FitStatus::Failed;
    for (int attempt = 0; attempt <= options.restarts; ++attempt) {
        const MultiStartResult run = maximize_multistart(objective, {mode}, lower, upper, options.optimizer, stop);
        if (run.cancelled || stop.stop_requested()) {
            result.message = "cancelled";
            result.evaluations = evaluations;
            return result;
        }
        if (run.best < 0) break;
        const MapOptimizerRun& r = run.runs[static_cast<std::size_t>(run.best)];
        if (r.value > best) {
            best = r.value;
            mode = r.theta;
        }
        status = r.status;
        if (status != FitStatus::Stalled) break;
    }
    if (!std::isfinite(best)) {
        result.message = "the log density is not finite anywhere the optimizer looked";
        result.evaluations = evaluations;
        return result;
    }

    // −∇²log p by central differences of the gradient, symmetrized. The columns are independent:
    // with a pool and copies of the density they are computed side by side (2d gradients, at
    // n = 500 about 0.6 s in turn), column j by task j mod T, so the result does not depend on
    // the threads.
    Eigen::MatrixXd hessian(d, d);
    const int tasks = pool && make_copy ? static_cast<int>(std::min<Eigen::Index>(pool->size(), d)) : 1;
    std::vector<std::string> failures(static_cast<std::size_t>(tasks));
    std::atomic<long long> hessian_evaluations{0};
    const auto columns = [&](int task) {
        const LogDensity copy = tasks > 1 ? make_copy() : LogDensity{};
        const LogDensity& own = tasks > 1 ? copy : log_density;
        Eigen::VectorXd plus(d), minus(d), point = mode;
        for (Eigen::Index j = task; j < d; j += tasks) {
            if (stop.stop_requested()) {
                failures[static_cast<std::size_t>(task)] = "cancelled";
                return;
            }
            point[j] = mode[j] + options.step;
            const double a = own(point, plus);
            point[j] = mode[j] - options.step;
            const double b = own(point, minus);
            point[j] = mode[j];
            hessian_evaluations += 2;
            if (!std::isfinite(a) || !std::isfinite(b) || !plus.allFinite() || !minus.allFinite()) {
                failures[static_cast<std::size_t>(task)] =
                    stop.stop_requested() ? "cancelled" : "the log density is not finite next to its mode";
                return;
            }
            hessian.col(j) = (minus - plus) / (2.0 * options.step);
        }
    };
    if (tasks > 1)
        pool->parallel_for(tasks, columns);
    else
        columns(0);
    evaluations += hessian_evaluations.load();
    for (const std::string& failure : failures)
        if (!failure.empty() || stop.stop_requested()) {
            result.message = stop.stop_requested() ? "cancelled" : failure;
            result.evaluations = evaluations;
            return result;
        }
    const Eigen::MatrixXd curvature = 0.5 * (hessian + hessian.transpose());
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(curvature);
    if (eigen.info() != Eigen::Success) {
        result.message = "the Hessian at the mode has no eigendecomposition";
        result.evaluations = evaluations;
        return result;
    }
    const Eigen::VectorXd variances =
        eigen.eigenvalues().unaryExpr([&](double l) { return 1.0 / std::max(l, options.curvature_floor); });
    Eigen::MatrixXd covariance = eigen.eigenvectors() * variances.asDiagonal() * eigen.eigenvectors().transpose();
    covariance = 0.5 * (covariance + covariance.transpose()).eval();
    // Draws from the approximation: L z with L the covariance's Cholesky factor (scaled columns of
    // the eigenvectors would do as well; the factor is what the metric uses too).
    const Eigen::LLT<Eigen::MatrixXd> factor(covariance);
    if (factor.info() != Eigen::Success) {
        result.message = "the Laplace covariance is not positive definite";
        result.evaluations = evaluations;
        return result;
    }
    const Eigen::MatrixXd l = factor.matrixL();
    PortableRandom random(seed);
    result.state.positions.resize(chains, d);
    Eigen::VectorXd z(d);
    for (int c = 0; c < chains; ++c) {
        for (Eigen::Index i = 0; i < d; ++i) z[i] = random.normal();
        result.state.positions.row(c) = (mode + l * z).cwiseMax(lower).cwiseMin(upper).transpose();
    }
    result.state.step_size = 1.0;
    result.state.metric = kind;
    if (kind == NutsMetric::Dense) result.state.inverse_metric = covariance;
    else result.state.inverse_metric = covariance.diagonal();
    result.mode = mode;
    result.status = status;
    result.ok = true;
    result.message = std::string("mode found (") + to_string(status) + ", log density " + format_number(best) + ")";
    result.evaluations = evaluations;
    return result;
}

}  // namespace sebo
