// The polytope of linear parameter constraints in the unit cube (space/polytope.h) and its analysis
// (space/polytope_analysis.h): hand-computed Chebyshev centres, implicit equalities, single points,
// the conflicting constraints of empty sets, and random polytopes.
#include <cmath>
#include <random>

#include "polytope_test_support.h"
#include "io/linear_constraint_text.h"
#include "space/polytope_analysis.h"
#include "test_main.h"
#include "test_support.h"

namespace test_polytope {

using namespace sebo;
using sebo::test::polytope_of;
using sebo::test::unit_space;
using sebo::test::vec;

namespace {

PolytopeAnalysis analyze(const std::vector<std::string>& texts, int d) { return analyze_polytope(polytope_of(unit_space(d), texts)); }

// Distance from x to the nearest row or box side, measured within the directions' span.
double depth(const Polytope& p, const Eigen::MatrixXd& directions, const Eigen::VectorXd& x) {
    double best = std::numeric_limits<double>::infinity();
    const auto consider = [&](const Eigen::VectorXd& a, double b) {
        const double n = (directions.transpose() * a).norm();
        if (n > 1e-12) best = std::min(best, (b - a.dot(x)) / n);
    };
    for (Eigen::Index i = 0; i < p.inequality_matrix().rows(); ++i) consider(p.inequality_matrix().row(i).transpose(), p.inequality_bound()[i]);
    for (Eigen::Index j = 0; j < x.size(); ++j) {
        Eigen::VectorXd e = Eigen::VectorXd::Zero(x.size());
        e[j] = 1.0;
        consider(e, 1.0);
        consider(-e, 0.0);
    }
    return best;
}

}  // namespace

class TestPolytope : public QObject {
    Q_OBJECT
private slots:
    void rows_are_normalized() {
        const Polytope p = polytope_of(unit_space(2), {"2*fa + 2*fb <= 2"});
        QCOMPARE(p.inequality_matrix().rows(), Eigen::Index(1));
        SEBO_COMPARE_NEAR(p.inequality_matrix()(0, 0), std::sqrt(0.5), 1e-15);
        SEBO_COMPARE_NEAR(p.inequality_bound()[0], std::sqrt(0.5), 1e-15);
        QVERIFY(p.contains(vec({0.5, 0.5})));
        QVERIFY(!p.contains(vec({0.6, 0.5})));
        SEBO_COMPARE_NEAR(p.max_violation(vec({0.6, 0.5})), 0.1 * std::sqrt(0.5), 1e-15);
        SEBO_COMPARE_NEAR(p.max_violation(vec({0.9, 0.3})), 0.2 * std::sqrt(0.5), 1e-15);
        SEBO_COMPARE_NEAR(p.max_violation(vec({-0.3, 0.0})), 0.3, 1e-15);  // the box
        QCOMPARE(p.max_violation(vec({std::nan(""), 0.0})), std::numeric_limits<double>::infinity());
        QCOMPARE(p.source_label(0), std::string("2*fa + 2*fb <= 2"));
    }

    void chebyshev_centre_of_a_simplex_corner() {
        // {u >= 0, fa + fb + fc <= 1}: the inscribed ball touches the three faces u_j = 0 and the
        // slanted face: r = (1 − 3r)/√3, so r = 1/(3 + √3) and the centre is (r, r, r).
        const PolytopeAnalysis a = analyze({"fa + fb + fc <= 1"}, 3);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Feasible);
        const double r = 1.0 / (3.0 + std::sqrt(3.0));
        SEBO_COMPARE_NEAR(a.radius, r, 1e-9);
        for (int j = 0; j < 3; ++j) SEBO_COMPARE_NEAR(a.centre[j], r, 1e-9);
        QCOMPARE(a.directions.cols(), Eigen::Index(3));
        QVERIFY(a.implicit_equalities.empty() && a.fixed_columns.empty());
    }

