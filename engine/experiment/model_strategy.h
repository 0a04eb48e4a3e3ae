#pragma once
// The model-based strategies of the paper (§6): after the initial Sobol design, each step fits
// the surrogate (GP-MAP, SAAS-NUTS or SAAS-MAP) to the completed trials, builds the strategy's
// acquisition (EI, EI-ER, EI-IR or SEBO's EHVI with an L0/L1/group-lasso penalty) and maximizes
// it (homotopy continuation for L0). Pending trials, and earlier candidates of the same batch,
// enter as fantasies at the posterior mean ("kriging believer") so that a batch is diverse.
// Everything after the fit is experiment/candidate_search.h's.

#include "experiment/strategy.h"

namespace sebo {

class ModelStrategy final : public Strategy {
public:
    explicit ModelStrategy(MethodSettings settings);
    std::string name() const override { return to_string(settings_.strategy); }
    Proposal propose(const Experiment& experiment, int count, const StepControl& control) override;

private:
    MethodSettings settings_;
};

}  // namespace sebo
