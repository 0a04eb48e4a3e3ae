#include "experiment/outcome_step.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "acquisition/noisy_outcome_acquisition.h"
#include "acquisition/outcome_acquisition.h"
#include "core/thread_pool.h"
#include "model/fantasy_posterior.h"
#include "pareto/dominance.h"

namespace sebo {

namespace {

Eigen::VectorXd to_unit_vector(const SearchSpace& space, const std::vector<double>& values) {
    const auto unit = space.to_unit(values);
    return Eigen::Map<const Eigen::VectorXd>(unit.data(), static_cast<Eigen::Index>(unit.size()));
}

// Whether `value` (model units) satisfies the bound.
bool satisfies(const OutcomeBound& bound, double value) {
    return bound.sense == BoundSense::AtMost ? value <= bound.bound : value >= bound.bound;
}

}  // namespace

std::optional<MetricTraining> make_metric_training(const Experiment& experiment, WarpMode warp, int minimum, std::string* why) {
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
        p.feasible = p.feasible && satisfies(b, posteriors[static_cast<std::size_t>(model)]->mixture(x.transpose()).mean[0]);
    }
    return p;
}

namespace {

ImprovementRule::Kind improvement_kind(StrategyKind strategy, int objectives) {
    using Kind = ImprovementRule::Kind;
    if (is_sebo(strategy)) return Kind::SparseEhvi;
    if (objectives > 1) return Kind::Ehvi;
    if (strategy == StrategyKind::EiEr) return Kind::EiExternal;
    if (strategy == StrategyKind::EiIr) return Kind::EiInternal;
    return Kind::Ei;
}

std::vector<const OutcomePoint*> feasible_points(const std::vector<OutcomePoint>& points) {
    std::vector<const OutcomePoint*> out;
    for (const OutcomePoint& p : points)
        if (p.feasible) out.push_back(&p);
    return out;
}

// The reference point in model units: the threshold, or 10 % of the range of `points` (at least 1)
// below the worst of them (make_acquisition_problem's rule, reference_below).
std::vector<double> reference_point(const OutcomeModelUnits& units, const std::vector<const OutcomePoint*>& points) {
    std::vector<double> reference(static_cast<std::size_t>(units.objectives));
    for (std::size_t d = 0; d < reference.size(); ++d) {
        double best = -std::numeric_limits<double>::infinity(), worst = std::numeric_limits<double>::infinity();
        for (const OutcomePoint* p : points) {
            best = std::max(best, p->objectives[d]);
            worst = std::min(worst, p->objectives[d]);
        }
        reference[d] = units.thresholds[d] ? *units.thresholds[d] : reference_below(worst, best);
    }
    return reference;
}

// What the noisy acquisition is built from (issue 30): the distinct configurations of the points,
// every modelled metric drawn at them (model/fantasy_posterior.h, as many components per metric as
// make_acquisition_problem draws for one objective), the configurations' penalties, and the points
// as the posterior estimates them — the draws' means, feasible when the means satisfy the bounds —
// for the reference point and the anchors.
struct NoisyBaseline {
    NoisyOutcomeModels models;
    Eigen::VectorXd xi;
    std::vector<OutcomePoint> estimated;
};

NoisyBaseline noisy_baseline(const MethodSettings& method, const std::vector<std::shared_ptr<const EnsemblePosterior>>& posteriors,
                             const OutcomeModelUnits& units, const std::vector<OutcomePoint>& points,
                             const SparsityPenalty& penalty, std::uint64_t seed) {
    std::vector<const Eigen::VectorXd*> distinct;
    std::set<std::vector<double>> seen;
    for (const OutcomePoint& p : points)
        if (seen.emplace(p.x.data(), p.x.data() + p.x.size()).second) distinct.push_back(&p.x);
    Eigen::MatrixXd baseline(static_cast<Eigen::Index>(distinct.size()), posteriors.front()->dimension());
    for (std::size_t u = 0; u < distinct.size(); ++u) baseline.row(static_cast<Eigen::Index>(u)) = distinct[u]->transpose();

    std::vector<std::shared_ptr<const FantasyPosterior>> fantasies;
    for (std::size_t k = 0; k < posteriors.size(); ++k) {
        FantasyOptions options;
        options.draws_per_member = noisy_draws_per_member(method, posteriors[k]->size());
        // "noisyD", as make_acquisition_problem's, and independent between the metrics.
        options.seed = (seed ^ 0x6E6F69737944ull) + 0x9E3779B97F4A7C15ull * k;
        fantasies.push_back(std::make_shared<const FantasyPosterior>(posteriors[k], baseline, options));
    }
    NoisyBaseline out;
    for (int d = 0; d < units.objectives; ++d) out.models.objectives.push_back(fantasies[static_cast<std::size_t>(d)]);
    for (int model : units.constrained) out.models.constrained.push_back(fantasies[static_cast<std::size_t>(model)]);
    const auto mean_at = [&fantasies](int model, Eigen::Index u) {
        return fantasies[static_cast<std::size_t>(model)]->baseline_draws().row(u).mean();
    };
    out.xi.resize(baseline.rows());
    for (Eigen::Index u = 0; u < baseline.rows(); ++u) {
        OutcomePoint p;
        p.x = baseline.row(u).transpose();
        out.xi[u] = penalty.exact(p.x);
        for (int d = 0; d < units.objectives; ++d) p.objectives.push_back(mean_at(d, u));
        for (const OutcomeBound& b : units.bounds)
            p.feasible = p.feasible && satisfies(b, mean_at(units.constrained[static_cast<std::size_t>(b.metric)], u));
        out.estimated.push_back(std::move(p));
    }
    return out;
}

}  // namespace

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

    ImprovementRule rule;
    rule.kind = improvement_kind(method.strategy, units.objectives);
    rule.reference_xi = method.max_active ? *method.max_active + 1.0 : penalty.max_value();
    rule.lambda = method.lambda;
    AcquisitionProblem problem;
    // The points the front, the reference point and the anchors are made of: the measurements, or
    // with the noisy acquisition the distinct configurations as the posterior estimates them.
    std::vector<OutcomePoint> estimated;
    const std::vector<OutcomePoint>* basis = &points;
    const bool noisy = uses_noisy_acquisition(method, posteriors);
    if (noisy) {
        NoisyBaseline baseline = noisy_baseline(method, posteriors, units, points, penalty, seed);
        estimated = std::move(baseline.estimated);
        basis = &estimated;
        std::vector<const OutcomePoint*> reference_points = feasible_points(estimated);
        if (reference_points.empty())
            for (const OutcomePoint& p : estimated) reference_points.push_back(&p);
        rule.reference = reference_point(units, reference_points);
        auto acquisition = std::make_unique<NoisyOutcomeAcquisition>(std::move(baseline.models), feasibility, rule, baseline.xi, penalty);
        // No component with a feasible point: the feasibility forms below, as without noise.
        if (acquisition->any_feasible()) {
            problem.acquisition = std::move(acquisition);
            problem.noisy = true;
        }
    }
    const std::vector<const OutcomePoint*> feasible = feasible_points(*basis);
    // Some point is feasible (in some component of the noisy acquisition): the form measures improvement.
    const bool improves = problem.noisy || (!noisy && !feasible.empty());
    if (!problem.acquisition) {
        OutcomeAcquisition::Form form = OutcomeAcquisition::Feasibility{};
        if (improves) {
            rule.reference = reference_point(units, feasible);
            std::vector<std::vector<double>> objectives;
            std::vector<double> xi;
            for (const OutcomePoint* p : feasible) {
                objectives.push_back(p->objectives);
                xi.push_back(penalty.exact(p->x));
            }
            form = improvement_form(rule, objectives, xi);
        } else if (rule.kind == ImprovementRule::Kind::SparseEhvi) {
            form = OutcomeAcquisition::SparseFeasibility{rule.reference_xi};
        }
        problem.acquisition =
            std::make_unique<OutcomeAcquisition>(std::move(outcome_views), std::move(feasibility), std::move(form), penalty);
    }

    // Anchors for the raw samples.
    std::vector<Eigen::VectorXd> anchors;
    if (improves && !feasible.empty()) {
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
        for (std::size_t i = 0; i < basis->size(); ++i) by_value.emplace_back(problem.acquisition->exact_value((*basis)[i].x), i);
        std::stable_sort(by_value.begin(), by_value.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (std::size_t j = 0; j < by_value.size() && j < 5; ++j) anchors.push_back((*basis)[by_value[j].second].x);
    }
    problem.raw_samples = raw_samples(space, anchors, method.raw_samples, seed);
    return problem;
}

}  // namespace sebo
