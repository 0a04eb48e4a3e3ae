#include "pareto/hypervolume_nd.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <numeric>

namespace sebo {

namespace {

// Indices of the rows sorted by the last coordinate descending, then the one before, and so on:
// a canonical order that puts every point before the points it dominates.
std::vector<std::size_t> sorted_rows(std::span<const double> rows, int m) {
    const std::size_t n = rows.size() / static_cast<std::size_t>(m);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        for (int d = m - 1; d >= 0; --d) {
            const double x = rows[a * static_cast<std::size_t>(m) + static_cast<std::size_t>(d)];
            const double y = rows[b * static_cast<std::size_t>(m) + static_cast<std::size_t>(d)];
            if (x != y) return x > y;
        }
        return a < b;
    });
    return order;
}

double volume_2d(std::span<const double> rows) {
    // Points by y descending: the slab between two successive steps of the staircase is as wide
    // as the furthest x reached by the points above it.
    const std::vector<std::size_t> order = sorted_rows(rows, 2);
    double volume = 0.0, reach = 0.0, level = 0.0;
    bool started = false;
    for (const std::size_t i : order) {
        const double x = rows[2 * i], y = rows[2 * i + 1];
        if (x <= reach) continue;  // dominated: a point above reaches at least as far
        if (started) volume += reach * (level - y);
        reach = x;
        level = y;
        started = true;
    }
    if (started) volume += reach * level;
    return volume;
}

// A 2-D staircase (both coordinates maximized, reference at the origin) that knows the area it
// dominates: x ascending → y descending.
class Staircase {
public:
    // Adds (x, y) and returns the area gained (0 when the point is dominated or already present).
    double insert(double x, double y) {
        auto it = steps_.lower_bound(x);
        if (it != steps_.end() && it->second >= y) return 0.0;
        // On (previous x, x] the staircase stands at the first step right of or at x.
        double height = it != steps_.end() ? it->second : 0.0;
        if (it != steps_.end() && it->first == x) it = steps_.erase(it);
        double right = x, gain = 0.0;
        bool blocked = false;
        while (it != steps_.begin()) {
            const auto left = std::prev(it);
            gain += (right - left->first) * (y - height);
            right = left->first;
            if (left->second > y) {
                blocked = true;
                break;
            }
            height = left->second;
            steps_.erase(left);  // dominated by (x, y)
        }
        if (!blocked) gain += right * (y - height);
        steps_.emplace_hint(it, x, y);
        return gain;
    }

private:
    std::map<double, double> steps_;
};

double volume_3d(std::span<const double> rows) {
    // Points by z descending; the slab between two z levels at which the dominated area changes
    // has that area as its cross-section. Levels only change where the area does, so dominated
    // points leave the arithmetic untouched.
    const std::vector<std::size_t> order = sorted_rows(rows, 3);
    Staircase stairs;
    double volume = 0.0, area = 0.0, level = 0.0;
    for (const std::size_t i : order) {
        const double z = rows[3 * i + 2];
        const double gain = stairs.insert(rows[3 * i], rows[3 * i + 1]);
        if (gain <= 0.0) continue;
        volume += area * (level - z);
        level = z;
        area += gain;
    }
    return volume + area * level;
}

double volume_4d(std::span<const double> rows) {
    // Slices along w (descending): the cross-section is the 3-D volume of the points with at
    // least that w, recomputed where a new point is not dominated in its first three coordinates.
    const std::vector<std::size_t> order = sorted_rows(rows, 4);
    std::vector<double> inserted;  // first three coordinates of the points so far
    double volume = 0.0, section = 0.0, level = 0.0;
    for (const std::size_t i : order) {
        const double* p = &rows[4 * i];
        bool covered = false;
        for (std::size_t j = 0; j + 3 <= inserted.size() && !covered; j += 3)
            covered = inserted[j] >= p[0] && inserted[j + 1] >= p[1] && inserted[j + 2] >= p[2];
        if (covered) continue;
        inserted.insert(inserted.end(), p, p + 3);
        volume += section * (level - p[3]);
        level = p[3];
        section = volume_3d(inserted);
    }
    return volume + section * level;
}

}  // namespace

std::vector<int> hypervolume_exponents(const std::vector<std::vector<double>>& points,
                                       const std::vector<double>& reference) {
    std::vector<int> exponents(reference.size(), 0);
    for (std::size_t d = 0; d < reference.size(); ++d) {
        // A quarter of each difference, formed from quarters so that it cannot overflow.
        double widest = 0.0;
        for (const auto& p : points) widest = std::max(widest, 0.25 * p[d] - 0.25 * reference[d]);
        if (widest > 0.0) exponents[d] = std::ilogb(widest) + 2;
    }
    return exponents;
}

double scaled_difference(double p, double r, int e) { return std::ldexp(p, -e) - std::ldexp(r, -e); }

double positive_hypervolume(std::span<const double> rows, int m) {
    assert(m >= 1 && m <= kMaxHypervolumeObjectives && rows.size() % static_cast<std::size_t>(m) == 0);
    if (rows.empty()) return 0.0;
    switch (m) {
        case 1:
            return *std::max_element(rows.begin(), rows.end());
        case 2:
            return volume_2d(rows);
        case 3:
            return volume_3d(rows);
        default:
            return volume_4d(rows);
    }
}

double unscale_volume(double volume, int exponent) {
    const double v = std::ldexp(volume, exponent);
    return std::isinf(v) ? std::numeric_limits<double>::max() : v;
}

double hypervolume_nd(const std::vector<std::vector<double>>& points, const std::vector<double>& reference) {
    const int m = static_cast<int>(reference.size());
    assert(m >= 1 && m <= kMaxHypervolumeObjectives);
    std::vector<std::vector<double>> inside;
    for (const auto& p : points) {
        assert(p.size() == reference.size());
        bool better = true;
        for (int d = 0; d < m; ++d)
            better = better && p[static_cast<std::size_t>(d)] > reference[static_cast<std::size_t>(d)];
        if (better) inside.push_back(p);
    }
    const std::vector<int> exponents = hypervolume_exponents(inside, reference);
    std::vector<double> rows;
    rows.reserve(inside.size() * static_cast<std::size_t>(m));
    for (const auto& p : inside)
        for (std::size_t d = 0; d < reference.size(); ++d)
            rows.push_back(scaled_difference(p[d], reference[d], exponents[d]));
    return unscale_volume(positive_hypervolume(rows, m), std::accumulate(exponents.begin(), exponents.end(), 0));
}

}  // namespace sebo
