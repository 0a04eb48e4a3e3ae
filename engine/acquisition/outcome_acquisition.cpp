#include "acquisition/outcome_acquisition.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace sebo {

namespace {

// Zero gradients of the right sizes for metrics the form does not depend on.
void zero_gradients(std::span<const MixtureMoments> moments, std::vector<MixtureGradient>& gradient) {
    gradient.resize(moments.size());
    for (std::size_t d = 0; d < moments.size(); ++d) {
        gradient[d].dmean.setZero(moments[d].mean.size());
        gradient[d].dvar.setZero(moments[d].var.size());
    }
}

// Every view's moments at x, with the pullbacks of their chain rule when asked for.
void view_moments(const std::vector<std::shared_ptr<const PosteriorView>>& views, const Eigen::VectorXd& x,
                  std::vector<MixtureMoments>& moments, std::vector<PosteriorView::MomentsPullback>* pullbacks) {
    moments.resize(views.size());
    if (pullbacks) pullbacks->resize(views.size());
    for (std::size_t d = 0; d < views.size(); ++d) {
        if (pullbacks)
            (*pullbacks)[d] = views[d]->moments_with_pullback(x, moments[d].mean, moments[d].var);
        else
            views[d]->moments(x, moments[d].mean, moments[d].var, nullptr, nullptr);
    }
}

void add_input_gradient(const std::vector<PosteriorView::MomentsPullback>& pullbacks,
                        const std::vector<MixtureGradient>& gradient, Eigen::VectorXd& grad) {
    for (std::size_t d = 0; d < gradient.size(); ++d) grad += pullbacks[d](gradient[d].dmean, gradient[d].dvar);
}

}  // namespace

OutcomeAcquisition::OutcomeAcquisition(OutcomeViews views, FeasibilityProbability feasibility, Form form,
                                       std::optional<SparsityPenalty> penalty)
    : views_(std::move(views)), feasibility_(std::move(feasibility)), form_(std::move(form)), penalty_(std::move(penalty)) {
    assert(static_cast<int>(views_.constrained.size()) == feasibility_.metric_count());
    assert(!uses_penalty() || penalty_);
    assert(!std::holds_alternative<SparseEhvi>(form_) ||
           static_cast<int>(views_.objectives.size()) == std::get<SparseEhvi>(form_).ehvi.objectives());
}

bool OutcomeAcquisition::uses_penalty(const Form& form) {
    return std::holds_alternative<SparseEhvi>(form) || std::holds_alternative<EiExternal>(form) ||
           std::holds_alternative<EiInternal>(form) || std::holds_alternative<SparseFeasibility>(form);
}

bool OutcomeAcquisition::uses_l0_surrogate() const { return uses_penalty() && penalty_->kind() == PenaltyKind::L0; }

double OutcomeAcquisition::combine(std::span<const MixtureMoments> objectives, std::span<const MixtureMoments> constrained,
                                   double xi, ConstrainedGradient* gradient) const {
    return combine(form_, feasibility_, objectives, constrained, xi, gradient);
}

double OutcomeAcquisition::combine(const Form& form, const FeasibilityProbability& feasibility,
                                   std::span<const MixtureMoments> objectives, std::span<const MixtureMoments> constrained,
                                   double xi, ConstrainedGradient* gradient) {
    if (const auto* f = std::get_if<SparseEhvi>(&form))
        return log_sparse_ehvi_times_feasibility(f->ehvi, objectives, xi, feasibility, constrained, gradient);
    if (const auto* f = std::get_if<Ehvi>(&form))
        return log_ehvi_times_feasibility(f->ehvi, objectives, feasibility, constrained, gradient);
    if (const auto* f = std::get_if<Ei>(&form))
        return log_ei_times_feasibility(objectives[0], f->best, feasibility, constrained, gradient);
    if (const auto* f = std::get_if<EiExternal>(&form)) {
        // EI × PoF − λξ in linear units, as EiExternalRegularization.
        const double ei = std::exp(log_ei_times_feasibility(objectives[0], f->best, feasibility, constrained, gradient));
        if (gradient) {
            for (auto* part : {&gradient->objectives, &gradient->constrained})
                for (MixtureGradient& g : *part) {
                    g.dmean *= ei;
                    g.dvar *= ei;
                }
            gradient->dxi = -f->lambda;
        }
        return ei - f->lambda * xi;
    }
    if (const auto* f = std::get_if<EiInternal>(&form)) {
        // g = f − λξ shifts every sample's mean, as EiInternalRegularization.
        MixtureMoments shifted = objectives[0];
        shifted.mean.array() -= f->lambda * xi;
        const double v = log_ei_times_feasibility(shifted, f->best_g, feasibility, constrained, gradient);
        if (gradient) gradient->dxi = -f->lambda * gradient->objectives[0].dmean.sum();
        return v;
    }
    // The feasibility phase: no objective enters.
    double v = feasibility.log_value(constrained, gradient ? &gradient->constrained : nullptr);
    if (gradient) {
        zero_gradients(objectives, gradient->objectives);
        gradient->dxi = 0.0;
    }
    if (const auto* f = std::get_if<SparseFeasibility>(&form)) {
        if (!(xi < f->reference_xi)) return v + SparseMultiEhvi::kLogZero;
        v += std::log(f->reference_xi - xi);
        if (gradient) gradient->dxi = -1.0 / (f->reference_xi - xi);
    }
    return v;
}

