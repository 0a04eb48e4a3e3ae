// Pareto utilities for several objectives (pareto/dominance.h, sparsity_fronts.h, hypervolume_nd.h,
// sparse_hypervolume.h): hand-computed 2-D/3-D/4-D volumes, random sets against two independent
// brute-force volumes (inclusion–exclusion and a grid of cells), the one-objective case against
// pareto/frontier.h, the trace against every prefix, and finiteness at ±1e308.

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "pareto/dominance.h"
#include "pareto/frontier.h"
#include "pareto/hypervolume_nd.h"
#include "pareto/sparse_hypervolume.h"
#include "pareto/sparsity_fronts.h"
#include "test_main.h"
#include "test_support.h"

namespace test_pareto_nd {

using namespace sebo;

namespace {

using Rows = std::vector<std::vector<double>>;

// Σ over non-empty subsets S of (−1)^{|S|+1} vol(∩_{p∈S} [r, p]): independent of any sweep.
double inclusion_exclusion(const Rows& points, const std::vector<double>& reference) {
    Rows inside;
    for (const auto& p : points) {
        bool better = true;
        for (std::size_t d = 0; d < p.size(); ++d) better = better && p[d] > reference[d];
        if (better) inside.push_back(p);
    }
    const std::size_t n = inside.size();
    double volume = 0.0;
    for (unsigned long mask = 1; mask < (1ul << n); ++mask) {
        std::vector<double> corner(reference.size(), std::numeric_limits<double>::infinity());
        int count = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (mask & (1ul << i)) {
                ++count;
                for (std::size_t d = 0; d < corner.size(); ++d) corner[d] = std::min(corner[d], inside[i][d]);
            }
        double box = 1.0;
        for (std::size_t d = 0; d < corner.size(); ++d) box *= corner[d] - reference[d];
        volume += (count % 2 ? 1.0 : -1.0) * box;
    }
    return volume;
}

// The grid spanned by every point's coordinates: a cell counts when one point reaches past its
// upper corner in every coordinate. Any dimension.
double grid_volume(const Rows& points, const std::vector<double>& reference) {
    const std::size_t m = reference.size();
    std::vector<std::vector<double>> ticks(m);
    for (std::size_t d = 0; d < m; ++d) {
        ticks[d].push_back(reference[d]);
        for (const auto& p : points)
            if (p[d] > reference[d]) ticks[d].push_back(p[d]);
        std::sort(ticks[d].begin(), ticks[d].end());
        ticks[d].erase(std::unique(ticks[d].begin(), ticks[d].end()), ticks[d].end());
    }
    std::vector<std::size_t> cell(m, 0);
    double volume = 0.0;
    while (true) {
        bool valid = true;
        for (std::size_t d = 0; d < m; ++d) valid = valid && cell[d] + 1 < ticks[d].size();
        if (valid) {
            bool dominated = false;
            for (const auto& p : points) {
                bool reaches = true;
                for (std::size_t d = 0; d < m && reaches; ++d) reaches = p[d] >= ticks[d][cell[d] + 1];
                if (reaches) {
                    dominated = true;
                    break;
                }
            }
            if (dominated) {
                double box = 1.0;
                for (std::size_t d = 0; d < m; ++d) box *= ticks[d][cell[d] + 1] - ticks[d][cell[d]];
                volume += box;
            }
        }
        std::size_t d = 0;
        while (d < m && ++cell[d] >= ticks[d].size()) cell[d++] = 0;
        if (d == m) break;
    }
    return volume;
}

Rows random_rows(std::mt19937_64& rng, int n, int m, bool coarse) {
    std::uniform_real_distribution<double> u(-1.0, 3.0);
    Rows rows(static_cast<std::size_t>(n), std::vector<double>(static_cast<std::size_t>(m)));
    for (auto& r : rows)
        for (auto& v : r) v = coarse ? std::round(4.0 * u(rng)) / 4.0 : u(rng);
    return rows;
}

// The sparse hypervolume with −sparsity as one more real coordinate, by the grid.
double grid_sparse_volume(const std::vector<ObjectivePoint>& points, const SparseHypervolumeReference& reference) {
    Rows rows;
    for (const auto& p : points) {
        rows.push_back(p.utilities);
        rows.back().push_back(-static_cast<double>(p.sparsity));
    }
    std::vector<double> r = reference.utilities;
    r.push_back(-static_cast<double>(reference.sparsity));
    return grid_volume(rows, r);
}

std::vector<ObjectivePoint> random_points(std::mt19937_64& rng, int n, int m, int max_sparsity, bool coarse) {
    std::uniform_int_distribution<int> count(0, max_sparsity);
    std::vector<ObjectivePoint> points;
    int id = 100;
    for (auto& row : random_rows(rng, n, m, coarse)) points.push_back({row, count(rng), id++});
    return points;
}

}  // namespace

class TestParetoNd : public QObject {
    Q_OBJECT

private slots:
    void dominanceAndFilter() {
        QVERIFY(dominates(std::vector<double>{2, 1, 1}, std::vector<double>{1, 1, 1}));
        QVERIFY(!dominates(std::vector<double>{1, 1, 1}, std::vector<double>{1, 1, 1}));
        QVERIFY(!dominates(std::vector<double>{2, 0, 1}, std::vector<double>{1, 1, 1}));
        // (3,1) and (1,3) trade off; (2,2) too; (1,1) is dominated; the second (2,2) is a copy.
        const Rows rows = {{1, 1}, {3, 1}, {2, 2}, {1, 3}, {2, 2}, {0, 3}};
        QCOMPARE(non_dominated_positions(rows), (std::vector<std::size_t>{1, 2, 3}));
        QVERIFY(non_dominated_positions({}).empty());
    }

