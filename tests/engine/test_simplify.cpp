// "Simplify this configuration" and "explain this trial" (experiment/simplify.h) on a small
// experiment with a MAP GP: the path loses one changed parameter per step down to none, each step
// resets the parameter whose reset the model predicts to cost least (checked against every
// alternative), the predictions are the posterior's at those points mapped back by hand (exactly
// without the warp; through the warp's forward transform with it), the tolerance marks match
// their definition, and trials that cannot be simplified say why.
#include <cmath>

#include "experiment/simplify.h"
#include "experiment/sobol_strategy.h"
#include "test_main.h"
#include "test_support.h"

namespace test_simplify {

using namespace sebo;

namespace {

Parameter unit_parameter(std::string name, double lower, double upper) {
    Parameter p;
    p.name = std::move(name);
    p.lower = lower;
    p.upper = upper;
    return p;
}

// Five parameters, targets at the lower bounds (the default); the objective, minimized, falls
// with x0 and x1 and barely depends on the rest. 14 Sobol trials.
Experiment make_experiment(bool warp) {
    Experiment e;
    e.space = SearchSpace({unit_parameter("x0", 0, 1), unit_parameter("x1", 0, 2), unit_parameter("x2", 0, 1),
                           unit_parameter("x3", -1, 1), unit_parameter("x4", 0, 1)});
    e.outcomes = Outcomes::single("cost", true);
    e.method.model = ModelKind::Gp;
    e.method.warp_objective = warp;
    e.seed = 3;
    const auto points = next_sobol_points(e, 14);
    for (int i = 0; i < 14; ++i) {
        Trial t;
        t.index = i;
        t.parameters = points[static_cast<std::size_t>(i)];
        t.status = TrialStatus::Completed;
        const auto& x = t.parameters;
        t.values["cost"] = {10.0 - 3.0 * x[0] - 2.0 * x[1] + 0.5 * x[0] * x[1] + 0.1 * x[2] + 0.05 * (x[3] + 1.0), std::nullopt};
        t.generator = "sobol";
        e.trials.push_back(t);
    }
    return e;
}

int best_trial(const Experiment& e) {
    int best = 0;
    for (const Trial& t : e.trials)
        if (*t.value("cost") < *e.trials[static_cast<std::size_t>(best)].value("cost")) best = t.index;
    return best;
}

// The posterior's mean and sd at a configuration, in objective units, without a warp.
Prediction by_hand(const Experiment& e, const SimplifyModel& m, const std::vector<double>& values) {
    const std::vector<double> u = e.space.to_unit(values);
    const Eigen::RowVectorXd x = Eigen::Map<const Eigen::RowVectorXd>(u.data(), static_cast<Eigen::Index>(u.size()));
    const PosteriorMoments p = m.posterior->mixture(x);
    const double s = m.training.standardizer.scale();
    return {-(m.training.standardizer.mean() + s * p.mean[0]) / m.training.utility_scale,
            s * std::sqrt(p.variance[0]) / m.training.utility_scale};
}

SimplifyModel fit(const Experiment& e) {
    SimplifyModelFit f = fit_simplify_model(e);
    if (f.status != SimplifyModelFit::Status::Ok) qFatal("fit failed: %s", f.message.c_str());
    return std::move(*f.model);
}

}  // namespace

class TestSimplify : public QObject {
    Q_OBJECT

private slots:
    // Two objectives (cost minimized, speed maximized) and a constraint on a third metric
    // (load <= 1.2): the path still follows cost; every step reports each objective's
    // prediction, the model's mixture mapped back here by hand, and the probability of
    // feasibility, Φ((bound − μ)/σ) of the load model (one member), computed here.
    void severalObjectivesAndAConstraint() {
        Experiment e = make_experiment(false);
        e.outcomes.metrics = {"cost", "speed", "load"};
        e.outcomes.objectives.push_back({"speed", false, std::nullopt});
        e.outcomes.constraints = {{"load", ConstraintSense::AtMost, 1.2}};
        for (Trial& t : e.trials) {
            const auto& x = t.parameters;
            t.values["speed"] = {2.0 * x[0] - x[2] + 0.3 * x[4], std::nullopt};
            t.values["load"] = {x[0] + 0.5 * x[1], std::nullopt};
        }
        const SimplifyModel model = fit(e);
        QCOMPARE(model.metrics.metrics, (std::vector<std::string>{"cost", "speed", "load"}));
        const SimplifyPath path = simplify_path(e, model, best_trial(e));
        // The first objective's path and predictions are those of its own model alone.
        const SimplifyModel alone = fit(make_experiment(false));
        const SimplifyPath first = simplify_path(make_experiment(false), alone, best_trial(e));
        QCOMPARE(path.steps.size(), first.steps.size());
        for (std::size_t k = 0; k < path.steps.size(); ++k) {
            const SimplifyStep& s = path.steps[k];
            QCOMPARE(s.parameters, first.steps[k].parameters);
            QCOMPARE(s.predicted.mean, first.steps[k].predicted.mean);
            QCOMPARE(s.objectives.size(), std::size_t(2));
            QCOMPARE(s.objectives[0].mean, s.predicted.mean);
            const std::vector<double> u = e.space.to_unit(s.parameters);
            const Eigen::RowVectorXd x = Eigen::Map<const Eigen::RowVectorXd>(u.data(), static_cast<Eigen::Index>(u.size()));
            const TrainingSet& speed = model.metrics.sets[1];
            const PosteriorMoments p = model.posteriors[1]->mixture(x);
            SEBO_COMPARE_NEAR(s.objectives[1].mean, speed.standardizer.mean() + speed.standardizer.scale() * p.mean[0], 1e-9);
            SEBO_COMPARE_NEAR(s.objectives[1].sd, speed.standardizer.scale() * std::sqrt(p.variance[0]), 1e-9);
            const TrainingSet& load = model.metrics.sets[2];
            const PosteriorMoments q = model.posteriors[2]->mixture(x);
            const double z = ((1.2 - load.standardizer.mean()) / load.standardizer.scale() - q.mean[0]) / std::sqrt(q.variance[0]);
            QVERIFY(s.feasibility);
            SEBO_COMPARE_NEAR(*s.feasibility, 0.5 * std::erfc(-z / std::sqrt(2.0)), 1e-9);
        }
        // Without constraints no probability; with one objective no per-objective list.
        e.outcomes.constraints.clear();
        const SimplifyPath unconstrained = simplify_path(e, fit(e), best_trial(e));
        QVERIFY(!unconstrained.steps.front().feasibility);
        QCOMPARE(first.steps.front().objectives.size(), std::size_t(0));
        QVERIFY(!first.steps.front().feasibility);
    }

