// Homotopy continuation for L0 (paper §5, Fig. 2, appendix E.1) and the model-based strategies'
// guarantees: integer parameters proposed as integers, candidates inside the bounds, determinism.
#include <cmath>
#include <numeric>

#include "design/sobol.h"
#include "experiment/model_step.h"
#include "experiment/model_strategy.h"
#include "model/standardizer.h"
#include "model/surrogate.h"
#include "optimize/homotopy.h"
#include "test_main.h"
#include "test_support.h"

namespace test_homotopy {

using namespace sebo;

namespace {

// The paper's Fig. 2: maximize f(x) = −x² with ξ(x) = ‖x − 0.5‖₀, observed at 0, 0.25, 0.75, 1.
OptimizedCandidate figure2_candidate(std::optional<double> fixed_a) {
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
    if (fit.status != SurrogateFit::Status::Ok) return {};
    const SparsityPenalty penalty(PenaltyKind::L0, Eigen::VectorXd::Constant(1, 0.5), {0}, 1);
    std::vector<std::pair<double, double>> front;
    for (int i = 0; i < 4; ++i) front.emplace_back(data->targets[i], 1.0);
    const double worst = data->targets.minCoeff(), best = data->targets.maxCoeff();
    const SeboEhvi acquisition(std::make_shared<EnsemblePosteriorView>(fit.posterior), penalty,
                               SparseEhviFront(front, worst - 0.1 * (best - worst), 1.0));
    // Starts away from the sparse point, as in the figure (none within reach of the snap).
    std::vector<Eigen::VectorXd> starts;
    for (double x : {0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9}) starts.push_back(Eigen::VectorXd::Constant(1, x));
    CandidateTransforms transforms;
    transforms.snap = [](const Eigen::VectorXd& x) {
        Eigen::VectorXd out = x;
        if (std::abs(out[0] - 0.5) <= 0.01) out[0] = 0.5;
        return out;
    };
    transforms.finalize = transforms.snap;
    AcquisitionOptimizerOptions options;
    options.raw_samples = 8;
    options.restarts = 8;
    options.homotopy.fixed_a = fixed_a;
    return optimize_acquisition(acquisition, starts, transforms, options, StepControl{});
}

// A one-dimensional acquisition whose smoothed maximizer moves with a, from 0.3 at the first
// stage of the paper's schedule to 0.9 at the last, while under the exact penalty the first
// stage's point is the best: value(x, a) = −(x − c(a))², exact_value(x) = −(x − 0.3)².
class MovingPeak final : public AcquisitionFunction {
public:
    double value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const override {
        const HomotopyOptions schedule;
        const double progress = std::log10(schedule.a_start / a) / std::log10(schedule.a_start / schedule.a_end);
        const double centre = 0.3 + 0.6 * progress;
        if (grad) *grad = Eigen::VectorXd::Constant(1, -2.0 * (x[0] - centre));
        return -(x[0] - centre) * (x[0] - centre);
    }
    double exact_value(const Eigen::VectorXd& x) const override { return -(x[0] - 0.3) * (x[0] - 0.3); }
    bool uses_l0_surrogate() const override { return true; }
};

// −(x − 0.5)² at every a: every restart ends at 0.5.
class FixedPeak final : public AcquisitionFunction {
public:
    double value(const Eigen::VectorXd& x, double, Eigen::VectorXd* grad) const override {
        if (grad) *grad = Eigen::VectorXd::Constant(1, -2.0 * (x[0] - 0.5));
        return exact_value(x);
    }
    double exact_value(const Eigen::VectorXd& x) const override { return -(x[0] - 0.5) * (x[0] - 0.5); }
    bool uses_l0_surrogate() const override { return true; }
};

// FixedPeak that counts its evaluations with a gradient (the local optimizers' calls; screening
// and the final choice ask for values only).
class CountedPeak final : public AcquisitionFunction {
public:
    mutable int gradient_calls = 0;
    double value(const Eigen::VectorXd& x, double a, Eigen::VectorXd* grad) const override {
        if (grad) ++gradient_calls;
        return peak_.value(x, a, grad);
    }
    double exact_value(const Eigen::VectorXd& x) const override { return peak_.exact_value(x); }
    bool uses_l0_surrogate() const override { return true; }

private:
    FixedPeak peak_;
};

std::vector<Eigen::VectorXd> points_1d(std::initializer_list<double> values) {
    std::vector<Eigen::VectorXd> out;
    for (double v : values) out.push_back(Eigen::VectorXd::Constant(1, v));
    return out;
}

CandidateTransforms snap_to(double target) {
    CandidateTransforms transforms;
    transforms.snap = [target](const Eigen::VectorXd& x) {
        Eigen::VectorXd out = x;
        if (std::abs(out[0] - target) <= 0.01) out[0] = target;
        return out;
    };
    transforms.finalize = transforms.snap;
    return transforms;
}

Experiment mixed_experiment(StrategyKind strategy) {
    Parameter a{"a", ParameterKind::Continuous, -1.0, 3.0, false, std::nullopt, "", {}, {}, false};
    Parameter b{"b", ParameterKind::Continuous, 0.01, 100.0, true, 1.0, "", {}, {}, false};
    Parameter c{"c", ParameterKind::Integer, 0.0, 20.0, false, std::nullopt, "", {}, {}, false};
    Parameter d{"d", ParameterKind::Integer, 1.0, 9.0, false, std::nullopt, "", {}, {}, false};
    Experiment e;
    e.space = SearchSpace({a, b, c, d});
    e.outcomes = Outcomes::single("score", false);
    e.seed = 3;
    e.method.strategy = strategy;
    e.method.model = ModelKind::Gp;
    e.method.initial_trials = 6;
    e.method.budget = 20;
    e.method.raw_samples = 64;
    e.method.restarts = 4;
    e.method.homotopy_steps = 6;
    const auto sobol = ScrambledSobol(4, 9).points(0, 8);
    for (int i = 0; i < 8; ++i) {
        Trial t;
        t.index = i;
        t.parameters = e.space.snap(e.space.from_unit(sobol[static_cast<std::size_t>(i)]));
        t.status = TrialStatus::Completed;
        const auto& x = t.parameters;
        t.values = {{"score",
                     {-(x[0] - 1.2) * (x[0] - 1.2) - std::pow(std::log10(x[1]) - 0.5, 2) - 0.01 * (x[2] - 7) * (x[2] - 7),
                      std::nullopt}}};
        t.generator = "sobol";
        e.trials.push_back(t);
    }
    return e;
}

}  // namespace

class TestHomotopy : public QObject {
    Q_OBJECT
private slots:
    void schedule_is_the_papers() {
        const HomotopyOptions h;
        const auto a = h.schedule();
        QCOMPARE(int(a.size()), 30);
        SEBO_COMPARE_NEAR(a.front(), std::pow(10.0, -0.5), 1e-15);
        SEBO_COMPARE_NEAR(a.back(), 1e-3, 1e-15);
        for (std::size_t k = 1; k < a.size(); ++k) SEBO_COMPARE_NEAR(std::log10(a[k - 1]) - std::log10(a[k]), 2.5 / 29, 1e-12);
        HomotopyOptions fixed;
        fixed.fixed_a = 0.1;
        QCOMPARE(fixed.schedule(), std::vector<double>{0.1});
        HomotopyOptions bad;
        bad.a_end = 1.0;
        QVERIFY(bad.validate()->find("a_end") != std::string::npos);
    }

