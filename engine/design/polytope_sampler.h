#pragma once
// Points spread over the polytope of linear parameter constraints, for initial designs and raw
// acquisition samples (issue 14; the reference drew its raw samples the same two ways).
//
// - Rejection from the scrambled Sobol sequence (design/sobol.h) when that is cheap: the first
//   `acceptance_probe` Sobol points estimate the share inside P; at `min_acceptance` or more the
//   design is the Sobol points inside P, in sequence order. Without constraints this is exactly
//   the Sobol design, and it keeps Sobol's even spread over what remains.
// - Otherwise (and always with equality constraints, which no Sobol point meets) hit-and-run:
//   from the Chebyshev centre (space/polytope_analysis.h), repeatedly pick a direction uniformly
//   on the unit sphere of P's affine hull (so equality constraints hold along the whole chain),
//   find the chord of P through the current point, and jump to a uniform point on it. The chain's
//   stationary distribution is uniform on P (Smith 1984). It is run for burn_in_per_dimension · k
//   steps (k = the hull's dimension) and then keeps one point every thinning_per_dimension · k steps.
//
// The sequence for a seed is fixed: point i does not depend on how many are asked for, so an
// initial design can be drawn one trial at a time. Every returned point passes Polytope::contains.

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "space/polytope.h"

namespace sebo {

struct PolytopeSamplerOptions {
    int acceptance_probe = 1024;  // Sobol points used to estimate the share inside P
    double min_acceptance = 0.1;  // rejection at or above this share; hit-and-run below it
    int burn_in_per_dimension = 100;
    int thinning_per_dimension = 10;

    std::optional<std::string> validate() const;
};

enum class PolytopeSamplingMethod { Rejection, HitAndRun };

struct PolytopeSample {
    // Empty: P has no point (message names the conflicting constraints). Failed: numerical
    // trouble in the analysis (message says which).
    enum class Status { Ok, Empty, Failed };
    Status status = Status::Failed;
    std::string message;
    std::vector<Eigen::VectorXd> points;
    PolytopeSamplingMethod method = PolytopeSamplingMethod::Rejection;
    double acceptance = 0.0;  // share of the probe inside P
};

// Points first, first+1, …, first+count−1 of the seed's sequence.
PolytopeSample sample_polytope(const Polytope& polytope, int count, std::uint64_t seed,
                               const PolytopeSamplerOptions& options = {}, int first = 0);

}  // namespace sebo
