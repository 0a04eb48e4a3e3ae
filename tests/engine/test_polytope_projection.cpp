// Projection onto the polytope of linear parameter constraints with pinned coordinates
// (space/polytope_projection.h) and snapping/rounding without leaving it (space/feasible_snap.h):
// hand-computed projections, KKT certificates and the variational inequality on random cases, and
// the documented snapping order.
#include <cmath>
#include <random>

#include "design/polytope_sampler.h"
#include "polytope_test_support.h"
#include "space/feasible_snap.h"
#include "space/polytope_analysis.h"
#include "space/polytope_projection.h"
#include "test_main.h"
#include "test_support.h"

namespace test_polytope_projection {

using namespace sebo;
using sebo::test::polytope_of;
using sebo::test::unit_space;
using sebo::test::vec;

namespace {

void compare_vectors(const Eigen::VectorXd& actual, const Eigen::VectorXd& expected, double tolerance) {
    QCOMPARE(actual.size(), expected.size());
    for (Eigen::Index j = 0; j < actual.size(); ++j) SEBO_COMPARE_NEAR(actual[j], expected[j], tolerance);
}

// The KKT conditions of min ½‖x − y‖² over P with pins, from the returned certificate: stationarity
// on free coordinates, signs, complementary slackness. Empty when they hold, else what fails.
std::string kkt_failure(const Polytope& p, const Eigen::VectorXd& y, const std::vector<bool>& pinned, const PolytopeProjection& r) {
    const Eigen::VectorXd& x = r.x;
    Eigen::VectorXd stationarity = x - y + p.inequality_matrix().transpose() * r.inequality_multipliers +
                                   p.equality_matrix().transpose() * r.equality_multipliers - r.lower_multipliers + r.upper_multipliers;
    for (Eigen::Index j = 0; j < x.size(); ++j) {
        if (!pinned.empty() && pinned[static_cast<std::size_t>(j)]) {
            if (r.lower_multipliers[j] != 0 || r.upper_multipliers[j] != 0) return "multiplier on a pinned coordinate";
            if (x[j] != y[j]) return "a pinned coordinate moved";
            continue;
        }
        if (std::abs(stationarity[j]) > 1e-8) return "stationarity fails at coordinate " + std::to_string(j);
    }
    if (r.inequality_multipliers.size() > 0 && r.inequality_multipliers.minCoeff() < 0) return "negative multiplier";
    if (r.lower_multipliers.minCoeff() < 0 || r.upper_multipliers.minCoeff() < 0) return "negative bound multiplier";
    for (Eigen::Index i = 0; i < r.inequality_multipliers.size(); ++i) {
        const double slack = p.inequality_bound()[i] - p.inequality_matrix().row(i).dot(x);
        if (r.inequality_multipliers[i] * slack > 1e-9) return "complementarity fails on row " + std::to_string(i);
    }
    for (Eigen::Index j = 0; j < x.size(); ++j)
        if (r.lower_multipliers[j] * x[j] > 1e-9 || r.upper_multipliers[j] * (1 - x[j]) > 1e-9) return "bound complementarity fails";
    if (!p.contains(x)) return "not inside";
    return "";
}

SnapRule within(double tolerance, const Eigen::VectorXd& target) {
    return [tolerance, target](int j, double u) { return std::abs(u - target[j]) <= tolerance; };
}

}  // namespace

class TestPolytopeProjection : public QObject {
    Q_OBJECT
private slots:
    void hand_computed_projections() {
        // (1,1) onto fa + fb <= 1: (0.5, 0.5); the row is (1,1)/√2, so μ/√2 = 0.5.
        const Polytope half = polytope_of(unit_space(2), {"fa + fb <= 1"});
        PolytopeProjection r = project_onto_polytope(half, vec({1.0, 1.0}));
        QCOMPARE(r.status, PolytopeProjection::Status::Ok);
        compare_vectors(r.x, vec({0.5, 0.5}), 1e-12);
        SEBO_COMPARE_NEAR(r.inequality_multipliers[0], std::sqrt(0.5), 1e-12);
        // A point inside comes back unchanged; a point outside the box only is clamped.
        r = project_onto_polytope(half, vec({0.2, 0.3}));
        QCOMPARE(r.x, vec({0.2, 0.3}));
        r = project_onto_polytope(half, vec({-2.0, 0.5}));
        compare_vectors(r.x, vec({0.0, 0.5}), 0.0);
        SEBO_COMPARE_NEAR(r.lower_multipliers[0], 2.0, 1e-15);
        // (1,1,1) onto fa + fb + fc <= 1: (1/3, 1/3, 1/3).
        const Polytope simplex = polytope_of(unit_space(3), {"fa + fb + fc <= 1"});
        r = project_onto_polytope(simplex, vec({1.0, 1.0, 1.0}));
        compare_vectors(r.x, vec({1.0 / 3, 1.0 / 3, 1.0 / 3}), 1e-12);
        // (1,0,0) onto fa + fb + fc <= 0.5: the plane's nearest point (5/6, −1/6, −1/6) is outside
        // the box; with fb = fc = 0 at their bounds, (0.5, 0, 0). μ/√3 = 0.5, λ_lower = 0.5.
        const Polytope low = polytope_of(unit_space(3), {"fa + fb + fc <= 0.5"});
        r = project_onto_polytope(low, vec({1.0, 0.0, 0.0}));
        QCOMPARE(r.status, PolytopeProjection::Status::Ok);
        compare_vectors(r.x, vec({0.5, 0.0, 0.0}), 1e-12);
        SEBO_COMPARE_NEAR(r.inequality_multipliers[0], 0.5 * std::sqrt(3.0), 1e-12);
        SEBO_COMPARE_NEAR(r.lower_multipliers[1], 0.5, 1e-12);
        SEBO_COMPARE_NEAR(r.lower_multipliers[2], 0.5, 1e-12);
        // (0,0) onto fa + fb = 1: (0.5, 0.5).
        r = project_onto_polytope(polytope_of(unit_space(2), {"fa + fb = 1"}), vec({0.0, 0.0}));
        compare_vectors(r.x, vec({0.5, 0.5}), 1e-12);
    }