    void figure2_homotopy_finds_the_sparse_point() {
        const OptimizedCandidate c = figure2_candidate(std::nullopt);
        QCOMPARE(c.x.size(), Eigen::Index(1));
        QCOMPARE(c.x[0], 0.5);  // exactly the target
        QCOMPARE(c.stages, 30);
    }

    void figure2_tiny_fixed_a_does_not() {
        const OptimizedCandidate c = figure2_candidate(1e-3);
        QCOMPARE(c.x.size(), Eigen::Index(1));
        QVERIFY2(c.x[0] != 0.5, "a fixed a = 1e-3 has no gradient towards the sparse point");
        QCOMPARE(c.stages, 1);
    }

    // The final choice is the best under the exact penalty among the optima of ALL stages, not
    // the last stage's (the reference implementation's choice, which here would be 0.9).
    void final_choice_is_the_best_of_every_stage() {
        AcquisitionOptimizerOptions options;
        options.raw_samples = 3;
        options.restarts = 3;
        const OptimizedCandidate c =
            optimize_acquisition(MovingPeak(), points_1d({0.1, 0.5, 0.7}), snap_to(0.0), options, StepControl{});
        QCOMPARE(c.stages, 30);
        QCOMPARE(c.best_stage, 0);
        SEBO_COMPARE_NEAR(c.x[0], 0.3, 1e-4);
        QVERIFY(!c.repeats_known);
    }

