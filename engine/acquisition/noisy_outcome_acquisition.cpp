#include "acquisition/noisy_outcome_acquisition.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <utility>

namespace sebo {

namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

// One-Gaussian moments of each metric for the component at hand (the components are single GPs).
std::vector<MixtureMoments> single_moments(std::size_t metrics) {
    std::vector<MixtureMoments> out(metrics);
    for (MixtureMoments& m : out) {
        m.mean.resize(1);
        m.var.resize(1);
    }
    return out;
}

// Component t of each metric of `model_of` into `out`: model k's component t mod T_k (sizes[k] =
// T_k), whose mean and variance at(k, component) returns.
template <class At>
void fill_component(const std::vector<int>& model_of, const std::vector<int>& sizes, int t, At at,
                    std::vector<MixtureMoments>& out) {
    for (std::size_t d = 0; d < model_of.size(); ++d) {
        const auto k = static_cast<std::size_t>(model_of[d]);
        const auto [mean, var] = at(k, static_cast<Eigen::Index>(t % sizes[k]));
        out[d].mean[0] = mean;
        out[d].var[0] = var;
    }
}

}  // namespace

NoisyOutcomeAcquisition::NoisyOutcomeAcquisition(NoisyOutcomeModels models, FeasibilityProbability feasibility,
                                                 const ImprovementRule& rule, const Eigen::VectorXd& baseline_xi,
                                                 std::optional<SparsityPenalty> penalty)
    : feasibility_(std::move(feasibility)), penalty_(std::move(penalty)) {
    // A constraint on an objective shares the objective's model (and so its draws).
    const auto index_of = [this](const std::shared_ptr<const FantasyPosterior>& model) {
        assert(model);
        const auto it = std::find(models_.begin(), models_.end(), model);
        if (it != models_.end()) return static_cast<int>(it - models_.begin());
        models_.push_back(model);
        return static_cast<int>(models_.size()) - 1;
    };
    for (const auto& model : models.objectives) objective_model_.push_back(index_of(model));
    for (const auto& model : models.constrained) constrained_model_.push_back(index_of(model));
    assert(!objective_model_.empty() && objective_model_.size() == rule.reference.size());
    assert(static_cast<int>(constrained_model_.size()) == feasibility_.metric_count());

    int T = 0;
    for (const auto& model : models_) {
        assert(model->baseline().rows() >= baseline_xi.size());
        sizes_.push_back(model->size());
        T = std::max(T, model->size());
    }
    const auto drawn = [this](int model, Eigen::Index u, int t) {
        const FantasyPosterior& f = *models_[static_cast<std::size_t>(model)];
        return f.baseline_draws()(u, t % f.size());
    };
    // Each component's feasible points and their drawn objectives make its front or incumbent.
    feasible_.resize(static_cast<std::size_t>(T));
    forms_.reserve(static_cast<std::size_t>(T));
    std::vector<std::vector<double>> objectives;
    std::vector<double> xi;
    for (int t = 0; t < T; ++t) {
        objectives.clear();
        xi.clear();
        for (Eigen::Index u = 0; u < baseline_xi.size(); ++u) {
            bool feasible = true;
            for (std::size_t j = 0; j < constrained_model_.size() && feasible; ++j) {
                const double v = drawn(constrained_model_[j], u, t);
                feasible = v >= feasibility_.lower(static_cast<int>(j)) && v <= feasibility_.upper(static_cast<int>(j));
            }
            if (!feasible) continue;
            feasible_[static_cast<std::size_t>(t)].push_back(static_cast<int>(u));
            std::vector<double> f;
            for (int model : objective_model_) f.push_back(drawn(model, u, t));
            objectives.push_back(std::move(f));
            xi.push_back(baseline_xi[u]);
        }
        forms_.push_back(improvement_form(rule, objectives, xi));
    }
    uses_penalty_ = OutcomeAcquisition::uses_penalty(forms_.front());
    linear_ = std::holds_alternative<OutcomeAcquisition::EiExternal>(forms_.front());
    assert(!uses_penalty_ || penalty_);
}

bool NoisyOutcomeAcquisition::any_feasible() const {
    return std::any_of(feasible_.begin(), feasible_.end(), [](const std::vector<int>& f) { return !f.empty(); });
}

bool NoisyOutcomeAcquisition::uses_l0_surrogate() const { return uses_penalty_ && penalty_->kind() == PenaltyKind::L0; }

double NoisyOutcomeAcquisition::average(const Eigen::VectorXd& values, Eigen::VectorXd* shares) const {
    const auto T = static_cast<double>(values.size());
    if (linear_) {
        if (shares) shares->setConstant(values.size(), 1.0 / T);
        return values.mean();
    }
    // log (1/T) Σ_t exp(values_t), stable; a component's share of the derivative is exp(v_t − value)/T.
    const double largest = values.maxCoeff();
    if (!(largest > kMinusInfinity)) {
        if (shares) shares->setZero(values.size());
        return kMinusInfinity;
    }
    const Eigen::ArrayXd scaled = (values.array() - largest).exp();
    const double sum = scaled.sum();
    if (shares) *shares = scaled.matrix() / sum;
    return largest + std::log(sum) - std::log(T);
}

