#include "pareto/frontier.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <iterator>
#include <map>
#include <numeric>

namespace sebo {

namespace {

// Division by a power of two changes only the exponent, so a coordinate scaled down keeps every
// bit (except values more than 2^1022 times smaller than the largest, which become subnormal:
// they are far below the rounding of any difference with the largest anyway).
class PowerOfTwoScale {
public:
    // 2^e ≥ largest (≥ 0, finite), so that every scaled value lies in [−1, 1].
    explicit PowerOfTwoScale(double largest) : exponent_(largest > 0.0 ? std::ilogb(largest) + 1 : 0) {}
    double down(double value) const { return std::ldexp(value, -exponent_); }
    // A length (or an area with the other factor in units of 1) back in the original units,
    // saturating at the largest double.
    double up(double value) const { return saturate(std::ldexp(value, exponent_)); }
    int exponent() const { return exponent_; }

    static double saturate(double value) {
        constexpr double kLargest = std::numeric_limits<double>::max();
        return std::isinf(value) ? std::copysign(kLargest, value) : value;
    }

private:
    int exponent_;
};

double unscale_area(double area, const PowerOfTwoScale& x, const PowerOfTwoScale& y) {
    // ldexp gives inf on overflow (saturated) and rounds correctly on underflow.
    return PowerOfTwoScale::saturate(std::ldexp(area, x.exponent() + y.exponent()));
}

}  // namespace

std::vector<int> non_dominated(const std::vector<ScoredPoint>& points) {
    // Sweep by sparsity ascending, utility descending, input order ascending: the first point of
    // each sparsity level is the only candidate of its level (the others are dominated by it or
    // are later duplicates of it), and it survives when it beats every sparser point.
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (points[a].sparsity != points[b].sparsity) return points[a].sparsity < points[b].sparsity;
        return points[a].utility > points[b].utility;
    });

    std::vector<int> ids;
    bool have_best = false;
    double best_sparser = 0.0;  // best utility among points with smaller sparsity
    for (std::size_t n = 0; n < order.size(); ++n) {
        const ScoredPoint& p = points[order[n]];
        const bool first_of_level = n == 0 || points[order[n - 1]].sparsity != p.sparsity;
        if (!first_of_level) continue;
        if (!have_best || p.utility > best_sparser) {
            ids.push_back(p.id);
            best_sparser = p.utility;
            have_best = true;
        }
    }
    return ids;
}

std::vector<FrontierLevel> step_frontier(const std::vector<ScoredPoint>& points, int max_sparsity) {
    assert(max_sparsity >= 0);
    const auto levels = static_cast<std::size_t>(max_sparsity) + 1;
    // Best point at each exact sparsity (a negative count counts as 0: it is within every k),
    // then a running maximum over k. Positions break ties so the earliest point wins.
    std::vector<std::optional<std::size_t>> best_at(levels);
    auto better = [&](std::size_t candidate, const std::optional<std::size_t>& incumbent) {
        if (!incumbent) return true;
        const double u = points[candidate].utility, v = points[*incumbent].utility;
        return u > v || (u == v && candidate < *incumbent);
    };
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (points[i].sparsity > max_sparsity) continue;
        const auto level = static_cast<std::size_t>(std::max(points[i].sparsity, 0));
        if (better(i, best_at[level])) best_at[level] = i;
    }

    std::vector<FrontierLevel> result(levels);
    std::optional<std::size_t> best;
    for (std::size_t k = 0; k < levels; ++k) {
        if (best_at[k] && better(*best_at[k], best)) best = best_at[k];
        result[k].k = static_cast<int>(k);
        if (best) {
            result[k].best_utility = points[*best].utility;
            result[k].id = points[*best].id;
        }
    }
    return result;
}

