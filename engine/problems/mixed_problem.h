#pragma once
// A mixed parameter space with a known sparse optimum (issue 14, item 8): continuous, integer,
// choice and fixed parameters and a linear parameter constraint that binds at the optimum.
// A made-up storage pipeline whose throughput is maximized; deterministic and cheap.
//
// Parameters, in declared order, with their targets (the status quo):
//   fa, fb, fc   continuous in [0, 1], target 0: mixture fractions, fa + fb + fc <= 1
//   threads      integer 1..16, target 4
//   codec        unordered choice none | lz4 | zstd, target none
//   level        ordered choice low | mid | high, target mid: a distractor (no effect)
//   region       fixed, value 2: never varied, in every exported configuration, no effect (like
//                every Problem, evaluate() receives the varying parameters only)
//   n01 … n08    continuous in [0, 1], target 0.5: nuisance (no effect)
//   n09 … n13    integer 0..20, target 10: nuisance (no effect)
// so the unit cube has D = 19 columns (region is not one of them).
//
// Objective, maximized ("throughput"; t = threads):
//   f = M(fa, fb, fc) + T(t) + C(codec, t)
//   M = 2.6 fa − 2 fa² + 1.4 fb − 2 fb² + 2 fa fb − 0.5 fc   (fa and fb pay most together; fc only costs)
//   T = (t − 4)(20 − t) / 64                         (0 at the target 4, largest 1 at t = 12)
//   C = 0 for none, 0.2 for lz4, (t − 4)/16 − 0.25 for zstd
//                                                     (zstd pays only with more threads)
// f = 0 at the status quo. Every term is a polynomial, smooth in the continuous parameters and
// in the integers' relaxation.
//
// The optimum (derivation; tests/engine/test_mixed_problem.cpp checks it by enumeration):
//  - M is concave in (fa, fb) (Hessian [[−4, 2], [2, −4]]) and its unconstrained maximum
//    (1.1, 0.9) lies outside fa + fb <= 1, so its maximum over the constraint set is on
//    fa + fb + fc = 1; fc = 0 because it costs and uses up the sum. At (0.6, 0.4, 0) both partial
//    derivatives are 1 (KKT multiplier 1 > 0, the constraint binds; ∂M/∂fc − 1 < 0):
//    M = 1.56. Alone, fa is best at 0.65 (M = 0.845) and fb at 0.35 (0.245), so a sparse search
//    can reach the optimum one parameter at a time: from fa = 0.65, adding fb up to the
//    constraint gives 1.545, and moving along it 1.56.
//  - threads and codec: T + C is 1 at t = 12 without a codec, 1.2 at t = 12 with lz4, and
//    (t − 4)(24 − t)/64 − 0.25 with zstd, largest at t = 14: 1.3125.
//  So the optimum is f* = 1.56 + 1.3125 = 2.8725 at fa = 0.6, fb = 0.4, threads = 14,
//  codec = zstd: 4 changed parameters. The best value with at most k changes:
//    k = 0: 0 (the status quo)
//    k = 1: 1       (threads = 12)
//    k = 2: 1.845   (fa = 0.65, threads = 12)
//    k = 3: 2.56    (fa = 0.6, fb = 0.4, threads = 12)
//    k ≥ 4: 2.8725  (the optimum)
//  Any further change (fc, level, the nuisance parameters) adds nothing or costs.

#include <array>
#include <optional>
#include <vector>

#include "problems/problem.h"

namespace sebo {

class MixedProblem final : public Problem {
public:
    static constexpr int kDimension = 19;  // varying parameters (region is fixed)
    static constexpr double kOptimum = 2.8725;
    // best_at_most[k]: the best value with at most k changed parameters, k = 0 … 4.
    static constexpr std::array<double, 5> kBestAtMost = {0.0, 1.0, 1.845, 2.56, 2.8725};
    // Varying-parameter indices of the effective parameters.
    static constexpr int kFa = 0, kFb = 1, kFc = 2, kThreads = 3, kCodec = 4, kLevel = 5;
    static constexpr int kFirstNuisance = 6;
    static constexpr int kCodecNone = 0, kCodecLz4 = 1, kCodecZstd = 2;
    static constexpr double kRegion = 2.0;

    MixedProblem();

    const SearchSpace& space() const override { return space_; }
    // "throughput", maximized, threshold 0 (the status quo's value).
    Outcomes outcomes() const override { return Outcomes::single("throughput", false, 0.0); }
    MetricValues evaluate(const std::vector<double>& x, std::uint64_t noise_seed) const override;
    std::optional<double> optimum() const override { return kOptimum; }
    // The parameters the optimum changes: fa, fb, threads, codec.
    std::vector<int> effective_dimensions() const override { return {kFa, kFb, kThreads, kCodec}; }

    // The objective of the effective parameters (codec as its index 0, 1, 2).
    static double throughput(double fa, double fb, double fc, double threads, int codec);
    // The optimum as a configuration of the varying parameters (user units; the rest at target).
    std::vector<double> optimum_configuration() const;

private:
    SearchSpace space_;
};

}  // namespace sebo
