// Maximization inside the polytope of linear parameter constraints (optimize/polytope_multistart.h):
// known constrained optima of quadratics, feasibility of every result over random polytopes and
// random smooth objectives, NLopt endings, cancellation, and the homotopy's switch to SLSQP.
#include <cmath>
#include <map>
#include <random>
#include <stop_token>

#include "model/standardizer.h"
#include "model/surrogate.h"
#include "optimize/homotopy.h"
#include "optimize/polytope_multistart.h"
#include "polytope_test_support.h"
#include "space/polytope_projection.h"
#include "test_support.h"

using namespace sebo;
using sebo::test::polytope_of;
using sebo::test::unit_space;

namespace {

Eigen::VectorXd vec(std::initializer_list<double> v) {
    Eigen::VectorXd x(static_cast<Eigen::Index>(v.size()));
    Eigen::Index i = 0;
    for (double a : v) x[i++] = a;
    return x;
}

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

    // optimize_acquisition with a feasible set runs SLSQP: the paper's Fig. 2 problem (maximize
    // −x² with the sparse point 0.5) restricted to u >= 0.7 ends at the constraint, not at 0.
    void the_homotopy_uses_slsqp_inside_constraints() {
        auto data = std::make_shared<TrainingData>();
        data->inputs.resize(4, 1);
        data->inputs << 0.0, 0.25, 0.75, 1.0;
        Eigen::VectorXd y(4);
        for (int i = 0; i < 4; ++i) y[i] = -data->inputs(i, 0) * data->inputs(i, 0);
        const Standardizer s(y);
        data->targets = s.transform(y);
        SurrogateOptions model;
        model.kind = SurrogateKind::Gp;
        const SurrogateFit fit = fit_surrogate(data, model, 1);
        QCOMPARE(fit.status, SurrogateFit::Status::Ok);
        const SparsityPenalty penalty(PenaltyKind::L0, Eigen::VectorXd::Constant(1, 0.5), {0}, 1);
        std::vector<std::pair<double, double>> front;
        for (int i = 0; i < 4; ++i) front.emplace_back(data->targets[i], 1.0);
        const double worst = data->targets.minCoeff(), best = data->targets.maxCoeff();
        const SeboEhvi acquisition(std::make_shared<EnsemblePosteriorView>(fit.posterior), penalty,
                                   SparseEhviFront(front, worst - 0.1 * (best - worst), 1.0));
        std::vector<Eigen::VectorXd> starts;
        for (double x : {0.1, 0.3, 0.75, 0.9}) starts.push_back(Eigen::VectorXd::Constant(1, x));
        auto feasible = std::make_shared<Polytope>(polytope_of(unit_space(1), {"fa >= 0.7"}));
        CandidateTransforms transforms;
        transforms.snap = [feasible](const Eigen::VectorXd& x) { return project_onto_polytope(*feasible, x).x; };
        transforms.finalize = transforms.snap;
        transforms.feasible_set = feasible;
        AcquisitionOptimizerOptions options;
        options.raw_samples = 4;
        options.restarts = 4;
        options.homotopy.steps = 5;
        const OptimizedCandidate c = optimize_acquisition(acquisition, starts, transforms, options, StepControl{});
        QCOMPARE(c.status, OptimizedCandidate::Status::Ok);
        QVERIFY(feasible->contains(c.x));
        SEBO_COMPARE_NEAR(c.x[0], 0.7, 1e-6);  // −x² is largest at the constraint
        QVERIFY(c.local_optimizations > 0);
    }
};

QTEST_GUILESS_MAIN(TestPolytopeMultistart)
#include "test_polytope_multistart.moc"
