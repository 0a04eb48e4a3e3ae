#include "experiment/candidate_search.h"

#include <algorithm>

#include "acquisition/thompson_sampling.h"

namespace sebo {

namespace {

Eigen::VectorXd to_unit_vector(const SearchSpace& space, const std::vector<double>& values) {
    const auto unit = space.to_unit(values);
    return Eigen::Map<const Eigen::VectorXd>(unit.data(), static_cast<Eigen::Index>(unit.size()));
}

// Where the acquisition looks for candidates: the space's transforms, with the configurations
// already measured or pending (and the batch's earlier members, appended to `known`) left out.
CandidateTransforms candidate_transforms(const Experiment& experiment, std::vector<Eigen::VectorXd>& known) {
    CandidateTransforms transforms = make_candidate_transforms(experiment.space);
    for (const Trial& t : experiment.trials)
        if (t.status == TrialStatus::Completed || t.status == TrialStatus::Pending)
            known.push_back(to_unit_vector(experiment.space, t.parameters));
    transforms.is_known = [&known](const Eigen::VectorXd& x) {
        return std::any_of(known.begin(), known.end(), [&](const Eigen::VectorXd& k) { return (k - x).lpNorm<Eigen::Infinity>() <= 1e-12; });
    };
    return transforms;
}

AcquisitionOptimizerOptions optimizer_options(const MethodSettings& settings, bool several_metrics) {
    AcquisitionOptimizerOptions optimizer = acquisition_optimizer_options(settings);
    if (several_metrics) optimizer.lbfgsb.tail_compression = kOutcomeTailCompression;
    return optimizer;
}

// The dense step by Thompson sampling (AcquisitionProblem::thompson): the raw samples in the order
// of one draw from `posterior`, the first that is not known once finalized (snapped and rounded);
// the first when every one is.
OptimizedCandidate thompson_candidate(const AcquisitionProblem& problem, const EnsemblePosterior& posterior,
                                      const CandidateTransforms& transforms, std::uint64_t seed) {
    Eigen::MatrixXd candidates(static_cast<Eigen::Index>(problem.raw_samples.size()), posterior.dimension());
    for (std::size_t i = 0; i < problem.raw_samples.size(); ++i)
        candidates.row(static_cast<Eigen::Index>(i)) = problem.raw_samples[i].transpose();
    OptimizedCandidate candidate;
    candidate.repeats_known = true;
    for (const Eigen::Index i : thompson_order(posterior, candidates, seed ^ 0x54686F6D70736Eull)) {  // "Thompsn"
        Eigen::VectorXd x = transforms.finalize(candidates.row(i).transpose());
        const bool known = transforms.is_known && transforms.is_known(x);
        if (candidate.x.size() == 0 || !known) candidate.x = std::move(x);
        if (!known) {
            candidate.repeats_known = false;
            break;
        }
    }
    candidate.value = problem.acquisition->exact_value(candidate.x);
    return candidate;
}

}  // namespace

std::uint64_t derived_seed(std::uint64_t a, std::uint64_t b) {
    std::uint64_t z = a + 0x9E3779B97F4A7C15ull * (b + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t model_step_seed(const Experiment& experiment) { return derived_seed(experiment.seed, experiment.trials.size()); }

BatchFantasies::BatchFantasies(const MetricTraining& training, std::vector<std::vector<GpHyperparameters>> samples,
                               const Experiment& experiment, std::optional<OutcomeModelUnits> units)
    : samples_(std::move(samples)), units_(std::move(units)) {
    for (std::size_t j = 0; j < samples_.size(); ++j) {
        augmented_.push_back(std::make_shared<TrainingData>(*training.sets[j].data));
        posteriors_.push_back(std::make_shared<const EnsemblePosterior>(training.sets[j].data, samples_[j]));
    }
    if (units_) points_ = observed_outcome_points(experiment, training, *units_);
    for (const Trial& t : experiment.trials)
        if (t.status == TrialStatus::Pending) add(to_unit_vector(experiment.space, t.parameters));
}

void BatchFantasies::add(const Eigen::VectorXd& x) {
    if (units_) points_.push_back(fantasy_outcome_point(x, posteriors_, *units_));
    for (std::size_t j = 0; j < posteriors_.size(); ++j) {
        const PosteriorMoments m = posteriors_[j]->mixture(x.transpose());
        TrainingData& data = *augmented_[j];
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
    for (std::size_t j = 0; j < posteriors_.size(); ++j)
        posteriors_[j] = std::make_shared<const EnsemblePosterior>(augmented_[j], samples_[j]);
}

CandidateSearch::CandidateSearch(const Experiment& experiment, const MethodSettings& settings, const MetricTraining& training,
                                 std::optional<OutcomeModelUnits> units, std::vector<std::vector<GpHyperparameters>> samples)
    : experiment_(experiment),
      settings_(settings),
      units_(units),
      penalty_(make_sparsity_penalty(experiment.space, settings.resolved_penalty(), settings.min_active.value_or(0))),
      transforms_(candidate_transforms(experiment, known_)),
      optimizer_(optimizer_options(settings, units.has_value())),
      fantasies_(training, std::move(samples), experiment, std::move(units)),
      step_seed_(model_step_seed(experiment)) {}

CandidateSearch::Member CandidateSearch::next(const StepControl& control) const {
    // The acquisition over observations and fantasies (the posteriors' data), and its raw samples.
    const std::uint64_t seed = derived_seed(step_seed_, 100 + static_cast<std::uint64_t>(members_));
    const auto& posteriors = fantasies_.posteriors();
    Member member;
    member.problem = units_ ? make_outcome_acquisition_problem(experiment_.space, settings_, posteriors, *units_,
                                                               fantasies_.points(), penalty_, seed)
                            : make_acquisition_problem(experiment_.space, settings_, posteriors.front(), penalty_, seed,
                                                       dense_start(experiment_, settings_, posteriors.front().get()));
    member.candidate =
        member.problem.thompson
            ? thompson_candidate(member.problem, *posteriors.front(), transforms_, seed)
            : optimize_acquisition(*member.problem.acquisition, member.problem.raw_samples, transforms_, optimizer_, control);
    return member;
}

void CandidateSearch::accept(const Eigen::VectorXd& x) {
    known_.push_back(x);
    fantasies_.add(x);
    ++members_;
}

}  // namespace sebo
