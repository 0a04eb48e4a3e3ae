// Noisy measurements in the explorer (issue 30 items 4–6): the model's estimates with their 95 %
// intervals by default when an objective is noisy, computed off the GUI thread and published as an
// immutable report; the frontier line through the recommended configurations; a toggle back to the
// measurements, where replicates are one point (mean, SEM, count); the inspector with both;
// "Confirm with more measurements…" on a trial and on the frontier; the partial-standard-error
// warning once.

#include <QAction>
#include <QLineSeries>
#include <QMessageBox>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>

#include "chart_source.h"
#include "configuration_inspector.h"
#include "confirm_actions.h"
#include "experiment/analytics.h"
#include "experiment/sobol_strategy.h"
#include "experiment/standard_errors.h"
#include "experiment_document.h"
#include "frontier_chart_view.h"
#include "hypervolume_chart_view.h"
#include "main_window.h"
#include "message_bar.h"
#include "run_controller.h"
#include "prompt_test_support.h"
#include "test_main.h"
#include "test_support.h"
#include "ui_test_support.h"

namespace test_noisy_views {

using namespace sebo;
using namespace sebo::ui;

using sebo::test::discard;

namespace {

constexpr double kSem = 0.05;

// y = x0 + 0.5·x1 (maximized) over three parameters in [0, 1] (target 0), measured by hand with a
// standard error; the status quo and trial 3's configuration measured twice. A GP: fits in
// milliseconds.
Experiment noisy_experiment() {
    Experiment e;
    e.name = "noisy";
    std::vector<Parameter> parameters;
    for (const char* name : {"x0", "x1", "x2"})
        parameters.push_back(Parameter{name, ParameterKind::Continuous, 0.0, 1.0, false, std::nullopt, {}, {}, {}, false});
    e.space = SearchSpace(parameters);
    e.outcomes = Outcomes::single("y", false);
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    e.method.strategy = StrategyKind::Sobol;
    e.method.model = ModelKind::Gp;
    e.method.initial_trials = 10;
    e.method.budget = 40;
    e.seed = 5;
    std::vector<std::vector<double>> points{{0.0, 0.0, 0.0}};
    for (const auto& p : next_sobol_points(e, 10)) points.push_back(p);
    points.push_back(points[0]);
    points.push_back(points[3]);
    // Deterministic "noise" of ±0.03 alternating.
    for (std::size_t i = 0; i < points.size(); ++i) {
        Trial t;
        t.index = static_cast<int>(i);
        t.parameters = points[i];
        t.status = TrialStatus::Completed;
        const double y = points[i][0] + 0.5 * points[i][1] + (i % 2 == 0 ? 0.03 : -0.03);
        t.values["y"] = Measurement{y, kSem};
        t.generator = i == 0 ? "status-quo" : "sobol";
        e.trials.push_back(t);
    }
    return e;
}

// Answers the Confirm dialog with `repeats`.
MainWindow::DialogHandler repeats(int count) {
    return [count](QDialog& dialog) {
        auto* confirm = qobject_cast<ConfirmDialog*>(&dialog);
        if (!confirm) return int(QDialog::Rejected);
        confirm->repeatsBox()->setValue(count);
        return int(QDialog::Accepted);
    };
}

}  // namespace

class TestNoisyViews : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The estimates by default, the staircase through the recommended configurations, intervals as
    // error bars, one point per configuration; the hypervolume of the estimates; the inspector.
    void modelEstimatesByDefaultWhenNoisy() {
        const Experiment e = noisy_experiment();
        MainWindow w;
        w.setPromptHandler(discard());
        w.chartSource()->setDelay(0);
        QVERIFY(w.newExperiment(e));
        // Asynchronous: nothing yet, the charts show the measurements meanwhile.
        QVERIFY(!w.chartSource()->estimates());
        QCOMPARE(w.chartSource()->chartSnapshot()->values, ValueView::MergedReplicates);
        QTRY_VERIFY_WITH_TIMEOUT(w.chartSource()->estimates() != nullptr, test::kHangGuardMs);
        const std::shared_ptr<const RecommendationReport> report = w.chartSource()->estimates();
        QVERIFY(report->noisy_objective(e));
        QAction* toggle = w.chartSource()->toggleAction();
        QVERIFY(toggle->isEnabled());
        QVERIFY(toggle->isChecked());
        const SnapshotPtr chart = w.chartSource()->chartSnapshot();
        QCOMPARE(chart->values, ValueView::ModelEstimates);
        QCOMPARE(report->configurations.size(), std::size_t{11});  // 13 trials, 2 replicates

        // One marker per configuration, each with its interval.
        FrontierChartView* frontier = w.frontierChart();
        QCOMPARE(static_cast<std::size_t>(frontier->trialsSeries()->count() + frontier->frontierSeries()->count()),
                 report->configurations.size());
        QCOMPARE(frontier->errorBars().size(), report->configurations.size());
        for (const FrontierChartView::ErrorBar& bar : frontier->errorBars()) {
            const ConfigurationEstimate* c = report->find(bar.trial);
            QVERIFY(c);
            QCOMPARE(bar.trial, c->trial());
            SEBO_COMPARE_NEAR(bar.low, c->estimates.at("y").lower, 1e-12);
            SEBO_COMPARE_NEAR(bar.high, c->estimates.at("y").upper, 1e-12);
        }
        // The line connects the recommended configuration of every k.
        const QList<QPointF> step = frontier->stepSeries()->points();
        for (const RecommendationReport::Level& level : report->levels) {
            const double mean = report->configurations[level.recommended.front()].estimates.at("y").mean;
            bool found = false;
            for (const QPointF& p : step) found = found || (p.x() == level.k && std::abs(p.y() - mean) < 1e-12);
            QVERIFY2(found, qPrintable(QString("k = %1, mean %2").arg(level.k).arg(mean)));
        }
        QCOMPARE(frontier->stepSeries()->name(), QString("Recommended with ≤ k active"));

        // The hypervolume is that of the estimates.
        std::map<int, std::vector<int>> groups;
        const FrontierReport estimated = analyze_frontier(model_estimates_view(e, *report, &groups));
        const QList<QPointF> trace = w.hypervolumeChart()->traceSeries()->points();
        QCOMPARE(static_cast<std::size_t>(trace.size()), estimated.hypervolume_trace.size());
        SEBO_COMPARE_NEAR(trace.back().y(), estimated.hypervolume_trace.back(), 1e-12);
        QCOMPARE(groups.at(0), (std::vector<int>{0, 11}));

        // The inspector: the replicates' mean, SEM and count, and the model's estimate.
        w.document()->setSelectedTrial(11);
        const QString summary = w.inspector()->summaryText();
        QVERIFY2(summary.contains("Measured 2 times</b> (trials 0, 11)"), qPrintable(summary));
        const double mean = 0.5 * (e.trials[0].values.at("y").mean + e.trials[11].values.at("y").mean);
        QVERIFY2(summary.contains("y " + display_number(mean) + " ± " + display_number(std::sqrt(2.0) * kSem / 2.0, 3)),
                 qPrintable(summary));
        const ConfigurationEstimate* status_quo = report->find(0);
        QVERIFY2(summary.contains("Model's estimate</b>: y " + display_number(status_quo->estimates.at("y").mean)),
                 qPrintable(summary));
        w.document()->setSelectedTrial(4);
        QVERIFY2(w.inspector()->summaryText().contains("P(better than the status quo): y " +
                                                       display_number(report->find(4)->p_better_than_status_quo.at("y"), 2)),
                 qPrintable(w.inspector()->summaryText()));

        // Back to the measurements: replicates one point at their mean with ±1 SEM of the mean.
        toggle->trigger();
        QVERIFY(!toggle->isChecked());
        QCOMPARE(w.chartSource()->chartSnapshot()->values, ValueView::MergedReplicates);
        QCOMPARE(static_cast<std::size_t>(frontier->trialsSeries()->count() + frontier->frontierSeries()->count()),
                 std::size_t{11});
        bool merged_bar = false;
        for (const FrontierChartView::ErrorBar& bar : frontier->errorBars())
            if (bar.trial == 0) {
                merged_bar = true;
                SEBO_COMPARE_NEAR(bar.high - bar.low, 2.0 * std::sqrt(2.0) * kSem / 2.0, 1e-12);
            }
        QVERIFY(merged_bar);
        QCOMPARE(frontier->stepSeries()->name(), QString("Best with ≤ k active"));
    }

