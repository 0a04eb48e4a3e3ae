#include "experiment/bonsai_pruning.h"

#include <cmath>
#include <limits>

namespace sebo {

GreedyResetOptions bonsai_options(double tolerance) {
    GreedyResetOptions o;
    o.tolerance = tolerance;
    o.min_changed = 1;
    o.continue_past_tolerance = false;
    return o;
}

GreedyResetPath bonsai_prune(const AcquisitionFunction& acquisition, const Eigen::MatrixXd& known,
                             const Eigen::VectorXd& dense, const Eigen::VectorXd& target,
                             const GreedyResetOptions& options, const std::function<bool()>& stop_requested) {
    // Work relative to the dense candidate: log EI can be far below any double's exponent range
    // away from the incumbent, while the ratios that decide the pruning stay representable.
    const double log_dense = acquisition.exact_value(dense);
    if (!std::isfinite(log_dense)) {
        // No usable value at the candidate: keep it as it is.
        GreedyResetPath path;
        path.stop = GreedyResetPath::Stop::NoFeasibleReset;
        GreedyResetStep start;
        start.x = dense;
        start.value = 1.0;
        for (Eigen::Index j = 0; j < dense.size(); ++j) start.changed += dense[j] != target[j] ? 1 : 0;
        path.steps.push_back(start);
        return path;
    }
    const auto value = [&](const Eigen::VectorXd& x) {
        const double v = std::exp(acquisition.exact_value(x) - log_dense);
        return std::isnan(v) ? -std::numeric_limits<double>::infinity() : v;
    };
    double reference = 0.0;  // EI is never negative; no known configuration: measure from 0
    if (known.rows() > 0) {
        const Eigen::VectorXd logs = acquisition.batch_values(known, 1.0);
        reference = std::exp(logs.maxCoeff() - log_dense);
        if (std::isnan(reference)) reference = 0.0;
    }
    return greedy_reset(dense, target, value, reference, options, stop_requested);
}

}  // namespace sebo