    void nonDominatedWithSparsity() {
        // (u1, u2, sparsity, id). id 4 trades sparsity for u1 against id 1; id 3 is dominated by
        // id 1 (same utilities, more active); id 6 copies id 5.
        const std::vector<ObjectivePoint> points = {{{1, 2}, 1, 1},    {{2, 1}, 1, 2},     {{1, 2}, 2, 3},
                                                    {{3, 3}, 4, 4},    {{0.5, 0.5}, 0, 5}, {{0.5, 0.5}, 0, 6},
                                                    {{0.4, 0.4}, 0, 7}};
        QCOMPARE(non_dominated(points), (std::vector<int>{5, 2, 1, 4}));
    }

    void frontsBySparsityHandComputed() {
        // k = 0: only id 5 (id 6 copies it, id 7 is dominated); k = 1: ids 1, 2 (they trade off)
        // dominate id 5; k = 2: id 3 copies id 1 → still 2, 1; k = 3: unchanged; k = 4: id 4 alone.
        const std::vector<ObjectivePoint> points = {{{1, 2}, 1, 1},    {{2, 1}, 1, 2},     {{1, 2}, 2, 3},
                                                    {{3, 3}, 4, 4},    {{0.5, 0.5}, 0, 5}, {{0.5, 0.5}, 0, 6},
                                                    {{0.4, 0.4}, 0, 7}};
        const auto fronts = fronts_by_sparsity(points, 5);
        QCOMPARE(fronts.size(), std::size_t{6});
        const std::vector<std::vector<int>> expected = {{5}, {2, 1}, {2, 1}, {2, 1}, {4}, {4}};
        for (std::size_t k = 0; k < fronts.size(); ++k) {
            QCOMPARE(fronts[k].k, int(k));
            QCOMPARE(fronts[k].ids, expected[k]);
        }
        // A later point with utilities identical to an earlier, sparser one does not replace it;
        // an earlier point with more active parameters keeps its place once it is allowed in.
        const auto ties = fronts_by_sparsity({{{1, 1}, 3, 10}, {{1, 1}, 1, 11}, {{1, 1}, 2, 12}}, 3);
        const std::vector<std::vector<int>> tie_ids = {{}, {11}, {11}, {10}};
        for (std::size_t k = 0; k < ties.size(); ++k) QCOMPARE(ties[k].ids, tie_ids[k]);
        QCOMPARE(fronts_by_sparsity(points, 0).size(), std::size_t{1});
    }

