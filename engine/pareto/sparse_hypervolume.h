#pragma once
// Hypervolume of (u_1, …, u_m, −sparsity), m = 1..4, every coordinate maximized (SPEC §10), with
// reference (r_1, …, r_m, −R): a point adds volume only when u_d > r_d for every d and its
// sparsity s < R. With m = 1 this is pareto/frontier.h's hypervolume and hypervolume_trace.
//
// The sparsity is an integer, so the volume splits into slabs between consecutive sparsity values:
// with v_1 < … < v_L the distinct sparsities of the counted points and v_{L+1} = R,
//     HV = Σ_l (v_{l+1} − v_l) · HV_m({u_i : s_i ≤ v_l}),
// each HV_m exact (pareto/hypervolume_nd.h). Finite for any finite input (scaled as there).

#include <vector>

#include "pareto/dominance.h"

namespace sebo {

struct SparseHypervolumeReference {
    std::vector<double> utilities;  // r_1..r_m
    int sparsity = 0;               // R
};

double hypervolume(const std::vector<ObjectivePoint>& points, const SparseHypervolumeReference& reference);

// The hypervolume after each prefix of `points` (same order). Equal, to the last bit, to
// hypervolume() of every prefix for inputs whose scaled coordinates stay normal doubles. Keeps the
// non-dominated set of every sparsity level and re-measures only the levels a new point enters, so
// points that add nothing cost one dominance check.
std::vector<double> hypervolume_trace(const std::vector<ObjectivePoint>& points,
                                      const SparseHypervolumeReference& reference);

}  // namespace sebo
