#include "pareto/dominance.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace sebo {

bool dominates(std::span<const double> a, std::span<const double> b) {
    assert(a.size() == b.size());
    bool strictly = false;
    for (std::size_t d = 0; d < a.size(); ++d) {
        if (a[d] < b[d]) return false;
        if (a[d] > b[d]) strictly = true;
    }
    return strictly;
}

std::vector<std::size_t> non_dominated_positions(const std::vector<std::vector<double>>& points) {
    std::vector<std::size_t> kept;
    for (std::size_t i = 0; i < points.size(); ++i) {
        bool keep = true;
        for (std::size_t j = 0; j < points.size() && keep; ++j) {
            if (j == i) continue;
            // Dominated, or a later copy of an identical row.
            if (dominates(points[j], points[i]) || (j < i && points[j] == points[i])) keep = false;
        }
        if (keep) kept.push_back(i);
    }
    return kept;
}

std::vector<int> non_dominated(const std::vector<ObjectivePoint>& points) {
    // The sparsity joins the objectives as one more maximized coordinate.
    std::vector<std::vector<double>> rows;
    rows.reserve(points.size());
    for (const ObjectivePoint& p : points) {
        assert(p.utilities.size() == points.front().utilities.size());
        rows.push_back(p.utilities);
        rows.back().push_back(-static_cast<double>(p.sparsity));
    }
    std::vector<std::size_t> kept = non_dominated_positions(rows);
    std::stable_sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {
        if (points[a].sparsity != points[b].sparsity) return points[a].sparsity < points[b].sparsity;
        return points[a].utilities.front() > points[b].utilities.front();
    });
    std::vector<int> ids;
    ids.reserve(kept.size());
    for (const std::size_t i : kept) ids.push_back(points[i].id);
    return ids;
}

}  // namespace sebo
