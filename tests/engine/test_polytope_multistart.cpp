// Maximization inside the polytope of linear parameter constraints (optimize/polytope_multistart.h):
// known constrained optima of quadratics, feasibility of every result over random polytopes and
// random smooth objectives, NLopt endings, cancellation, and the homotopy's switch to SLSQP.
#include <cmath>
#include <map>
#include <random>
#include <stop_token>

#include "design/polytope_sampler.h"
#include "model/standardizer.h"
#include "model/surrogate.h"
#include "optimize/homotopy.h"
#include "optimize/polytope_multistart.h"
#include "polytope_test_support.h"
#include "space/feasible_snap.h"
#include "space/polytope_projection.h"
#include "test_main.h"
#include "test_support.h"

namespace test_polytope_multistart {

using namespace sebo;
using sebo::test::polytope_of;
using sebo::test::unit_space;
using sebo::test::vec;

namespace {

// −Σ w_j (x_j − c_j)²: its maximum over P is the w-weighted projection of c.
SmoothObjective quadratic(const Eigen::VectorXd& c, const Eigen::VectorXd& w) {
    return [c, w](const Eigen::VectorXd& x, Eigen::VectorXd* grad) {
        const Eigen::VectorXd r = x - c;
        if (grad) *grad = -2.0 * w.cwiseProduct(r);
        return -w.dot(r.cwiseAbs2());
    };
}

// A random smooth, multimodal objective: a sum of Gaussian bumps plus a linear tilt.
SmoothObjective bumps(std::mt19937_64& rng, int d) {
    std::uniform_real_distribution<double> unit(0.0, 1.0), height(-1.0, 2.0), width(0.1, 0.5);
    std::vector<Eigen::VectorXd> centres;
    std::vector<double> heights, widths;
    for (int k = 0; k < 4; ++k) {
        Eigen::VectorXd c(d);
        for (int j = 0; j < d; ++j) c[j] = unit(rng);
        centres.push_back(c);
        heights.push_back(height(rng));
        widths.push_back(width(rng));
    }
    Eigen::VectorXd tilt(d);
    for (int j = 0; j < d; ++j) tilt[j] = height(rng) * 0.3;
    return [=](const Eigen::VectorXd& x, Eigen::VectorXd* grad) {
        double v = tilt.dot(x);
        if (grad) *grad = tilt;
        for (std::size_t k = 0; k < centres.size(); ++k) {
            const Eigen::VectorXd r = x - centres[k];
            const double e = heights[k] * std::exp(-0.5 * r.squaredNorm() / (widths[k] * widths[k]));
            v += e;
            if (grad) *grad -= e * r / (widths[k] * widths[k]);
        }
        return v;
    };
}

}  // namespace

class TestPolytopeMultistart : public QObject {
    Q_OBJECT
private slots:
    void known_constrained_optima() {
        // max −‖x − (1,1)‖² over fa + fb <= 1: (0.5, 0.5).
        const Polytope half = polytope_of(unit_space(2), {"fa + fb <= 1"});
        auto optima = maximize_in_polytope(quadratic(vec({1, 1}), vec({1, 1})), {vec({0.1, 0.2})}, half, {});
        QCOMPARE(optima.size(), std::size_t(1));
        QCOMPARE(optima[0].ending, PolytopeOptimum::Ending::Converged);
        SEBO_COMPARE_NEAR(optima[0].x[0], 0.5, 1e-6);
        SEBO_COMPARE_NEAR(optima[0].x[1], 0.5, 1e-6);
        SEBO_COMPARE_NEAR(optima[0].value, -0.5, 1e-9);
        // max −‖x − (0.9, 0.8, 0.1)‖² over fa + fb + fc <= 1: fc at its bound 0, then
        // (0.9, 0.8) − 0.35·(1, 1) = (0.55, 0.45) (fc's multiplier 0.7 exceeds its pull 0.2).
        const Polytope simplex = polytope_of(unit_space(3), {"fa + fb + fc <= 1"});
        optima = maximize_in_polytope(quadratic(vec({0.9, 0.8, 0.1}), vec({1, 1, 1})), {vec({0.2, 0.2, 0.2}), vec({0.9, 0.9, 0.9})}, simplex, {});
        QCOMPARE(optima.size(), std::size_t(2));
        for (const auto& o : optima) {
            SEBO_COMPARE_NEAR(o.x[0], 0.55, 1e-6);
            SEBO_COMPARE_NEAR(o.x[1], 0.45, 1e-6);
            SEBO_COMPARE_NEAR(o.x[2], 0.0, 1e-6);
            QVERIFY(simplex.contains(o.x));
        }
        QVERIFY(optima[1].evaluations > 1);
        // max −(x² + 2y²) over x + y = 1: Lagrange gives x = 2y, so (2/3, 1/3).
        const Polytope line = polytope_of(unit_space(2), {"fa + fb = 1"});
        optima = maximize_in_polytope(quadratic(vec({0, 0}), vec({1, 2})), {vec({0.9, 0.1})}, line, {});
        SEBO_COMPARE_NEAR(optima[0].x[0], 2.0 / 3.0, 1e-6);
        SEBO_COMPARE_NEAR(optima[0].x[1], 1.0 / 3.0, 1e-6);
        QVERIFY(line.contains(optima[0].x));
        // A linear objective ends at a vertex: max x + 2y over x + y <= 1 is (0, 1).
        const SmoothObjective linear = [](const Eigen::VectorXd& x, Eigen::VectorXd* g) {
            if (g) *g = vec({1.0, 2.0});
            return x[0] + 2.0 * x[1];
        };
        optima = maximize_in_polytope(linear, {vec({0.3, 0.3})}, half, {});
        SEBO_COMPARE_NEAR(optima[0].x[0], 0.0, 1e-7);
        SEBO_COMPARE_NEAR(optima[0].x[1], 1.0, 1e-7);
    }