    void pathLosesOneChangedParameterPerStep() {
        const Experiment e = make_experiment(false);
        const SimplifyModel model = fit(e);
        const int index = best_trial(e);
        SimplifyOptions options;
        options.tolerance = 0.1;
        const SimplifyPath path = simplify_path(e, model, index, options);
        const Trial& trial = *e.find_trial(index);
        const int changed = e.space.active_count(trial.parameters);
        QCOMPARE(path.trial, index);
        QCOMPARE(path.measured, trial.value("cost"));
        QCOMPARE(static_cast<int>(path.steps.size()), changed + 1);
        QCOMPARE(path.steps.front().parameters, trial.parameters);
        QCOMPARE(path.steps.front().reset, -1);
        QCOMPARE(path.steps.back().parameters, e.space.target());
        const double start = path.steps.front().predicted.mean;
        for (std::size_t k = 0; k < path.steps.size(); ++k) {
            const SimplifyStep& s = path.steps[k];
            QCOMPARE(static_cast<int>(s.changed.size()), changed - static_cast<int>(k));
            QCOMPARE(e.space.active_count(s.parameters), changed - static_cast<int>(k));
            // The posterior's prediction at that point, computed here by hand.
            const Prediction expected = by_hand(e, model, s.parameters);
            SEBO_COMPARE_NEAR(s.predicted.mean, expected.mean, 1e-9 * (1.0 + std::abs(expected.mean)));
            SEBO_COMPARE_NEAR(s.predicted.sd, expected.sd, 1e-9 * (1.0 + expected.sd));
            // Minimized: within when the prediction is at most 10 % of |start| higher.
            QCOMPARE(s.within_tolerance, s.predicted.mean - start <= 0.1 * std::abs(start));
            if (k == 0) continue;
            // The reset is the cheapest of every parameter still changed before this step.
            const SimplifyStep& before = path.steps[k - 1];
            for (int j : before.changed) {
                std::vector<double> alternative = before.parameters;
                alternative[static_cast<std::size_t>(j)] = e.space.target()[static_cast<std::size_t>(j)];
                QVERIFY(predict_objective(e, model, alternative).mean >= s.predicted.mean - 1e-12);
            }
        }
        // x0 and x1 matter most: they are the last two reset, and resetting them is not within 10 %.
        const std::size_t n = path.steps.size();
        QVERIFY(n >= 3);
        QVERIFY(path.steps[n - 1].reset <= 1 && path.steps[n - 2].reset <= 1);
        QVERIFY(!path.steps.back().within_tolerance);
    }

