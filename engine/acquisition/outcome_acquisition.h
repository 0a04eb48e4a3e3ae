#pragma once
// The acquisition of a model-based step with several objectives or outcome constraints (SPEC §10,
// issue 13 item 4): feasibility_weighted.h's values over the posteriors of one model per metric,
// as an AcquisitionFunction of the unit cube (values and gradients w.r.t. x by the chain rule
// through every model's per-sample moments and the sparsity penalty).
//
// The forms (experiment/outcome_step.h chooses one per step):
//  - SparseEhvi: SEBO — log(EHVI(f_1..f_m, −ξ) × PoF), ξ the penalty's surrogate during the
//    optimization (homotopy for L0) and the exact penalty in exact_value.
//  - Ehvi: the EI-based strategies with m > 1 — log(EHVI(f_1..f_m) × PoF), no sparsity.
//  - Ei: the EI-based strategies with one objective — log(EI × PoF).
//  - EiExternal / EiInternal: EI-ER (EI × PoF − λξ, not a logarithm, as EiExternalRegularization)
//    and EI-IR (log(EI(f − λξ) × PoF), as EiInternalRegularization) with one objective.
//  - Feasibility: log PoF alone — what every non-SEBO strategy maximizes while no trial is feasible.
//  - SparseFeasibility: SEBO while no trial is feasible — log(PoF × (r_ξ − ξ)), the expected
//    improvement of the sparsity axis alone (the front is empty: any feasible point improves the
//    hypervolume of −ξ by r_ξ − ξ). log PoF dominates wherever feasibility is unlikely, and among
//    likely feasible points fewer changes win; ξ is the surrogate, so the homotopy applies.
//
// The models: `objectives` (m views, the first m modelled metrics) and `constrained` (one view per
// constrained metric, FeasibilityProbability's metric order; a constraint on an objective repeats
// that objective's view — the product is then an approximation, feasibility_weighted.h).

#include <memory>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "acquisition/acquisition.h"
#include "acquisition/feasibility_weighted.h"
#include "acquisition/sparsity_penalty.h"

namespace sebo {

struct OutcomeViews {
    std::vector<std::shared_ptr<const PosteriorView>> objectives;
    std::vector<std::shared_ptr<const PosteriorView>> constrained;
};

class OutcomeAcquisition final : public AcquisitionFunction {
public:
    struct SparseEhvi {
        SparseMultiEhvi ehvi;
    };
    struct Ehvi {
        MultiEhvi ehvi;
    };
    struct Ei {
        double best = 0.0;  // the best feasible observation (model units)
    };
    struct EiExternal {
        double best = 0.0;
        double lambda = 0.0;
    };
    struct EiInternal {
        double best_g = 0.0;  // the best feasible f − λξ
        double lambda = 0.0;
    };
    struct Feasibility {};
    struct SparseFeasibility {
        double reference_xi = 0.0;
    };
    using Form = std::variant<SparseEhvi, Ehvi, Ei, EiExternal, EiInternal, Feasibility, SparseFeasibility>;

    // `penalty` is required by the sparse forms and EI-ER/EI-IR and ignored by the others; the
    // number of objective views must match the form (1 for the EI forms, the EHVI's m) and of
    // constrained views feasibility.metric_count().
    OutcomeAcquisition(OutcomeViews views, FeasibilityProbability feasibility, Form form,
                       std::optional<SparsityPenalty> penalty);

    double value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const override;
    double exact_value(const Eigen::VectorXd& x) const override;
    Eigen::VectorXd batch_values(const Eigen::MatrixXd& X, double a) const override;
    bool uses_l0_surrogate() const override;

    // The value at given moments (objectives, then constrained metrics) and penalty xi, with the
    // gradient w.r.t. them: the form's feasibility_weighted.h function (for tests and the bench).
    double combine(std::span<const MixtureMoments> objectives, std::span<const MixtureMoments> constrained, double xi,
                   ConstrainedGradient* gradient) const;
    // The same for any form: what the noisy acquisition evaluates once per component
    // (acquisition/noisy_outcome_acquisition.h).
    static double combine(const Form& form, const FeasibilityProbability& feasibility,
                          std::span<const MixtureMoments> objectives, std::span<const MixtureMoments> constrained,
                          double xi, ConstrainedGradient* gradient);
    // Whether the form depends on the sparsity penalty (the sparse forms, EI-ER and EI-IR).
    static bool uses_penalty(const Form& form);

    const Form& form() const { return form_; }

private:
    bool uses_penalty() const { return uses_penalty(form_); }
    double evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx, Eigen::VectorXd* grad) const;

    OutcomeViews views_;
    FeasibilityProbability feasibility_;
    Form form_;
    std::optional<SparsityPenalty> penalty_;
};

// How a step measures improvement once some point is feasible, before it knows which: the
// strategy's form, the reference point in model units and λ. improvement_form() makes the form
// against the feasible points — today's step against the measured values, and the noisy
// acquisition against each of its components' drawn values.
struct ImprovementRule {
    enum class Kind { SparseEhvi, Ehvi, Ei, EiExternal, EiInternal };
    Kind kind = Kind::SparseEhvi;
    std::vector<double> reference;  // per objective (the EHVI forms; the EI forms' floor)
    double reference_xi = 0.0;      // the sparsity side of the reference point
    double lambda = 0.0;            // EI-ER, EI-IR
};

// The rule's form against feasible points with objectives `objectives[i]` (model units,
// maximized; each of the reference's size) and penalties `xi[i]`: SparseEhvi over their front in
// (f_1..f_m, −ξ), Ehvi over their front in (f_1..f_m), Ei and EiExternal over the best f_1,
// EiInternal over the best f_1 − λξ. With no feasible point the EHVI forms have an empty front
// (any feasible candidate improves on the reference point), and the EI forms measure improvement
// from the reference point's objective value (EI-IR: from reference[0] − λ reference_xi, the worst g
// inside the reference box), as the EHVI forms do.
OutcomeAcquisition::Form improvement_form(const ImprovementRule& rule, const std::vector<std::vector<double>>& objectives,
                                          const std::vector<double>& xi);

}  // namespace sebo
