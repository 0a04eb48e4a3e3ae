// Status quo first (issue 14, item 6; experiment/status_quo.h): a new experiment's first trial is
// the target configuration, then the strategy's own; never a second one, and never without the
// setting (older files and the paper's bench presets start from Sobol).
#include "experiment/runner.h"
#include "experiment/sobol_strategy.h"
#include "experiment/status_quo.h"
#include "problems/problem.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_status_quo {

using namespace sebo;

namespace {

// Three parameters with targets 0 (inside), 2 (the lower bound, 0 being outside) and 0.7.
Experiment manual_experiment(bool status_quo_first) {
    Experiment e;
    Parameter a, b, c;
    a.name = "a";
    a.lower = -1;
    b.name = "b";
    b.lower = 2;
    b.upper = 9;
    b.kind = ParameterKind::Integer;
    c.name = "c";
    c.target = 0.7;
    e.space = SearchSpace({a, b, c});
    e.outcomes = Outcomes::single("y", false);
    e.method.status_quo_first = status_quo_first;
    e.seed = 5;
    return e;
}

}  // namespace

class TestStatusQuo : public QObject {
    Q_OBJECT
private slots:
    void first_step_proposes_the_target_then_the_strategy() {
        Experiment e = manual_experiment(true);
        QVERIFY(status_quo_due(e));
        SobolStrategy sobol;
        const StepResult step = run_step(e, sobol, nullptr, StepControl{}, 3);
        QCOMPARE(step.status, StepResult::Status::Completed);
        QCOMPARE(step.new_trials, (std::vector<int>{0, 1, 2}));
        QCOMPARE(e.trials[0].parameters, (std::vector<double>{0.0, 2.0, 0.7}));
        QCOMPARE(QString::fromStdString(e.trials[0].generator), QString(kStatusQuoGenerator));
        QCOMPARE(e.trials[0].status, TrialStatus::Pending);
        QCOMPARE(e.space.active_count(e.trials[0].parameters), 0);
        // The other two are the first two Sobol points, as without the status quo.
        Experiment plain = manual_experiment(false);
        const std::vector<std::vector<double>> first_sobol = next_sobol_points(plain, 2);
        QCOMPARE(e.trials[1].parameters, first_sobol[0]);
        QCOMPARE(e.trials[2].parameters, first_sobol[1]);
        QCOMPARE(QString::fromStdString(e.trials[1].generator), QString("sobol"));
        // Once the experiment has a trial, no second status quo: the Sobol sequence goes on.
        QVERIFY(!status_quo_due(e));
        run_step(e, sobol, nullptr, StepControl{}, 1);
        QCOMPARE(e.trials[3].parameters, next_sobol_points(plain, 3)[2]);
    }

    void a_batch_of_one_is_the_status_quo_alone() {
        Experiment e = manual_experiment(true);
        SobolStrategy sobol;
        const StepResult step = run_step(e, sobol, nullptr, StepControl{}, 1);
        QCOMPARE(step.status, StepResult::Status::Completed);
        QCOMPARE(e.trials.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(e.trials[0].generator), QString("status-quo"));
    }

    void off_or_with_trials_nothing_changes() {
        Experiment e = manual_experiment(false);
        SobolStrategy sobol;
        run_step(e, sobol, nullptr, StepControl{}, 1);
        QCOMPARE(QString::fromStdString(e.trials[0].generator), QString("sobol"));
        // Imported results: the experiment already has trials, so no status quo is added.
        Experiment imported = manual_experiment(true);
        Trial past;
        past.parameters = {0.5, 3.0, 0.2};
        past.status = TrialStatus::Completed;
        past.values["y"] = {1.0, std::nullopt};
        past.generator = "import";
        imported.trials.push_back(past);
        QVERIFY(!status_quo_due(imported));
        run_step(imported, sobol, nullptr, StepControl{}, 1);
        QCOMPARE(QString::fromStdString(imported.trials[1].generator), QString("sobol"));
    }

    // Evaluated like any trial, so the frontier's k = 0 point is a measurement.
    void the_status_quo_is_evaluated() {
        MethodSettings method;
        method.status_quo_first = true;
        ProblemSpec spec;
        spec.name = "branin";
        spec.dimension = 6;
        Experiment e = make_problem_experiment(spec, method, 1);
        ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
        auto strategy = make_strategy(e.method);
        run_step(e, *strategy, &evaluator, StepControl{}, 2);
        QCOMPARE(e.trials[0].status, TrialStatus::Completed);
        QCOMPARE(e.trials[0].parameters, e.space.target());
        QVERIFY(e.objective_value(e.trials[0]).has_value());
        QCOMPARE(QString::fromStdString(e.trials[1].generator), QString("sobol"));
    }
};

SEBO_TEST_MAIN(TestStatusQuo)
}  // namespace test_status_quo
#include "test_status_quo.moc"
