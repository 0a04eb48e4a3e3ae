#include "optimize/multistart.h"

#include <cmath>
#include <limits>
#include <optional>

#include "core/thread_pool.h"
#include "core/lbfgsb.h"

namespace sebo {

std::optional<std::string> LbfgsbOptions::validate() const {
    if (max_iterations < 1) return "max_iterations: " + std::to_string(max_iterations) + " must be at least 1";
    if (!(gradient_tolerance > 0)) return "gradient_tolerance must be positive";
    if (!(relative_improvement >= 0)) return "relative_improvement must not be negative";
    if (memory < 1) return "memory: " + std::to_string(memory) + " must be at least 1";
    if (!(tail_compression >= 0) || !std::isfinite(tail_compression))
        return "tail_compression: " + std::to_string(tail_compression) + " must be a finite number >= 0";
    return std::nullopt;
}

namespace {

// LBFGSpp minimizes; remember the best point evaluated so that a failed line search still
// returns the progress made. With `compression` > 0, the solver sees values far below the first
// one compressed (LbfgsbOptions::tail_compression); the best point and value stay the raw ones.
struct NegatedObjective {
    const SmoothObjective& f;
    Eigen::VectorXd best_x;
    double best_value = -std::numeric_limits<double>::infinity();
    double compression = 0.0;
    std::optional<double> knee;  // the first finite value − compression
    int evaluations = 0;

    double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
        ++evaluations;
        double v = f(x, &grad);
        grad = -grad;
        if (!std::isfinite(v)) {
            grad.setZero();
            return std::numeric_limits<double>::max() / 4;
        }
        if (v > best_value) {
            best_value = v;
            best_x = x;
        }
        if (compression > 0.0) {
            if (!knee) knee = v - compression;
            if (v < *knee) {
                const double r = (*knee - v) / compression;
                grad /= 1.0 + r;
                v = *knee - compression * std::log1p(r);
            }
        }
        return -v;
    }
};

}  // namespace

std::vector<LocalOptimum> maximize_in_unit_box(const SmoothObjective& f, const std::vector<Eigen::VectorXd>& starts,
                                               const LbfgsbOptions& options, std::stop_token stop, ThreadPool* pool) {
    LbfgsbSettings settings;
    settings.m = options.memory;
    settings.max_iterations = options.max_iterations;
    settings.epsilon = options.gradient_tolerance;
    settings.epsilon_rel = options.gradient_tolerance;
    settings.past = 1;
    settings.delta = options.relative_improvement;
    settings.max_linesearch = 30;

    std::vector<std::optional<LocalOptimum>> results(starts.size());
    const auto optimize = [&](int k) {
        if (stop.stop_requested()) return;
        const Eigen::VectorXd& start = starts[static_cast<std::size_t>(k)];
        const Eigen::Index d = start.size();
        const Eigen::VectorXd lower = Eigen::VectorXd::Zero(d), upper = Eigen::VectorXd::Ones(d);
        Eigen::VectorXd x = start.cwiseMax(0.0).cwiseMin(1.0);
        NegatedObjective objective{f, x, -std::numeric_limits<double>::infinity(), options.tail_compression, {}, 0};
        LocalOptimum optimum;
        // LBFGSpp's defects worked around (core/lbfgsb.h); a run that still fails keeps the
        // best point it evaluated.
        const LbfgsbOutcome run = minimize_lbfgsb(
            [&objective](const Eigen::VectorXd& at, Eigen::VectorXd& g) { return objective(at, g); }, x, lower, upper,
            settings, stop);
        optimum.iterations = run.iterations;
        optimum.iteration_limit = !run.failed && run.iteration_limit;
        optimum.line_search_failed = run.failed;
        optimum.restarts = run.restarts;
        if (!std::isfinite(objective.best_value)) {
            Eigen::VectorXd g(d);
            objective.best_value = f(x, &g);
            objective.best_x = x;
            ++objective.evaluations;
        }
        optimum.evaluations = objective.evaluations;
        optimum.x = objective.best_x.cwiseMax(0.0).cwiseMin(1.0);
        optimum.value = objective.best_value;
        results[static_cast<std::size_t>(k)] = std::move(optimum);
    };
    const int count = static_cast<int>(starts.size());
    if (pool) {
        pool->parallel_for(count, optimize, stop);
    } else {
        for (int k = 0; k < count; ++k) optimize(k);
    }
    std::vector<LocalOptimum> optima;
    optima.reserve(starts.size());
    for (auto& r : results)
        if (r) optima.push_back(std::move(*r));
    return optima;
}

}  // namespace sebo
