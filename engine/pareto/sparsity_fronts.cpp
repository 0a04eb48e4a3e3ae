#include "pareto/sparsity_fronts.h"

#include <algorithm>
#include <cassert>
#include <cstddef>

namespace sebo {

std::vector<SparsityFront> fronts_by_sparsity(const std::vector<ObjectivePoint>& points, int max_sparsity) {
    assert(max_sparsity >= 0);
    const auto levels = static_cast<std::size_t>(max_sparsity) + 1;
    std::vector<std::vector<std::size_t>> at_level(levels);  // positions with exactly that sparsity
    for (std::size_t i = 0; i < points.size(); ++i)
        if (points[i].sparsity <= max_sparsity)
            at_level[static_cast<std::size_t>(std::max(points[i].sparsity, 0))].push_back(i);

    // The front at k is the non-dominated part of (front at k − 1) ∪ (points at k): a point left
    // out at k − 1 was dominated by, or a later copy of, a point that is still there. Candidates go
    // in input order so that "first of identical points" means first in the input.
    std::vector<SparsityFront> result(levels);
    std::vector<std::size_t> front;
    for (std::size_t k = 0; k < levels; ++k) {
        std::vector<std::size_t> candidates = front;
        candidates.insert(candidates.end(), at_level[k].begin(), at_level[k].end());
        std::sort(candidates.begin(), candidates.end());
        std::vector<std::vector<double>> rows;
        rows.reserve(candidates.size());
        for (const std::size_t i : candidates) rows.push_back(points[i].utilities);
        front.clear();
        for (const std::size_t r : non_dominated_positions(rows)) front.push_back(candidates[r]);

        std::vector<std::size_t> ordered = front;
        std::stable_sort(ordered.begin(), ordered.end(), [&](std::size_t a, std::size_t b) {
            return points[a].utilities.front() > points[b].utilities.front();
        });
        result[k].k = static_cast<int>(k);
        for (const std::size_t i : ordered) result[k].ids.push_back(points[i].id);
    }
    return result;
}

}  // namespace sebo