double NoisyOutcomeAcquisition::evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx,
                                         Eigen::VectorXd* grad) const {
    const std::size_t models = models_.size();
    std::vector<Eigen::VectorXd> mean(models), var(models);
    std::vector<FantasyPosterior::Workspace> workspace(grad ? models : 0);
    for (std::size_t k = 0; k < models; ++k) models_[k]->moments(x, mean[k], var[k], grad ? &workspace[k] : nullptr);

    const std::size_t m = objective_model_.size(), c = constrained_model_.size();
    std::vector<MixtureMoments> objectives = single_moments(m), constrained = single_moments(c);
    const int T = components();
    Eigen::VectorXd values(T);
    // Per component (column): ∂A_t/∂ of each objective's mean and variance, each constrained
    // metric's, and ξ.
    Eigen::MatrixXd partial(grad ? static_cast<Eigen::Index>(2 * (m + c) + 1) : 0, T);
    ConstrainedGradient g;
    for (int t = 0; t < T; ++t) {
        const auto at = [&](std::size_t k, Eigen::Index component) { return std::pair(mean[k][component], var[k][component]); };
        fill_component(objective_model_, sizes_, t, at, objectives);
        fill_component(constrained_model_, sizes_, t, at, constrained);
        values[t] = OutcomeAcquisition::combine(forms_[static_cast<std::size_t>(t)], feasibility_, objectives, constrained,
                                                xi, grad ? &g : nullptr);
        if (!grad) continue;
        Eigen::Index row = 0;
        for (const auto* part : {&g.objectives, &g.constrained})
            for (const MixtureGradient& pg : *part) {
                partial(row++, t) = pg.dmean[0];
                partial(row++, t) = pg.dvar[0];
            }
        partial(row, t) = g.dxi;
    }
    Eigen::VectorXd shares;
    const double value = average(values, grad ? &shares : nullptr);
    if (!grad) return value;

    // The chain rule: each metric's components collect their shares, one gradient pass per model.
    grad->setZero(x.size());
    std::vector<Eigen::VectorXd> dmean(models), dvar(models);
    for (std::size_t k = 0; k < models; ++k) {
        dmean[k].setZero(mean[k].size());
        dvar[k].setZero(var[k].size());
    }
    double dxi = 0.0;
    for (int t = 0; t < T; ++t) {
        const double share = shares[t];
        if (share == 0.0) continue;  // a component without improvement (its partials may be undefined)
        Eigen::Index row = 0;
        for (const std::vector<int>* model_of : {&objective_model_, &constrained_model_})
            for (const int model : *model_of) {
                const auto k = static_cast<std::size_t>(model);
                const Eigen::Index component = t % sizes_[k];
                dmean[k][component] += share * partial(row++, t);
                dvar[k][component] += share * partial(row++, t);
            }
        dxi += share * partial(row, t);
    }
    for (std::size_t k = 0; k < models; ++k) *grad += models_[k]->gradient(workspace[k], dmean[k], dvar[k]);
    if (dxi_dx) *grad += dxi * *dxi_dx;
    return value;
}

double NoisyOutcomeAcquisition::value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const {
    if (!uses_penalty_) return evaluate(x, 0.0, nullptr, grad);
    Eigen::VectorXd dxi;
    const double xi = penalty_->smooth(x, a, grad ? &dxi : nullptr);
    return evaluate(x, xi, grad ? &dxi : nullptr, grad);
}

double NoisyOutcomeAcquisition::exact_value(const Eigen::VectorXd& x) const {
    return evaluate(x, uses_penalty_ ? penalty_->exact(x) : 0.0, nullptr, nullptr);
}

Eigen::VectorXd NoisyOutcomeAcquisition::batch_values(const Eigen::MatrixXd& X, double a) const {
    const std::size_t models = models_.size();
    std::vector<Eigen::MatrixXd> mean(models), var(models);
    for (std::size_t k = 0; k < models; ++k) models_[k]->batch_moments(X, mean[k], var[k]);
    std::vector<MixtureMoments> objectives = single_moments(objective_model_.size()),
                                constrained = single_moments(constrained_model_.size());
    const int T = components();
    Eigen::VectorXd values(T), out(X.rows());
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
        const double xi = uses_penalty_ ? penalty_->smooth(X.row(i).transpose(), a, nullptr) : 0.0;
        for (int t = 0; t < T; ++t) {
            const auto at = [&](std::size_t k, Eigen::Index component) {
                return std::pair(mean[k](i, component), var[k](i, component));
            };
            fill_component(objective_model_, sizes_, t, at, objectives);
            fill_component(constrained_model_, sizes_, t, at, constrained);
            values[t] = OutcomeAcquisition::combine(forms_[static_cast<std::size_t>(t)], feasibility_, objectives,
                                                    constrained, xi, nullptr);
        }
        out[i] = average(values, nullptr);
    }
    return out;
}

}  // namespace sebo