    void pinned_coordinates() {
        const Polytope half = polytope_of(unit_space(2), {"fa + fb <= 1"});
        // fa pinned at 0.9: fb goes to 0.1.
        PolytopeProjection r = project_onto_polytope(half, vec({0.9, 0.9}), {true, false});
        QCOMPARE(r.status, PolytopeProjection::Status::Ok);
        QCOMPARE(r.x[0], 0.9);
        SEBO_COMPARE_NEAR(r.x[1], 0.1, 1e-12);
        // fa + fb >= 1.5 has no point with fa = 0.2.
        r = project_onto_polytope(polytope_of(unit_space(2), {"fa + fb >= 1.5"}), vec({0.2, 0.9}), {true, false});
        QCOMPARE(r.status, PolytopeProjection::Status::Infeasible);
        // Everything pinned: feasible or not, nothing moves.
        r = project_onto_polytope(half, vec({0.3, 0.3}), {true, true});
        QCOMPARE(r.status, PolytopeProjection::Status::Ok);
        QCOMPARE(r.x, vec({0.3, 0.3}));
        r = project_onto_polytope(half, vec({0.6, 0.6}), {true, true});
        QCOMPARE(r.status, PolytopeProjection::Status::Infeasible);
        // A pin outside the box is infeasible.
        r = project_onto_polytope(half, vec({1.5, 0.0}), {true, false});
        QCOMPARE(r.status, PolytopeProjection::Status::Infeasible);
    }