    // Random polytopes × random multimodal objectives × starts in and out of P: every optimum is
    // inside, its value is f at its point, and it is no worse than the projected start. On
    // concave quadratics SLSQP's optimum is the active-set projection (an independent method).
    void property_feasible_results() {
        std::mt19937_64 rng(8080);
        std::uniform_real_distribution<double> wide(-0.3, 1.3), weight(0.2, 3.0);
        int optima_checked = 0, projected = 0, quadratics = 0;
        std::map<PolytopeOptimum::Ending, int> endings;
        for (int trial = 0; trial < 150; ++trial) {
            const int d = 1 + trial % 8;
            const int eq = trial % 5 == 0 ? static_cast<int>(rng() % static_cast<unsigned>(d)) : 0;
            const auto [p, c] = sebo::test::random_polytope(rng, d, 1 + static_cast<int>(rng() % 7), eq);
            std::vector<Eigen::VectorXd> starts;
            for (int k = 0; k < 4; ++k) {
                Eigen::VectorXd s(d);
                for (int j = 0; j < d; ++j) s[j] = wide(rng);
                starts.push_back(s);
            }
            const SmoothObjective f = bumps(rng, d);
            const auto optima = maximize_in_polytope(f, starts, p, {});
            QCOMPARE(optima.size(), starts.size());
            for (std::size_t k = 0; k < optima.size(); ++k) {
                const PolytopeOptimum& o = optima[k];
                QVERIFY2(p.contains(o.x), qPrintable(QString("violation %1").arg(p.max_violation(o.x))));
                SEBO_COMPARE_NEAR(o.value, f(o.x, nullptr), 1e-12);
                const PolytopeProjection start = project_onto_polytope(p, starts[k].cwiseMax(0.0).cwiseMin(1.0));
                QVERIFY(o.value >= f(start.x, nullptr) - 1e-12);
                projected += o.projected;
                ++endings[o.ending];
                ++optima_checked;
            }
            // A concave quadratic: the optimum is the weighted projection; with equal weights the
            // Euclidean projection, computed by the active-set method.
            Eigen::VectorXd target(d);
            for (int j = 0; j < d; ++j) target[j] = wide(rng);
            const auto q = maximize_in_polytope(quadratic(target, Eigen::VectorXd::Ones(d)), {c}, p, {});
            const PolytopeProjection reference = project_onto_polytope(p, target);
            QVERIFY(p.contains(q[0].x));
            QVERIFY2((q[0].x - reference.x).norm() < 1e-5, qPrintable(QString("distance %1").arg((q[0].x - reference.x).norm())));
            ++quadratics;
        }
        QCOMPARE(optima_checked, 600);
        QCOMPARE(quadratics, 150);
        qInfo("endings: converged %d, evaluation limit %d, roundoff %d, failed %d; projected back %d",
              endings[PolytopeOptimum::Ending::Converged], endings[PolytopeOptimum::Ending::EvaluationLimit],
              endings[PolytopeOptimum::Ending::RoundoffLimited], endings[PolytopeOptimum::Ending::Failed], projected);
    }

