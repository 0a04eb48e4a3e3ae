#pragma once
// Everything of a model step after the fit (issue 34): given the experiment and the fitted
// hyperparameter samples of each modelled metric, the acquisition of each member of the batch —
// over the observations and the fantasies of the pending trials and earlier members ("kriging
// believer") — and its optimum. ModelStrategy::propose fits the models and then asks this for its
// candidates; a recorded step (tests/data/step_corpus) is replayed through it without refitting,
// and the acquisition it returns values any other point the way the step's optimizer did.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "experiment/model_step.h"
#include "experiment/outcome_step.h"

namespace sebo {

// The seeds of a model step: the step's own, from the experiment's seed and its number of trials;
// from it derive the fit's (derived_seed(step, 1)) and each batch member's acquisition
// (derived_seed(step, 100 + k)).
std::uint64_t model_step_seed(const Experiment& experiment);
std::uint64_t derived_seed(std::uint64_t seed, std::uint64_t part);

// The models' data with fantasies: pending trials first, then the batch's earlier members, each
// at every model's posterior mean; with several metrics also as points of the front.
class BatchFantasies {
public:
    // samples[j]: the fitted hyperparameter samples of training.sets[j]'s model.
    BatchFantasies(const MetricTraining& training, std::vector<std::vector<GpHyperparameters>> samples,
                   const Experiment& experiment, std::optional<OutcomeModelUnits> units);

    void add(const Eigen::VectorXd& x);

    const std::vector<std::shared_ptr<const EnsemblePosterior>>& posteriors() const { return posteriors_; }
    const std::vector<OutcomePoint>& points() const { return points_; }

private:
    std::vector<std::vector<GpHyperparameters>> samples_;
    std::optional<OutcomeModelUnits> units_;
    std::vector<std::shared_ptr<TrainingData>> augmented_;
    std::vector<std::shared_ptr<const EnsemblePosterior>> posteriors_;
    std::vector<OutcomePoint> points_;
};

// The candidates of one model step, member after member.
class CandidateSearch {
public:
    // `training` as make_metric_training made it for the step, `units` set exactly when the
    // experiment has several metrics (outcome_model_units), samples[j] the fitted hyperparameter
    // samples of training.metrics[j]'s model (each gives a non-empty posterior). `settings` are
    // the strategy's; the acquisitions' seeds follow model_step_seed(experiment). Keeps references
    // to `experiment` and `settings`, which must outlive it.
    CandidateSearch(const Experiment& experiment, const MethodSettings& settings, const MetricTraining& training,
                    std::optional<OutcomeModelUnits> units, std::vector<std::vector<GpHyperparameters>> samples);
    // The transforms hold a view of the known configurations kept here.
    CandidateSearch(const CandidateSearch&) = delete;
    CandidateSearch& operator=(const CandidateSearch&) = delete;

    struct Member {
        AcquisitionProblem problem;  // the acquisition the candidate maximizes, and its raw samples
        OptimizedCandidate candidate;
    };
    // The acquisition of the next member of the batch and its optimum (status Cancelled when
    // `control` stopped it). Call accept() with the member's configuration before the next one.
    Member next(const StepControl& control) const;
    // The member's final unit-cube point (after BONSAI's pruning, when it prunes): a known
    // configuration from now on, and a fantasy for the next member.
    void accept(const Eigen::VectorXd& x);

    // Snapping, rounding, the known configurations and the feasible set of the step.
    const CandidateTransforms& transforms() const { return transforms_; }
    // The first objective's posterior over observations and fantasies (BONSAI prunes against its data).
    const EnsemblePosterior& first_posterior() const { return *fantasies_.posteriors().front(); }

private:
    const Experiment& experiment_;
    const MethodSettings& settings_;
    std::optional<OutcomeModelUnits> units_;
    SparsityPenalty penalty_;
    std::vector<Eigen::VectorXd> known_;
    CandidateTransforms transforms_;
    AcquisitionOptimizerOptions optimizer_;
    BatchFantasies fantasies_;
    std::uint64_t step_seed_;
    int members_ = 0;
};

}  // namespace sebo
