#pragma once
// Pareto utilities for (objective, sparsity). Sign convention: the objective is in
// maximization form ("utility", larger is better) and sparsity is a count (smaller is better);
// the hypervolume is measured in (utility, −sparsity) space, both maximized (SPEC §3).
//
// Hypervolumes are finite for any finite inputs: coordinates are scaled by a power of two (exact)
// so that no difference or product can overflow, and the result is multiplied back once; a
// volume beyond the largest double (utilities ±1e308 apart over several strips) is reported as
// the largest double.

#include <optional>
#include <utility>
#include <vector>

namespace sebo {

struct ScoredPoint {
    double utility = 0.0;
    int sparsity = 0;
    int id = 0;  // the caller's identifier (a trial index)
};

// Ids of the non-dominated points: no other point has utility >= and sparsity <= with one
// strict. Exact duplicates keep the first occurrence only. Sorted by sparsity ascending.
std::vector<int> non_dominated(const std::vector<ScoredPoint>& points);

// "Best with at most k active", k = 0..max_sparsity: the best utility and its id among
// points with sparsity <= k (unset where none).
struct FrontierLevel {
    int k = 0;
    std::optional<double> best_utility;
    std::optional<int> id;
};
std::vector<FrontierLevel> step_frontier(const std::vector<ScoredPoint>& points, int max_sparsity);

// Area dominated by the points and bounded below by the reference (ref_x, ref_y), both
// coordinates maximized. Points not strictly better than the reference in both coordinates
// contribute nothing.
double hypervolume_2d(const std::vector<std::pair<double, double>>& points, std::pair<double, double> reference);

// Hypervolume of (utility, −sparsity) with reference (reference_utility, −reference_sparsity).
double hypervolume(const std::vector<ScoredPoint>& points, double reference_utility, int reference_sparsity);

// Hypervolume after each prefix of `points` (same order), O(n log n) overall or better.
std::vector<double> hypervolume_trace(const std::vector<ScoredPoint>& points, double reference_utility,
                                      int reference_sparsity);

}  // namespace sebo
