#pragma once
// Acquisitions that do not trust noisy measurements (issue 30; SPEC §11): the noisy expected
// improvement (NEI, Letham, Karrer, Ottoni & Bakshy 2019, eq. 8) and, for SEBO, the noisy EHVI of
// (f, −ξ) (the qNEHVI idea of Daulton, Balandat & Bakshy 2021, in SEBO's closed form).
//
// The posterior is given in components (model/fantasy_posterior.h): component t is a GP
// conditioned on one draw f_t of the latent objective at the baseline — the configurations
// already measured — so its incumbent is the best of that draw, and its front is the front of
// that draw with the configurations' penalties. The acquisition is the average over the
// components of the acquisition of today's form against that component's own incumbent or front:
//     NEI(x)   = (1/T) Σ_t EI(μ_t(x), σ_t²(x); max_i f_t,i),
//     NEHVI(x) = (1/T) Σ_t EHVI(μ_t(x), σ_t²(x), ξ(x); front of {(f_t,i, ξ_i)}),
// each in log space with analytic gradients through PosteriorView::moments_with_gradient. With
// one component whose draw is the measured values this is LogExpectedImprovement, SeboEhvi,
// EI-ER and EI-IR of acquisition/acquisition.h.

#include <memory>
#include <vector>

#include "acquisition/acquisition.h"

namespace sebo {

// log NEI. best: one incumbent per component (components->sample_count() of them).
class NoisyLogExpectedImprovement final : public AcquisitionFunction {
public:
    NoisyLogExpectedImprovement(std::shared_ptr<const PosteriorView> components, Eigen::VectorXd best);
    double value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const override;
    double exact_value(const Eigen::VectorXd& x) const override { return value(x, 1.0, nullptr); }
    Eigen::VectorXd batch_values(const Eigen::MatrixXd& X, double a) const override;

private:
    std::shared_ptr<const PosteriorView> components_;
    Eigen::VectorXd best_;
};

// SEBO's log NEHVI of (f, −ξ): one front per component, all with the same reference point.
class NoisySeboEhvi final : public PenalizedAcquisition {
public:
    NoisySeboEhvi(std::shared_ptr<const PosteriorView> components, SparsityPenalty penalty,
                  std::vector<SparseEhviFront> fronts);
    Eigen::VectorXd batch_values(const Eigen::MatrixXd& X, double a) const override;
    const std::vector<SparseEhviFront>& fronts() const { return fronts_; }

private:
    double evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx, Eigen::VectorXd* grad) const override;

    std::vector<SparseEhviFront> fronts_;
};

// EI-ER over the components: NEI(x) − λ ξ(x) (linear NEI, as EiExternalRegularization).
class NoisyEiExternalRegularization final : public PenalizedAcquisition {
public:
    NoisyEiExternalRegularization(std::shared_ptr<const PosteriorView> components, Eigen::VectorXd best,
                                  SparsityPenalty penalty, double lambda);

private:
    double evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx, Eigen::VectorXd* grad) const override;

    Eigen::VectorXd best_;
    double lambda_;
};

// EI-IR over the components: log NEI of g = f − λξ, best_g per component the best of its draw's
// f_t,i − λ ξ_i.
class NoisyEiInternalRegularization final : public PenalizedAcquisition {
public:
    NoisyEiInternalRegularization(std::shared_ptr<const PosteriorView> components, Eigen::VectorXd best_g,
                                  SparsityPenalty penalty, double lambda);

private:
    double evaluate(const Eigen::VectorXd& x, double xi, const Eigen::VectorXd* dxi_dx, Eigen::VectorXd* grad) const override;

    Eigen::VectorXd best_g_;
    double lambda_;
};

}  // namespace sebo