    void hypervolumeHandComputed2d3d4d() {
        QCOMPARE(hypervolume_nd({{1, 3}, {2, 2}, {3, 1}}, {0, 0}), 6.0);  // 3 + 2 + 1
        QCOMPARE(hypervolume_nd({{1, 3}, {2, 2}, {3, 1}}, {1, 0}), 3.0);  // (1,3) adds nothing; 2 + 1
        // Three unit-overlapping 2×1×1 bricks: 3·2 − 3·1 + 1.
        QCOMPARE(hypervolume_nd({{2, 1, 1}, {1, 2, 1}, {1, 1, 2}}, {0, 0, 0}), 4.0);
        // A 2-cube plus three 1×1×1 bricks sticking out of it: 8 + 3.
        QCOMPARE(hypervolume_nd({{3, 1, 1}, {1, 3, 1}, {1, 1, 3}, {2, 2, 2}}, {0, 0, 0}), 11.0);
        // The same with the reference at (1, 1, 0): only the cube's (1..2)² × 2 column and the
        // third brick's (nothing: its x, y do not pass 1) remain → 1·1·2.
        QCOMPARE(hypervolume_nd({{3, 1, 1}, {1, 3, 1}, {1, 1, 3}, {2, 2, 2}}, {1, 1, 0}), 2.0);
        // Four 2×1×1×1 bricks: 4·2 − 6 + 4 − 1; with a 2-hypercube on top of them: 16.
        QCOMPARE(hypervolume_nd({{2, 1, 1, 1}, {1, 2, 1, 1}, {1, 1, 2, 1}, {1, 1, 1, 2}}, {0, 0, 0, 0}), 5.0);
        QCOMPARE(hypervolume_nd({{2, 1, 1, 1}, {1, 2, 1, 1}, {2, 2, 2, 2}, {1, 1, 1, 2}}, {0, 0, 0, 0}), 16.0);
        // A 4-D box with a shifted reference: 1.5 · 2 · 0.5 · 4.
        QCOMPARE(hypervolume_nd({{1.0, 1.0, 0.0, 3.0}}, {-0.5, -1.0, -0.5, -1.0}), 6.0);
        QCOMPARE(hypervolume_nd({{5.0}, {7.5}, {-1.0}}, {2.0}), 5.5);
        QCOMPARE(hypervolume_nd({}, {0, 0, 0}), 0.0);
        QCOMPARE(hypervolume_nd({{1, 1, 0}}, {0, 0, 0}), 0.0);  // on the reference: nothing
    }

    void hypervolumeAgainstBruteForce() {
        std::mt19937_64 rng(1301);
        for (int m = 1; m <= 4; ++m)
            for (int trial = 0; trial < 40; ++trial) {
                const bool coarse = trial % 2 == 0;  // ties, copies and dominated points
                const Rows points = random_rows(rng, 1 + trial % 9, m, coarse);
                const std::vector<double> reference(static_cast<std::size_t>(m), trial % 3 == 0 ? -1.5 : 0.0);
                const double got = hypervolume_nd(points, reference);
                const double by_cells = grid_volume(points, reference);
                const double by_subsets = inclusion_exclusion(points, reference);
                SEBO_COMPARE_NEAR(got, by_cells, 1e-12 * std::max(1.0, by_cells));
                SEBO_COMPARE_NEAR(got, by_subsets, 1e-10 * std::max(1.0, by_cells));
            }
        // Larger 3-D and 4-D fronts against the grid only.
        for (int m : {3, 4})
            for (int trial = 0; trial < 5; ++trial) {
                const Rows points = random_rows(rng, m == 3 ? 40 : 18, m, false);
                const std::vector<double> reference(static_cast<std::size_t>(m), -1.0);
                const double by_cells = grid_volume(points, reference);
                SEBO_COMPARE_NEAR(hypervolume_nd(points, reference), by_cells, 1e-12 * by_cells);
            }
    }

