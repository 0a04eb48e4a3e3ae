#include "experiment/simplify.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/format.h"
#include "acquisition/feasibility.h"
#include "core/thread_pool.h"
#include "optimize/greedy_reset.h"
#include "space/feasible_point.h"
#include "space/polytope.h"

namespace sebo {

namespace {

Eigen::VectorXd unit_vector(const SearchSpace& space, const std::vector<double>& values) {
    const std::vector<double> unit = space.to_unit(values);
    return Eigen::Map<const Eigen::VectorXd>(unit.data(), static_cast<Eigen::Index>(unit.size()));
}

std::vector<int> changed_parameters(const SearchSpace& space, const std::vector<double>& values) {
    std::vector<int> out;
    for (int i = 0; i < space.dimension(); ++i)
        if (space.is_active(i, values[static_cast<std::size_t>(i)])) out.push_back(i);
    return out;
}

// The prediction in the training set's units (maximization form for an objective) at a
// unit-cube point.
Prediction predict_utility(const TrainingSet& t, const EnsemblePosterior& posterior, const Eigen::VectorXd& unit) {
    const PosteriorMoments m = posterior.mixture(unit.transpose());
    const double s = t.standardizer.scale();
    const double z = t.standardizer.mean() + s * m.mean[0];
    const double sd_z = s * std::sqrt(std::max(m.variance[0], 0.0));
    const double spread = std::max(t.utility.maxCoeff() - t.utility.minCoeff(), 1e-12);
    const double centre = 0.5 * (t.utility.maxCoeff() + t.utility.minCoeff());
    const double u = t.warp.inverse(z, centre, spread);
    const double slope = t.warp.derivative(u);
    Prediction p;
    p.mean = u / t.utility_scale;
    p.sd = (slope > 0.0 && std::isfinite(slope) ? sd_z / slope : std::numeric_limits<double>::infinity()) / t.utility_scale;
    return p;
}

Prediction predict_utility(const SimplifyModel& model, const Eigen::VectorXd& unit) {
    return predict_utility(model.training, *model.posterior, unit);
}

Prediction to_objective(const Experiment& experiment, Prediction utility) {
    utility.mean = experiment.from_utility(utility.mean);
    return utility;
}

// Each objective's prediction (several objectives) and the probability of feasibility
// (constraints) at a unit-cube point.
void add_outcome_predictions(const Experiment& experiment, const SimplifyModel& model, const Eigen::VectorXd& unit,
                             SimplifyStep& step) {
    const auto& objectives = experiment.outcomes.objectives;
    if (objectives.size() > 1)
        for (std::size_t d = 0; d < objectives.size(); ++d) {
            Prediction p = predict_utility(model.metrics.sets[d], *model.posteriors[d], unit);
            p.mean = objectives[d].from_utility(p.mean);
            step.objectives.push_back(p);
        }
    if (model.units && !model.units->constrained.empty()) {
        std::vector<MixtureMoments> moments;
        for (int j : model.units->constrained) {
            MixtureMoments m;
            EnsemblePosteriorView(model.posteriors[static_cast<std::size_t>(j)]).moments(unit, m.mean, m.var, nullptr, nullptr);
            moments.push_back(std::move(m));
        }
        const FeasibilityProbability pof(model.units->bounds, static_cast<int>(moments.size()));
        step.feasibility = std::exp(pof.log_value(moments, nullptr));
    }
}

int analyzed_count(const Experiment& experiment) {
    int n = 0;
    for (const Trial& t : experiment.trials) n += experiment.analyzed(t) ? 1 : 0;
    return n;
}

}  // namespace

std::optional<std::string> SimplifyOptions::validate() const {
    if (!(tolerance > 0.0 && tolerance <= 1.0)) return "tolerance: " + format_number(tolerance) + " is not in (0, 1]";
    return std::nullopt;
}

std::optional<std::string> simplify_unavailable(const Experiment& experiment, int index) {
    const Trial* trial = experiment.find_trial(index);
    const std::string name = "trial " + std::to_string(index);
    if (!trial) return name + " does not exist";
    if (trial->status == TrialStatus::Pending) return name + " is pending: it has no result yet";
    if (trial->status == TrialStatus::Failed) return name + " failed: it has no result";
    if (trial->status == TrialStatus::Abandoned) return name + " was abandoned: it has no result";
    if (!experiment.analyzed(*trial)) return name + " is excluded from the analysis";
    const int n = analyzed_count(experiment);
    if (n < kSimplifyMinimumTrials)
        return "the model needs at least " + std::to_string(kSimplifyMinimumTrials) + " completed trials in the analysis; the experiment has " +
               std::to_string(n);
    return std::nullopt;
}

SimplifyModelFit fit_simplify_model(const Experiment& experiment, const StepControl& control) {
    SimplifyModelFit result;
    std::optional<TrainingSet> training = make_training_set(experiment, warp_mode(experiment.method));
    const int n = training ? static_cast<int>(training->data->num_points()) : 0;
    if (n < kSimplifyMinimumTrials) {
        result.message = "the model needs at least " + std::to_string(kSimplifyMinimumTrials) +
                         " completed trials in the analysis; the experiment has " + std::to_string(n);
        return result;
    }
    const MethodSettings& method = experiment.method;
    // One objective without constraints: its model alone, as before several metrics existed.
    const bool single = experiment.outcomes.objectives.size() == 1 && experiment.outcomes.constraints.empty();
    MetricTraining metrics;
    std::optional<OutcomeModelUnits> units;
    if (single) {
        metrics.metrics = {experiment.primary_objective().metric};
        metrics.sets = {*training};
    } else {
        std::string why;
        auto all = make_metric_training(experiment, warp_mode(method), kSimplifyMinimumTrials, &why);
        if (!all) {
            result.message = why;
            return result;
        }
        metrics = std::move(*all);
        units = outcome_model_units(experiment, metrics, &why);
        if (!units) {
            result.message = why;
            return result;
        }
    }
    const int threads = control.pool ? control.pool->size() : 1;
    control.report({"fitting model", 0, 0, to_string(method.resolved_model())});
    const std::vector<SurrogateFit> fits = fit_metric_models(
        metrics.sets, surrogate_options(method, threads), experiment.seed ^ 0x51A9B1F7ull, control, {},
        [&](int i, int total) { control.report({"fitting model", i, total, to_string(method.resolved_model())}); });
    std::vector<std::shared_ptr<const EnsemblePosterior>> posteriors;
    for (std::size_t j = 0; j < fits.size(); ++j) {
        if (fits[j].status == SurrogateFit::Status::Cancelled || control.cancelled()) {
            result.status = SimplifyModelFit::Status::Cancelled;
            return result;
        }
        if (fits[j].status == SurrogateFit::Status::Failed) {
            result.message = "model fit failed" + (single ? std::string() : " for metric '" + metrics.metrics[j] + "'") + ": " +
                             fits[j].message;
            return result;
        }
        posteriors.push_back(fits[j].posterior);
    }
    result.status = SimplifyModelFit::Status::Ok;
    result.model = SimplifyModel{std::move(*training), posteriors.front(), single ? MetricTraining{} : std::move(metrics),
                                 single ? decltype(posteriors){} : posteriors, std::move(units)};
    return result;
}

Prediction predict_objective(const Experiment& experiment, const SimplifyModel& model, const std::vector<double>& values) {
    return to_objective(experiment, predict_utility(model, unit_vector(experiment.space, values)));
}

SimplifyPath simplify_path(const Experiment& experiment, const SimplifyModel& model, int index, const SimplifyOptions& options) {
    const SearchSpace& space = experiment.space;
    const Trial& trial = *experiment.find_trial(index);
    SimplifyPath path;
    path.trial = index;
    path.measured = experiment.objective_value(trial);
    path.tolerance = options.tolerance;

    GreedyResetOptions greedy;
    greedy.tolerance = options.tolerance;
    greedy.min_changed = 0;
    greedy.continue_past_tolerance = true;
    // Linear parameter constraints: a reset that breaks one moves the other changed parameters
    // back into the polytope, or is skipped (optimize/greedy_reset.h). A trial outside it (an
    // imported one) is simplified without them: the greedy start must be feasible.
    const Eigen::VectorXd start = unit_vector(space, trial.parameters);
    const bool constrained = space.polytope() && space.violated_constraints(trial.parameters).empty() && space.polytope()->contains(start);
    if (constrained) greedy.constraints = space.polytope();
    const Eigen::VectorXd target = unit_vector(space, space.target());
    const auto value = [&](const Eigen::VectorXd& x) { return predict_utility(model, x).mean; };
    // Relative to the start's magnitude: reference = u₀ − |u₀| (greedy_reset.h).
    const double u0 = value(start);
    const GreedyResetPath greedy_path = greedy_reset(start, target, value, u0 - std::abs(u0), greedy);

    // The steps in user units: the trial's own values with the reset parameters exactly on their
    // targets (unit-cube round trips are not exact on log scales).
    std::vector<double> values = trial.parameters;
    const std::vector<double> targets = space.target();
    for (const GreedyResetStep& g : greedy_path.steps) {
        if (g.reset >= 0) values[static_cast<std::size_t>(g.reset)] = targets[static_cast<std::size_t>(g.reset)];
        // A repair moved the others: the step is the greedy point itself (its resets exact).
        if (constrained && g.reset >= 0) {
            const std::vector<double> moved = user_values(space, g.x);
            for (std::size_t i = 0; i < values.size(); ++i)
                if (values[i] != targets[i] && g.x[static_cast<Eigen::Index>(i)] != target[static_cast<Eigen::Index>(i)]) values[i] = moved[i];
        }
        SimplifyStep step;
        step.parameters = values;
        step.changed = changed_parameters(space, values);
        step.reset = g.reset;
        step.predicted = to_objective(experiment, predict_utility(model, g.x));
        step.within_tolerance = g.within_tolerance;
        if (!model.posteriors.empty()) add_outcome_predictions(experiment, model, g.x, step);
        path.steps.push_back(std::move(step));
    }
    return path;
}

TrialExplanation explain_trial(const Experiment& experiment, const SimplifyModel& model, int index) {
    const SearchSpace& space = experiment.space;
    const Trial& trial = *experiment.find_trial(index);
    TrialExplanation out;
    out.trial = index;
    out.measured = experiment.objective_value(trial);
    out.predicted = predict_objective(experiment, model, trial.parameters);
    const std::vector<double> targets = space.target();
    for (int i : changed_parameters(space, trial.parameters)) {
        std::vector<double> values = trial.parameters;
        values[static_cast<std::size_t>(i)] = targets[static_cast<std::size_t>(i)];
        ResetEffect r;
        r.parameter = i;
        r.predicted = predict_objective(experiment, model, values);
        r.effect = r.predicted.mean - out.predicted.mean;
        out.resets.push_back(r);
    }
    // Most harmful first: the largest loss of utility (maximization form); ties by column.
    std::stable_sort(out.resets.begin(), out.resets.end(), [&](const ResetEffect& a, const ResetEffect& b) {
        return experiment.to_utility(a.effect) < experiment.to_utility(b.effect);
    });
    return out;
}

}  // namespace sebo
