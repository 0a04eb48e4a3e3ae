#include "core/lbfgsb.h"

#include <LBFGSB.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace sebo {

namespace {

// LBFGSpp's Moré–Thuente line search, taking its best trial when its trials run out and that
// trial decreased the value enough (defect 2 of the header).
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

LbfgsbOutcome minimize_lbfgsb(const std::function<double(const Eigen::VectorXd&, Eigen::VectorXd&)>& f,
                              Eigen::VectorXd& x, const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                              const LbfgsbSettings& settings, std::stop_token stop) {
    LBFGSpp::LBFGSBParam<double> param;
    param.m = settings.m;
    param.max_iterations = settings.max_iterations;
    param.epsilon = settings.epsilon;
    param.epsilon_rel = settings.epsilon_rel;
    param.past = settings.past;
    param.delta = settings.delta;
    param.max_linesearch = settings.max_linesearch;

    // The best (lowest) value evaluated and its point, and the value of each run's first point.
    double best = std::numeric_limits<double>::infinity(), run_start = best;
    Eigen::VectorXd best_x = x;
    bool first_of_run = true;
    auto tracked = [&](const Eigen::VectorXd& at, Eigen::VectorXd& gradient) {
        const double v = f(at, gradient);
        if (first_of_run) {
            run_start = v;
            first_of_run = false;
        }
        if (v < best) {
            best = v;
            best_x = at;
        }
        return v;
    };

    LbfgsbOutcome outcome;
    for (int attempt = 0;; ++attempt) {
        first_of_run = true;
        try {
            LBFGSpp::LBFGSBSolver<double, SufficientDecreaseLineSearch> solver(param);
            double fx = 0.0;
            const int iterations = solver.minimize(tracked, x, fx, lower, upper);
            outcome.iterations += iterations;
            outcome.iteration_limit = iterations >= settings.max_iterations;
            outcome.failed = false;
            outcome.failure.clear();
            return outcome;
        } catch (const std::exception& e) {
            outcome.failed = true;
            outcome.failure = e.what();
            if (std::string_view(e.what()).find("does not decrease") == std::string_view::npos) return outcome;
        }
        // Progress: the run's best is below its first value by more than the relative tolerance
        // (a point where even the Cauchy direction fails is as good as this gets).
        const bool progressed = best < run_start - settings.delta * std::max(1.0, std::abs(run_start));
        if (attempt >= settings.max_restarts || !progressed || stop.stop_requested()) return outcome;
        x = best_x;
        ++outcome.restarts;
    }
}

}  // namespace sebo
