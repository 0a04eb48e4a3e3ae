#include "pareto/sparse_hypervolume.h"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <map>
#include <numeric>

#include "pareto/hypervolume_nd.h"

namespace sebo {

namespace {

bool counts(const ObjectivePoint& p, const SparseHypervolumeReference& reference) {
    if (p.sparsity >= reference.sparsity) return false;
    for (std::size_t d = 0; d < reference.utilities.size(); ++d)
        if (!(p.utilities[d] > reference.utilities[d])) return false;
    return true;
}

// The counted points, their per-coordinate exponents (pareto/hypervolume_nd.h) and scaled rows.
struct ScaledPoints {
    std::vector<std::size_t> positions;  // into the input
    std::vector<int> exponents;
    int exponent_sum = 0;
    std::vector<std::vector<double>> rows;  // parallel to positions
};

ScaledPoints scale(const std::vector<ObjectivePoint>& points, const SparseHypervolumeReference& reference) {
    ScaledPoints s;
    std::vector<std::vector<double>> inside;
    for (std::size_t i = 0; i < points.size(); ++i) {
        assert(points[i].utilities.size() == reference.utilities.size());
        if (!counts(points[i], reference)) continue;
        s.positions.push_back(i);
        inside.push_back(points[i].utilities);
    }
    s.exponents = hypervolume_exponents(inside, reference.utilities);
    s.exponent_sum = std::accumulate(s.exponents.begin(), s.exponents.end(), 0);
    for (const auto& u : inside) {
        std::vector<double> row(u.size());
        for (std::size_t d = 0; d < u.size(); ++d)
            row[d] = scaled_difference(u[d], reference.utilities[d], s.exponents[d]);
        s.rows.push_back(std::move(row));
    }
    return s;
}

// One sparsity level: the non-dominated scaled rows with sparsity <= the level, and their volume.
struct Level {
    std::vector<std::vector<double>> front;
    double volume = 0.0;
};

// True when some row of `front` is at least as good as `row` everywhere.
bool covered(const std::vector<std::vector<double>>& front, const std::vector<double>& row) {
    for (const auto& f : front) {
        bool all = true;
        for (std::size_t d = 0; d < row.size() && all; ++d) all = f[d] >= row[d];
        if (all) return true;
    }
    return false;
}

double measure(const std::vector<std::vector<double>>& front, int m) {
    std::vector<double> flat;
    flat.reserve(front.size() * static_cast<std::size_t>(m));
    for (const auto& row : front) flat.insert(flat.end(), row.begin(), row.end());
    return positive_hypervolume(flat, m);
}

// Adds a row to a level that does not cover it: rows it dominates leave.
void add_to_front(Level& level, const std::vector<double>& row, int m) {
    std::erase_if(level.front, [&](const std::vector<double>& f) {
        for (std::size_t d = 0; d < row.size(); ++d)
            if (f[d] > row[d]) return false;
        return true;
    });
    level.front.push_back(row);
    level.volume = measure(level.front, m);
}

// Σ_l (v_{l+1} − v_l)·volume_l over the levels (sparsity → level), v_{L+1} = R.
double total(const std::map<int, Level>& levels, int reference_sparsity, int exponent_sum) {
    double sum = 0.0;
    for (auto it = levels.begin(); it != levels.end(); ++it) {
        const auto next = std::next(it);
        const int upper = next != levels.end() ? next->first : reference_sparsity;
        sum += (static_cast<double>(upper) - static_cast<double>(it->first)) * it->second.volume;
    }
    return unscale_volume(sum, exponent_sum);
}

}  // namespace

double hypervolume(const std::vector<ObjectivePoint>& points, const SparseHypervolumeReference& reference) {
    const int m = static_cast<int>(reference.utilities.size());
    assert(m >= 1 && m <= kMaxHypervolumeObjectives);
    const ScaledPoints s = scale(points, reference);
    // Levels by sparsity ascending; each level's front grows from the previous one's.
    std::map<int, std::vector<std::size_t>> by_sparsity;  // sparsity → indices into s.rows
    for (std::size_t j = 0; j < s.positions.size(); ++j) by_sparsity[points[s.positions[j]].sparsity].push_back(j);
    std::map<int, Level> levels;
    Level current;
    for (const auto& [sparsity, members] : by_sparsity) {
        for (const std::size_t j : members)
            if (!covered(current.front, s.rows[j])) add_to_front(current, s.rows[j], m);
        levels.emplace(sparsity, current);
    }
    return total(levels, reference.sparsity, s.exponent_sum);
}

std::vector<double> hypervolume_trace(const std::vector<ObjectivePoint>& points,
                                      const SparseHypervolumeReference& reference) {
    const int m = static_cast<int>(reference.utilities.size());
    assert(m >= 1 && m <= kMaxHypervolumeObjectives);
    const ScaledPoints s = scale(points, reference);
    std::vector<double> trace;
    trace.reserve(points.size());
    std::map<int, Level> levels;
    double value = 0.0;
    std::size_t next_counted = 0;  // index into s.positions
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (next_counted < s.positions.size() && s.positions[next_counted] == i) {
            const std::vector<double>& row = s.rows[next_counted++];
            const int sparsity = points[i].sparsity;
            auto level = levels.lower_bound(sparsity);
            // A new level starts as the one below it. It changes no volume, but it splits a slab
            // in two, as hypervolume() of this prefix does, so the total is re-summed.
            bool changed = level == levels.end() || level->first != sparsity;
            if (changed)
                level =
                    levels.emplace_hint(level, sparsity, level == levels.begin() ? Level{} : std::prev(level)->second);
            // Every higher level's front covers everything below it, so once the point is
            // covered it is covered for good.
            for (; level != levels.end() && !covered(level->second.front, row); ++level) {
                add_to_front(level->second, row, m);
                changed = true;
            }
            if (changed) value = total(levels, reference.sparsity, s.exponent_sum);
        }
        trace.push_back(value);
    }
    return trace;
}

}  // namespace sebo
