#include "model/map_optimizer.h"

#include <cassert>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/format.h"
#include "core/lbfgsb.h"

namespace sebo {

const char* to_string(FitStatus status) {
    switch (status) {
        case FitStatus::Converged: return "converged";
        case FitStatus::MaxIterations: return "maximum iterations";
        case FitStatus::Stalled: return "stalled";
        case FitStatus::Failed: return "failed";
        case FitStatus::Cancelled: return "cancelled";
    }
    return "unknown";
}

std::optional<std::string> MapOptimizerOptions::validate() const {
    if (max_iterations < 1) return "max_iterations: " + std::to_string(max_iterations) + " is not positive";
    if (!(gradient_tolerance >= 0.0))
        return "gradient_tolerance: " + format_number(gradient_tolerance) + " is negative";
    if (!(relative_tolerance >= 0.0))
        return "relative_tolerance: " + format_number(relative_tolerance) + " is negative";
    if (memory < 1) return "memory: " + std::to_string(memory) + " is not positive";
    return std::nullopt;
}

namespace {

// Thrown out of the solver when f is not finite, so that the run ends at its best point.
struct NonFiniteValue {};

MapOptimizerRun maximize_from(const ObjectiveWithGradient& f, const Eigen::VectorXd& start,
                              const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                              const MapOptimizerOptions& options) {
    LbfgsbSettings settings;
    settings.m = options.memory;
    settings.epsilon = options.gradient_tolerance;
    settings.epsilon_rel = 0.0;
    settings.past = 1;
    settings.delta = options.relative_tolerance;
    settings.max_iterations = options.max_iterations;

    MapOptimizerRun run;
    run.theta = start.cwiseMax(lower).cwiseMin(upper);
    run.value = -std::numeric_limits<double>::infinity();
    // LBFGSpp minimizes: hand it −f, and remember the best point it evaluates, which is what
    // the run returns whichever way the solver stops.
    auto negated = [&](const Eigen::VectorXd& theta, Eigen::VectorXd& gradient) {
        const double value = f(theta, gradient);
        ++run.evaluations;
        if (!std::isfinite(value) || !gradient.allFinite()) throw NonFiniteValue{};
        if (value > run.value) {
            run.value = value;
            run.theta = theta;
        }
        gradient = -gradient;
        return -value;
    };
    Eigen::VectorXd theta = run.theta;
    try {
        // LBFGSpp's defects worked around (core/lbfgsb.h).
        const LbfgsbOutcome outcome = minimize_lbfgsb(negated, theta, lower, upper, settings);
        run.iterations = outcome.iterations;
        if (outcome.failed) {
            // The line search found no sufficient decrease, which happens when rounding noise
            // dominates close to an optimum.
            run.status = FitStatus::Stalled;
            run.message = outcome.failure;
        } else {
            run.status = outcome.iteration_limit ? FitStatus::MaxIterations : FitStatus::Converged;
        }
    } catch (const NonFiniteValue&) {
        run.status = FitStatus::Stalled;
        run.message = "the objective was not finite at a trial point";
    }
    if (!std::isfinite(run.value)) {
        run.status = FitStatus::Failed;
        if (run.message.empty()) run.message = "the objective was not finite at the start";
    }
    return run;
}

}  // namespace

MultiStartResult maximize_multistart(const ObjectiveWithGradient& f, const std::vector<Eigen::VectorXd>& starts,
                                     const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                                     const MapOptimizerOptions& options, std::stop_token stop) {
    assert(!options.validate());
    assert(lower.size() == upper.size() && (lower.array() <= upper.array()).all());
    MultiStartResult result;
    for (const Eigen::VectorXd& start : starts) {
        assert(start.size() == lower.size());
        if (stop.stop_requested()) {
            result.cancelled = true;
            break;
        }
        result.runs.push_back(maximize_from(f, start, lower, upper, options));
        const MapOptimizerRun& run = result.runs.back();
        if (run.status != FitStatus::Failed &&
            (result.best < 0 || run.value > result.runs[static_cast<std::size_t>(result.best)].value))
            result.best = static_cast<int>(result.runs.size()) - 1;
    }
    return result;
}

}  // namespace sebo
