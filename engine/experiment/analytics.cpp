#include "experiment/analytics.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>

#include "core/robust_spread.h"
#include "experiment/replicates.h"
#include "pareto/sparse_hypervolume.h"
#include "pareto/sparsity_fronts.h"

namespace sebo {

namespace {

ObjectivePoint objective_point(const Experiment& experiment, const Trial& trial, int id) {
    ObjectivePoint p;
    for (std::size_t d = 0; d < experiment.outcomes.objectives.size(); ++d) p.utilities.push_back(*experiment.utility(trial, d));
    p.sparsity = experiment.sparsity(trial);
    p.id = id;
    return p;
}

// The trials that count in the analysis (completed, not excluded, feasible) with every
// objective's utility; the id is the trial's position in experiment.trials so that results can be
// mapped back without a search. Replicates (experiment/replicates.h) are one point: the first
// trial of the configuration with the merged measurements, feasible by them; `upto` (a position)
// leaves the trials after it out.
std::vector<ObjectivePoint> analysed_objective_points(const Experiment& experiment, bool merge,
                                                      std::size_t upto = std::numeric_limits<std::size_t>::max()) {
    std::vector<ObjectivePoint> points;
    points.reserve(experiment.trials.size());
    if (!merge) {
        for (std::size_t i = 0; i < experiment.trials.size() && i <= upto; ++i)
            if (experiment.feasible(experiment.trials[i])) points.push_back(objective_point(experiment, experiment.trials[i], static_cast<int>(i)));
        return points;
    }
    std::map<std::vector<double>, std::vector<int>> groups;  // configuration → trial indices
    std::vector<std::pair<std::size_t, const std::vector<int>*>> order;  // first position, its group
    for (std::size_t i = 0; i < experiment.trials.size() && i <= upto; ++i) {
        const Trial& trial = experiment.trials[i];
        if (!experiment.analyzed(trial)) continue;
        auto [it, added] = groups.try_emplace(trial.parameters);
        it->second.push_back(trial.index);
        if (added) order.emplace_back(i, &it->second);
    }
    for (const auto& [position, trials] : order) {
        const Trial merged = merged_trial(experiment, *trials);
        if (experiment.feasible(merged)) points.push_back(objective_point(experiment, merged, static_cast<int>(position)));
    }
    return points;
}

// The same points with their one objective, for the single-objective analysis.
std::vector<ScoredPoint> scored_points(const std::vector<ObjectivePoint>& points) {
    std::vector<ScoredPoint> scored;
    scored.reserve(points.size());
    for (const ObjectivePoint& p : points) scored.push_back({p.utilities.front(), p.sparsity, p.id});
    return scored;
}

}  // namespace

// The reference utility of objective `objective` (rule in analytics.h).
double reference_utility(const Experiment& experiment, std::size_t objective) {
    const Objective& o = experiment.outcomes.objectives[objective];
    if (o.threshold) return o.to_utility(*o.threshold);
    std::vector<double> utilities;
    for (const Trial& trial : experiment.trials)
        if (experiment.feasible(trial)) utilities.push_back(*experiment.utility(trial, objective));
    if (utilities.empty()) return 0.0;
    // The bulk: the values within the far-out fences (all of them when there is no robust
    // spread), so that one absurd value cannot drag the reference (core/robust_spread.h).
    const auto spread = robust_spread(utilities);
    double worst = std::numeric_limits<double>::infinity(), best = -worst;
    for (double u : utilities) {
        if (spread && !spread->within_fences(u)) continue;
        worst = std::min(worst, u);
        best = std::max(best, u);
    }
    // Slightly below the worst of the bulk (like the nadir-minus-10% rule of the reference
    // implementation, SPEC §9), so every analysed trial of the bulk with fewer than D active
    // parameters adds some volume. 0.1·best − 0.1·worst cannot overflow where best − worst can.
    const double margin = best > worst ? 0.1 * best - 0.1 * worst : std::max(1.0, 0.1 * std::abs(worst));
    return std::max(worst - margin, std::numeric_limits<double>::lowest());
}

std::vector<double> reference_utilities(const Experiment& experiment) {
    std::vector<double> references;
    for (std::size_t i = 0; i < experiment.outcomes.objectives.size(); ++i)
        references.push_back(reference_utility(experiment, i));
    return references;
}

FrontierReport analyze_frontier(const Experiment& experiment) {
    FrontierReport report;
    report.reference_utilities = reference_utilities(experiment);
    const double reference = report.reference_utilities.front();
    // The sparsity range of interest (MethodSettings::max_active / min_active): more than M
    // changes add nothing (reference M + 1), fewer than N count as N.
    report.reference_sparsity = experiment.method.max_active ? *experiment.method.max_active + 1 : experiment.max_sparsity();
    const int floor = experiment.method.min_active.value_or(0);

    const bool merge = has_replicates(experiment);
    const std::vector<ObjectivePoint> objective_points = analysed_objective_points(experiment, merge);
    report.feasible_trials = static_cast<int>(objective_points.size());
    auto trial_at = [&](int position) -> const Trial& {
        return experiment.trials[static_cast<std::size_t>(position)];
    };

    // The trace over the analysed trials is spread over all trials: a trial without a result, or
    // excluded from analysis, repeats the value before it (0 before the first analysed trial).
    std::vector<int> pareto;
    std::vector<double> analysed_trace;
    if (experiment.outcomes.objectives.size() == 1) {
        const std::vector<ScoredPoint> points = scored_points(objective_points);
        pareto = non_dominated(points);
        for (const FrontierLevel& level : step_frontier(points, experiment.max_sparsity())) {
            FrontierReport::Level out;
            out.k = level.k;
            if (level.best_utility) out.best_objective = experiment.from_utility(*level.best_utility);
            if (level.id) {
                out.trial = trial_at(*level.id).index;
                out.front = {*out.trial};
            }
            report.levels.push_back(out);
        }
        std::vector<ScoredPoint> measured = points;
        for (ScoredPoint& p : measured) p.sparsity = std::max(p.sparsity, floor);
        report.hypervolume = hypervolume(measured, reference, report.reference_sparsity);
        analysed_trace = hypervolume_trace(measured, reference, report.reference_sparsity);
    } else {
        // Several objectives (pareto/sparsity_fronts.h, pareto/sparse_hypervolume.h): per k the
        // non-dominated set in the objectives, and the hypervolume of (u_1..u_m, -sparsity).
        pareto = non_dominated(objective_points);
        for (const SparsityFront& level : fronts_by_sparsity(objective_points, experiment.max_sparsity())) {
            FrontierReport::Level out;
            out.k = level.k;
            for (int position : level.ids) out.front.push_back(trial_at(position).index);
            if (!level.ids.empty()) {
                out.trial = out.front.front();
                // The first objective's value of that point: the merged one of replicates.
                const auto point = std::find_if(objective_points.begin(), objective_points.end(),
                                                [&](const ObjectivePoint& p) { return p.id == level.ids.front(); });
                out.best_objective = experiment.from_utility(point->utilities.front());
            }
            report.levels.push_back(out);
        }
        std::vector<ObjectivePoint> measured = objective_points;
        for (ObjectivePoint& p : measured) p.sparsity = std::max(p.sparsity, floor);
        const SparseHypervolumeReference sparse_reference{report.reference_utilities, report.reference_sparsity};
        report.hypervolume = hypervolume(measured, sparse_reference);
        analysed_trace = hypervolume_trace(measured, sparse_reference);
    }
    report.pareto_trials.reserve(pareto.size());
    for (int position : pareto) report.pareto_trials.push_back(trial_at(position).index);

    report.hypervolume_trace.reserve(experiment.trials.size());
    if (merge) {
        // A replicate changes its configuration's merged value, which may lower the volume: each
        // analysed trial's value is the volume of the merged points up to it, recomputed.
        double current = 0.0;
        for (std::size_t i = 0; i < experiment.trials.size(); ++i) {
            if (experiment.analyzed(experiment.trials[i])) {
                std::vector<ObjectivePoint> prefix = analysed_objective_points(experiment, true, i);
                for (ObjectivePoint& p : prefix) p.sparsity = std::max(p.sparsity, floor);
                if (experiment.outcomes.objectives.size() == 1)
                    current = hypervolume(scored_points(prefix), reference, report.reference_sparsity);
                else
                    current = hypervolume(prefix, SparseHypervolumeReference{report.reference_utilities, report.reference_sparsity});
            }
            report.hypervolume_trace.push_back(current);
        }
    } else {
        std::size_t next = 0;
        double current = 0.0;
        for (std::size_t i = 0; i < experiment.trials.size(); ++i) {
            if (next < objective_points.size() && objective_points[next].id == static_cast<int>(i))
                current = analysed_trace[next++];
            report.hypervolume_trace.push_back(current);
        }
    }

    const int dimension = experiment.space.dimension();
    report.activation_frequency.assign(static_cast<std::size_t>(dimension), 0.0);
    if (!pareto.empty()) {
        for (int position : pareto) {
            const std::vector<bool> mask = experiment.space.active_mask(trial_at(position).parameters);
            for (std::size_t j = 0; j < mask.size(); ++j)
                if (mask[j]) report.activation_frequency[j] += 1.0;
        }
        for (double& f : report.activation_frequency) f /= static_cast<double>(pareto.size());
    }
    return report;
}

std::optional<double> simple_regret(const Experiment& experiment, int max_active, double optimum_objective) {
    std::optional<double> best;
    for (const Trial& trial : experiment.trials) {
        const auto u = experiment.utility(trial);
        if (!u || !experiment.feasible(trial) || experiment.space.active_count(trial.parameters) > max_active) continue;
        best = best ? std::max(*best, *u) : *u;
    }
    if (!best) return std::nullopt;
    return experiment.to_utility(optimum_objective) - *best;
}

}  // namespace sebo