    void hypervolumeIgnoresDominatedPointsToTheLastBit() {
        std::mt19937_64 rng(77);
        for (int m = 2; m <= 4; ++m) {
            Rows points = random_rows(rng, 25, m, false);
            const std::vector<double> reference(static_cast<std::size_t>(m), -1.0);
            Rows front;
            for (const std::size_t i : non_dominated_positions(points)) front.push_back(points[i]);
            const double full = hypervolume_nd(points, reference);
            QCOMPARE(hypervolume_nd(front, reference), full);
            std::shuffle(points.begin(), points.end(), rng);
            points.push_back(points.front());
            QCOMPARE(hypervolume_nd(points, reference), full);
        }
    }

    void hypervolumeFiniteAtExtremes() {
        const double big = 1e308, max = std::numeric_limits<double>::max();
        // A width of 2e308 times 1e-10: representable, although the width alone is not.
        const double v = hypervolume_nd({{big, 1e-10}}, {-big, 0.0});
        SEBO_COMPARE_NEAR(v / 2e298, 1.0, 1e-15);
        // Volumes beyond the largest double saturate instead of becoming infinite.
        QCOMPARE(hypervolume_nd({{big, big}}, {-big, -big}), max);
        QCOMPARE(hypervolume_nd({{big, big, big, big}, {-big / 2, big, 1, 1}}, {-big, -big, -big, -big}), max);
        // Extreme and ordinary magnitudes together: the small box is still counted exactly.
        SEBO_COMPARE_NEAR(hypervolume_nd({{1e300, 1e-300}, {1.0, 1.0}}, {0.0, 0.0}), 1.0 + 1.0 - 1e-300, 1e-15);
        for (int m = 1; m <= 4; ++m) {
            std::mt19937_64 rng(5u + unsigned(m));
            std::uniform_real_distribution<double> u(-1.0, 1.0);  // times big: (−big, big) itself overflows
            Rows points(12, std::vector<double>(static_cast<std::size_t>(m)));
            for (auto& p : points)
                for (auto& x : p) x = big * u(rng);
            const double h = hypervolume_nd(points, std::vector<double>(static_cast<std::size_t>(m), -big));
            QVERIFY(std::isfinite(h) && h > 0.0);
        }
        // Scaling every utility by 2^k scales the volume by exactly 2^{mk}.
        std::mt19937_64 rng(9);
        const Rows points = random_rows(rng, 15, 3, false);
        Rows scaled = points;
        for (auto& p : scaled)
            for (auto& x : p) x = std::ldexp(x, 200);
        QCOMPARE(hypervolume_nd(scaled, {std::ldexp(-1.0, 200), std::ldexp(-1.0, 200), std::ldexp(-1.0, 200)}),
                 std::ldexp(hypervolume_nd(points, {-1.0, -1.0, -1.0}), 600));
        // The sparse hypervolume too.
        const std::vector<ObjectivePoint> extreme = {
            {{big, -big / 3}, 0, 0}, {{-big / 2, big}, 2, 1}, {{1.0, 1.0}, 1, 2}};
        const double hs = hypervolume(extreme, {{-big, -big}, 4});
        QVERIFY(std::isfinite(hs) && hs > 0.0);
        const auto trace = hypervolume_trace(extreme, {{-big, -big}, 4});
        for (double t : trace) QVERIFY(std::isfinite(t));
    }

    void sparseHypervolumeHandComputed() {
        // Levels: s = 0 → HV2{(2,1)} = 2; s = 1 → HV2{(2,1),(1,2)} = 3; s = 3 → HV2{(3,3)} = 9.
        // Total 1·2 + 2·3 + 1·9. The point at s = 4 = R and the one below the reference add nothing.
        const std::vector<ObjectivePoint> points = {
            {{2, 1}, 0, 0}, {{1, 2}, 1, 1}, {{3, 3}, 3, 2}, {{9, 9}, 4, 3}, {{5, -1}, 0, 4}};
        QCOMPARE(hypervolume(points, {{0, 0}, 4}), 17.0);
        QCOMPARE(hypervolume_trace(points, {{0, 0}, 4}), (std::vector<double>{8.0, 11.0, 17.0, 17.0, 17.0}));
        // 3 objectives: a unit cube at s = 0 and a 2-cube at s = 2, R = 3: 2·1 + 1·8.
        QCOMPARE(hypervolume(std::vector<ObjectivePoint>{{{1, 1, 1}, 0, 0}, {{2, 2, 2}, 2, 1}}, {{0, 0, 0}, 3}), 10.0);
        QCOMPARE(hypervolume(std::vector<ObjectivePoint>{}, {{0, 0, 0}, 3}), 0.0);
    }

