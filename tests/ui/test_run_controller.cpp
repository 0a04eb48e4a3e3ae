// RunController: steps run on a worker thread on a copy of the experiment; results come back
// through queued signals; cancellation leaves the experiment exactly as it was; every completed
// trial is on disk before the next step starts; the GUI thread stays responsive.
//
// No test here measures how fast anything happens (SPEC §8): the waits only bound a hang
// (kHangGuardMs). The latency figures — how long a cancellation takes, the longest pause of the
// event loop during a step — are measured by `sebo-latency` (docs/performance.md).

#include <QFile>
#include <QSignalSpy>
#include <QTimer>

#include "command_trust_store.h"
#include "experiment_document.h"
#include "io/experiment_file.h"
#include "run_controller.h"
#include "test_main.h"
#include "test_support.h"
#include "ui_test_support.h"

namespace test_run_controller {

using namespace sebo;
using namespace sebo::ui;
using sebo::test::read_all;

namespace {

}  // namespace

class TestRunController : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
    }

    // One Sobol step on a small problem: the new trial is the engine's next Sobol point,
    // evaluated by the problem itself (an independent reference computed here).
    void stepAddsTheNextSobolTrial() {
        const Experiment start = test::small_problem_experiment();
        ExperimentDocument doc;
        doc.setExperiment(start);
        RunController controller(&doc);
        QSignalSpy finished(&controller, &RunController::runFinished);
        QSignalSpy completed(&controller, &RunController::stepCompleted);
        QVERIFY(controller.step());
        QVERIFY(controller.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Finished);
        QCOMPARE(completed.count(), 1);
        QVERIFY(!controller.isRunning());

        const Experiment& e = doc.experiment();
        QCOMPARE(e.trials.size(), std::size_t(1));
        const Trial& t = e.trials[0];
        QCOMPARE(t.status, TrialStatus::Completed);
        QCOMPARE(t.generator, std::string("sobol"));
        const std::vector<double> expected = next_sobol_points(start, 1).at(0);
        QCOMPARE(t.parameters, expected);
        const auto problem = make_problem(start.evaluator.problem);
        const Measurement value = problem->primary_measurement(expected, 0);
        QVERIFY(e.objective_value(t).has_value());
        SEBO_COMPARE_NEAR(*e.objective_value(t), value.mean, 1e-12);
        // The snapshot the widgets read was rebuilt.
        QCOMPARE(doc.snapshot()->experiment.trials.size(), std::size_t(1));
        QCOMPARE(doc.snapshot()->completedCount(), 1);
    }

    // Run N with a file: after every step the file on disk already holds that step's trial,
    // checked at the moment the step is announced (before the next one starts).
    void everyTrialIsOnDiskBeforeTheNextStep() {
        const QString path = dir_.filePath("autosave.sebo.json");
        ExperimentDocument doc;
        doc.setExperiment(test::small_problem_experiment());
        QVERIFY(!doc.saveAs(path));
        RunController controller(&doc);
        QList<int> on_disk;
        connect(&controller, &RunController::stepCompleted, this, [&] {
            on_disk << static_cast<int>(load_experiment(path.toStdString()).trials.size());
            // The worker of the next step has not been started yet at this point.
        });
        QSignalSpy finished(&controller, &RunController::runFinished);
        QVERIFY(controller.run(3));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Finished);
        QCOMPARE(on_disk, (QList<int>{1, 2, 3}));
        QVERIFY(!doc.isModified());
        const Experiment reread = load_experiment(path.toStdString());
        QCOMPARE(experiment_to_json_text(reread), experiment_to_json_text(doc.experiment()));
    }

    // Run to budget stops at the budget and says so on the next attempt.
    void runToBudgetStopsAtTheBudget() {
        ExperimentDocument doc;
        doc.setExperiment(test::small_problem_experiment(/*budget=*/5));
        RunController controller(&doc);
        QSignalSpy finished(&controller, &RunController::runFinished);
        QVERIFY(controller.runToBudget());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(doc.experiment().trials.size(), std::size_t(5));
        QVERIFY(!controller.step());
        QCOMPARE(finished.count(), 2);
        QCOMPARE(finished.at(1).at(0).value<RunEnd>(), RunEnd::BudgetReached);
        QVERIFY(!controller.cannotRunReason().isEmpty());
    }

    // Cancelling a step that would never end ends it, and changes nothing: not the experiment,
    // not its file, not the modified flag.
    void cancelLeavesTheExperimentUnchanged() {
        const QString path = dir_.filePath("cancel.sebo.json");
        ExperimentDocument doc;
        doc.setExperiment(test::run_with_engine(test::small_problem_experiment(), 3));
        QVERIFY(!doc.saveAs(path));
        const std::string before = experiment_to_json_text(doc.experiment());
        const QByteArray file_before = read_all(path);
        const int revision_before = doc.snapshot()->revision;

        std::atomic<int> iterations{0};
        RunController controller(&doc, [&](const MethodSettings&) {
            auto s = std::make_unique<test::EndlessStrategy>();
            s->iterations = &iterations;
            return s;
        });
        QSignalSpy finished(&controller, &RunController::runFinished);
        QSignalSpy progress(&controller, &RunController::progressChanged);
        QVERIFY(controller.step());
        // The phase reported by the strategy reaches the GUI thread.
        QTRY_VERIFY_WITH_TIMEOUT(controller.lastProgress().phase == "spinning", test::kHangGuardMs);
        // Let it spin long enough for the throttling to show (a loaded machine, e.g. under a
        // sanitizer, may have run only a few iterations by the first report).
        QTRY_VERIFY_WITH_TIMEOUT(iterations.load() >= 100, test::kHangGuardMs);

        controller.cancel();
        QVERIFY(controller.isCancelling());
        QVERIFY(controller.isRunning());  // until the worker has returned
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Cancelled);
        QVERIFY(!controller.isRunning());
        QVERIFY(!controller.isCancelling());

        QCOMPARE(experiment_to_json_text(doc.experiment()), before);
        QCOMPARE(doc.snapshot()->revision, revision_before);
        QCOMPARE(read_all(path), file_before);
        QVERIFY(!doc.isModified());
        // Progress was throttled: far fewer updates than the strategy's iterations.
        QVERIFY(progress.count() < iterations.load());
    }

    // cancelAndWait (closing the window) blocks until the worker is gone.
    void cancelAndWaitJoinsTheWorker() {
        ExperimentDocument doc;
        doc.setExperiment(test::small_problem_experiment());
        RunController controller(&doc, [](const MethodSettings&) { return std::make_unique<test::EndlessStrategy>(); });
        QSignalSpy finished(&controller, &RunController::runFinished);
        QVERIFY(controller.step());
        QTRY_VERIFY_WITH_TIMEOUT(controller.lastProgress().phase == "spinning", test::kHangGuardMs);
        controller.cancelAndWait();
        QVERIFY(!controller.isRunning());
        QCOMPARE(finished.count(), 1);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Cancelled);
        QVERIFY(doc.experiment().trials.empty());
        // The queued "done" call that follows finds nothing to do.
        QTest::qWait(50);
        QCOMPARE(finished.count(), 1);
    }

    // Destroying a controller mid-step stops and joins its worker (no crash, no late signal).
    void destroyingMidStepIsSafe() {
        ExperimentDocument doc;
        doc.setExperiment(test::small_problem_experiment());
        {
            RunController controller(&doc,
                                     [](const MethodSettings&) { return std::make_unique<test::EndlessStrategy>(); });
            QVERIFY(controller.step());
            // Mid-step: the strategy is spinning on the worker thread.
            QTRY_VERIFY_WITH_TIMEOUT(controller.lastProgress().phase == "spinning", test::kHangGuardMs);
        }
        QTest::qWait(50);
        QVERIFY(doc.experiment().trials.empty());
    }

    // A manual experiment: a step proposes a pending trial that waits for its result.
    void manualStepAddsAPendingTrial() {
        Experiment e = test::small_problem_experiment();
        e.evaluator.kind = EvaluatorSpec::Kind::Manual;
        ExperimentDocument doc;
        doc.setExperiment(e);
        RunController controller(&doc);
        QSignalSpy finished(&controller, &RunController::runFinished);
        QVERIFY(controller.step());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(doc.experiment().trials.size(), std::size_t(1));
        QCOMPARE(doc.experiment().trials[0].status, TrialStatus::Pending);
        QVERIFY(doc.experiment().trials[0].values.empty());
        QVERIFY(!doc.recordResult(0, 2.5, 0.1));
        QCOMPARE(doc.experiment().trials[0].status, TrialStatus::Completed);
        QCOMPARE(*doc.experiment().objective_value(doc.experiment().trials[0]), 2.5);
        QVERIFY(doc.recordResult(0, 3.0).has_value());  // no longer pending
    }

    // A strategy that throws is a failed run with its message, and the experiment is unchanged.
    void failingStrategyIsReported() {
        struct Throwing final : Strategy {
            std::string name() const override { return "throwing"; }
            Proposal propose(const Experiment&, int, const StepControl&) override {
                throw std::runtime_error("model fit did not converge");
            }
        };
        ExperimentDocument doc;
        doc.setExperiment(test::small_problem_experiment());
        RunController controller(&doc, [](const MethodSettings&) { return std::make_unique<Throwing>(); });
        QSignalSpy finished(&controller, &RunController::runFinished);
        QVERIFY(controller.step());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Failed);
        QVERIFY(finished.at(0).at(1).toString().contains("model fit did not converge"));
        QVERIFY(doc.experiment().trials.empty());
    }

    // An evaluator that always fails (a real child process) ends the run after
    // kMaxFailuresInARow trials, each kept with its reason; the next run gets a fresh count.
    void aBrokenEvaluatorStopsTheRun() {
        Experiment e = test::small_problem_experiment(/*budget=*/30);
        e.evaluator = EvaluatorSpec{};
        e.evaluator.kind = EvaluatorSpec::Kind::Command;
        e.evaluator.command = {"/bin/sh", "-c", "echo 'licence server unreachable' >&2; exit 3"};
        ExperimentDocument doc;
        doc.setExperiment(e);
        RunController controller(&doc);
        controller.approveCommand(command_approval_key(e.evaluator));
        QSignalSpy finished(&controller, &RunController::runFinished);
        QVERIFY(controller.runToBudget());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Failed);
        const QString message = finished.at(0).at(1).toString();
        QVERIFY2(message.contains("Stopped after 5 failed evaluations in a row; the last (trial 4)"), qPrintable(message));
        QVERIFY2(message.contains("licence server unreachable"), qPrintable(message));
        QCOMPARE(doc.experiment().trials.size(), std::size_t(RunController::kMaxFailuresInARow));
        for (const Trial& t : doc.experiment().trials) QCOMPARE(t.status, TrialStatus::Failed);

        QVERIFY(controller.run(2));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, test::kHangGuardMs);
        QCOMPARE(finished.at(1).at(0).value<RunEnd>(), RunEnd::Finished);
        QCOMPARE(doc.experiment().trials.size(), std::size_t(7));
    }

    // The event loop keeps running while a strategy keeps a core busy and floods progress
    // reports: the strategy spins until a 10 ms timer of the GUI thread has ticked 20 times
    // during the step and releases it. Were the loop blocked until the step ends (the step run
    // on the GUI thread, or its progress reports flooding the queue), the strategy would never
    // be released and the wait would run into its hang guard.
    void eventLoopStaysResponsiveDuringAStep() {
        ExperimentDocument doc;
        doc.setExperiment(test::small_problem_experiment());
        std::atomic<bool> release{false};
        std::atomic<int> iterations{0};
        RunController controller(&doc, [&](const MethodSettings&) {
            auto s = std::make_unique<test::BusyStrategy>(&release);
            s->iterations = &iterations;
            return s;
        });
        QSignalSpy finished(&controller, &RunController::runFinished);
        QSignalSpy progress(&controller, &RunController::progressChanged);

        constexpr int kTicks = 20;
        int ticks = 0, ticks_while_busy = 0;
        QTimer timer;
        timer.setInterval(10);
        connect(&timer, &QTimer::timeout, this, [&] {
            if (ticks++ >= kTicks) return;
            // The step is still running and its strategy has started spinning.
            if (controller.isRunning() && iterations.load() > 0 && !release.load()) ++ticks_while_busy;
            if (ticks == kTicks) release.store(true);
        });
        QVERIFY(controller.step());
        // Counting starts once the strategy spins, so every tick counted came while it did.
        QTRY_VERIFY_WITH_TIMEOUT(iterations.load() > 0, test::kHangGuardMs);
        timer.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        timer.stop();
        QCOMPARE(ticks_while_busy, kTicks);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Finished);
        QCOMPARE(doc.experiment().trials.size(), std::size_t(1));
        QCOMPARE(doc.experiment().trials[0].generator, std::string("busy"));
        // The flood was throttled on its way to the GUI thread.
        QVERIFY(progress.count() < iterations.load());
    }
};

SEBO_TEST_MAIN(TestRunController)
}  // namespace test_run_controller
#include "test_run_controller.moc"
