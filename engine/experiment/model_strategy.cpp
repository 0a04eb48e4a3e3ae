#include "experiment/model_strategy.h"

#include <variant>

#include "core/thread_pool.h"
#include "experiment/bonsai_pruning.h"
#include "experiment/candidate_search.h"
#include "experiment/model_step.h"
#include "experiment/outcome_step.h"
#include "experiment/sobol_strategy.h"
#include "space/feasible_point.h"

namespace sebo {

namespace {

Eigen::VectorXd to_unit_vector(const SearchSpace& space, const std::vector<double>& values) {
    const auto unit = space.to_unit(values);
    return Eigen::Map<const Eigen::VectorXd>(unit.data(), static_cast<Eigen::Index>(unit.size()));
}

// How a stage ends the step early: cancelled, or failed with a message.
struct Stop {
    Proposal::Status status = Proposal::Status::Cancelled;
    std::string message;
};

Proposal stopped(Proposal proposal, Stop stop) {
    proposal.status = stop.status;
    proposal.message = std::move(stop.message);
    proposal.points.clear();
    return proposal;
}

// The models of a step: one per modelled metric, each warm-started from its own state in the
// experiment's sampler state when that still applies (docs/method.md §7).
struct FittedModels {
    std::vector<WarmStartChoice> warm;
    std::vector<SurrogateFit> fits;
    double seconds = 0.0;
};

std::variant<FittedModels, Stop> fit_models(const Experiment& experiment, const MetricTraining& training,
                                            const MethodSettings& settings, std::uint64_t seed, const StepControl& control) {
    const std::size_t models = training.sets.size();
    const std::string model_name = to_string(settings.resolved_model());
    control.report({models == 1 ? "fitting model" : "fitting models", 0, 0,
                    models == 1 ? model_name : model_name + " × " + std::to_string(models)});
    const int threads = control.pool ? control.pool->size() : 1;
    FittedModels out;
    std::vector<const NutsWarmStart*> warm_states;
    for (std::size_t j = 0; j < models; ++j) out.warm.push_back(choose_warm_start(experiment, training.metrics[j], training.sets[j], settings));
    for (const WarmStartChoice& w : out.warm) warm_states.push_back(w.state ? &*w.state : nullptr);
    out.fits = fit_metric_models(training.sets, surrogate_options(settings, threads), seed, control, warm_states,
                                 [&](int i, int total) { control.report({"fitting model", i, total, model_name}); });
    for (std::size_t j = 0; j < models; ++j) {
        const SurrogateFit& f = out.fits[j];
        if (f.status == SurrogateFit::Status::Cancelled || control.cancelled()) return Stop{};
        if (f.status == SurrogateFit::Status::Failed)
            return Stop{Proposal::Status::Failed, "model fit failed" +
                                                      (models == 1 ? std::string() : " for metric '" + training.metrics[j] + "'") +
                                                      ": " + f.message};
        out.seconds += f.seconds;
    }
    return out;
}

// What the fits leave for the next step and for the trials: a fast SAAS-NUTS fit leaves its own
// state, one per metric; any other fit makes an earlier one stale. The trials' fit record is the
// first objective's fit.
void record_fits(Proposal& proposal, const FittedModels& models, const MetricTraining& training, const Experiment& experiment,
                 const MethodSettings& settings) {
    const SurrogateFit& fit = models.fits.front();
    proposal.replaces_sampler_state = true;
    if (fit.sampled) {
        proposal.fit = make_fit_record(fit, settings, experiment.space);
        if (!models.warm.front().cold_reason.empty())
            proposal.fit->cold_start_reason =
                models.warm.front().cold_reason + (fit.cold_start_reason.empty() ? "" : "; " + fit.cold_start_reason);
        if (settings.nuts == NutsMode::Fast) {
            SamplerState state;
            for (std::size_t j = 0; j < models.fits.size(); ++j)
                if (models.fits[j].sampled)
                    state.metrics.push_back(
                        make_sampler_state(models.fits[j], training.metrics[j], training.sets[j], experiment, settings));
            proposal.sampler_state = std::move(state);
        }
    }
    for (std::size_t j = 0; j < models.fits.size(); ++j) {
        const SurrogateFit& f = models.fits[j];
        if (!f.sampled) continue;
        proposal.warm_started_fits += f.start == SaasNutsStart::Warm;
        std::string reason = models.warm[j].cold_reason;
        if (!f.cold_start_reason.empty()) reason += (reason.empty() ? "" : "; ") + f.cold_start_reason;
        proposal.fit_starts.push_back({training.metrics[j], to_string(f.start), std::move(reason)});
    }
}

// BONSAI prunes a candidate against the observations and the pending trials, the batch's earlier
// members among them (they are fantasies in the posteriors' data: the first objective's model has
// every trial that counts). With linear parameter constraints a reset is repaired by projection,
// or skipped (optimize/greedy_reset.h).
std::variant<Eigen::VectorXd, Stop> bonsai_pruned(const AcquisitionProblem& problem, const EnsemblePosterior& first,
                                                  const Eigen::VectorXd& x, const SearchSpace& space,
                                                  const CandidateTransforms& transforms, const MethodSettings& settings,
                                                  const StepControl& control) {
    GreedyResetOptions pruning = bonsai_options(settings.bonsai_tolerance);
    pruning.constraints = space.polytope();
    const Eigen::VectorXd target = to_unit_vector(space, space.target());
    const GreedyResetPath path =
        bonsai_prune(*problem.acquisition, first.data().inputs, x, target, pruning, [&control] { return control.cancelled(); });
    if (path.stop == GreedyResetPath::Stop::Cancelled) return Stop{};
    return transforms.finalize(path.accepted().x);
}

// A candidate of the unit cube as a configuration in user units: snapped and rounded inside the
// polytope when there are parameter constraints (the user-unit snap could leave it).
std::variant<std::vector<double>, Stop> configuration_of(const SearchSpace& space, const Eigen::VectorXd& x) {
    if (!space.has_constraints()) return space.snap(space.from_unit(std::vector<double>(x.data(), x.data() + x.size())));
    std::optional<std::vector<double>> values = feasible_configuration(space, x);
    if (!values)
        return Stop{Proposal::Status::Failed, "no configuration near the optimizer's candidate satisfies the parameter "
                                              "constraints with its integer parameters rounded"};
    return std::move(*values);
}

}  // namespace

ModelStrategy::ModelStrategy(MethodSettings settings) : settings_(std::move(settings)) {}

// The stages of a model step: the initial design while there is too little to model; the models'
// units (several metrics); the fits and what they leave behind; then per member of the batch the
// acquisition over observations and fantasies, its optimum (pruned by BONSAI), the configuration.
Proposal ModelStrategy::propose(const Experiment& experiment, int count, const StepControl& control) {
    Proposal proposal;
    const SearchSpace& space = experiment.space;
    // One objective without outcome constraints is the paper's setting: one model and
    // model_step.h's acquisition, number for number. Otherwise one model per modelled metric and
    // outcome_step.h's acquisition (issue 13).
    const bool single = experiment.outcomes.objectives.size() == 1 && experiment.outcomes.constraints.empty();
    std::string not_yet;
    const std::optional<MetricTraining> training = make_metric_training(experiment, warp_mode(settings_), 2, &not_yet);
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
        if (!units) return stopped(std::move(proposal), {Proposal::Status::Failed, std::move(error)});
    }
    proposal.generator = to_string(settings_.strategy);
    auto fitted = fit_models(experiment, *training, settings_, derived_seed(model_step_seed(experiment), 1), control);
    if (auto* stop = std::get_if<Stop>(&fitted)) return stopped(std::move(proposal), std::move(*stop));
    const FittedModels& models = std::get<FittedModels>(fitted);
    record_fits(proposal, models, *training, experiment, settings_);

