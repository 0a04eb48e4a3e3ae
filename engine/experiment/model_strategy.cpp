#include "experiment/model_strategy.h"

#include <algorithm>
#include <cmath>

#include "core/thread_pool.h"
#include "experiment/bonsai_pruning.h"
#include "experiment/model_step.h"
#include "experiment/sobol_strategy.h"

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
    if (auto unsupported = unsupported_outcomes(settings_.strategy, experiment.outcomes)) {
        proposal.status = Proposal::Status::Failed;
        proposal.message = std::move(*unsupported);
        return proposal;
    }
    const SearchSpace& space = experiment.space;
    const std::optional<TrainingSet> training = make_training_set(experiment, settings_.warp_objective);
    // The initial design — and, when fewer than two trials have completed (all failed, say),
    // quasi-random points until a model can be fitted.
    if (static_cast<int>(experiment.trials.size()) < settings_.initial_trials || !training ||
        training->data->num_points() < 2) {
        control.report({"generating initial design", 0, 0, {}});
        proposal.generator = "sobol";
        proposal.points = next_sobol_points(experiment, count);
        return proposal;
    }
    proposal.generator = to_string(settings_.strategy);
    const std::uint64_t step_seed = mix(experiment.seed, experiment.trials.size());
    const std::shared_ptr<const TrainingData>& data = training->data;

    control.report({"fitting model", 0, 0, to_string(settings_.resolved_model())});
    const int threads = control.pool ? control.pool->size() : 1;
    const SurrogateOptions model_options = surrogate_options(settings_, threads);
    const WarmStartChoice warm = choose_warm_start(experiment, *training, settings_);
    const SurrogateFit fit = fit_surrogate(
        data, model_options, mix(step_seed, 1),
        [&](int i, int total) { control.report({"fitting model", i, total, to_string(settings_.resolved_model())}); },
        control.stop, control.pool, warm.state ? &*warm.state : nullptr);
    if (fit.status == SurrogateFit::Status::Cancelled || control.cancelled()) {
        proposal.status = Proposal::Status::Cancelled;
        return proposal;
    }
    if (fit.status == SurrogateFit::Status::Failed) {
        proposal.status = Proposal::Status::Failed;
        proposal.message = "model fit failed: " + fit.message;
        return proposal;
    }

    // The state for the next step: a fast SAAS-NUTS fit leaves its own; any other fit makes an
    // earlier one stale.
    proposal.replaces_sampler_state = true;
    if (fit.sampled) {
        proposal.fit = make_fit_record(fit, settings_, space);
        if (!warm.cold_reason.empty())
            proposal.fit->cold_start_reason =
                warm.cold_reason + (fit.cold_start_reason.empty() ? "" : "; " + fit.cold_start_reason);
        if (settings_.nuts == NutsMode::Fast) proposal.sampler_state = make_sampler_state(fit, *training, experiment, settings_);
    }

    const SparsityPenalty penalty = make_sparsity_penalty(space, settings_.resolved_penalty(), settings_.min_active.value_or(0));
    CandidateTransforms transforms = make_candidate_transforms(space);
    std::vector<Eigen::VectorXd> known;
    for (const Trial& t : experiment.trials)
        if (t.status == TrialStatus::Completed || t.status == TrialStatus::Pending) known.push_back(to_unit_vector(space, t.parameters));
    transforms.is_known = [&known](const Eigen::VectorXd& x) {
        return std::any_of(known.begin(), known.end(), [&](const Eigen::VectorXd& k) { return (k - x).lpNorm<Eigen::Infinity>() <= 1e-12; });
    };
    const AcquisitionOptimizerOptions optimizer = acquisition_optimizer_options(settings_);
    const Eigen::VectorXd target = to_unit_vector(space, space.target());

    // Data with fantasies: pending trials first, then this batch's earlier candidates.
    auto augmented = std::make_shared<TrainingData>(*data);
    std::shared_ptr<const EnsemblePosterior> posterior = fit.posterior;
    auto add_fantasy = [&](const Eigen::VectorXd& x) {
        const PosteriorMoments m = posterior->mixture(x.transpose());
        const Eigen::Index rows = augmented->inputs.rows();
        augmented->inputs.conservativeResize(rows + 1, Eigen::NoChange);
        augmented->inputs.row(rows) = x.transpose();
        augmented->targets.conservativeResize(rows + 1);
        augmented->targets[rows] = m.mean[0];
        if (augmented->noise_variances.size() > 0) {
            augmented->noise_variances.conservativeResize(rows + 1);
            augmented->noise_variances[rows] = 1e-6;
        }
        posterior = std::make_shared<const EnsemblePosterior>(augmented, fit.samples);
    };
    for (const Trial& t : experiment.trials)
        if (t.status == TrialStatus::Pending) add_fantasy(to_unit_vector(space, t.parameters));

    for (int k = 0; k < count; ++k) {
        // The acquisition over observations and fantasies (the posterior's data), and its raw samples.
        const AcquisitionProblem problem =
            make_acquisition_problem(space, settings_, posterior, penalty, mix(step_seed, 100 + static_cast<std::uint64_t>(k)));
        const OptimizedCandidate candidate =
            optimize_acquisition(*problem.acquisition, problem.raw_samples, transforms, optimizer, control);
        if (candidate.status == OptimizedCandidate::Status::Cancelled || control.cancelled()) {
            proposal.status = Proposal::Status::Cancelled;
            proposal.points.clear();
            return proposal;
        }
        Eigen::VectorXd x = candidate.x;
        if (settings_.strategy == StrategyKind::Bonsai) {
            // BONSAI prunes each member against the observations and the pending trials, the
            // batch's earlier members among them (they are fantasies in the posterior's data).
            const GreedyResetPath path = bonsai_prune(*problem.acquisition, posterior->data().inputs, x, target, bonsai_options(),
                                                      [&control] { return control.cancelled(); });
            if (path.stop == GreedyResetPath::Stop::Cancelled) {
                proposal.status = Proposal::Status::Cancelled;
                proposal.points.clear();
                return proposal;
            }
            x = transforms.finalize(path.accepted().x);
        }
        proposal.points.push_back(space.snap(space.from_unit(std::vector<double>(x.data(), x.data() + x.size()))));
        known.push_back(x);
        if (k + 1 < count) add_fantasy(x);
    }
    proposal.message = "model fit " + std::to_string(fit.seconds) + " s";
    return proposal;
}

}  // namespace sebo