    // The user's promise, end to end in user units: random constraints over parameters with very
    // different ranges (offsets of 1000, widths of 1e-6 and 1e4), mapped to the unit cube; sampled
    // points, optimized points and snapped points, mapped back, satisfy every constraint to 1e-9
    // relative (space/linear_constraint.h, `satisfies`).
    void property_user_units_within_1e9_relative() {
        std::vector<Parameter> params;
        const double bounds[][2] = {{0, 1}, {1000, 1001}, {0, 1e-6}, {-5e3, 5e3}, {-3, -2}, {0.5, 40}};
        for (int i = 0; i < 6; ++i) {
            Parameter q;
            q.name = "p" + std::to_string(i);
            q.lower = bounds[i][0];
            q.upper = bounds[i][1];
            params.push_back(q);
        }
        const SearchSpace space(params);
        const auto coords = unit_coordinates(space);
        const int d = space.dimension();
        std::mt19937_64 rng(606);
        std::uniform_real_distribution<double> unit(0.0, 1.0), coef(-3.0, 3.0);
        const auto user = [&](const Eigen::VectorXd& u) {
            std::vector<double> v(static_cast<std::size_t>(d));
            for (int i = 0; i < d; ++i) v[static_cast<std::size_t>(i)] = coords[static_cast<std::size_t>(i)].offset + coords[static_cast<std::size_t>(i)].scale * u[i];
            return v;
        };
        int points = 0;
        for (int trial = 0; trial < 60; ++trial) {
            // Constraints through or around a random configuration x0, scaled to each parameter's range.
            Eigen::VectorXd u0(d);
            for (int i = 0; i < d; ++i) u0[i] = 0.2 + 0.6 * unit(rng);
            const std::vector<double> x0 = user(u0);
            std::vector<LinearConstraint> constraints;
            std::vector<std::string> labels;
            for (int k = 0; k < 1 + trial % 4; ++k) {
                LinearConstraint c;
                for (int i = 0; i < d; ++i)
                    if (rng() % 2) c.terms.push_back({i, coef(rng) / coords[static_cast<std::size_t>(i)].scale});
                if (c.terms.empty()) c.terms.push_back({1, 1.0});
                c.relation = k == 0 && trial % 5 == 0 ? ConstraintRelation::Equal
                                                      : (rng() % 2 ? ConstraintRelation::LessEqual : ConstraintRelation::GreaterEqual);
                const double slack = 0.3 * unit(rng);
                c.bound = c.left_side(x0) + (c.relation == ConstraintRelation::LessEqual ? slack : c.relation == ConstraintRelation::GreaterEqual ? -slack : 0.0);
                constraints.push_back(c);
                labels.push_back("c" + std::to_string(k));
            }
            const Polytope p = Polytope::from_constraints(constraints, coords, d, labels);
            std::vector<Eigen::VectorXd> candidates = sample_polytope(p, 10, static_cast<std::uint64_t>(trial)).points;
            QCOMPARE(candidates.size(), std::size_t(10));
            for (const auto& o : maximize_in_polytope(bumps(rng, d), {candidates[0], candidates[1], Eigen::VectorXd::Ones(d)}, p, {}))
                candidates.push_back(o.x);
            const Eigen::VectorXd target = Eigen::VectorXd::Zero(d);
            const std::size_t optimized = candidates.size();
            for (std::size_t k = 0; k < optimized; ++k) {
                const FeasibleSnap snapped = snap_feasibly(p, candidates[k], target, [](int, double u) { return u < 0.2; });
                if (snapped.status == FeasibleSnap::Status::Ok) candidates.push_back(snapped.x);
            }
            for (const auto& u : candidates) {
                const std::vector<double> x = user(u);
                for (const LinearConstraint& c : constraints)
                    QVERIFY2(satisfies(c, x, coords),
                             qPrintable(QString("violation %1, magnitude %2").arg(c.violation(x)).arg(constraint_magnitude(c, coords))));
                ++points;
            }
        }
        qInfo("%d configurations checked in user units", points);
        QVERIFY(points > 1000);
    }

