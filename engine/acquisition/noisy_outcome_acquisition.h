#pragma once
// The acquisition of a step with several objectives or outcome constraints that does not trust noisy
// measurements (issue 30 item 3): acquisition/outcome_acquisition.h's forms integrated over the
// posterior at the measured configurations — the constrained noisy EI of Letham, Karrer, Ottoni &
// Bakshy (2019, §4) and the qNEHVI idea of Daulton, Balandat & Bakshy (2021), in closed form per
// component, as acquisition/noisy_acquisition.h does for one objective.
//
// Components. Every modelled metric k has its own model and its own baseline draws
// (model/fantasy_posterior.h): T_k = S_k·J_k components, component t a draw of the metric's latent
// values at the baseline U and the metric's GP conditioned on it. The metrics' models are fitted
// independently, so a draw of each metric, taken together, is a draw of all of them jointly: the
// acquisition's component t pairs component t mod T_k of every metric (T = max_k T_k; with equal
// T_k, the normal case, component t of each). With several model samples, component t = s·J + j
// takes sample s of every metric, as BoTorch's batched posteriors pair the MCMC samples of a list
// of fully Bayesian models: an unbiased estimate over the product of the metrics' sample sets.
// (Today's OutcomeAcquisition integrates that product exactly, because its one front lets the
// improvement factor over the metrics; one front per component does not.) In component t
//  - a baseline point u is feasible when every constrained metric's drawn value at u lies within
//    its bounds (FeasibilityProbability's intervals, bounds included);
//  - the front (EHVI forms: of the feasible points' drawn objectives, with the points' penalties
//    ξ_u for SEBO) or the incumbent (EI forms: the best feasible drawn f_1, EI-IR the best
//    f_1 − λξ) is that of the draw (improvement_form of outcome_acquisition.h; no feasible point:
//    an empty front, or the reference point's value);
//  - the candidate's objectives and constrained metrics have their components' conditioned
//    posteriors, and A_t(x) = OutcomeAcquisition::combine of the component's form: log(EHVI_t ×
//    PoF_t), log(EI_t × PoF_t), or EI_t × PoF_t − λξ for EI-ER.
// Given component t the metrics at x are independent, so EHVI_t × PoF_t is the expected improvement
// of a feasible candidate under that component (feasibility_weighted.h; a constraint on an objective
// is the same approximation as there). The value is the average over the components,
//     log (1/T) Σ_t exp A_t(x)     (EI-ER: (1/T) Σ_t A_t(x), as NoisyEiExternalRegularization),
// by log-sum-exp, with the gradient by the chain rule through each metric's components in one pass
// per model sample (FantasyPosterior::gradient).
//
// The baseline. Every model's baseline begins with the same P points (FantasyPosterior's `leading`
// rows): the points a front is made of. The other baseline rows (configurations a metric's data has
// beyond them) are conditioned on and take no part in the fronts.
//
// With negligible noise every draw is the measured values and every conditioned GP the fitted
// GP: with one-sample models (MAP) the value is OutcomeAcquisition's over the measurements, and
// with S samples the average over s of that value with sample s of every metric
// (tests/engine/test_noisy_outcome_step.cpp; against Monte Carlo:
// tests/engine/test_noisy_outcome_acquisition.cpp).

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <vector>

#include "acquisition/acquisition.h"
#include "acquisition/feasibility.h"
#include "acquisition/outcome_acquisition.h"
#include "acquisition/sparsity_penalty.h"
#include "model/fantasy_posterior.h"

namespace sebo {

struct NoisyOutcomeModels {
    std::vector<std::shared_ptr<const FantasyPosterior>> objectives;   // m, the ImprovementRule's
    std::vector<std::shared_ptr<const FantasyPosterior>> constrained;  // FeasibilityProbability's metric order
};

class NoisyOutcomeAcquisition final : public AcquisitionFunction {
public:
    // Every model's baseline begins with the same P = baseline_xi.size() points, whose penalties
    // are baseline_xi; `penalty` is required by the sparse form, EI-ER and EI-IR; the rule's
    // reference has one value per objective model.
    NoisyOutcomeAcquisition(NoisyOutcomeModels models, FeasibilityProbability feasibility, const ImprovementRule& rule,
                            const Eigen::VectorXd& baseline_xi, std::optional<SparsityPenalty> penalty);

    double value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const override;
    double exact_value(const Eigen::VectorXd& x) const override;
    Eigen::VectorXd batch_values(const Eigen::MatrixXd& X, double a) const override;
    bool uses_l0_surrogate() const override;

    int components() const { return static_cast<int>(forms_.size()); }
    // Component t's feasible baseline points (indices below P).
    const std::vector<std::vector<int>>& feasible_points() const { return feasible_; }
    // Whether some component has a feasible baseline point (otherwise every form measures from the
    // reference alone, and the caller uses the feasibility forms instead).
    bool any_feasible() const;
    const std::vector<OutcomeAcquisition::Form>& forms() const { return forms_; }

private:
    double evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx, Eigen::VectorXd* grad) const;
    // The average of the components' values; `shares` (optional) receives each one's weight in
    // the derivative of the average.
    double average(const Eigen::VectorXd& values, Eigen::VectorXd* shares) const;

    std::vector<std::shared_ptr<const FantasyPosterior>> models_;  // distinct
    std::vector<int> sizes_;                                       // components of each
    std::vector<int> objective_model_, constrained_model_;         // index into models_
    FeasibilityProbability feasibility_;
    std::vector<OutcomeAcquisition::Form> forms_;  // one per component
    std::vector<std::vector<int>> feasible_;
    std::optional<SparsityPenalty> penalty_;
    bool uses_penalty_ = false;
    bool linear_ = false;  // EI-ER: a linear average
};

}  // namespace sebo