    std::vector<std::vector<GpHyperparameters>> samples;
    for (const SurrogateFit& f : models.fits) samples.push_back(f.samples);
    CandidateSearch search(experiment, settings_, *training, std::move(units), std::move(samples));
    for (int k = 0; k < count; ++k) {
        const CandidateSearch::Member member = search.next(control);
        const OptimizedCandidate& candidate = member.candidate;
        if (candidate.status == OptimizedCandidate::Status::Cancelled || control.cancelled())
            return stopped(std::move(proposal), {});
        proposal.candidate_work.push_back(
            {candidate.local_optimizations, candidate.evaluations, candidate.stage_paths, candidate.stage_evaluations});
        if (member.problem.dense)
            proposal.generator = dense_start_generator(
                settings_.strategy, member.problem.thompson ? DenseStart::Thompson : DenseStart::ExpectedImprovement);
        Eigen::VectorXd x = candidate.x;
        if (settings_.strategy == StrategyKind::Bonsai) {
            auto pruned = bonsai_pruned(member.problem, search.first_posterior(), x, space, search.transforms(), settings_, control);
            if (auto* stop = std::get_if<Stop>(&pruned)) return stopped(std::move(proposal), std::move(*stop));
            x = std::get<Eigen::VectorXd>(pruned);
        }
        auto configuration = configuration_of(space, x);
        if (auto* stop = std::get_if<Stop>(&configuration)) return stopped(std::move(proposal), std::move(*stop));
        proposal.points.push_back(std::move(std::get<std::vector<double>>(configuration)));
        if (k + 1 < count) search.accept(x);
    }
    const std::size_t n = models.fits.size();
    proposal.message = (n == 1 ? "model fit " : std::to_string(n) + " model fits ") + std::to_string(models.seconds) + " s";
    return proposal;
}

}  // namespace sebo
