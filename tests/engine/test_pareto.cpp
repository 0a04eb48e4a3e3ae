// Pareto utilities against hand-computed frontiers and areas, and the incremental hypervolume
// trace against the from-scratch hypervolume of every prefix.

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "pareto/frontier.h"
#include "test_main.h"
#include "test_support.h"

namespace test_pareto {

using namespace sebo;

namespace {

// Input order differs from id order so that "first occurrence" and "sorted" are both tested.
// (utility, sparsity, id)
std::vector<ScoredPoint> mixed_points() {
    return {
        {9.0, 5, 17},
        {5.0, 2, 11},  // first of the (5, 2) duplicates
        {4.0, 3, 14},  // dominated by (5, 2)
        {5.0, 2, 10},  // duplicate: dropped
        {7.0, 3, 12},
        {4.0, 1, 13},  // first of the (4, 1) duplicates
        {3.0, 1, 16},  // dominated by (4, 1)
        {7.0, 4, 15},  // same utility as 12 with more active: dominated
        {4.0, 1, 18},  // duplicate: dropped
        {9.0, 6, 19},  // same utility as 17 with more active: dominated
    };
}

}  // namespace

class TestPareto : public QObject {
    Q_OBJECT

private slots:
    void hypervolume2dIssueCase() {
        // Sweep by x descending: 9·1 + 8.5·(3.5 − 1) + 5·(5 − 3.5) = 9 + 21.25 + 7.5.
        const std::vector<std::pair<double, double>> points = {{8.5, 3.0}, {8.5, 3.5}, {5.0, 5.0}, {9.0, 1.0}, {4.0, 5.0}};
        QCOMPARE(hypervolume_2d(points, {0.0, 0.0}), 37.75);
        // Shifting the reference shrinks each slab's width: 8·1 + 7.5·2.5 + 4·1.5 = 32.75.
        QCOMPARE(hypervolume_2d(points, {1.0, 0.0}), 32.75);
    }

    void hypervolume2dIgnoresPointsAtOrBelowReference() {
        const std::pair<double, double> reference{1.0, 1.0};
        const std::vector<std::pair<double, double>> outside = {{1.0, 5.0}, {5.0, 1.0}, {0.0, 0.0}, {-3.0, 10.0}, {10.0, -3.0}};
        QCOMPARE(hypervolume_2d(outside, reference), 0.0);
        QCOMPARE(hypervolume_2d({}, reference), 0.0);
        auto with_one = outside;
        with_one.emplace_back(3.0, 4.0);
        QCOMPARE(hypervolume_2d(with_one, reference), 2.0 * 3.0);
    }

    void hypervolume2dDuplicatesCountOnce() {
        const std::vector<std::pair<double, double>> once = {{2.0, 3.0}, {4.0, 1.0}};
        const std::vector<std::pair<double, double>> repeated = {{2.0, 3.0}, {4.0, 1.0}, {2.0, 3.0}, {4.0, 1.0}, {2.0, 3.0}};
        // 4·1 + 2·(3 − 1) = 8.
        QCOMPARE(hypervolume_2d(once, {0.0, 0.0}), 8.0);
        QCOMPARE(hypervolume_2d(repeated, {0.0, 0.0}), 8.0);
    }

    void nonDominatedKeepsFirstDuplicateSortedBySparsity() {
        QCOMPARE(non_dominated(mixed_points()), (std::vector<int>{13, 11, 12, 17}));
        QVERIFY(non_dominated({}).empty());
        // A single point is its own frontier; two identical points keep the first one.
        QCOMPARE(non_dominated({{1.0, 2, 5}}), (std::vector<int>{5}));
        QCOMPARE(non_dominated({{1.0, 2, 6}, {1.0, 2, 5}}), (std::vector<int>{6}));
        // Equal sparsity, different utility: only the better one.
        QCOMPARE(non_dominated({{1.0, 2, 6}, {1.5, 2, 5}}), (std::vector<int>{5}));
    }