double OutcomeAcquisition::evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx,
                                    Eigen::VectorXd* grad) const {
    const bool needs_objectives = !std::holds_alternative<Feasibility>(form_) && !std::holds_alternative<SparseFeasibility>(form_);
    std::vector<MixtureMoments> objectives, constrained;
    std::vector<PosteriorView::MomentsPullback> objective_pullbacks, constrained_pullbacks;
    if (needs_objectives) view_moments(views_.objectives, x, objectives, grad ? &objective_pullbacks : nullptr);
    view_moments(views_.constrained, x, constrained, grad ? &constrained_pullbacks : nullptr);
    ConstrainedGradient g;
    const double v = combine(objectives, constrained, xi, grad ? &g : nullptr);
    if (grad) {
        grad->setZero(x.size());
        add_input_gradient(objective_pullbacks, g.objectives, *grad);
        add_input_gradient(constrained_pullbacks, g.constrained, *grad);
        if (dxi_dx) *grad += g.dxi * *dxi_dx;
    }
    return v;
}

double OutcomeAcquisition::value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const {
    if (!uses_penalty()) return evaluate(x, 0.0, nullptr, grad);
    Eigen::VectorXd dxi;
    const double xi = penalty_->smooth(x, a, grad ? &dxi : nullptr);
    return evaluate(x, xi, grad ? &dxi : nullptr, grad);
}

double OutcomeAcquisition::exact_value(const Eigen::VectorXd& x) const {
    return evaluate(x, uses_penalty() ? penalty_->exact(x) : 0.0, nullptr, nullptr);
}

Eigen::VectorXd OutcomeAcquisition::batch_values(const Eigen::MatrixXd& X, double a) const {
    const bool needs_objectives = !std::holds_alternative<Feasibility>(form_) && !std::holds_alternative<SparseFeasibility>(form_);
    auto batch = [&X](const std::vector<std::shared_ptr<const PosteriorView>>& views, std::vector<Eigen::MatrixXd>& mean,
                      std::vector<Eigen::MatrixXd>& var) {
        mean.resize(views.size());
        var.resize(views.size());
        for (std::size_t d = 0; d < views.size(); ++d) views[d]->batch_moments(X, mean[d], var[d]);
    };
    std::vector<Eigen::MatrixXd> objective_mean, objective_var, constrained_mean, constrained_var;
    if (needs_objectives) batch(views_.objectives, objective_mean, objective_var);
    batch(views_.constrained, constrained_mean, constrained_var);
    std::vector<MixtureMoments> objectives(objective_mean.size()), constrained(constrained_mean.size());
    Eigen::VectorXd out(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        for (std::size_t d = 0; d < objectives.size(); ++d) {
            objectives[d].mean = objective_mean[d].row(i).transpose();
            objectives[d].var = objective_var[d].row(i).transpose();
        }
        for (std::size_t j = 0; j < constrained.size(); ++j) {
            constrained[j].mean = constrained_mean[j].row(i).transpose();
            constrained[j].var = constrained_var[j].row(i).transpose();
        }
        const double xi = uses_penalty() ? penalty_->smooth(X.row(i).transpose(), a, nullptr) : 0.0;
        out[i] = combine(objectives, constrained, xi, nullptr);
    }
    return out;
}

OutcomeAcquisition::Form improvement_form(const ImprovementRule& rule, const std::vector<std::vector<double>>& objectives,
                                          const std::vector<double>& xi) {
    assert(objectives.size() == xi.size());
    using Kind = ImprovementRule::Kind;
    switch (rule.kind) {
    case Kind::SparseEhvi: {
        std::vector<SparseMultiEhvi::Observation> observed;
        observed.reserve(objectives.size());
        for (std::size_t i = 0; i < objectives.size(); ++i) observed.push_back({objectives[i], xi[i]});
        return OutcomeAcquisition::SparseEhvi{SparseMultiEhvi(observed, rule.reference, rule.reference_xi)};
    }
    case Kind::Ehvi: return OutcomeAcquisition::Ehvi{MultiEhvi(objectives, rule.reference)};
    case Kind::Ei:
    case Kind::EiExternal:
    case Kind::EiInternal: break;
    }
    double best = rule.reference[0], best_g = rule.reference[0] - rule.lambda * rule.reference_xi;
    if (!objectives.empty()) {
        best = best_g = -std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < objectives.size(); ++i) {
            best = std::max(best, objectives[i][0]);
            best_g = std::max(best_g, objectives[i][0] - rule.lambda * xi[i]);
        }
    }
    if (rule.kind == Kind::EiExternal) return OutcomeAcquisition::EiExternal{best, rule.lambda};
    if (rule.kind == Kind::EiInternal) return OutcomeAcquisition::EiInternal{best_g, rule.lambda};
    return OutcomeAcquisition::Ei{best};
}

}  // namespace sebo