    void non_finite_values_end_at_the_best_point_seen() {
        // NaN above fa = 0.6: the optimizer stops there and keeps the best finite feasible point.
        const Polytope half = polytope_of(unit_space(2), {"fa + fb <= 1"});
        const SmoothObjective f = [](const Eigen::VectorXd& x, Eigen::VectorXd* g) {
            if (g) *g = vec({1.0, 0.0});
            return x[0] > 0.6 ? std::nan("") : x[0];
        };
        const auto optima = maximize_in_polytope(f, {vec({0.1, 0.1})}, half, {});
        QCOMPARE(optima.size(), std::size_t(1));
        QCOMPARE(optima[0].ending, PolytopeOptimum::Ending::Stopped);
        QVERIFY(half.contains(optima[0].x));
        QVERIFY(std::isfinite(optima[0].value));
        QVERIFY(optima[0].value >= 0.1);
    }

    void cancellation_and_evaluation_limit() {
        const Polytope half = polytope_of(unit_space(2), {"fa + fb <= 1"});
        std::stop_source source;
        source.request_stop();
        QVERIFY(maximize_in_polytope(quadratic(vec({1, 1}), vec({1, 1})), {vec({0.1, 0.2})}, half, {}, source.get_token()).empty());
        SlsqpOptions few;
        few.max_evaluations = 2;
        const auto optima = maximize_in_polytope(quadratic(vec({1, 1}), vec({1, 1})), {vec({0.1, 0.2})}, half, few);
        QCOMPARE(optima[0].ending, PolytopeOptimum::Ending::EvaluationLimit);
        QVERIFY(half.contains(optima[0].x));
        SlsqpOptions bad;
        bad.max_evaluations = 0;
        QVERIFY(bad.validate()->find("max_evaluations") != std::string::npos);
    }

    // optimize_acquisition with a feasible set runs SLSQP. Log EI of an increasing objective
    // observed at 0, 0.2, 0.4 grows to the right, so L-BFGS-B in the box would leave fa <= 0.6;
    // SLSQP stops on it.
    void the_acquisition_optimizer_uses_slsqp_inside_constraints() {
        auto data = std::make_shared<TrainingData>();
        data->inputs.resize(3, 1);
        data->inputs << 0.0, 0.2, 0.4;
        const Eigen::VectorXd y = data->inputs.col(0);
        const Standardizer s(y);
        data->targets = s.transform(y);
        SurrogateOptions model;
        model.kind = SurrogateKind::Gp;
        const SurrogateFit fit = fit_surrogate(data, model, 1);
        QCOMPARE(fit.status, SurrogateFit::Status::Ok);
        const LogExpectedImprovement acquisition(std::make_shared<EnsemblePosteriorView>(fit.posterior), data->targets.maxCoeff());
        // Feasible starts, and transforms that do not project: only the local optimizer keeps the
        // candidates inside.
        std::vector<Eigen::VectorXd> starts;
        for (double x : {0.1, 0.3, 0.5, 0.55}) starts.push_back(Eigen::VectorXd::Constant(1, x));
        auto feasible = std::make_shared<Polytope>(polytope_of(unit_space(1), {"fa <= 0.6"}));
        CandidateTransforms transforms;
        transforms.snap = [](const Eigen::VectorXd& x) { return x; };
        transforms.finalize = transforms.snap;
        transforms.feasible_set = feasible;
        AcquisitionOptimizerOptions options;
        options.raw_samples = 4;
        options.restarts = 4;
        const OptimizedCandidate c = optimize_acquisition(acquisition, starts, transforms, options, StepControl{});
        QCOMPARE(c.status, OptimizedCandidate::Status::Ok);
        QVERIFY2(feasible->contains(c.x), qPrintable(QString("x = %1").arg(c.x[0])));
        SEBO_COMPARE_NEAR(c.x[0], 0.6, 1e-6);
        QCOMPARE(c.best_stage, 0);  // the optimized point, not a start
    }
};

SEBO_TEST_MAIN(TestPolytopeMultistart)
}  // namespace test_polytope_multistart
#include "test_polytope_multistart.moc"
