#pragma once
// The floating-point work of one evaluation of the SAAS log posterior and its gradient
// (model/saas_prior.h over model/likelihood_kernel.inc), phase by phase, as the code does it: the
// figure a measured time is divided by to say how close an evaluation runs to the machine's peak
// (docs/performance.md, "Where the time goes, against the limit"). It describes the kernel's
// algorithm, so it changes when likelihood_kernel.inc does.
//
// Counting rules. An addition, subtraction, multiplication or division is one flop and a fused
// multiply-add two, so the count does not depend on whether the compiler contracts a·b + c (the
// AVX2 copy does, the baseline one cannot). Comparisons, max, negation and copies are not
// counted. exp, sqrt and log (log1p, lgamma) are not given flop equivalents: they are counted
// apart, as transcendental calls. The counts are algorithmic: the work the formulas need, not
// what a blocked library routine may do besides (Eigen's symmetric rank update, for one, also
// fills blocks above the diagonal). Scalar set-up outside the per-point and per-dimension loops
// (a few tens of flops) is left out, except in the prior, whose count is approximate to that.

#include <string>
#include <vector>

namespace sebo {

struct PhaseWork {
    std::string phase;
    double flops = 0.0;
    double exp = 0.0;   // calls of exp
    double sqrt = 0.0;  // calls of sqrt
    double log = 0.0;   // calls of log, log1p and lgamma

    double transcendentals() const { return exp + sqrt + log; }
};

struct LikelihoodWork {
    std::vector<PhaseWork> phases;

    double flops() const;
    double transcendentals() const;
    // The phase named `phase`; nullptr when there is none.
    const PhaseWork* find(const std::string& phase) const;
};

// One value and gradient of SaasLogDensity at n points in D dimensions with the noise inferred
// and no jitter retry (a retry repeats the Cholesky phase). n ≥ 1, dimension ≥ 1.
LikelihoodWork saas_gradient_work(long n, long dimension);

}  // namespace sebo