    // The optimizer's own account of its work (sebo-bench's step rows print it): every gradient
    // evaluation counted once, split by stage; the paths per stage are the distinct starts.
    void work_is_counted_per_stage() {
        AcquisitionOptimizerOptions options;
        options.raw_samples = 3;
        options.restarts = 3;
        options.homotopy.steps = 4;
        const CountedPeak peak;
        const OptimizedCandidate c =
            optimize_acquisition(peak, points_1d({0.1, 0.7, 0.95}), snap_to(0.0), options, StepControl{});
        QCOMPARE(c.stages, 4);
        QCOMPARE(c.evaluations, peak.gradient_calls);
        QVERIFY(c.evaluations > 0);
        QCOMPARE(int(c.stage_evaluations.size()), 4);
        QCOMPARE(std::accumulate(c.stage_evaluations.begin(), c.stage_evaluations.end(), 0), c.evaluations);
        // Three starts at the first stage; all reach 0.5 and are one path from then on.
        QCOMPARE(c.stage_paths, (std::vector<int>{3, 1, 1, 1}));
        QCOMPARE(c.local_optimizations, 6);
        // A smooth peak: every local optimization meets a convergence test.
        QCOMPARE(c.endings.converged, 6);
        QCOMPARE(c.endings.limit, 0);
        QCOMPARE(c.endings.failed, 0);
    }

    // A candidate that repeats an evaluated configuration is taken only when nothing new is left:
    // here every restart ends at 0.5, which was tried, so the best untried point met on the way
    // (a screened raw sample) wins.
    void final_choice_prefers_an_untried_configuration() {
        AcquisitionOptimizerOptions options;
        options.raw_samples = 2;
        options.restarts = 2;
        CandidateTransforms transforms = snap_to(0.5);
        const OptimizedCandidate free =
            optimize_acquisition(FixedPeak(), points_1d({0.2, 0.9}), transforms, options, StepControl{});
        QCOMPARE(free.x[0], 0.5);
        transforms.is_known = [](const Eigen::VectorXd& x) { return x[0] == 0.5; };
        const OptimizedCandidate untried =
            optimize_acquisition(FixedPeak(), points_1d({0.2, 0.9}), transforms, options, StepControl{});
        QCOMPARE(untried.x[0], 0.2);
        QCOMPARE(untried.value, -0.09);
        QCOMPARE(untried.best_stage, -1);
        QVERIFY(!untried.repeats_known);
        // Only known configurations anywhere: the best of them, and the result says so.
        transforms.is_known = [](const Eigen::VectorXd&) { return true; };
        const OptimizedCandidate repeat =
            optimize_acquisition(FixedPeak(), points_1d({0.2, 0.9}), transforms, options, StepControl{});
        QCOMPARE(repeat.x[0], 0.5);
        QVERIFY(repeat.repeats_known);
    }

    void strategies_propose_valid_configurations() {
        for (StrategyKind kind : all_strategy_kinds()) {
            if (!uses_model(kind)) continue;
            const Experiment e = mixed_experiment(kind);
            ModelStrategy strategy(e.method);
            const Proposal p = strategy.propose(e, 2, StepControl{});
            QVERIFY2(p.status == Proposal::Status::Ok, to_string(kind));
            QCOMPARE(int(p.points.size()), 2);
            // the strategy's own step, or a SEBO strategy's dense start under noise (docs/method.md §13)
            QVERIFY2(p.generator == to_string(kind) ||
                         (is_sebo(kind) && (p.generator == dense_start_generator(kind, DenseStart::ExpectedImprovement) ||
                                            p.generator == dense_start_generator(kind, DenseStart::Thompson))),
                     p.generator.c_str());
            for (const auto& x : p.points) {
                const auto error = e.space.check_point(x);
                QVERIFY2(!error, qPrintable(QString(to_string(kind)) + ": " + QString::fromStdString(error.value_or(""))));
                QCOMPARE(x[2], std::round(x[2]));  // integers proposed as integers
                QCOMPARE(x[3], std::round(x[3]));
            }
            // Deterministic for the same experiment.
            const Proposal again = ModelStrategy(e.method).propose(e, 2, StepControl{});
            QCOMPARE(again.points, p.points);
        }
    }

    void initial_design_comes_first() {
        Experiment e = mixed_experiment(StrategyKind::SeboL0);
        e.method.initial_trials = 10;  // 8 trials exist
        const Proposal p = ModelStrategy(e.method).propose(e, 1, StepControl{});
        QCOMPARE(QString::fromStdString(p.generator), QString("sobol"));
    }

    void cancellation_returns_cancelled() {
        const Experiment e = mixed_experiment(StrategyKind::SeboL0);
        std::stop_source source;
        source.request_stop();
        StepControl control;
        control.stop = source.get_token();
        const Proposal p = ModelStrategy(e.method).propose(e, 1, control);
        QCOMPARE(int(p.status), int(Proposal::Status::Cancelled));
        QVERIFY(p.points.empty());
    }
};

SEBO_TEST_MAIN(TestHomotopy)
}  // namespace test_homotopy
#include "test_homotopy.moc"