double hypervolume_2d(const std::vector<std::pair<double, double>>& points, std::pair<double, double> reference) {
    std::vector<std::pair<double, double>> inside;
    inside.reserve(points.size());
    for (const auto& p : points)
        if (p.first > reference.first && p.second > reference.second) inside.push_back(p);
    if (inside.empty()) return 0.0;
    // Each axis in units of a power of two at least as large as every coordinate on it, so that
    // differences (at most 2) and products (at most 4) cannot overflow; the area is multiplied
    // back once at the end.
    double largest_x = std::abs(reference.first), largest_y = std::abs(reference.second);
    for (const auto& p : inside) {
        largest_x = std::max(largest_x, std::abs(p.first));
        largest_y = std::max(largest_y, std::abs(p.second));
    }
    const PowerOfTwoScale x_scale(largest_x), y_scale(largest_y);
    // Sweep x descending: each point that rises above the current height adds the horizontal
    // slab between the old and new height, whose width is its own x (the largest x that
    // reaches that high, since every earlier point was lower).
    std::sort(inside.begin(), inside.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second > b.second;
    });
    const double x_reference = x_scale.down(reference.first);
    double volume = 0.0;
    double height = y_scale.down(reference.second);
    for (const auto& p : inside) {
        const double y = y_scale.down(p.second);
        if (y <= height) continue;
        volume += (x_scale.down(p.first) - x_reference) * (y - height);
        height = y;
    }
    return unscale_area(volume, x_scale, y_scale);
}

double hypervolume(const std::vector<ScoredPoint>& points, double reference_utility, int reference_sparsity) {
    std::vector<std::pair<double, double>> maximized;
    maximized.reserve(points.size());
    for (const ScoredPoint& p : points) maximized.emplace_back(p.utility, -static_cast<double>(p.sparsity));
    return hypervolume_2d(maximized, {reference_utility, -static_cast<double>(reference_sparsity)});
}

std::vector<double> hypervolume_trace(const std::vector<ScoredPoint>& points, double reference_utility,
                                      int reference_sparsity) {
    // With integer sparsity the dominated region is a union of unit-high strips: the strip
    // between sparsity j and j+1 (j < reference) has width max(0, B(j) − reference_utility),
    // where B(j) is the best utility with sparsity <= j. We keep the staircase of non-dominated
    // points (sparsity -> utility, both increasing) and add, for each new point, only the area
    // it gains over the strips it raises. A point is inserted once and removed at most once, so
    // the whole trace costs O(n log n) time and O(n) memory, independent of the sparsity range
    // (2,000 trials with D = 100 take well under a millisecond). Recomputing each prefix from
    // scratch would be O(n² log n).
    //
    // Utilities are handled in units of a power of two at least as large as every one of them
    // (and the reference), so that a difference is at most 2 and cannot overflow whatever the
    // finite inputs; the sparsity side is an integer count. Each value of the trace is the
    // running area multiplied back by that power, saturating at the largest double.
    double largest = std::abs(reference_utility);
    for (const ScoredPoint& p : points) largest = std::max(largest, std::abs(p.utility));
    const PowerOfTwoScale scale(largest);
    const double reference = scale.down(reference_utility);
    std::vector<double> trace;
    trace.reserve(points.size());
    std::map<int, double> stair;
    double volume = 0.0;
    for (const ScoredPoint& point : points) {
        const double utility = scale.down(point.utility);
        const int sparsity = point.sparsity;
        const bool inside = utility > reference && sparsity < reference_sparsity;
        auto next = inside ? stair.upper_bound(sparsity) : stair.end();
        // The entry with the largest sparsity <= the point's has the best utility among them.
        const bool dominated = !inside || (next != stair.begin() && std::prev(next)->second >= utility);
        if (!dominated) {
            double height = reference;
            if (next != stair.begin()) {
                auto at_or_below = std::prev(next);
                height = std::max(height, at_or_below->second);
                // An entry at the same sparsity is beaten by the point: it replaces it.
                if (at_or_below->first == sparsity) stair.erase(at_or_below);
            }
            int from = sparsity;
            // Entries to the right that the point now dominates are removed; each covered a
            // strip of the staircase that the point raises to its own utility.
            while (next != stair.end() && next->second <= utility) {
                volume += (static_cast<double>(next->first) - from) * (utility - height);
                from = next->first;
                height = next->second;
                next = stair.erase(next);
            }
            const int to = next != stair.end() ? next->first : reference_sparsity;
            volume += (static_cast<double>(to) - from) * (utility - height);
            stair.emplace_hint(next, sparsity, utility);
        }
        trace.push_back(scale.up(volume));
    }
    return trace;
}

}  // namespace sebo
