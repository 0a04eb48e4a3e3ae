#pragma once
// The frontier of SPEC §10 for several objectives: for every k, the non-dominated set of the points
// with at most k active parameters. With one objective each set is the single best point, which is
// pareto/frontier.h's step_frontier (same point, same tie rule).
//
// Sign convention as in pareto/dominance.h: utilities maximized; a negative sparsity counts as 0.

#include <vector>

#include "pareto/dominance.h"

namespace sebo {

struct SparsityFront {
    int k = 0;
    // Ids of the points with sparsity <= k that no other such point dominates in the utilities
    // (sparsity plays no part within a level); of points with identical utilities the first in
    // input order counts. Sorted by u_1 descending, then input order.
    std::vector<int> ids;
};

// k = 0..max_sparsity (max_sparsity >= 0). Points with sparsity above max_sparsity are left out.
std::vector<SparsityFront> fronts_by_sparsity(const std::vector<ObjectivePoint>& points, int max_sparsity);

}  // namespace sebo