    void equality_constraints_set_the_hull() {
        // fa + fb = 1 in [0,1]²: the diagonal from (0,1) to (1,0); centre at its middle, radius √2/2.
        const PolytopeAnalysis a = analyze({"fa + fb = 1"}, 2);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Feasible);
        QCOMPARE(a.directions.cols(), Eigen::Index(1));
        SEBO_COMPARE_NEAR(std::abs(a.directions(0, 0)), std::sqrt(0.5), 1e-12);
        SEBO_COMPARE_NEAR(a.directions(0, 0) + a.directions(1, 0), 0.0, 1e-12);
        SEBO_COMPARE_NEAR(a.centre[0], 0.5, 1e-9);
        SEBO_COMPARE_NEAR(a.centre[1], 0.5, 1e-9);
        SEBO_COMPARE_NEAR(a.radius, std::sqrt(0.5), 1e-9);
    }

    void implicit_equalities_are_found() {
        // Two inequalities that leave only the diagonal: the same hull as the equality.
        PolytopeAnalysis a = analyze({"fa + fb <= 1", "fa + fb >= 1"}, 2);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Feasible);
        QCOMPARE(a.implicit_equalities, (std::vector<int>{0, 1}));
        QVERIFY(a.fixed_columns.empty());
        QCOMPARE(a.directions.cols(), Eigen::Index(1));
        SEBO_COMPARE_NEAR(a.radius, std::sqrt(0.5), 1e-9);
        // fa >= 1 with fa in [0,1]: fa is fixed at 1; the set is the edge {1} × [0,1].
        a = analyze({"fa >= 1"}, 2);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Feasible);
        QCOMPARE(a.implicit_equalities, (std::vector<int>{0}));
        QCOMPARE(a.fixed_columns, (std::vector<int>{0}));
        QCOMPARE(a.directions.cols(), Eigen::Index(1));
        SEBO_COMPARE_NEAR(std::abs(a.directions(1, 0)), 1.0, 1e-12);
        SEBO_COMPARE_NEAR(a.centre[0], 1.0, 1e-9);
        SEBO_COMPARE_NEAR(a.centre[1], 0.5, 1e-9);
        SEBO_COMPARE_NEAR(a.radius, 0.5, 1e-9);
        // fa + fb >= 2: the single point (1, 1).
        a = analyze({"fa + fb >= 2"}, 2);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Feasible);
        QCOMPARE(a.directions.cols(), Eigen::Index(0));
        QCOMPARE(a.radius, 0.0);
        QCOMPARE(a.fixed_columns, (std::vector<int>{0, 1}));
        SEBO_COMPARE_NEAR(a.centre[0], 1.0, 1e-9);
        SEBO_COMPARE_NEAR(a.centre[1], 1.0, 1e-9);
    }

    void an_impossible_constraint_is_named_with_its_range() {
        const PolytopeAnalysis a = analyze({"fc <= 0.5", "fa + fb >= 3"}, 3);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Empty);
        QCOMPARE(a.conflict, (std::vector<int>{1}));
        QCOMPARE(a.message, std::string("no configuration satisfies 'fa + fb >= 3': its left side lies in [0, 2] within the parameter bounds"));
    }

    void conflicting_constraints_are_named() {
        // fa + fb >= 1.5 conflicts with fb <= 0.2 alone (fa would need 1.3); fc and fa <= 0.2 are
        // not needed for the conflict once fb <= 0.2 is in (the filter drops them in order).
        PolytopeAnalysis a = analyze({"fc <= 0.5", "fa + fb >= 1.5", "fa <= 0.2", "fb <= 0.2"}, 3);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Empty);
        QCOMPARE(a.conflict, (std::vector<int>{1, 3}));
        QCOMPARE(a.message, std::string("no configuration within the parameter bounds satisfies these constraints together: "
                                        "'fa + fb >= 1.5', 'fb <= 0.2'"));
        // Two equalities that meet outside the box: fa = 0.65, fb = −0.15.
        a = analyze({"fa + fb = 0.5", "fa - fb = 0.8"}, 2);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Empty);
        QCOMPARE(a.conflict, (std::vector<int>{0, 1}));
    }

    void bounds_far_beyond_the_cube_keep_their_meaning() {
        // fa >= 15 is impossible in [0,1]; a second row with a bound of 9e16 once made the linear
        // programs' data-scaled tolerances accept it (a fuzz finding: the "centre" lay outside).
        PolytopeAnalysis a = analyze({"fa >= 15", "fa <= 90071992547409935"}, 2);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Empty);
        QCOMPARE(a.conflict, (std::vector<int>{0}));
        // The same bound with a feasible row: the set is {fb >= 0.5}, the centre at (1/2, 3/4).
        a = analyze({"fb >= 0.5", "fa - fb <= 1e300"}, 2);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Feasible);
        SEBO_COMPARE_NEAR(a.radius, 0.25, 1e-9);
        SEBO_COMPARE_NEAR(a.centre[1], 0.75, 1e-9);
        // Within the cube the stored rows still say what the user's do: a point is inside exactly
        // when the user's inequality holds there.
        const Polytope p = polytope_of(unit_space(2), {"fa - fb <= 1e300", "fa + fb >= -1e300"});
        QVERIFY(p.contains(vec({1.0, 0.0})) && p.contains(vec({0.0, 1.0})));
        const Polytope q = polytope_of(unit_space(2), {"fa + fb = -1e300"});
        QVERIFY(!q.contains(vec({0.0, 0.0})));
        QCOMPARE(analyze_polytope(q).status, PolytopeAnalysis::Status::Empty);
    }

    void parameters_that_do_not_vary() {
        // fa fixed at 0.9 (column −1): fa + fb <= 0.5 needs fb <= −0.4; fa <= 0.5 alone is a
        // zero row that fails everywhere.
        const SearchSpace s = unit_space(2);
        std::vector<UnitCoordinate> coords = unit_coordinates(s);
        coords[0] = {-1, 0.9, 0.0};
        coords[1].column = 0;
        const auto parsed = [&](const char* t) { return *parse_linear_constraint(t, constraint_variables(s)).constraint; };
        Polytope p = Polytope::from_constraints({parsed("fa + fb <= 0.5")}, coords, 1, {"fa + fb <= 0.5"});
        PolytopeAnalysis a = analyze_polytope(p);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Empty);
        QCOMPARE(a.message, std::string("no configuration satisfies 'fa + fb <= 0.5': its left side lies in [0.9, 1.9] within the parameter bounds"));
        p = Polytope::from_constraints({parsed("fa <= 0.5")}, coords, 1, {"fa <= 0.5"});
        QCOMPARE(p.inequality_matrix()(0, 0), 0.0);
        a = analyze_polytope(p);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Empty);
        QCOMPARE(a.conflict, (std::vector<int>{0}));
        // fa <= 1 holds for the fixed value: no constraint on the column.
        p = Polytope::from_constraints({parsed("fa <= 1")}, coords, 1, {"fa <= 1"});
        a = analyze_polytope(p);
        QCOMPARE(a.status, PolytopeAnalysis::Status::Feasible);
        SEBO_COMPARE_NEAR(a.radius, 0.5, 1e-9);
    }

    void random_polytopes() {
        std::mt19937_64 rng(31337);
        std::normal_distribution<double> normal(0.0, 1.0);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        int checked = 0;
        for (int trial = 0; trial < 200; ++trial) {
            const int d = 1 + trial % 6;
            const int eq = trial % 3 == 0 ? static_cast<int>(rng() % static_cast<unsigned>(d)) : 0;
            const auto [p, c] = sebo::test::random_polytope(rng, d, static_cast<int>(rng() % 7), eq);
            const PolytopeAnalysis a = analyze_polytope(p);
            QCOMPARE(a.status, PolytopeAnalysis::Status::Feasible);
            QVERIFY(p.contains(a.centre));
            const Eigen::MatrixXd& n = a.directions;
            QCOMPARE(n.cols(), Eigen::Index(d - eq));
            QVERIFY((n.transpose() * n - Eigen::MatrixXd::Identity(n.cols(), n.cols())).norm() < 1e-10);
            if (eq > 0) QVERIFY((p.equality_matrix() * n).norm() < 1e-10);
            // The ball of radius r around the centre, within the hull, is inside P ...
            for (int k = 0; k < 20; ++k) {
                Eigen::VectorXd z(n.cols());
                for (Eigen::Index i = 0; i < z.size(); ++i) z[i] = normal(rng);
                const Eigen::VectorXd v = n * (z / z.norm());
                QVERIFY(p.max_violation(a.centre + a.radius * v) <= 1e-9);
            }
            // ... and no point of P is deeper: the construction point c and points between it and
            // the centre have depth at most r.
            for (int k = 0; k < 10; ++k) {
                const double t = unit(rng);
                const Eigen::VectorXd x = t * c + (1.0 - t) * a.centre;
                QVERIFY(depth(p, n, x) <= a.radius + 1e-9);
            }
            SEBO_COMPARE_NEAR(depth(p, n, a.centre), a.radius, 1e-8);
            ++checked;
        }
        QCOMPARE(checked, 200);
    }

    void a_point_in_the_polytope() {
        const Polytope p = polytope_of(unit_space(3), {"fa + fb + fc >= 2.5", "fa <= 0.9"});
        const auto x = find_point_in_polytope(p);
        QVERIFY(x.has_value());
        QVERIFY(p.contains(*x));
        QVERIFY(!find_point_in_polytope(polytope_of(unit_space(2), {"fa + fb >= 2.5"})).has_value());
    }
};

SEBO_TEST_MAIN(TestPolytope)
}  // namespace test_polytope
#include "test_polytope.moc"
