// Pending trials evaluated by an evaluator that runs by itself (issue 32: in a command experiment
// Step evaluated new proposals and left the pending trials that Simplify or a person added):
// experiment/runner.h's evaluate_pending records each outcome on the existing trial as run_step
// records a new one's, in order, and a cancelled call changes nothing.
#include <atomic>

#include "experiment/runner.h"
#include "experiment/sobol_strategy.h"
#include "test_main.h"
#include "test_support.h"

namespace test_pending_evaluation {

using namespace sebo;

namespace {

// y = 10·a + b; fails on a = 0.5 with a reason; reports a metric the experiment lacks on a = 0.75.
class Linear final : public Evaluator {
public:
    std::atomic<int> calls{0};
    bool cancel_after_first = false;
    std::stop_source* stop = nullptr;
    EvaluationOutcome evaluate(const Trial& trial, const StepControl&) override {
        ++calls;
        if (cancel_after_first && stop) stop->request_stop();
        EvaluationOutcome out;
        const double a = trial.parameters[0], b = trial.parameters[1];
        if (a == 0.5) {
            out.error = "the rig was busy";
            return out;
        }
        out.ok = true;
        out.values["y"] = Measurement{10.0 * a + b, std::nullopt};
        if (a == 0.75) out.values["z"] = Measurement{1.0, std::nullopt};
        return out;
    }
};

Experiment experiment_with(const std::vector<std::vector<double>>& pending) {
    Experiment e;
    Parameter a, b;
    a.name = "a";
    b.name = "b";
    e.space = SearchSpace({a, b});
    e.outcomes = Outcomes::single("y", false);
    e.evaluator.kind = EvaluatorSpec::Kind::Command;
    e.method.budget = 3;
    for (const auto& point : pending) {
        Trial t;
        t.index = e.next_trial_index();
        t.parameters = point;
        t.generator = "simplify";
        e.trials.push_back(t);
    }
    return e;
}

}  // namespace

class TestPendingEvaluation : public QObject {
    Q_OBJECT
private slots:
    void pendingTrialsAreEvaluatedInOrderOnTheirTrial() {
        Experiment e = experiment_with({{0.25, 0.5}, {0.5, 0.0}, {0.1, 0.2}});
        e.trials[0].created_at = "2026-01-01T00:00:00Z";
        Linear evaluator;
        const StepResult first = evaluate_pending(e, evaluator, StepControl{}, 1);
        QCOMPARE(first.status, StepResult::Status::Completed);
        QCOMPARE(first.new_trials, std::vector<int>{0});
        QCOMPARE(e.trials.size(), std::size_t{3});
        QCOMPARE(e.trials[0].status, TrialStatus::Completed);
        QCOMPARE(*e.trials[0].value("y"), 3.0);
        // The trial keeps what it was: its index, configuration, generator and creation time.
        QCOMPARE(e.trials[0].generator, std::string("simplify"));
        QCOMPARE(e.trials[0].created_at, std::string("2026-01-01T00:00:00Z"));
        QVERIFY(!e.trials[0].completed_at.empty());
        QCOMPARE(e.trials[1].status, TrialStatus::Pending);

        // The next two at once: a failure is recorded with its reason.
        const StepResult rest = evaluate_pending(e, evaluator, StepControl{}, 5);
        QCOMPARE(rest.new_trials, (std::vector<int>{1, 2}));
        QCOMPARE(e.trials[1].status, TrialStatus::Failed);
        QCOMPARE(e.trials[1].error, std::string("the rig was busy"));
        QCOMPARE(*e.trials[2].value("y"), 10.0 * 0.1 + 0.2);
        QCOMPARE(evaluator.calls.load(), 3);
        // Nothing is left: Failed, and nothing evaluated.
        const StepResult none = evaluate_pending(e, evaluator, StepControl{}, 1);
        QCOMPARE(none.status, StepResult::Status::Failed);
        QCOMPARE(none.message, std::string("no trial is pending"));
        QCOMPARE(evaluator.calls.load(), 3);
    }

    // An evaluator that reports another metric set: a failure, and the misreport that stops a run.
    void misreportIsAFailure() {
        Experiment e = experiment_with({{0.75, 0.0}});
        Linear evaluator;
        const StepResult r = evaluate_pending(e, evaluator, StepControl{}, 1);
        QCOMPARE(e.trials[0].status, TrialStatus::Failed);
        QVERIFY(e.trials[0].values.empty());
        QVERIFY(r.misreport.has_value());
        QVERIFY2(QString::fromStdString(*r.misreport).contains("trial 0: the evaluator reported the metric 'z'"),
                 r.misreport->c_str());
    }

    // Cancelled while evaluating: the experiment is as it was, the trials still pending.
    void cancelledLeavesTheTrialsPending() {
        const Experiment before = experiment_with({{0.25, 0.5}, {0.1, 0.2}});
        Experiment e = before;
        std::stop_source stop;
        Linear evaluator;
        evaluator.cancel_after_first = true;
        evaluator.stop = &stop;
        StepControl control;
        control.stop = stop.get_token();
        const StepResult r = evaluate_pending(e, evaluator, control, 2);
        QCOMPARE(r.status, StepResult::Status::Cancelled);
        QVERIFY(e.trials == before.trials);
    }

    // The budget is not consulted: the trials are already counted in it.
    void budgetDoesNotStopPendingTrials() {
        Experiment e = experiment_with({{0.25, 0.5}, {0.1, 0.2}, {0.2, 0.2}});
        QCOMPARE(static_cast<int>(e.trials.size()), e.method.budget);
        Linear evaluator;
        QCOMPARE(evaluate_pending(e, evaluator, StepControl{}, 3).new_trials, (std::vector<int>{0, 1, 2}));
        SobolStrategy sobol;
        QCOMPARE(run_step(e, sobol, &evaluator, StepControl{}, 1).status, StepResult::Status::BudgetReached);
    }
};

SEBO_TEST_MAIN(TestPendingEvaluation)
}  // namespace test_pending_evaluation
#include "test_pending_evaluation.moc"