    // A change the model does not see keeps the estimates; a new result makes new ones.
    void estimatesFollowTheData() {
        Experiment e = noisy_experiment();
        Trial pending;
        pending.index = e.next_trial_index();
        pending.parameters = {0.5, 0.5, 0.0};
        e.trials.push_back(pending);
        MainWindow w;
        w.setPromptHandler(discard());
        w.chartSource()->setDelay(0);
        QVERIFY(w.newExperiment(e));
        QTRY_VERIFY_WITH_TIMEOUT(w.chartSource()->estimates() != nullptr, test::kHangGuardMs);
        const auto first = w.chartSource()->estimates();
        w.document()->setChosen(4, true, "looks good");
        QCOMPARE(w.chartSource()->estimates(), first);
        QVERIFY(!w.document()->recordResult(pending.index, 0.75, kSem));
        QVERIFY(!w.chartSource()->estimates());  // stale at once
        QTRY_VERIFY_WITH_TIMEOUT(w.chartSource()->estimates() != nullptr, test::kHangGuardMs);
        QVERIFY(w.chartSource()->estimates() != first);
        QVERIFY(w.chartSource()->estimates()->find(pending.index) != nullptr);
    }

    // Confirm with more measurements: pending trials of a manual experiment, on a trial and on the
    // frontier; run at once for a built-in problem.
    void confirmWithMoreMeasurements() {
        const Experiment e = noisy_experiment();
        MainWindow w;
        w.setPromptHandler(discard());
        w.setDialogHandler(repeats(3));
        QVERIFY(w.newExperiment(e));
        w.document()->setSelectedTrial(4);
        QVERIFY(w.confirmActions()->trialAction()->isEnabled());
        w.confirmActions()->trialAction()->trigger();
        const Experiment& after = w.document()->experiment();
        QCOMPARE(after.trials.size(), e.trials.size() + 3);
        for (std::size_t i = e.trials.size(); i < after.trials.size(); ++i) {
            QCOMPARE(after.trials[i].status, TrialStatus::Pending);
            QCOMPARE(after.trials[i].parameters, e.trials[4].parameters);
            QCOMPARE(after.trials[i].generator, std::string("confirm"));
        }
        const std::vector<int> pareto = w.document()->snapshot()->report.pareto_trials;
        QVERIFY(!pareto.empty());
        w.setDialogHandler(repeats(1));
        const std::size_t before = after.trials.size();
        w.confirmActions()->frontierAction()->trigger();
        QCOMPARE(w.document()->experiment().trials.size(), before + pareto.size());

        // A built-in problem: measured at once through the run path.
        MainWindow run;
        run.setPromptHandler(discard());
        QVERIFY(run.newExperiment(test::run_with_engine(test::small_problem_experiment(30), 6)));
        QSignalSpy finished(run.controller(), &RunController::runFinished);
        QVERIFY(run.confirmActions()->confirm({3}, 2));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        const Experiment& measured = run.document()->experiment();
        QCOMPARE(measured.trials.size(), std::size_t{8});
        for (std::size_t i = 6; i < 8; ++i) {
            QCOMPARE(measured.trials[i].status, TrialStatus::Completed);
            QCOMPARE(measured.trials[i].parameters, measured.trials[3].parameters);
            QCOMPARE(measured.trials[i].generator, std::string("confirm"));
        }
    }

    // Standard errors on some measurements of a metric and not on others: said once.
    void partialStandardErrorsWarnedOnce() {
        Experiment e = noisy_experiment();
        for (int i : {2, 5}) e.trials[static_cast<std::size_t>(i)].values["y"].sem.reset();
        MainWindow w;
        w.setPromptHandler(discard());
        QVERIFY(w.newExperiment(e));
        const std::string expected = describe(partial_standard_errors(e).at(0));
        QTRY_VERIFY2(w.messageBar()->text().contains(QString::fromStdString(expected)), qPrintable(w.messageBar()->text()));
        QCOMPARE(w.messageBar()->kind(), MessageBar::Kind::Warning);
        w.messageBar()->dismiss();
        w.document()->setChosen(3, true);
        QTest::qWait(50);
        QVERIFY(w.messageBar()->isHidden());
    }
};

SEBO_TEST_MAIN(TestNoisyViews)
}  // namespace test_noisy_views
#include "test_noisy_views.moc"
