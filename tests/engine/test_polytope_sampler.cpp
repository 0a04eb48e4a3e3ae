// Sampling inside the polytope of linear parameter constraints (design/polytope_sampler.h):
// Sobol rejection and hit-and-run, determinism, feasibility of every point over many random
// polytopes, and coverage against independent Monte Carlo and closed-form moments.
#include <cmath>
#include <random>

#include "design/polytope_sampler.h"
#include "design/sobol.h"
#include "polytope_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_polytope_sampler {

using namespace sebo;
using sebo::test::polytope_of;
using sebo::test::unit_space;

namespace {

Eigen::VectorXd mean_of(const std::vector<Eigen::VectorXd>& points) {
    Eigen::VectorXd m = Eigen::VectorXd::Zero(points.front().size());
    for (const auto& p : points) m += p;
    return m / static_cast<double>(points.size());
}

Eigen::VectorXd variance_of(const std::vector<Eigen::VectorXd>& points) {
    const Eigen::VectorXd m = mean_of(points);
    Eigen::VectorXd v = Eigen::VectorXd::Zero(m.size());
    for (const auto& p : points) v += (p - m).cwiseAbs2();
    return v / static_cast<double>(points.size() - 1);
}

// Independent reference: uniform points of the cube (std::mt19937_64, not Sobol) kept when inside.
std::vector<Eigen::VectorXd> monte_carlo(const Polytope& p, int draws, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<Eigen::VectorXd> inside;
    Eigen::VectorXd u(p.dimension());
    for (int k = 0; k < draws; ++k) {
        for (Eigen::Index j = 0; j < u.size(); ++j) u[j] = unit(rng);
        if (p.contains(u)) inside.push_back(u);
    }
    return inside;
}

// Every row of P within 1e-9 of its bound, relative to the row's size (rows are unit-norm).
bool feasible(const Polytope& p, const Eigen::VectorXd& u) {
    for (Eigen::Index i = 0; i < p.inequality_matrix().rows(); ++i)
        if (p.inequality_matrix().row(i).dot(u) - p.inequality_bound()[i] > 1e-9 * (1.0 + std::abs(p.inequality_bound()[i]))) return false;
    for (Eigen::Index i = 0; i < p.equality_matrix().rows(); ++i)
        if (std::abs(p.equality_matrix().row(i).dot(u) - p.equality_bound()[i]) > 1e-9 * (1.0 + std::abs(p.equality_bound()[i]))) return false;
    return u.minCoeff() >= -1e-9 && u.maxCoeff() <= 1.0 + 1e-9;
}

PolytopeSamplerOptions hit_and_run_only() {
    PolytopeSamplerOptions o;
    o.min_acceptance = 1.0;  // rejection only when nothing is cut off
    return o;
}

}  // namespace

class TestPolytopeSampler : public QObject {
    Q_OBJECT
private slots:
    void without_constraints_it_is_the_sobol_design() {
        const Polytope p(5);
        const PolytopeSample s = sample_polytope(p, 16, 42);
        QCOMPARE(s.status, PolytopeSample::Status::Ok);
        QCOMPARE(s.method, PolytopeSamplingMethod::Rejection);
        QCOMPARE(s.acceptance, 1.0);
        const auto sobol = ScrambledSobol(5, 42).points(0, 16);
        QCOMPARE(s.points.size(), std::size_t(16));
        for (std::size_t i = 0; i < 16; ++i)
            for (int j = 0; j < 5; ++j) QCOMPARE(s.points[i][j], sobol[i][static_cast<std::size_t>(j)]);
    }

