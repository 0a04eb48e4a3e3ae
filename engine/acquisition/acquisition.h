#pragma once
// Acquisition functions over a fitted posterior, maximized over the unit cube (paper §3–5).
//
// Every acquisition is a small object built from what changes per iteration (the posterior, the
// incumbent, the current front, the penalty), checked at construction. value(x, a, grad) is what
// the optimizer maximizes, with `a` the smoothing of the L0 surrogate φ_a (ignored when the
// acquisition has no L0 penalty); exact_value(x) replaces the surrogate by the exact penalty and
// picks the final candidate among snapped points. EI-type values are returned as logarithms
// (monotone, so maxima are unchanged, but finite and informative far from the incumbent).

#include <Eigen/Core>
#include <memory>

#include "model/posterior_view.h"
#include "acquisition/sparse_ehvi.h"
#include "acquisition/sparsity_penalty.h"

namespace sebo {

class AcquisitionFunction {
public:
    virtual ~AcquisitionFunction() = default;
    virtual double value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const = 0;
    virtual double exact_value(const Eigen::VectorXd& x) const = 0;
    // Values at the rows of X (no gradients), for screening raw samples.
    virtual Eigen::VectorXd batch_values(const Eigen::MatrixXd& X, double a) const;
    // True when the acquisition contains the L0 surrogate, i.e. `a` matters (homotopy applies).
    virtual bool uses_l0_surrogate() const { return false; }
};

// log of the mixture-averaged expected improvement over the incumbent best (standardized):
// GPEI with a standard GP, SAASBO with the SAAS ensemble.
class LogExpectedImprovement final : public AcquisitionFunction {
public:
    LogExpectedImprovement(std::shared_ptr<const PosteriorView> posterior, double best);
    double value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const override;
    double exact_value(const Eigen::VectorXd& x) const override { return value(x, 1.0, nullptr); }
    Eigen::VectorXd batch_values(const Eigen::MatrixXd& X, double a) const override;

private:
    std::shared_ptr<const PosteriorView> posterior_;
    double best_;
};

// An acquisition that depends on x through the posterior and a sparsity penalty ξ(x): value()
// uses the penalty's smooth surrogate at a, exact_value() the exact penalty; subclasses say how
// the posterior moments and ξ combine.
class PenalizedAcquisition : public AcquisitionFunction {
public:
    double value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const override;
    double exact_value(const Eigen::VectorXd& x) const override;
    bool uses_l0_surrogate() const override { return penalty_.kind() == PenaltyKind::L0; }

protected:
    PenalizedAcquisition(std::shared_ptr<const PosteriorView> posterior, SparsityPenalty penalty);
    // The value at x with penalty value xi; when grad is set, dxi_dx is ∂ξ/∂x and grad receives
    // the total gradient.
    virtual double evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx,
                            Eigen::VectorXd* grad) const = 0;

    std::shared_ptr<const PosteriorView> posterior_;
    SparsityPenalty penalty_;
};

// SEBO: log EHVI of (f, −ξ) against the current front (paper eq. 7, closed form in
// acquisition/sparse_ehvi.h), ξ the penalty's surrogate during optimization.
class SeboEhvi final : public PenalizedAcquisition {
public:
    SeboEhvi(std::shared_ptr<const PosteriorView> posterior, SparsityPenalty penalty, SparseEhviFront front);
    Eigen::VectorXd batch_values(const Eigen::MatrixXd& X, double a) const override;

private:
    double evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx, Eigen::VectorXd* grad) const override;

    SparseEhviFront front_;
};

// EI with external regularization (paper eq. 4): α_EI(x) − λ ξ(x). Not in log space: the
// subtraction needs the EI itself.
class EiExternalRegularization final : public PenalizedAcquisition {
public:
    EiExternalRegularization(std::shared_ptr<const PosteriorView> posterior, double best, SparsityPenalty penalty,
                             double lambda);

private:
    double evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx, Eigen::VectorXd* grad) const override;

    double best_;
    double lambda_;
};

// EI with internal regularization (paper eq. 6): log EI of g = f − λ ξ, whose posterior is
// N(μ − λ ξ(x), σ²), over the incumbent best of g (computed by the caller with the exact
// penalty at the observed points).
class EiInternalRegularization final : public PenalizedAcquisition {
public:
    EiInternalRegularization(std::shared_ptr<const PosteriorView> posterior, double best_g, SparsityPenalty penalty,
                             double lambda);

private:
    double evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx, Eigen::VectorXd* grad) const override;

    double best_g_;
    double lambda_;
};

// The mixture-averaged log EI at given per-sample means/variances, with gradients w.r.t. them.
double log_mixture_ei(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, double best, Eigen::VectorXd* dmean,
                      Eigen::VectorXd* dvar);
// The same with an incumbent per sample (best.size() == mean.size()): the noisy EI's components,
// each against the best of its own draw of the baseline (acquisition/noisy_acquisition.h).
double log_mixture_ei(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, const Eigen::VectorXd& best,
                      Eigen::VectorXd* dmean, Eigen::VectorXd* dvar);
// The mixture-averaged EI in linear scale (EI-ER subtracts a penalty from it), incumbent per sample.
double mixture_ei(const Eigen::VectorXd& mean, const Eigen::VectorXd& var, const Eigen::VectorXd& best,
                  Eigen::VectorXd* dmean, Eigen::VectorXd* dvar);

}  // namespace sebo
