#include "optimize/multistart.h"

#include <LBFGSB.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "core/thread_pool.h"

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
    // The value of a solver run's first point (−∞ when not finite), recorded when armed.
    double run_start_value = -std::numeric_limits<double>::infinity();
    bool record_run_start = true;

    double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& grad) {
        ++evaluations;
        double v = f(x, &grad);
        grad = -grad;
        if (record_run_start) {
            run_start_value = std::isfinite(v) ? v : -std::numeric_limits<double>::infinity();
            record_run_start = false;
        }
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

// LBFGSpp 0.1.0's Moré–Thuente line search throws when its trials run out before a step meets
// the strong Wolfe conditions, even when one of them decreased the value enough (Armijo); from
// 0.3.0 the library takes such a step. This does the same around it: the trial with the lowest
// value, when it decreased the value sufficiently, becomes the step (the solver then skips a
// curvature pair that would not keep its matrix positive definite).
template <typename Scalar>
class SufficientDecreaseLineSearch {
    using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

public:
    template <typename Foo>
    static void LineSearch(Foo& f, Scalar& fx, Vector& x, Vector& grad, Scalar& step, const Scalar& step_max,
                           const Vector& drt, const Vector& xp, const LBFGSpp::LBFGSBParam<Scalar>& param) {
        const Scalar fx_init = fx, dg_init = grad.dot(drt);
        Scalar best_f = std::numeric_limits<Scalar>::infinity(), best_step = 0;
        Vector best_x, best_grad;
        auto tracked = [&](const Vector& at, Vector& g) {
            const Scalar v = f(at, g);
            if (v < best_f) {
                best_f = v;
                best_x = at;
                best_grad = g;
                best_step = (at - xp).norm() / drt.norm();
            }
            return v;
        };
        try {
            LBFGSpp::LineSearchMoreThuente<Scalar>::LineSearch(tracked, fx, x, grad, step, step_max, drt, xp, param);
        } catch (const std::runtime_error&) {
            if (!(best_step > 0 && best_f <= fx_init + param.ftol * best_step * dg_init)) throw;
            x = best_x;
            fx = best_f;
            grad = best_grad;
            step = best_step;
        }
    }
};

}  // namespace

std::vector<LocalOptimum> maximize_in_unit_box(const SmoothObjective& f, const std::vector<Eigen::VectorXd>& starts,
                                               const LbfgsbOptions& options, std::stop_token stop, ThreadPool* pool) {
    LBFGSpp::LBFGSBParam<double> param;
    param.m = options.memory;
    param.max_iterations = options.max_iterations;
    param.epsilon = options.gradient_tolerance;
    param.epsilon_rel = options.gradient_tolerance;
    param.past = 1;
    param.delta = options.relative_improvement;
    param.max_linesearch = 30;

    std::vector<std::optional<LocalOptimum>> results(starts.size());
    const auto optimize = [&](int k) {
        if (stop.stop_requested()) return;
        const Eigen::VectorXd& start = starts[static_cast<std::size_t>(k)];
        const Eigen::Index d = start.size();
        const Eigen::VectorXd lower = Eigen::VectorXd::Zero(d), upper = Eigen::VectorXd::Ones(d);
        Eigen::VectorXd x = start.cwiseMax(0.0).cwiseMin(1.0);
        NegatedObjective objective{f, x, -std::numeric_limits<double>::infinity(), options.tail_compression, {}, 0};
        LocalOptimum optimum;
        double fx = 0.0;
        // LBFGSpp 0.1.0 (Debian 12's) can take a subspace minimization's point as the next
        // direction when it does not descend; its line search then throws (LBFGSpp issue #15,
        // fixed in 0.2.0 by taking the Cauchy direction instead, with the memory cleared). This
        // is what happens here: a run that throws it after making progress is continued from its
        // best point by a fresh solver, whose first direction is the Cauchy point's (at most
        // kLineSearchRestarts times). The line search's other failures — no trial that decreases
        // the value enough (SufficientDecreaseLineSearch takes one when there is) — end the run:
        // restarting after them as well made a recorded step's candidate worse
        // (docs/performance.md, "The local searches' failures").
        for (int attempt = 0;; ++attempt) {
            objective.record_run_start = true;
            try {
                LBFGSpp::LBFGSBSolver<double, SufficientDecreaseLineSearch> solver(param);
                const int iterations = solver.minimize(objective, x, fx, lower, upper);
                optimum.iterations += iterations;
                optimum.iteration_limit = iterations >= options.max_iterations;
                optimum.line_search_failed = false;
                break;
            } catch (const std::exception& e) {
                optimum.line_search_failed = true;
                if (std::string_view(e.what()).find("does not decrease") == std::string_view::npos) break;
            }
            const double from = objective.run_start_value;
            const bool progressed = std::isfinite(objective.best_value) &&
                                    (!std::isfinite(from) || objective.best_value > from + options.relative_improvement *
                                                                                           std::max(1.0, std::abs(from)));
            if (attempt >= kLineSearchRestarts || !progressed || stop.stop_requested()) break;
            x = objective.best_x;
            ++optimum.restarts;
        }
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