    void rejection_keeps_the_sobol_points_inside_in_order() {
        const Polytope p = polytope_of(unit_space(2), {"fa + fb <= 1.5"});  // 7/8 of the square
        const PolytopeSample s = sample_polytope(p, 40, 7);
        QCOMPARE(s.status, PolytopeSample::Status::Ok);
        QCOMPARE(s.method, PolytopeSamplingMethod::Rejection);
        SEBO_COMPARE_NEAR(s.acceptance, 0.875, 0.01);
        std::vector<std::vector<double>> expected;
        for (const auto& q : ScrambledSobol(2, 7).points(0, 200))
            if (q[0] + q[1] <= 1.5) expected.push_back(q);
        for (std::size_t i = 0; i < 40; ++i) {
            QCOMPARE(s.points[i][0], expected[i][0]);
            QCOMPARE(s.points[i][1], expected[i][1]);
        }
    }

    void the_sequence_is_fixed_by_the_seed() {
        for (const std::vector<std::string>& texts :
             {std::vector<std::string>{"fa + fb <= 1.5"}, std::vector<std::string>{"fa + fb + fc <= 0.3"},
              std::vector<std::string>{"fa + fb + fc = 1"}}) {
            const Polytope p = polytope_of(unit_space(3), texts);
            const PolytopeSample all = sample_polytope(p, 12, 3);
            const PolytopeSample again = sample_polytope(p, 12, 3);
            const PolytopeSample tail = sample_polytope(p, 5, 3, {}, 7);
            const PolytopeSample other = sample_polytope(p, 12, 4);
            QCOMPARE(all.status, PolytopeSample::Status::Ok);
            for (int i = 0; i < 12; ++i) QCOMPARE(all.points[static_cast<std::size_t>(i)], again.points[static_cast<std::size_t>(i)]);
            // Point i does not depend on how many are asked for.
            for (int i = 0; i < 5; ++i) QCOMPARE(tail.points[static_cast<std::size_t>(i)], all.points[static_cast<std::size_t>(7 + i)]);
            QVERIFY(other.points.front() != all.points.front());
        }
    }

    void methods_follow_the_acceptance() {
        // fa + fb + fc <= 0.3: 0.45% of the cube; fa + fb + fc = 1: none.
        PolytopeSample s = sample_polytope(polytope_of(unit_space(3), {"fa + fb + fc <= 0.3"}), 8, 1);
        QCOMPARE(s.method, PolytopeSamplingMethod::HitAndRun);
        QVERIFY(s.acceptance < 0.01);
        s = sample_polytope(polytope_of(unit_space(3), {"fa + fb + fc = 1"}), 8, 1);
        QCOMPARE(s.method, PolytopeSamplingMethod::HitAndRun);
        QCOMPARE(s.acceptance, 0.0);
        for (const auto& u : s.points) SEBO_COMPARE_NEAR(u.sum(), 1.0, 1e-12);
    }

    void an_empty_set_is_reported() {
        const PolytopeSample s = sample_polytope(polytope_of(unit_space(2), {"fa + fb >= 1.5", "fa <= 0.2"}), 4, 1);
        QCOMPARE(s.status, PolytopeSample::Status::Empty);
        QVERIFY(s.points.empty());
        QCOMPARE(s.message, std::string("no configuration within the parameter bounds satisfies these constraints together: "
                                        "'fa + fb >= 1.5', 'fa <= 0.2'"));
    }

    void degenerate_sets() {
        // A single point, and an edge of the cube.
        PolytopeSample s = sample_polytope(polytope_of(unit_space(2), {"fa + fb >= 2"}), 3, 1);
        QCOMPARE(s.status, PolytopeSample::Status::Ok);
        for (const auto& u : s.points) QVERIFY((u - Eigen::Vector2d(1, 1)).norm() < 1e-9);
        s = sample_polytope(polytope_of(unit_space(2), {"fa >= 1"}), 200, 1);
        QCOMPARE(s.status, PolytopeSample::Status::Ok);
        QCOMPARE(s.method, PolytopeSamplingMethod::HitAndRun);
        for (const auto& u : s.points) QCOMPARE(u[0], 1.0);
        SEBO_COMPARE_NEAR(mean_of(s.points)[1], 0.5, 0.05);
    }

