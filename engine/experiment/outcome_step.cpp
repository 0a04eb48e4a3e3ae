#include "experiment/outcome_step.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "acquisition/outcome_acquisition.h"
#include "core/thread_pool.h"
#include "pareto/dominance.h"

namespace sebo {

namespace {

Eigen::VectorXd to_unit_vector(const SearchSpace& space, const std::vector<double>& values) {
    const auto unit = space.to_unit(values);
    return Eigen::Map<const Eigen::VectorXd>(unit.data(), static_cast<Eigen::Index>(unit.size()));
}

bool is_sebo(StrategyKind kind) {
    switch (kind) {
    case StrategyKind::SeboL0:
    case StrategyKind::SeboL1:
    case StrategyKind::SeboGl:
    case StrategyKind::SeboL0FixedA: return true;
    default: return false;
    }
}

}  // namespace

std::optional<MetricTraining> make_metric_training(const Experiment& experiment, bool warp, int minimum, std::string* why) {
    MetricTraining out;
    out.metrics = experiment.outcomes.modelled_metrics();
    for (const std::string& metric : out.metrics) {
        std::optional<TrainingSet> set = make_metric_training_set(experiment, metric, warp);
        const int n = set ? set->data->num_points() : 0;
        if (n < minimum) {
            if (why)
                *why = "metric '" + metric + "' has " + std::to_string(n) + " value" + (n == 1 ? "" : "s") +
                       " in the analysis; its model needs at least " + std::to_string(minimum);
            return std::nullopt;
        }
        out.sets.push_back(std::move(*set));
    }
    return out;
}

std::vector<SurrogateFit> fit_metric_models(const std::vector<TrainingSet>& sets, const SurrogateOptions& options,
                                            std::uint64_t seed, const StepControl& control,
                                            const std::vector<const NutsWarmStart*>& warm,
                                            const std::function<void(int, int)>& progress) {
    std::vector<SurrogateFit> fits(sets.size());
    const auto warm_of = [&warm](std::size_t k) { return k < warm.size() ? warm[k] : nullptr; };
    if (sets.size() == 1) {
        fits[0] = fit_surrogate(sets[0].data, options, seed, progress, control.stop, control.pool, warm_of(0));
        return fits;
    }
    // Progress is reported on the calling thread only (StepControl): the workers' fits are silent.
    const auto fit_one = [&](int j) {
        const auto k = static_cast<std::size_t>(j);
        fits[k] = fit_surrogate(sets[k].data, options, seed + 0x9E3779B97F4A7C15ull * k, {}, control.stop, control.pool,
                                warm_of(k));
    };
    if (control.pool)
        control.pool->parallel_for(static_cast<int>(sets.size()), fit_one, control.stop);
    else
        for (int j = 0; j < static_cast<int>(sets.size()) && !control.cancelled(); ++j) fit_one(j);
    // Fits skipped by a stop request are reported as cancelled.
    for (SurrogateFit& f : fits)
        if (!f.posterior && f.status == SurrogateFit::Status::Failed && f.message.empty()) f.status = SurrogateFit::Status::Cancelled;
    return fits;
}

std::optional<OutcomeModelUnits> outcome_model_units(const Experiment& experiment, const MetricTraining& training,
                                                     std::string* error) {
    const Outcomes& outcomes = experiment.outcomes;
    OutcomeModelUnits units;
    units.objectives = static_cast<int>(outcomes.objectives.size());
    const auto model_of = [&](const std::string& metric) {
        return static_cast<int>(std::find(training.metrics.begin(), training.metrics.end(), metric) - training.metrics.begin());
    };
    for (std::size_t d = 0; d < outcomes.objectives.size(); ++d) {
        const Objective& o = outcomes.objectives[d];
        units.thresholds.push_back(o.threshold ? std::optional<double>(training.sets[d].model_value(o.to_utility(*o.threshold)))
                                               : std::nullopt);
    }
    for (const OutcomeConstraint& c : outcomes.constraints) {
        const int model = model_of(c.metric);
        const auto position = std::find(units.constrained.begin(), units.constrained.end(), model) - units.constrained.begin();
        if (position == static_cast<std::ptrdiff_t>(units.constrained.size())) units.constrained.push_back(model);
        // A minimized objective is modelled negated: its bound flips with it.
        const Objective* objective = outcomes.objective_on(c.metric);
        const bool flip = objective && objective->minimize;
        BoundSense sense = c.sense == ConstraintSense::AtMost ? BoundSense::AtMost : BoundSense::AtLeast;
        if (flip) sense = sense == BoundSense::AtMost ? BoundSense::AtLeast : BoundSense::AtMost;
        const double value = objective ? objective->to_utility(c.bound) : c.bound;
        units.bounds.push_back({static_cast<int>(position), sense, training.sets[static_cast<std::size_t>(model)].model_value(value)});
    }
    if (std::string problem = validate_outcome_bounds(units.bounds, static_cast<int>(units.constrained.size()));
        !problem.empty()) {
        if (error) *error = "the outcome constraints in the model's units: " + problem;
        return std::nullopt;
    }
    return units;
}

std::vector<OutcomePoint> observed_outcome_points(const Experiment& experiment, const MetricTraining& training,
                                                  const OutcomeModelUnits& units) {
    // Row of each trial in each objective's training set.
    std::vector<std::map<int, Eigen::Index>> rows(static_cast<std::size_t>(units.objectives));
    for (int d = 0; d < units.objectives; ++d) {
        const TrainingSet& set = training.sets[static_cast<std::size_t>(d)];
        for (std::size_t r = 0; r < set.trials.size(); ++r) rows[static_cast<std::size_t>(d)][set.trials[r]] = static_cast<Eigen::Index>(r);
    }
    std::vector<OutcomePoint> points;
    for (const Trial& t : experiment.trials) {
        if (!experiment.analyzed(t)) continue;
        OutcomePoint p;
        p.x = to_unit_vector(experiment.space, t.parameters);
        for (int d = 0; d < units.objectives; ++d) {
            const auto& index = rows[static_cast<std::size_t>(d)];
            const auto it = index.find(t.index);
            if (it == index.end()) break;  // cannot happen: a trial in the analysis has every objective
            p.objectives.push_back(training.sets[static_cast<std::size_t>(d)].data->targets[it->second]);
        }
        if (static_cast<int>(p.objectives.size()) != units.objectives) continue;
        p.feasible = experiment.feasible(t);
        points.push_back(std::move(p));
    }
    return points;
}

OutcomePoint fantasy_outcome_point(const Eigen::VectorXd& x, const std::vector<std::shared_ptr<const EnsemblePosterior>>& posteriors,
                                   const OutcomeModelUnits& units) {
    OutcomePoint p;
    p.x = x;
    for (int d = 0; d < units.objectives; ++d)
        p.objectives.push_back(posteriors[static_cast<std::size_t>(d)]->mixture(x.transpose()).mean[0]);
    for (const OutcomeBound& b : units.bounds) {
        const int model = units.constrained[static_cast<std::size_t>(b.metric)];
        const double mean = posteriors[static_cast<std::size_t>(model)]->mixture(x.transpose()).mean[0];
        if (b.sense == BoundSense::AtMost ? mean > b.bound : mean < b.bound) p.feasible = false;
    }
    return p;
}

AcquisitionProblem make_outcome_acquisition_problem(const SearchSpace& space, const MethodSettings& method,
                                                    const std::vector<std::shared_ptr<const EnsemblePosterior>>& posteriors,
                                                    const OutcomeModelUnits& units, const std::vector<OutcomePoint>& points,
                                                    const SparsityPenalty& penalty, std::uint64_t seed) {
    const auto m = static_cast<std::size_t>(units.objectives);
    std::vector<std::shared_ptr<const PosteriorView>> views;
    for (const auto& p : posteriors) views.push_back(std::make_shared<const EnsemblePosteriorView>(p));
    OutcomeViews outcome_views;
    for (std::size_t d = 0; d < m; ++d) outcome_views.objectives.push_back(views[d]);
    for (int model : units.constrained) outcome_views.constrained.push_back(views[static_cast<std::size_t>(model)]);
    FeasibilityProbability feasibility(units.bounds, static_cast<int>(units.constrained.size()));

    const bool sparse = is_sebo(method.strategy);
    const double reference_xi = method.max_active ? *method.max_active + 1.0 : penalty.max_value();
    std::vector<const OutcomePoint*> feasible;
    for (const OutcomePoint& p : points)
        if (p.feasible) feasible.push_back(&p);

    OutcomeAcquisition::Form form = OutcomeAcquisition::Feasibility{};
    if (feasible.empty()) {
        if (sparse) form = OutcomeAcquisition::SparseFeasibility{reference_xi};
    } else {
        // The reference point in model units: the threshold, or 10% of the feasible range (at
        // least 1) below the worst feasible value (make_acquisition_problem's rule).
        std::vector<double> reference(m);
        for (std::size_t d = 0; d < m; ++d) {
            double best = -std::numeric_limits<double>::infinity(), worst = std::numeric_limits<double>::infinity();
            for (const OutcomePoint* p : feasible) {
                best = std::max(best, p->objectives[d]);
                worst = std::min(worst, p->objectives[d]);
            }
            reference[d] = units.thresholds[d] ? *units.thresholds[d] : reference_below(worst, best);
        }
        if (sparse) {
            std::vector<SparseMultiEhvi::Observation> observed;
            for (const OutcomePoint* p : feasible) observed.push_back({p->objectives, penalty.exact(p->x)});
            form = OutcomeAcquisition::SparseEhvi{SparseMultiEhvi(observed, reference, reference_xi)};
        } else if (m > 1) {
            std::vector<std::vector<double>> observed;
            for (const OutcomePoint* p : feasible) observed.push_back(p->objectives);
            form = OutcomeAcquisition::Ehvi{MultiEhvi(observed, reference)};
        } else {
            double best = -std::numeric_limits<double>::infinity(), best_g = best;
            for (const OutcomePoint* p : feasible) {
                best = std::max(best, p->objectives[0]);
                best_g = std::max(best_g, p->objectives[0] - method.lambda * penalty.exact(p->x));
            }
            if (method.strategy == StrategyKind::EiEr)
                form = OutcomeAcquisition::EiExternal{best, method.lambda};
            else if (method.strategy == StrategyKind::EiIr)
                form = OutcomeAcquisition::EiInternal{best_g, method.lambda};
            else
                form = OutcomeAcquisition::Ei{best};
        }
    }
    AcquisitionProblem problem;
    problem.acquisition = std::make_unique<OutcomeAcquisition>(std::move(outcome_views), std::move(feasibility), std::move(form), penalty);

    // Anchors for the raw samples.
    std::vector<Eigen::VectorXd> anchors;
    if (!feasible.empty()) {
        std::vector<std::pair<double, std::size_t>> by_first;
        std::vector<std::vector<double>> coordinates;
        for (std::size_t i = 0; i < feasible.size(); ++i) {
            by_first.emplace_back(feasible[i]->objectives[0], i);
            std::vector<double> c = feasible[i]->objectives;
            c.push_back(-penalty.exact(feasible[i]->x));
            coordinates.push_back(std::move(c));
        }
        std::stable_sort(by_first.begin(), by_first.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (std::size_t j = 0; j < by_first.size() && j < 5; ++j) anchors.push_back(feasible[by_first[j].second]->x);
        for (std::size_t i : non_dominated_positions(coordinates)) anchors.push_back(feasible[i]->x);
    } else {
        std::vector<std::pair<double, std::size_t>> by_value;
        for (std::size_t i = 0; i < points.size(); ++i) by_value.emplace_back(problem.acquisition->exact_value(points[i].x), i);
        std::stable_sort(by_value.begin(), by_value.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (std::size_t j = 0; j < by_value.size() && j < 5; ++j) anchors.push_back(points[by_value[j].second].x);
    }
    problem.raw_samples = raw_samples(space, anchors, method.raw_samples, seed);
    return problem;
}

}  // namespace sebo