    void sparseHypervolumeAgainstGrid() {
        std::mt19937_64 rng(2024);
        for (int m = 1; m <= 4; ++m)
            for (int trial = 0; trial < 12; ++trial) {
                const auto points = random_points(rng, m == 4 ? 7 : 10, m, 6, trial % 2 == 0);
                const SparseHypervolumeReference reference{std::vector<double>(static_cast<std::size_t>(m), -0.5), 5};
                const double expected = grid_sparse_volume(points, reference);
                SEBO_COMPARE_NEAR(hypervolume(points, reference), expected, 1e-12 * std::max(1.0, expected));
            }
    }

    void traceEqualsEveryPrefixToTheLastBit() {
        std::mt19937_64 rng(31);
        for (int m = 1; m <= 4; ++m) {
            const auto points = random_points(rng, m == 4 ? 60 : 150, m, 9, true);
            const SparseHypervolumeReference reference{std::vector<double>(static_cast<std::size_t>(m), -0.25), 8};
            const auto trace = hypervolume_trace(points, reference);
            QCOMPARE(trace.size(), points.size());
            for (std::size_t n = 1; n <= points.size(); ++n) {
                const std::vector<ObjectivePoint> prefix(points.begin(), points.begin() + std::ptrdiff_t(n));
                QCOMPARE(trace[n - 1], hypervolume(prefix, reference));
            }
            QVERIFY(trace.back() > 0.0);
        }
        QVERIFY(hypervolume_trace({}, {{0.0}, 3}).empty());
    }

    void oneObjectiveAgreesWithFrontierH() {
        std::mt19937_64 rng(20230425);
        std::normal_distribution<double> normal(0.0, 1.0);
        std::uniform_int_distribution<int> count(-1, 12);
        for (int round = 0; round < 4; ++round) {
            const bool quarter = round % 2 == 0;  // quarter-integers: every sum is exact, so equal bits
            std::vector<ScoredPoint> scored;
            std::vector<ObjectivePoint> points;
            for (int i = 0; i < 300; ++i) {
                const double u = quarter ? std::round(4.0 * normal(rng)) / 4.0 : normal(rng);
                const int s = count(rng);
                scored.push_back({u, s, 1000 + i});
                points.push_back({{u}, s, 1000 + i});
            }
            QCOMPARE(non_dominated(points), sebo::non_dominated(scored));
            const auto steps = step_frontier(scored, 12);
            const auto fronts = fronts_by_sparsity(points, 12);
            QCOMPARE(fronts.size(), steps.size());
            for (std::size_t k = 0; k < steps.size(); ++k) {
                QCOMPARE(fronts[k].ids.size(), steps[k].id ? std::size_t{1} : std::size_t{0});
                if (steps[k].id) QCOMPARE(fronts[k].ids.front(), *steps[k].id);
            }
            for (const int reference_sparsity : {0, 5, 10, 13}) {
                const double ru = -0.5;
                const double expected = sebo::hypervolume(scored, ru, reference_sparsity);
                const double got = hypervolume(points, {{ru}, reference_sparsity});
                const auto expected_trace = sebo::hypervolume_trace(scored, ru, reference_sparsity);
                const auto got_trace = hypervolume_trace(points, {{ru}, reference_sparsity});
                if (quarter) {
                    QCOMPARE(got, expected);
                    QCOMPARE(got_trace, expected_trace);
                } else {
                    SEBO_COMPARE_NEAR(got, expected, 1e-13 * std::max(1.0, expected));
                    for (std::size_t i = 0; i < got_trace.size(); ++i)
                        SEBO_COMPARE_NEAR(got_trace[i], expected_trace[i], 1e-13 * std::max(1.0, expected_trace[i]));
                }
            }
        }
    }
};

SEBO_TEST_MAIN(TestParetoNd)
}  // namespace test_pareto_nd
#include "test_pareto_nd.moc"