    // Random polytopes, points and pins: the certificate satisfies KKT, and no feasible point
    // with the same pins (sampled independently) violates the variational inequality
    // (y − x)·(v − x) <= 0 that characterizes the nearest point of a convex set.
    void property_kkt_and_variational_inequality() {
        std::mt19937_64 rng(4242);
        std::uniform_real_distribution<double> wide(-0.5, 1.5), unit(0.0, 1.0);
        int cases = 0, with_pins = 0, comparisons = 0;
        for (int trial = 0; trial < 300; ++trial) {
            const int d = 1 + trial % 7;
            const int eq = trial % 5 == 0 ? static_cast<int>(rng() % static_cast<unsigned>(d)) : 0;
            const auto [p, c] = sebo::test::random_polytope(rng, d, 1 + static_cast<int>(rng() % 6), eq);
            Eigen::VectorXd y(d);
            for (int j = 0; j < d; ++j) y[j] = wide(rng);
            // Pins at the values of a feasible point (the construction point), so that P with the
            // pins is not empty.
            std::vector<bool> pinned(static_cast<std::size_t>(d), false);
            Polytope pinned_set = p;
            if (trial % 2 == 1 && d > 1) {
                for (int j = 0; j < d; ++j) {
                    if (unit(rng) < 0.3) {
                        pinned[static_cast<std::size_t>(j)] = true;
                        y[j] = c[j];
                        Eigen::VectorXd e = Eigen::VectorXd::Zero(d);
                        e[j] = 1.0;
                        pinned_set.add_equality(e, c[j]);
                    }
                }
                ++with_pins;
            }
            const PolytopeProjection r = project_onto_polytope(p, y, pinned);
            QCOMPARE(r.status, PolytopeProjection::Status::Ok);
            const std::string failure = kkt_failure(p, y, pinned, r);
            QVERIFY2(failure.empty(), failure.c_str());
            const PolytopeSample s = sample_polytope(pinned_set, 30, static_cast<std::uint64_t>(trial));
            QCOMPARE(s.status, PolytopeSample::Status::Ok);
            for (const auto& v : s.points) {
                QVERIFY((y - r.x).dot(v - r.x) <= 1e-8);
                QVERIFY((y - r.x).norm() <= (y - v).norm() + 1e-9);
                ++comparisons;
            }
            ++cases;
        }
        QCOMPARE(cases, 300);
        QVERIFY(with_pins > 100);
        QCOMPARE(comparisons, 9000);
    }