    void stepFrontierBestWithAtMostK() {
        const auto levels = step_frontier(mixed_points(), 6);
        QCOMPARE(levels.size(), std::size_t{7});
        const std::vector<std::optional<double>> best = {std::nullopt, 4.0, 5.0, 7.0, 7.0, 9.0, 9.0};
        // k = 1: 13 precedes its duplicate 18; k = 4: 12 precedes 15; k = 6: 17 precedes 19.
        const std::vector<std::optional<int>> ids = {std::nullopt, 13, 11, 12, 12, 17, 17};
        for (std::size_t k = 0; k < levels.size(); ++k) {
            QCOMPARE(levels[k].k, static_cast<int>(k));
            QCOMPARE(levels[k].best_utility, best[k]);
            QCOMPARE(levels[k].id, ids[k]);
        }
        // Points sparser than max_sparsity are left out.
        const auto short_levels = step_frontier(mixed_points(), 2);
        QCOMPARE(short_levels.size(), std::size_t{3});
        QCOMPARE(short_levels[2].best_utility, std::optional<double>(5.0));
    }

    void stepFrontierTiesGoToEarliestPoint() {
        // The denser point comes first in the input, so it wins the tie at k >= 3.
        const auto levels = step_frontier({{2.0, 3, 1}, {2.0, 1, 2}}, 4);
        const std::vector<std::optional<int>> ids = {std::nullopt, 2, 2, 1, 1};
        for (std::size_t k = 0; k < levels.size(); ++k) QCOMPARE(levels[k].id, ids[k]);
        const auto empty = step_frontier({}, 2);
        QCOMPARE(empty.size(), std::size_t{3});
        for (const auto& level : empty) QVERIFY(!level.best_utility && !level.id);
    }

    void hypervolumeOfScoredPoints() {
        // Best utility with at most j active: j = 1..5 → 4, 5, 7, 7, 9 (point 19 sits at the
        // reference sparsity 6 and adds nothing). Each unit-high strip has that width.
        QCOMPARE(hypervolume(mixed_points(), 0.0, 6), 4.0 + 5.0 + 7.0 + 7.0 + 9.0);
        QCOMPARE(hypervolume(mixed_points(), 0.0, 5), 4.0 + 5.0 + 7.0 + 7.0);
        QCOMPARE(hypervolume(mixed_points(), 4.5, 6), 0.0 + 0.5 + 2.5 + 2.5 + 4.5);
        QCOMPARE(hypervolume(mixed_points(), 9.0, 6), 0.0);
        QCOMPARE(hypervolume(mixed_points(), 0.0, 1), 0.0);
    }

    void hypervolumeTraceHandComputed() {
        // Reference (0, 6). 17 fills strip 5 with 9; 11 fills strips 2–4 with 5 (+15);
        // 12 raises strips 3–4 from 5 to 7 (+4); 13 fills strip 1 with 4 (+4); the rest add nothing.
        const auto trace = hypervolume_trace(mixed_points(), 0.0, 6);
        QCOMPARE(trace, (std::vector<double>{9, 24, 24, 24, 28, 32, 32, 32, 32, 32}));
        QVERIFY(hypervolume_trace({}, 0.0, 6).empty());
    }

    void hypervolumeTraceReplacesAndRemovesSteps() {
        // Reference (0, 6). Strips 3–5 at height 1 (3); strips 4–5 raised to 2 (+2); strip 5 to
        // 3 (+1); then (10, 2) removes all three steps and fills strips 2–5 with 10 (40);
        // (11, 2) replaces it at the same sparsity (+4); (12, 0) covers strips 0–5 (72);
        // points beyond the reference on either side add nothing.
        const std::vector<ScoredPoint> points = {{1, 3, 0},  {2, 4, 1},  {3, 5, 2},  {10, 2, 3},
                                                 {11, 2, 4}, {12, 0, 5}, {-1, 0, 6}, {50, 6, 7}};
        QCOMPARE(hypervolume_trace(points, 0.0, 6), (std::vector<double>{3, 5, 6, 40, 44, 72, 72, 72}));
        QCOMPARE(hypervolume(points, 0.0, 6), 72.0);
    }

