#include "optimize/greedy_reset.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "core/format.h"
#include "space/polytope.h"
#include "space/polytope_projection.h"

namespace sebo {

namespace {

int changed_count(const Eigen::VectorXd& x, const Eigen::VectorXd& target) {
    int n = 0;
    for (Eigen::Index j = 0; j < x.size(); ++j) n += x[j] != target[j] ? 1 : 0;
    return n;
}

// x with column j on its target, repaired onto the constraints with every on-target column
// pinned; unset when no feasible point has them pinned.
std::optional<Eigen::VectorXd> reset_column(const Eigen::VectorXd& x, const Eigen::VectorXd& target, Eigen::Index j,
                                            const Polytope* constraints) {
    Eigen::VectorXd y = x;
    y[j] = target[j];
    if (!constraints || constraints->contains(y)) return y;
    std::vector<bool> pinned(static_cast<std::size_t>(y.size()));
    for (Eigen::Index i = 0; i < y.size(); ++i) pinned[static_cast<std::size_t>(i)] = y[i] == target[i];
    const PolytopeProjection p = project_onto_polytope(*constraints, y, pinned);
    if (p.status != PolytopeProjection::Status::Ok) return std::nullopt;
    return p.x;
}

}  // namespace

std::optional<std::string> GreedyResetOptions::validate() const {
    if (!(tolerance > 0.0 && tolerance <= 1.0)) return "tolerance: " + format_number(tolerance) + " is not in (0, 1]";
    if (min_changed < 0) return "min_changed: " + std::to_string(min_changed) + " is negative";
    return std::nullopt;
}

double relative_drop(double start_value, double value, double reference) {
    const double scale = start_value - reference;
    if (!(scale > 0.0)) return value >= start_value ? 0.0 : std::numeric_limits<double>::infinity();
    return (start_value - value) / scale;
}

const GreedyResetStep& GreedyResetPath::accepted() const {
    assert(!steps.empty());
    for (auto it = steps.rbegin(); it != steps.rend(); ++it)
        if (it->within_tolerance) return *it;
    return steps.front();
}

GreedyResetPath greedy_reset(const Eigen::VectorXd& start, const Eigen::VectorXd& target, const GreedyValue& value,
                             double reference, const GreedyResetOptions& options,
                             const std::function<bool()>& stop_requested) {
    assert(start.size() == target.size());
    assert(!options.validate());
    GreedyResetPath path;
    GreedyResetStep first;
    first.x = start;
    first.value = value(start);
    first.changed = changed_count(start, target);
    path.steps.push_back(first);
    const double start_value = first.value;
    while (true) {
        const GreedyResetStep& current = path.steps.back();
        if (current.changed <= options.min_changed) {
            path.stop = GreedyResetPath::Stop::Floor;
            return path;
        }
        if (stop_requested && stop_requested()) {
            path.stop = GreedyResetPath::Stop::Cancelled;
            return path;
        }
        GreedyResetStep best;
        bool found = false;
        for (Eigen::Index j = 0; j < start.size(); ++j) {
            if (current.x[j] == target[j]) continue;
            const std::optional<Eigen::VectorXd> y = reset_column(current.x, target, j, options.constraints);
            if (!y) {
                best.skipped.push_back(static_cast<int>(j));
                continue;
            }
            const double v = value(*y);
            // Strictly larger: ties keep the lowest column. NaN values never win.
            if (!found || v > best.value) {
                best.x = *y;
                best.reset = static_cast<int>(j);
                best.value = v;
                found = true;
            }
        }
        if (!found || !std::isfinite(best.value)) {
            path.stop = GreedyResetPath::Stop::NoFeasibleReset;
            return path;
        }
        best.drop = relative_drop(start_value, best.value, reference);
        best.within_tolerance = best.drop <= options.tolerance;
        best.changed = changed_count(best.x, target);
        if (!best.within_tolerance && !options.continue_past_tolerance) {
            path.stop = GreedyResetPath::Stop::Tolerance;
            return path;
        }
        path.steps.push_back(std::move(best));
    }
}

}  // namespace sebo