    void snapping_by_hand() {
        const Eigen::VectorXd t = vec({0.0, 0.0});
        // fa + fb >= 0.8: fa snaps to 0 and nothing else moves.
        FeasibleSnap s = snap_feasibly(polytope_of(unit_space(2), {"fa + fb >= 0.8"}), vec({0.005, 0.9}), t, within(0.01, t));
        QCOMPARE(s.status, FeasibleSnap::Status::Ok);
        QCOMPARE(s.x, vec({0.0, 0.9}));
        QCOMPARE(s.snapped, (std::vector<int>{0}));
        // fa + fb = 1: pin fa at 0 and project fb back to 1.
        s = snap_feasibly(polytope_of(unit_space(2), {"fa + fb = 1"}), vec({0.005, 0.995}), t, within(0.01, t));
        QCOMPARE(s.status, FeasibleSnap::Status::Ok);
        QCOMPARE(s.x[0], 0.0);
        SEBO_COMPARE_NEAR(s.x[1], 1.0, 1e-12);
        // fa >= 0.004: fa cannot reach its target; it is kept changed.
        s = snap_feasibly(polytope_of(unit_space(2), {"fa >= 0.004"}), vec({0.005, 0.5}), t, within(0.01, t));
        QCOMPARE(s.status, FeasibleSnap::Status::Ok);
        QCOMPARE(s.x, vec({0.005, 0.5}));
        QVERIFY(s.snapped.empty());
        QCOMPARE(s.kept_changed, (std::vector<int>{0}));
        // fa + fb >= 0.01 with both near 0: not both at once; fa (nearer) first, fb projected up to
        // 0.01, then fb cannot go to 0 and is kept changed.
        s = snap_feasibly(polytope_of(unit_space(2), {"fa + fb >= 0.01"}), vec({0.006, 0.008}), t, within(0.01, t));
        QCOMPARE(s.status, FeasibleSnap::Status::Ok);
        QCOMPARE(s.x[0], 0.0);
        SEBO_COMPARE_NEAR(s.x[1], 0.01, 1e-12);
        QCOMPARE(s.snapped, (std::vector<int>{0}));
        QCOMPARE(s.kept_changed, (std::vector<int>{1}));
        // fa + fb + fc = 1: snapping fa moves the others by 0.0025 each.
        const Eigen::VectorXd t3 = vec({0.0, 0.0, 0.0});
        s = snap_feasibly(polytope_of(unit_space(3), {"fa + fb + fc = 1"}), vec({0.005, 0.5, 0.495}), t3, within(0.01, t3));
        QCOMPARE(s.status, FeasibleSnap::Status::Ok);
        QCOMPARE(s.x[0], 0.0);
        SEBO_COMPARE_NEAR(s.x[1], 0.5025, 1e-12);
        SEBO_COMPARE_NEAR(s.x[2], 0.4975, 1e-12);
        // A coordinate on target stays there when others are projected: fb = 0 is pinned while fa
        // snaps, so fc alone takes up the slack.
        s = snap_feasibly(polytope_of(unit_space(3), {"fa + fb + fc = 1"}), vec({0.005, 0.0, 0.995}), t3, within(0.01, t3));
        QCOMPARE(s.x[1], 0.0);
        QCOMPARE(s.x[0], 0.0);
        SEBO_COMPARE_NEAR(s.x[2], 1.0, 1e-12);
        // A point outside P is projected first, keeping its target coordinates.
        s = snap_feasibly(polytope_of(unit_space(3), {"fa + fb + fc <= 1"}), vec({0.0, 0.9, 0.9}), t3, within(0.01, t3));
        QVERIFY(s.projected_first);
        QCOMPARE(s.x[0], 0.0);
        SEBO_COMPARE_NEAR(s.x[1], 0.5, 1e-12);
        SEBO_COMPARE_NEAR(s.x[2], 0.5, 1e-12);
    }

    void rounding_integers_by_hand() {
        // n1, n2 integers in [0, 4] (grid of quarters), n1 + n2 <= 5: 4u1 + 4u2 <= 5. From
        // (2.5, 2.5), rounding both up breaks it; the dive pins n1 = 3 and brings n2 to 2.
        SearchSpace s({[] { Parameter p; p.name = "n1"; p.kind = ParameterKind::Integer; p.upper = 4; return p; }(),
                       [] { Parameter p; p.name = "n2"; p.kind = ParameterKind::Integer; p.upper = 4; return p; }()});
        const Polytope p = polytope_of(s, {"n1 + n2 <= 5"});
        const Eigen::VectorXd t = vec({0.0, 0.0});
        const std::vector<IntegerColumn> integers{{0, 4}, {1, 4}};
        FeasibleSnap r = finalize_feasibly(p, vec({0.625, 0.625}), t, within(0.01, t), integers);
        QCOMPARE(r.status, FeasibleSnap::Status::Ok);
        QCOMPARE(r.x, vec({0.75, 0.5}));
        // An integer and a continuous parameter: n + x <= 2.5 (n in [0,4], x in [0,1]): from
        // n = 1.6, x = 0.9, n rounds to 2 and x is projected down to 0.5.
        SearchSpace mixed({[] { Parameter q; q.name = "n"; q.kind = ParameterKind::Integer; q.upper = 4; return q; }(),
                           [] { Parameter q; q.name = "x"; return q; }()});
        r = finalize_feasibly(polytope_of(mixed, {"n + x <= 2.5"}), vec({0.4, 0.9}), t, within(0.01, t), {{0, 4}});
        QCOMPARE(r.status, FeasibleSnap::Status::Ok);
        QCOMPARE(r.x[0], 0.5);
        SEBO_COMPARE_NEAR(r.x[1], 0.5, 1e-12);
        // 2*n = 3 has no integer solution.
        r = finalize_feasibly(polytope_of(s, {"2*n1 = 3"}), vec({0.375, 0.5}), t, within(0.01, t), integers);
        QCOMPARE(r.status, FeasibleSnap::Status::Infeasible);
    }