    // Every sample of every random polytope is feasible to 1e-9.
    void property_every_sample_is_feasible() {
        std::mt19937_64 rng(2718);
        int polytopes = 0, samples = 0, hit_and_run = 0;
        for (int trial = 0; trial < 150; ++trial) {
            const int d = 1 + trial % 8;
            const int eq = trial % 4 == 0 ? static_cast<int>(rng() % static_cast<unsigned>(d)) : 0;
            const auto [p, c] = sebo::test::random_polytope(rng, d, 1 + static_cast<int>(rng() % 8), eq);
            const PolytopeSample s = sample_polytope(p, 40, trial);
            QCOMPARE(s.status, PolytopeSample::Status::Ok);
            QCOMPARE(s.points.size(), std::size_t(40));
            for (const auto& u : s.points) {
                QVERIFY(p.contains(u));
                QVERIFY(feasible(p, u));
            }
            ++polytopes;
            samples += static_cast<int>(s.points.size());
            hit_and_run += s.method == PolytopeSamplingMethod::HitAndRun;
        }
        QCOMPARE(polytopes, 150);
        QCOMPARE(samples, 6000);
        QVERIFY(hit_and_run > 40);  // both methods exercised
        QVERIFY(hit_and_run < 140);
    }

    // On polytopes where Monte Carlo rejection is easy, hit-and-run's sample mean and variance
    // match those of the independent Monte Carlo sample.
    void property_hit_and_run_covers_the_polytope() {
        std::mt19937_64 rng(1618);
        int compared = 0;
        for (int trial = 0; compared < 20 && trial < 200; ++trial) {
            const int d = 2 + trial % 4;
            const auto [p, c] = sebo::test::random_polytope(rng, d, 1 + static_cast<int>(rng() % 4), 0);
            const std::vector<Eigen::VectorXd> reference = monte_carlo(p, 100000, 1000 + static_cast<std::uint64_t>(trial));
            if (reference.size() < 20000 || reference.size() > 95000) continue;  // easy, but cut by the constraints
            const PolytopeSample s = sample_polytope(p, 3000, static_cast<std::uint64_t>(trial), hit_and_run_only());
            QCOMPARE(s.method, PolytopeSamplingMethod::HitAndRun);
            const Eigen::VectorXd m = mean_of(s.points), ref_m = mean_of(reference);
            const Eigen::VectorXd v = variance_of(s.points), ref_v = variance_of(reference);
            for (int j = 0; j < d; ++j) {
                SEBO_COMPARE_NEAR(m[j], ref_m[j], 0.025);
                SEBO_COMPARE_NEAR(v[j], ref_v[j], 0.2 * ref_v[j]);
            }
            ++compared;
        }
        QCOMPARE(compared, 20);
    }

    // The simplex fa + fb + fc = 1 sampled uniformly is Dirichlet(1, 1, 1): each coordinate has
    // mean 1/3 and variance 1/18.
    void hit_and_run_is_uniform_on_a_simplex() {
        const PolytopeSample s = sample_polytope(polytope_of(unit_space(3), {"fa + fb + fc = 1"}), 4000, 9);
        QCOMPARE(s.status, PolytopeSample::Status::Ok);
        const Eigen::VectorXd m = mean_of(s.points), v = variance_of(s.points);
        for (int j = 0; j < 3; ++j) {
            SEBO_COMPARE_NEAR(m[j], 1.0 / 3.0, 0.015);
            SEBO_COMPARE_NEAR(v[j], 1.0 / 18.0, 0.006);
        }
    }

    void options_are_validated() {
        PolytopeSamplerOptions o;
        QVERIFY(!o.validate());
        o.min_acceptance = 0.0;
        QVERIFY(o.validate()->find("min_acceptance") != std::string::npos);
        o = {};
        o.thinning_per_dimension = 0;
        QVERIFY(o.validate()->find("thinning_per_dimension") != std::string::npos);
    }
};

SEBO_TEST_MAIN(TestPolytopeSampler)
}  // namespace test_polytope_sampler
#include "test_polytope_sampler.moc"
