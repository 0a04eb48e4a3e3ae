#pragma once
// Pareto dominance for several objectives and a sparsity count (SPEC §10). Sign convention, as in
// pareto/frontier.h: every objective is in maximization form (a "utility", larger is better) and
// the sparsity is a count of active parameters (smaller is better), so a point lives in
// (u_1, …, u_m, −sparsity) with every coordinate maximized. With m = 1 these functions give what
// pareto/frontier.h gives (tests/engine/test_pareto_nd.cpp checks it).
//
// Utilities must be finite (the caller's boundary rejects NaN and infinities); m is 1 to 4 and
// the same for every point of a set.

#include <cstddef>
#include <span>
#include <vector>

namespace sebo {

struct ObjectivePoint {
    std::vector<double> utilities;  // u_1..u_m, maximized
    int sparsity = 0;
    int id = 0;  // the caller's identifier (a trial index)
};

// True when a is at least as good as b in every coordinate and strictly better in one (both maximized).
bool dominates(std::span<const double> a, std::span<const double> b);

// Positions (indices into `points`) of the rows that no other row dominates, in input order;
// of several identical rows only the first counts. Every coordinate maximized. O(n² m).
std::vector<std::size_t> non_dominated_positions(const std::vector<std::vector<double>>& points);

// Ids of the points that are non-dominated in (u_1..u_m, −sparsity); of several identical points
// only the first counts. Sorted by sparsity ascending, then u_1 descending, then input order.
std::vector<int> non_dominated(const std::vector<ObjectivePoint>& points);

}  // namespace sebo
