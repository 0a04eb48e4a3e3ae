#include "experiment/model_strategy.h"

#include <algorithm>
#include <cmath>

#include "core/thread_pool.h"
#include "experiment/bonsai_pruning.h"
#include "experiment/model_step.h"
#include "experiment/outcome_step.h"
#include "experiment/sobol_strategy.h"
#include "space/feasible_point.h"

namespace sebo {

namespace {

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    std::uint64_t z = a + 0x9E3779B97F4A7C15ull * (b + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

Eigen::VectorXd to_unit_vector(const SearchSpace& space, const std::vector<double>& values) {
    const auto unit = space.to_unit(values);
    return Eigen::Map<const Eigen::VectorXd>(unit.data(), static_cast<Eigen::Index>(unit.size()));
}

}  // namespace

ModelStrategy::ModelStrategy(MethodSettings settings) : settings_(std::move(settings)) {}

Proposal ModelStrategy::propose(const Experiment& experiment, int count, const StepControl& control) {
    Proposal proposal;
    const SearchSpace& space = experiment.space;
    // One objective without outcome constraints is the paper's setting: one model and
    // model_step.h's acquisition, number for number. Otherwise one model per modelled metric and
    // outcome_step.h's acquisition (issue 13).
    const bool single = experiment.outcomes.objectives.size() == 1 && experiment.outcomes.constraints.empty();
    std::string not_yet;
    const std::optional<MetricTraining> training = make_metric_training(experiment, settings_.warp_objective, 2, &not_yet);
    // The initial design — and, when fewer than two trials have completed (all failed, say), or
    // a constrained metric has fewer than two values, quasi-random points until every model can
    // be fitted.
    if (static_cast<int>(experiment.trials.size()) < settings_.initial_trials || !training) {
        control.report({"generating initial design", 0, 0, not_yet});
        proposal.generator = "sobol";
        proposal.points = next_sobol_points(experiment, count);
        return proposal;
    }
    std::optional<OutcomeModelUnits> units;
    if (!single) {
        std::string error;
        units = outcome_model_units(experiment, *training, &error);
        if (!units) {
            proposal.status = Proposal::Status::Failed;
            proposal.message = std::move(error);
            return proposal;
        }
    }
    proposal.generator = to_string(settings_.strategy);
    const std::uint64_t step_seed = mix(experiment.seed, experiment.trials.size());
    const std::size_t models = training->sets.size();

    const std::string model_name = to_string(settings_.resolved_model());
    control.report({models == 1 ? "fitting model" : "fitting models", 0, 0,
                    models == 1 ? model_name : model_name + " × " + std::to_string(models)});
    const int threads = control.pool ? control.pool->size() : 1;
    const SurrogateOptions model_options = surrogate_options(settings_, threads);
    // Every metric's model warm-starts from its own state in the experiment's sampler state, when
    // that still applies (docs/method.md §7).
    std::vector<WarmStartChoice> warm;
    std::vector<const NutsWarmStart*> warm_states;
    for (std::size_t j = 0; j < models; ++j) warm.push_back(choose_warm_start(experiment, training->metrics[j], training->sets[j], settings_));
    for (const WarmStartChoice& w : warm) warm_states.push_back(w.state ? &*w.state : nullptr);
    const std::vector<SurrogateFit> fits = fit_metric_models(
        training->sets, model_options, mix(step_seed, 1), control, warm_states,
        [&](int i, int total) { control.report({"fitting model", i, total, model_name}); });
    double fit_seconds = 0.0;
    for (std::size_t j = 0; j < models; ++j) {
        const SurrogateFit& f = fits[j];
        if (f.status == SurrogateFit::Status::Cancelled || control.cancelled()) {
            proposal.status = Proposal::Status::Cancelled;
            return proposal;
        }
        if (f.status == SurrogateFit::Status::Failed) {
            proposal.status = Proposal::Status::Failed;
            proposal.message = "model fit failed" + (models == 1 ? std::string() : " for metric '" + training->metrics[j] + "'") +
                               ": " + f.message;
            return proposal;
        }
        fit_seconds += f.seconds;
    }
    const SurrogateFit& fit = fits.front();

    // The state for the next step: a fast SAAS-NUTS fit leaves its own, one per metric; any other
    // fit makes an earlier one stale. The trials' fit record is the first objective's fit.
    proposal.replaces_sampler_state = true;
    if (fit.sampled) {
        proposal.fit = make_fit_record(fit, settings_, space);
        if (!warm.front().cold_reason.empty())
            proposal.fit->cold_start_reason =
                warm.front().cold_reason + (fit.cold_start_reason.empty() ? "" : "; " + fit.cold_start_reason);
        if (settings_.nuts == NutsMode::Fast) {
            SamplerState state;
            for (std::size_t j = 0; j < models; ++j)
                if (fits[j].sampled)
                    state.metrics.push_back(
                        make_sampler_state(fits[j], training->metrics[j], training->sets[j], experiment, settings_));
            proposal.sampler_state = std::move(state);
        }
    }
    for (std::size_t j = 0; j < models; ++j) {
        const SurrogateFit& f = fits[j];
        if (!f.sampled) continue;
        proposal.warm_started_fits += f.start == SaasNutsStart::Warm;
        std::string reason = warm[j].cold_reason;
        if (!f.cold_start_reason.empty()) reason += (reason.empty() ? "" : "; ") + f.cold_start_reason;
        proposal.fit_starts.push_back({training->metrics[j], to_string(f.start), std::move(reason)});
    }

    const SparsityPenalty penalty = make_sparsity_penalty(space, settings_.resolved_penalty(), settings_.min_active.value_or(0));
    CandidateTransforms transforms = make_candidate_transforms(space);
    std::vector<Eigen::VectorXd> known;
    for (const Trial& t : experiment.trials)
        if (t.status == TrialStatus::Completed || t.status == TrialStatus::Pending) known.push_back(to_unit_vector(space, t.parameters));
    transforms.is_known = [&known](const Eigen::VectorXd& x) {
        return std::any_of(known.begin(), known.end(), [&](const Eigen::VectorXd& k) { return (k - x).lpNorm<Eigen::Infinity>() <= 1e-12; });
    };
    AcquisitionOptimizerOptions optimizer = acquisition_optimizer_options(settings_);
    if (units) optimizer.lbfgsb.tail_compression = kOutcomeTailCompression;
    const Eigen::VectorXd target = to_unit_vector(space, space.target());

    // Data with fantasies, per model: pending trials first, then this batch's earlier candidates,
    // each at every model's posterior mean; with several metrics also as points of the front.
    std::vector<std::shared_ptr<TrainingData>> augmented;
    std::vector<std::shared_ptr<const EnsemblePosterior>> posteriors;
    for (std::size_t j = 0; j < models; ++j) {
        augmented.push_back(std::make_shared<TrainingData>(*training->sets[j].data));
        posteriors.push_back(fits[j].posterior);
    }
    std::vector<OutcomePoint> points;
    if (units) points = observed_outcome_points(experiment, *training, *units);
    auto add_fantasy = [&](const Eigen::VectorXd& x) {
        if (units) points.push_back(fantasy_outcome_point(x, posteriors, *units));
        for (std::size_t j = 0; j < models; ++j) {
            const PosteriorMoments m = posteriors[j]->mixture(x.transpose());
            TrainingData& data = *augmented[j];
            const Eigen::Index rows = data.inputs.rows();
            data.inputs.conservativeResize(rows + 1, Eigen::NoChange);
            data.inputs.row(rows) = x.transpose();
            data.targets.conservativeResize(rows + 1);
            data.targets[rows] = m.mean[0];
            if (data.noise_variances.size() > 0) {
                data.noise_variances.conservativeResize(rows + 1);
                data.noise_variances[rows] = 1e-6;
            }
        }
        for (std::size_t j = 0; j < models; ++j)
            posteriors[j] = std::make_shared<const EnsemblePosterior>(augmented[j], fits[j].samples);
    };
    for (const Trial& t : experiment.trials)
        if (t.status == TrialStatus::Pending) add_fantasy(to_unit_vector(space, t.parameters));

    for (int k = 0; k < count; ++k) {
        // The acquisition over observations and fantasies (the posteriors' data), and its raw samples.
        const std::uint64_t seed = mix(step_seed, 100 + static_cast<std::uint64_t>(k));
        const AcquisitionProblem problem =
            units ? make_outcome_acquisition_problem(space, settings_, posteriors, *units, points, penalty, seed)
                  : make_acquisition_problem(space, settings_, posteriors.front(), penalty, seed);
        const OptimizedCandidate candidate =
            optimize_acquisition(*problem.acquisition, problem.raw_samples, transforms, optimizer, control);
        if (candidate.status == OptimizedCandidate::Status::Cancelled || control.cancelled()) {
            proposal.status = Proposal::Status::Cancelled;
            proposal.points.clear();
            return proposal;
        }
        proposal.candidate_work.push_back(
            {candidate.local_optimizations, candidate.evaluations, candidate.stage_paths, candidate.stage_evaluations});
        Eigen::VectorXd x = candidate.x;
        if (settings_.strategy == StrategyKind::Bonsai) {
            // BONSAI prunes each member against the observations and the pending trials, the
            // batch's earlier members among them (they are fantasies in the posteriors' data: the
            // first objective's model has every trial that counts). With linear parameter
            // constraints a reset is repaired by projection, or skipped (optimize/greedy_reset.h).
            GreedyResetOptions pruning = bonsai_options(settings_.bonsai_tolerance);
            pruning.constraints = space.polytope();
            const GreedyResetPath path = bonsai_prune(*problem.acquisition, posteriors.front()->data().inputs, x, target,
                                                      pruning, [&control] { return control.cancelled(); });
            if (path.stop == GreedyResetPath::Stop::Cancelled) {
                proposal.status = Proposal::Status::Cancelled;
                proposal.points.clear();
                return proposal;
            }
            x = transforms.finalize(path.accepted().x);
        }
        if (space.has_constraints()) {
            // Snapped and rounded inside the polytope; the user-unit snap below could leave it.
            std::optional<std::vector<double>> values = feasible_configuration(space, x);
            if (!values) {
                proposal.status = Proposal::Status::Failed;
                proposal.message = "no configuration near the optimizer's candidate satisfies the parameter constraints "
                                   "with its integer parameters rounded";
                proposal.points.clear();
                return proposal;
            }
            proposal.points.push_back(std::move(*values));
        } else {
            proposal.points.push_back(space.snap(space.from_unit(std::vector<double>(x.data(), x.data() + x.size()))));
        }
        known.push_back(x);
        if (k + 1 < count) add_fantasy(x);
    }
    proposal.message = (models == 1 ? "model fit " : std::to_string(models) + " model fits ") + std::to_string(fit_seconds) + " s";
    return proposal;
}

}  // namespace sebo