    void warpedPredictionsMapBackThroughTheWarp() {
        const Experiment e = make_experiment(true);
        const SimplifyModel model = fit(e);
        const SimplifyPath path = simplify_path(e, model, best_trial(e));
        QCOMPARE(path.tolerance, 0.2);
        for (const SimplifyStep& s : path.steps) {
            const std::vector<double> u = e.space.to_unit(s.parameters);
            const Eigen::RowVectorXd x = Eigen::Map<const Eigen::RowVectorXd>(u.data(), static_cast<Eigen::Index>(u.size()));
            const PosteriorMoments p = model.posterior->mixture(x);
            const TrainingSet& t = model.training;
            const double utility = -s.predicted.mean * t.utility_scale;
            SEBO_COMPARE_NEAR(t.warp.apply(utility), t.standardizer.mean() + t.standardizer.scale() * p.mean[0], 1e-9);
            // Delta method: sd × ψ'(u) is the warped-scale sd.
            SEBO_COMPARE_NEAR(s.predicted.sd * t.utility_scale * t.warp.derivative(utility),
                              t.standardizer.scale() * std::sqrt(p.variance[0]), 1e-9);
        }
    }

    void explainSortsSingleResetsByHarm() {
        const Experiment e = make_experiment(false);
        const SimplifyModel model = fit(e);
        const int index = best_trial(e);
        const TrialExplanation x = explain_trial(e, model, index);
        const Trial& trial = *e.find_trial(index);
        QCOMPARE(x.measured, trial.value("cost"));
        SEBO_COMPARE_NEAR(x.predicted.mean, by_hand(e, model, trial.parameters).mean, 1e-9);
        QCOMPARE(static_cast<int>(x.resets.size()), e.space.active_count(trial.parameters));
        for (std::size_t k = 0; k < x.resets.size(); ++k) {
            const ResetEffect& r = x.resets[k];
            std::vector<double> values = trial.parameters;
            values[static_cast<std::size_t>(r.parameter)] = e.space.target()[static_cast<std::size_t>(r.parameter)];
            SEBO_COMPARE_NEAR(r.predicted.mean, by_hand(e, model, values).mean, 1e-9);
            SEBO_COMPARE_NEAR(r.effect, r.predicted.mean - x.predicted.mean, 1e-12);
            // Minimized: most harmful (largest increase) first.
            if (k > 0) QVERIFY(x.resets[k - 1].effect >= r.effect);
        }
        QVERIFY(x.resets.front().parameter <= 1);
    }

    void trialsThatCannotBeSimplifiedSayWhy() {
        Experiment e = make_experiment(false);
        QVERIFY(!simplify_unavailable(e, 0));
        QCOMPARE(*simplify_unavailable(e, 99), std::string("trial 99 does not exist"));
        e.trials[1].status = TrialStatus::Pending;
        e.trials[1].values.clear();
        QCOMPARE(*simplify_unavailable(e, 1), std::string("trial 1 is pending: it has no result yet"));
        e.trials[2].status = TrialStatus::Failed;
        e.trials[2].values.clear();
        QCOMPARE(*simplify_unavailable(e, 2), std::string("trial 2 failed: it has no result"));
        e.trials[3].exclusion = TrialExclusion{"outlier", ""};
        QCOMPARE(*simplify_unavailable(e, 3), std::string("trial 3 is excluded from the analysis"));
        e.trials.resize(1);
        QCOMPARE(*simplify_unavailable(e, 0),
                 std::string("the model needs at least 2 completed trials in the analysis; the experiment has 1"));
        const SimplifyModelFit f = fit_simplify_model(e);
        QCOMPARE(f.status, SimplifyModelFit::Status::Failed);
        QVERIFY(!f.model);
        SimplifyOptions o;
        o.tolerance = 0.0;
        QCOMPARE(*o.validate(), std::string("tolerance: 0 is not in (0, 1]"));
        o.tolerance = 1.0;
        QVERIFY(!o.validate());
    }
};

SEBO_TEST_MAIN(TestSimplify)
}  // namespace test_simplify
#include "test_simplify.moc"
