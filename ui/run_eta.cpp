#include "run_eta.h"

#include <algorithm>
#include <numeric>

namespace sebo::ui {

std::optional<double> remaining_run_seconds(const std::vector<double>& finished, double current_elapsed,
                                            int steps_left, std::optional<double> prior_step_seconds) {
    if (steps_left <= 0) return 0.0;
    std::optional<double> per_step = prior_step_seconds;
    if (!finished.empty()) {
        const std::size_t n = std::min<std::size_t>(finished.size(), kEtaRecentSteps);
        per_step = std::accumulate(finished.end() - static_cast<std::ptrdiff_t>(n), finished.end(), 0.0) /
                   static_cast<double>(n);
    }
    if (!per_step) return std::nullopt;
    // The running step is expected to take one step's time; once it has taken longer, it is
    // expected to end any moment (never a negative remainder).
    return std::max(0.0, *per_step - current_elapsed) + *per_step * (steps_left - 1);
}

std::optional<double> recent_trial_seconds(const Experiment& experiment) {
    const auto& trials = experiment.trials;
    const bool past_design = static_cast<int>(trials.size()) >= experiment.method.initial_trials;
    double sum = 0.0;
    int count = 0;
    for (std::size_t i = trials.size(); i-- > 0 && count < kEtaRecentSteps;) {
        if (past_design && static_cast<int>(i) < experiment.method.initial_trials) break;
        const Trial& t = trials[i];
        if (t.status == TrialStatus::Pending) continue;
        sum += t.generation_seconds + t.evaluation_seconds;
        ++count;
    }
    if (count == 0) return std::nullopt;
    return sum / count;
}

}  // namespace sebo::ui
