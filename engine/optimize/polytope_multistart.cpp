#include "optimize/polytope_multistart.h"

#include <cassert>
#include <cmath>
#include <limits>
#include <nlopt.hpp>

#include "space/polytope_projection.h"

namespace sebo {

std::optional<std::string> SlsqpOptions::validate() const {
    if (max_evaluations < 1) return "max_evaluations: " + std::to_string(max_evaluations) + " must be at least 1";
    if (!(relative_x_tolerance >= 0)) return "relative_x_tolerance must not be negative";
    if (!(relative_f_tolerance >= 0)) return "relative_f_tolerance must not be negative";
    return std::nullopt;
}

const char* to_string(PolytopeOptimum::Ending ending) {
    switch (ending) {
    case PolytopeOptimum::Ending::Converged: return "converged";
    case PolytopeOptimum::Ending::EvaluationLimit: return "evaluation limit";
    case PolytopeOptimum::Ending::RoundoffLimited: return "roundoff limited";
    case PolytopeOptimum::Ending::Failed: return "failed";
    case PolytopeOptimum::Ending::Stopped: return "stopped";
    }
    return "?";
}

namespace {

// What the NLopt callbacks see: the objective, P, and the best feasible point evaluated so far.
struct Context {
    const SmoothObjective& f;
    const Polytope& polytope;
    std::stop_token stop;
    nlopt::opt* opt = nullptr;
    Eigen::VectorXd x, grad;  // scratch
    Eigen::VectorXd best_x;
    double best_value = -std::numeric_limits<double>::infinity();
    int evaluations = 0;
};

double objective(unsigned n, const double* x, double* grad, void* data) {
    auto& c = *static_cast<Context*>(data);
    if (c.stop.stop_requested()) {
        c.opt->force_stop();
        return 0.0;
    }
    c.x = Eigen::Map<const Eigen::VectorXd>(x, n);
    c.grad.setZero(n);
    const double value = c.f(c.x, &c.grad);
    ++c.evaluations;
    if (!std::isfinite(value) || !c.grad.allFinite()) {
        // SLSQP cannot step on from a non-finite value or gradient: end at the best point seen.
        c.opt->force_stop();
        return 0.0;
    }
    if (value > c.best_value && c.polytope.contains(c.x)) {
        c.best_value = value;
        c.best_x = c.x;
    }
    if (grad) Eigen::Map<Eigen::VectorXd>(grad, n) = c.grad;
    return value;
}

// m rows r·x − b (<= 0 or = 0) with gradients r; NLopt wants gradients row-major, m × n.
struct Rows {
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> matrix;
    Eigen::VectorXd bound;
};

void linear_rows(unsigned m, double* result, unsigned n, const double* x, double* grad, void* data) {
    const auto& rows = *static_cast<const Rows*>(data);
    const Eigen::Map<const Eigen::VectorXd> u(x, n);
    Eigen::Map<Eigen::VectorXd>(result, m) = rows.matrix * u - rows.bound;
    if (grad) std::copy(rows.matrix.data(), rows.matrix.data() + static_cast<std::size_t>(m) * n, grad);
}

PolytopeOptimum::Ending ending_of(nlopt::result code) {
    switch (code) {
    case nlopt::MAXEVAL_REACHED:
    case nlopt::MAXTIME_REACHED: return PolytopeOptimum::Ending::EvaluationLimit;
    case nlopt::SUCCESS:
    case nlopt::STOPVAL_REACHED:
    case nlopt::FTOL_REACHED:
    case nlopt::XTOL_REACHED: return PolytopeOptimum::Ending::Converged;
    case nlopt::ROUNDOFF_LIMITED: return PolytopeOptimum::Ending::RoundoffLimited;
    case nlopt::FORCED_STOP: return PolytopeOptimum::Ending::Stopped;
    default: return PolytopeOptimum::Ending::Failed;
    }
}

}  // namespace

std::vector<PolytopeOptimum> maximize_in_polytope(const SmoothObjective& f, const std::vector<Eigen::VectorXd>& starts,
                                                  const Polytope& polytope, const SlsqpOptions& options, std::stop_token stop) {
    assert(!options.validate());
    const int d = polytope.dimension();
    const Rows inequalities{polytope.inequality_matrix(), polytope.inequality_bound()};
    const Rows equalities{polytope.equality_matrix(), polytope.equality_bound()};
    const std::vector<double> zero(static_cast<std::size_t>(d), 0.0), one(static_cast<std::size_t>(d), 1.0);

    std::vector<PolytopeOptimum> optima;
    optima.reserve(starts.size());
    for (const Eigen::VectorXd& start : starts) {
        if (stop.stop_requested()) break;
        assert(start.size() == d);
        const PolytopeProjection inside = project_onto_polytope(polytope, start.cwiseMax(0.0).cwiseMin(1.0));
        if (inside.status != PolytopeProjection::Status::Ok) continue;

        nlopt::opt opt(nlopt::LD_SLSQP, static_cast<unsigned>(d));
        Context context{f, polytope, stop, &opt, {}, {}, inside.x, -std::numeric_limits<double>::infinity(), 0};
        opt.set_lower_bounds(zero);
        opt.set_upper_bounds(one);
        opt.set_max_objective(objective, &context);
        // The Rows outlive optimize(); NLopt keeps only the pointers.
        if (inequalities.matrix.rows() > 0)
            opt.add_inequality_mconstraint(linear_rows, const_cast<Rows*>(&inequalities),
                                           std::vector<double>(static_cast<std::size_t>(inequalities.matrix.rows()), 0.0));
        if (equalities.matrix.rows() > 0)
            opt.add_equality_mconstraint(linear_rows, const_cast<Rows*>(&equalities),
                                         std::vector<double>(static_cast<std::size_t>(equalities.matrix.rows()), 0.0));
        opt.set_maxeval(options.max_evaluations);
        opt.set_xtol_rel(options.relative_x_tolerance);
        opt.set_ftol_rel(options.relative_f_tolerance);

        std::vector<double> x(inside.x.data(), inside.x.data() + d);
        double value = 0.0;
        PolytopeOptimum optimum;
        try {
            optimum.ending = ending_of(opt.optimize(x, value));
        } catch (const nlopt::roundoff_limited&) {
            optimum.ending = PolytopeOptimum::Ending::RoundoffLimited;
        } catch (const nlopt::forced_stop&) {
            optimum.ending = PolytopeOptimum::Ending::Stopped;
        } catch (const std::invalid_argument&) {
            assert(!"NLopt refused its arguments");  // a programming error: sizes, bounds
            optimum.ending = PolytopeOptimum::Ending::Failed;
        } catch (const std::runtime_error&) {
            optimum.ending = PolytopeOptimum::Ending::Failed;
        }

        const bool trusted = optimum.ending == PolytopeOptimum::Ending::Converged ||
                             optimum.ending == PolytopeOptimum::Ending::EvaluationLimit;
        if (trusted) {
            Eigen::VectorXd candidate = Eigen::Map<const Eigen::VectorXd>(x.data(), d);
            if (!polytope.contains(candidate)) {
                const PolytopeProjection back = project_onto_polytope(polytope, candidate.cwiseMax(0.0).cwiseMin(1.0));
                if (back.status == PolytopeProjection::Status::Ok) {
                    candidate = back.x;
                    optimum.projected = true;
                    Eigen::VectorXd g(d);
                    value = f(candidate, &g);
                    ++context.evaluations;
                } else {
                    value = -std::numeric_limits<double>::infinity();
                }
            }
            if (std::isfinite(value) && value > context.best_value && polytope.contains(candidate)) {
                context.best_value = value;
                context.best_x = candidate;
            }
        }
        if (!std::isfinite(context.best_value)) {
            // Nothing feasible with a finite value was seen: the (projected) start, as it is.
            Eigen::VectorXd g(d);
            context.best_value = f(context.best_x, &g);
            ++context.evaluations;
        }
        optimum.x = context.best_x;
        optimum.value = context.best_value;
        optimum.evaluations = context.evaluations;
        optima.push_back(std::move(optimum));
    }
    return optima;
}

}  // namespace sebo