    // Random polytopes, candidates, snap tolerances and integer columns: every result is inside,
    // integer columns on their grid, selected coordinates either on target or kept changed, and
    // coordinates already on target stay there.
    void property_snapping_keeps_feasibility() {
        std::mt19937_64 rng(99);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        int finalized = 0, infeasible_rounding = 0, snapped = 0, kept = 0;
        for (int trial = 0; trial < 200; ++trial) {
            const int d = 2 + trial % 6;
            auto [p, c] = sebo::test::random_polytope(rng, d, 1 + static_cast<int>(rng() % 5), trial % 6 == 0 ? 1 : 0);
            Eigen::VectorXd target = Eigen::VectorXd::Zero(d);
            for (int j = 0; j < d; ++j)
                if (rng() % 3 == 0) target[j] = unit(rng);
            std::vector<IntegerColumn> integers;
            for (int j = 0; j < d; ++j)
                if (rng() % 4 == 0) integers.push_back({j, 1 + static_cast<int>(rng() % 20)});
            for (const auto& ic : integers) target[ic.column] = std::round(target[ic.column] * ic.steps) / ic.steps;
            // A candidate near the construction point with some coordinates near or on target.
            Eigen::VectorXd x = c;
            for (int j = 0; j < d; ++j) {
                const double r = unit(rng);
                if (r < 0.25) x[j] = target[j];
                else if (r < 0.5) x[j] = target[j] + 0.05 * (unit(rng) - 0.5);
            }
            // Every third case, a coordinate that the rule selects but a constraint keeps off its
            // target: u_j >= 0.01 with target 0 and u_j = 0.02.
            if (trial % 3 == 0) {
                const int j = static_cast<int>(rng() % static_cast<unsigned>(d));
                Eigen::VectorXd row = Eigen::VectorXd::Zero(d);
                row[j] = -1.0;
                p.add_inequality(row, -0.01);
                target[j] = 0.0;
                x[j] = 0.02;
            }
            x = x.cwiseMax(0.0).cwiseMin(1.0);
            const std::vector<bool> before = [&] {
                std::vector<bool> b(static_cast<std::size_t>(d));
                for (int j = 0; j < d; ++j) b[static_cast<std::size_t>(j)] = x[j] == target[j];
                return b;
            }();
            const FeasibleSnap s = finalize_feasibly(p, x, target, within(0.03, target), integers);
            if (s.status == FeasibleSnap::Status::Infeasible) {
                ++infeasible_rounding;
                continue;
            }
            QCOMPARE(s.status, FeasibleSnap::Status::Ok);
            QVERIFY(p.contains(s.x));
            for (const auto& ic : integers) {
                const double k = s.x[ic.column] * ic.steps;
                QVERIFY(std::abs(k - std::round(k)) <= 1e-9);
            }
            for (int j : s.snapped) QCOMPARE(s.x[j], target[j]);
            if (!s.projected_first)
                for (int j = 0; j < d; ++j)
                    if (before[static_cast<std::size_t>(j)]) QCOMPARE(s.x[j], target[j]);
            snapped += static_cast<int>(s.snapped.size());
            kept += static_cast<int>(s.kept_changed.size());
            ++finalized;
        }
        QVERIFY(finalized > 150);
        QVERIFY(snapped > 50);
        QVERIFY(kept > 0);
        qInfo("finalized %d, rounding infeasible %d, snapped %d, kept changed %d", finalized, infeasible_rounding, snapped, kept);
    }
};

SEBO_TEST_MAIN(TestPolytopeProjection)
}  // namespace test_polytope_projection
#include "test_polytope_projection.moc"