    // Finite for any finite inputs (frontier.h): coordinates are scaled by powers of two before
    // any difference or product, and a volume beyond the largest double saturates there.
    void hypervolumeOfExtremeFiniteValues() {
        constexpr double kMax = std::numeric_limits<double>::max();
        const auto relative = [](double actual, double expected) { return std::abs(actual / expected - 1.0); };
        // Width 1e308 − (−1e308) = 2e308 overflows, the area 2e308 · 1e-10 = 2e298 does not.
        const double slab = hypervolume_2d({{1e308, 1e-10}}, {-1e308, 0.0});
        QVERIFY2(relative(slab, 2e298) < 1e-15, qPrintable(QString::number(slab, 'g', 17)));
        // Tiny times huge: 1e-300 · 1e300 = 1; and for (3e-300, 1e300) and (1e-300, 2e300):
        // 3e-300 · 1e300 + 1e-300 · (2e300 − 1e300) = 3 + 1.
        QVERIFY(relative(hypervolume_2d({{1e-300, 1e300}}, {0.0, 0.0}), 1.0) < 1e-15);
        QVERIFY(relative(hypervolume_2d({{3e-300, 1e300}, {1e-300, 2e300}}, {0.0, 0.0}), 4.0) < 1e-15);
        // Beyond the largest double: saturated, never inf or NaN.
        QCOMPARE(hypervolume_2d({{1e308, 1e308}}, {-1e308, -1e308}), kMax);
        QCOMPARE(hypervolume({{1e308, 0, 0}}, -1e308, 2), kMax);
        QCOMPARE(hypervolume_trace({{1e308, 0, 0}}, -1e308, 2), std::vector<double>{kMax});

        // Negative extremes: utility −1e308 over the reference −1.7e308 on strips 0 and 1:
        // 2 · 0.7e308 (to rounding: the doubles nearest 1e308 and 1.7e308).
        const double expected = 2.0 * (1.7e308 - 1e308);
        QVERIFY(relative(hypervolume({{-1e308, 0, 0}}, -1.7e308, 2), expected) < 1e-15);
        QVERIFY(relative(hypervolume_trace({{-1e308, 0, 0}}, -1.7e308, 2).back(), expected) < 1e-15);

        // Mixed magnitudes, reference 0, D = 3: (1, 1) fills strips 1–2 (2); (1e308, 2) raises
        // strip 2 to 1e308 (+1e308 − 1, which rounds to 1e308); (2, 0) raises strips 0–1 to 2
        // (+2 + 1, far below the rounding of 1e308).
        const std::vector<ScoredPoint> mixed = {{1.0, 1, 0}, {1e308, 2, 1}, {2.0, 0, 2}};
        QCOMPARE(hypervolume_trace(mixed, 0.0, 3), (std::vector<double>{2.0, 1e308, 1e308}));
        QCOMPARE(hypervolume(mixed, 0.0, 3), 1e308);
        // Every value finite however the points are ordered, and the trace ends at the volume.
        std::vector<ScoredPoint> extremes = {{1e308, 3, 0}, {-1e308, 0, 1}, {1e-300, 1, 2}, {-1e-300, 2, 3},
                                             {1.7976931348623157e308, 4, 4}, {-1.7976931348623157e308, 0, 5}};
        std::sort(extremes.begin(), extremes.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        do {
            for (double reference : {-1.7976931348623157e308, -1e308, 0.0, 1e308}) {
                const auto trace = hypervolume_trace(extremes, reference, 5);
                for (double v : trace) QVERIFY(std::isfinite(v) && v >= 0.0);
                const double volume = hypervolume(extremes, reference, 5);
                QVERIFY(std::isfinite(volume));
                QVERIFY(relative(trace.back(), volume) < 1e-12 || trace.back() == volume);
            }
        } while (std::next_permutation(extremes.begin(), extremes.end(),
                                       [](const auto& a, const auto& b) { return a.id < b.id; }));
    }

    void hypervolumeTraceMatchesEveryPrefix() {
        // Coarse utilities and a sparsity range that straddles the reference make ties,
        // duplicates and out-of-reference points common.
        std::mt19937_64 rng(20230425);
        std::normal_distribution<double> normal(0.0, 1.0);
        std::uniform_int_distribution<int> count(0, 12);
        std::vector<ScoredPoint> points;
        for (int i = 0; i < 500; ++i) points.push_back({std::round(4.0 * normal(rng)) / 4.0, count(rng), i});
        const double reference_utility = -0.5;
        const int reference_sparsity = 10;

        const auto trace = hypervolume_trace(points, reference_utility, reference_sparsity);
        QCOMPARE(trace.size(), points.size());
        for (std::size_t n = 1; n <= points.size(); ++n) {
            const std::vector<ScoredPoint> prefix(points.begin(), points.begin() + static_cast<std::ptrdiff_t>(n));
            const double expected = hypervolume(prefix, reference_utility, reference_sparsity);
            SEBO_COMPARE_NEAR(trace[n - 1], expected, 1e-12 * std::max(1.0, expected));
        }
        QVERIFY(trace.back() > 0.0);
    }
};

SEBO_TEST_MAIN(TestPareto)
}  // namespace test_pareto
#include "test_pareto.moc"
