// The explorer with several objectives and outcome constraints (issue 13, item 6), in real windows:
// the objectives scatter's "at most k parameters changed" control highlights that level's front
// and limits the trials table to it; a constrained experiment draws its infeasible trials hollow
// and leaves them off the frontier, with the constraint's bound as a line; the table has a column
// per metric and a Feasible column; the New experiment dialog defines metrics, objectives,
// thresholds and constraints, refuses bad input with a message naming the row and column, and
// creates a file that loads with those outcomes. The experiments are written here by hand, with
// their fronts worked out by hand in the comments.

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLineSeries>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <set>

#include "axis_range.h"
#include "central_charts.h"
#include "configuration_inspector.h"
#include "experiment_document.h"
#include "frontier_chart_view.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "prompt_test_support.h"
#include "new_experiment_dialog.h"
#include "objective_scatter_view.h"
#include "outcome_table_editor.h"
#include "parameter_table_editor.h"
#include "problems/problem_catalog.h"
#include "trials_table_model.h"
#include "test_main.h"

namespace test_moo_gui {

using namespace sebo;
using namespace sebo::ui;
using sebo::test::discard;

namespace {

// Four parameters in [0, 1] with target 0: a trial's active count is its number of non-zero values.
SearchSpace four_parameters() {
    std::vector<Parameter> parameters;
    for (const char* name : {"p1", "p2", "p3", "p4"})
        parameters.push_back(Parameter{name, ParameterKind::Continuous, 0.0, 1.0, false, 0.0, {}, {}, {}, false});
    return SearchSpace(parameters);
}

std::vector<double> with_active(int active) {
    std::vector<double> x(4, 0.0);
    for (int i = 0; i < active; ++i) x[static_cast<std::size_t>(i)] = 0.5;
    return x;
}

// Each trial its own configuration (the same one measured twice would be one configuration, its
// replicates merged: chart_source.h).
Trial completed(int index, int active, MetricValues values) {
    Trial t;
    t.index = index;
    t.parameters = with_active(active);
    for (double& x : t.parameters)
        if (x != 0.0) x += 0.01 * index;
    t.status = TrialStatus::Completed;
    t.values = std::move(values);
    t.generator = "manual";
    return t;
}

Experiment manual_experiment(Outcomes outcomes) {
    Experiment e;
    e.name = "hand-made";
    e.space = four_parameters();
    e.outcomes = std::move(outcomes);
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    e.method.strategy = StrategyKind::Sobol;
    e.method.initial_trials = 2;
    e.method.budget = 30;
    return e;
}

// Throughput maximized, latency minimized, and the trials (active, throughput, latency):
//   0: (0, 1, 5)   1: (1, 3, 4)   2: (1, 2, 2)   3: (2, 5, 3)   4: (3, 4, 1)   5: (4, 6, 6)
//   6: (1, 1.5, 4.5), dominated by 1.
// Fronts in (throughput, latency), best throughput first:
//   k = 0: {0};  k = 1: {1, 2} (1 dominates 0 and 6);  k = 2: {3, 2} (3 dominates 1);
//   k = 3: {3, 4} (4 dominates 2);  k = 4: {5, 3, 4}.
Experiment two_objectives() {
    Outcomes outcomes;
    outcomes.metrics = {"throughput", "latency"};
    outcomes.objectives = {Objective{"throughput", false, std::nullopt}, Objective{"latency", true, std::nullopt}};
    Experiment e = manual_experiment(outcomes);
    const double values[][3] = {{0, 1, 5}, {1, 3, 4}, {1, 2, 2}, {2, 5, 3}, {3, 4, 1}, {4, 6, 6}, {1, 1.5, 4.5}};
    int index = 0;
    for (const auto& v : values)
        e.trials.push_back(completed(index++, static_cast<int>(v[0]),
                                     {{"throughput", Measurement{v[1], std::nullopt}}, {"latency", Measurement{v[2], std::nullopt}}}));
    return e;
}

// Yield maximized subject to cost <= 1 and yield <= 4.5 (the metric plotted is constrained too).
// Trials (active, yield, cost):
//   0: (0, 1, 0.5) feasible     1: (1, 5, 2) infeasible (both constraints)
//   2: (1, 3, 1) feasible (the bound itself is allowed)
//   3: (2, 4, no cost) infeasible: the constrained metric was not recorded
//   4: (2, 3.5, 0.2) feasible
// Frontier (feasible only): 0 at k = 0 (1), 2 at k = 1 (3), 4 at k = 2 (3.5); without the
// constraints trial 1 (5 at k = 1) would be the best from k = 1 on.
Experiment constrained() {
    Outcomes outcomes;
    outcomes.metrics = {"yield", "cost"};
    outcomes.objectives = {Objective{"yield", false, std::nullopt}};
    outcomes.constraints = {OutcomeConstraint{"cost", ConstraintSense::AtMost, 1.0},
                            OutcomeConstraint{"yield", ConstraintSense::AtMost, 4.5}};
    Experiment e = manual_experiment(outcomes);
    e.trials.push_back(completed(0, 0, {{"yield", {1.0, std::nullopt}}, {"cost", {0.5, std::nullopt}}}));
    e.trials.push_back(completed(1, 1, {{"yield", {5.0, std::nullopt}}, {"cost", {2.0, std::nullopt}}}));
    e.trials.push_back(completed(2, 1, {{"yield", {3.0, std::nullopt}}, {"cost", {1.0, std::nullopt}}}));
    e.trials.push_back(completed(3, 2, {{"yield", {4.0, std::nullopt}}}));
    e.trials.push_back(completed(4, 2, {{"yield", {3.5, std::nullopt}}, {"cost", {0.2, std::nullopt}}}));
    return e;
}

QList<int> shown_trials(const MainWindow& w) {
    QList<int> trials;
    const QAbstractItemModel* proxy = w.trialsView()->model();
    for (int r = 0; r < proxy->rowCount(); ++r) trials << proxy->index(r, 0).data(TrialsTableModel::TrialRole).toInt();
    std::sort(trials.begin(), trials.end());
    return trials;
}

QList<QPointF> points(const QXYSeries* series) { return series->points(); }

QList<int> sorted(QList<int> list) {
    std::sort(list.begin(), list.end());
    return list;
}

}  // namespace

class TestMooGui : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // A bound within one span of the values joins the axis range; a farther one does not.
    void boundsNearTheValuesWidenTheAxis() {
        const std::vector<double> values{2.0, 4.0, 3.0};  // span 2: marks in [0, 6] count
        QCOMPARE(with_nearby_marks(values, {5.5, 6.0, 0.0, -0.5, 100.0}), (std::vector<double>{2, 4, 3, 5.5, 6, 0}));
        QCOMPARE(with_nearby_marks({}, {1.0}), std::vector<double>{});
    }

    // The k control highlights that level's front (hand-computed above) and limits the table.
    void twoObjectiveViewFollowsTheLevel() {
        MainWindow w;
        w.setRememberRecentFiles(false);
        w.setPromptHandler(discard());
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.newExperiment(two_objectives()));
        CentralCharts* charts = w.centralCharts();
        QVERIFY(charts->showsScatter());
        QCOMPARE(charts->currentWidget(), static_cast<QWidget*>(charts->scatter()));
        ObjectiveScatterView* scatter = charts->scatter();
        QVERIFY(scatter->isShowingChart());
        // Two objectives: no axis choosers; the level starts at D = 4, the table unfiltered.
        QVERIFY(scatter->xBox()->isHidden());
        QCOMPARE(scatter->levelBox()->maximum(), 4);
        QCOMPARE(scatter->level(), 4);
        QCOMPARE(sorted(scatter->highlightedFront()), (QList<int>{3, 4, 5}));
        QCOMPARE(shown_trials(w).size(), 7);
        QVERIFY(!w.trialsProxy()->activeLimit());

        // Colour classes: one per count present (0..4), trial 5 alone in "4 changed".
        const auto& classes = scatter->activeClasses();
        QCOMPARE(classes[4].low, 4);
        QCOMPARE(points(classes[4].series), (QList<QPointF>{QPointF(6, 6)}));
        QCOMPARE(points(classes[1].series).size(), 3);  // trials 1, 2, 6
        QVERIFY(classes[0].series->color() != classes[4].series->color());
        // A step line per level whose front changes: k = 0, 1, 2, 3, 4.
        QCOMPARE(scatter->frontLineLevels(), (std::vector<int>{0, 1, 2, 3, 4}));

        // At most 1 changed: the front {1, 2}; its step line runs (3, 4) → (2, 4) → (2, 2).
        scatter->levelBox()->setValue(1);
        QCOMPARE(sorted(scatter->highlightedFront()), (QList<int>{1, 2}));
        QCOMPARE(points(scatter->highlightStep()), (QList<QPointF>{QPointF(3, 4), QPointF(2, 4), QPointF(2, 2)}));
        QCOMPARE(points(scatter->highlightSeries()).size(), 2);
        QCOMPARE(w.trialsProxy()->activeLimit(), std::optional<int>(1));
        QCOMPARE(shown_trials(w), (QList<int>{0, 1, 2, 6}));
        w.frontierOnlyBox()->setChecked(true);
        QCOMPARE(shown_trials(w), (QList<int>{1, 2}));

        // At most 2: trial 3 replaces trial 1.
        scatter->setLevel(2);
        QCOMPARE(sorted(scatter->highlightedFront()), (QList<int>{2, 3}));
        QCOMPARE(points(scatter->highlightStep()), (QList<QPointF>{QPointF(5, 3), QPointF(2, 3), QPointF(2, 2)}));
        QCOMPARE(shown_trials(w), (QList<int>{2, 3}));
        w.frontierOnlyBox()->setChecked(false);
        QCOMPARE(shown_trials(w), (QList<int>{0, 1, 2, 3, 6}));
        // None at all: only the status quo.
        scatter->setLevel(0);
        QCOMPARE(scatter->highlightedFront(), (QList<int>{0}));
        QCOMPARE(shown_trials(w), (QList<int>{0}));
        // Back to every level: no limit.
        scatter->setLevel(4);
        QVERIFY(!w.trialsProxy()->activeLimit());
        QCOMPARE(shown_trials(w).size(), 7);

        // Clicking a marker selects the trial everywhere.
        QApplication::processEvents();
        const std::optional<QPoint> at = scatter->trialPosition(4);
        QVERIFY(at.has_value());
        QCOMPARE(scatter->trialAt(*at), std::optional<int>(4));
        QTest::mouseClick(scatter->chartView()->viewport(), Qt::LeftButton, {}, *at);
        QCOMPARE(w.document()->selectedTrial(), 4);
        QCOMPARE(points(scatter->selectedSeries()), (QList<QPointF>{QPointF(4, 1)}));
        QVERIFY(scatter->tooltipFor(4).contains("latency: 1"));

        // The sparsity chart plots one objective at a time, with its own frontier.
        FrontierChartView* frontier = w.frontierChart();
        QVERIFY(!frontier->objectiveBox()->isHidden());
        QCOMPARE(frontier->objective(), 0);
        // Throughput against the count: best 1, 3, 5, 5, 6 at k = 0..4.
        QCOMPARE(points(frontier->frontierSeries()).size(), 4);  // trials 0, 1, 3, 5
        frontier->setObjective(1);
        // Latency (minimized): best 5, 2, 2, 1, 1 — trials 0, 2, 4.
        QCOMPARE(points(frontier->frontierSeries()).size(), 3);
        QVERIFY(frontier->axisY()->titleText().startsWith("latency"));

        // The table: the second objective has its column; no constraints, no Feasible column.
        TrialsTableModel* model = w.trialsModel();
        QCOMPARE(model->metricColumnCount(), 2);
        const int latency = model->column(TrialsTableModel::Value, 1);
        QCOMPARE(model->headerData(latency, Qt::Horizontal).toString(), QString("latency"));
        QCOMPARE(model->index(model->rowOfTrial(4), latency).data().toString(), QString("1"));
        QVERIFY(w.trialsView()->isColumnHidden(model->column(TrialsTableModel::Feasible)));
        // The window had no experiment before, whose hidden Feasible column sat where latency is now.
        QVERIFY(!w.trialsView()->isColumnHidden(latency));
    }

    // Infeasible trials are hollow and on no frontier; the bound on the plotted metric is a line.
    void constrainedExperimentShowsInfeasibleTrials() {
        MainWindow w;
        w.setRememberRecentFiles(false);
        w.setPromptHandler(discard());
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.newExperiment(constrained()));
        QVERIFY(!w.centralCharts()->showsScatter());
        FrontierChartView* chart = w.frontierChart();
        QVERIFY(chart->objectiveBox()->isHidden());
        QCOMPARE(chart->infeasibleSeries()->count(), 2);
        std::set<double> infeasible_values;
        for (const QPointF& p : points(chart->infeasibleSeries())) infeasible_values.insert(p.y());
        QCOMPARE(infeasible_values, (std::set<double>{4.0, 5.0}));
        // The frontier: trials 0, 2, 4 at their exact counts.
        QCOMPARE(points(chart->frontierSeries()),
                 (QList<QPointF>{QPointF(0, 1), QPointF(1, 3), QPointF(2, 3.5)}));
        // The staircase never reaches the infeasible 5 or 4.
        double highest = -1;
        for (const QPointF& p : points(chart->stepSeries())) highest = std::max(highest, p.y());
        QCOMPARE(highest, 3.5);
        QVERIFY(chart->tooltipFor(1).contains("Infeasible: cost &lt;= 1, yield &lt;= 4.5 does not hold"));
        QVERIFY(chart->tooltipFor(3).contains("Feasibility unknown: cost was not recorded"));
        // The bound on yield (the plotted metric) is a dashed line at 4.5 across the chart.
        QCOMPARE(chart->boundSeries().size(), std::size_t(1));
        const QList<QPointF> bound = points(chart->boundSeries()[0]);
        QCOMPARE(bound.size(), 2);
        QCOMPARE(bound[0].y(), 4.5);
        QCOMPARE(bound[1].y(), 4.5);
        QCOMPARE(chart->boundSeries()[0]->pen().style(), Qt::DashLine);
        // The hollow marker: no fill.
        QCOMPARE(chart->infeasibleSeries()->brush().style(), Qt::NoBrush);

        // The table: a cost column, and Feasible yes / no / unknown, sortable.
        TrialsTableModel* model = w.trialsModel();
        const int feasible = model->column(TrialsTableModel::Feasible);
        QVERIFY(!w.trialsView()->isColumnHidden(feasible));
        const int cost = model->valueColumn("cost");
        QCOMPARE(model->headerData(cost, Qt::Horizontal).toString(), QString("cost"));
        QCOMPARE(model->index(0, feasible).data().toString(), QString("yes"));
        QCOMPARE(model->index(1, feasible).data().toString(), QString("no"));
        QCOMPARE(model->index(3, feasible).data().toString(), QString("unknown"));
        QCOMPARE(model->index(3, cost).data().toString(), QString());
        QCOMPARE(model->index(1, cost).data().toString(), QString("2"));
        w.trialsView()->sortByColumn(feasible, Qt::AscendingOrder);
        const QAbstractItemModel* proxy = w.trialsView()->model();
        QCOMPARE(proxy->index(0, feasible).data().toString(), QString("no"));
        QCOMPARE(proxy->index(1, feasible).data().toString(), QString("unknown"));
        QCOMPARE(proxy->index(4, feasible).data().toString(), QString("yes"));
        // Only the feasible trials are on the frontier.
        w.frontierOnlyBox()->setChecked(true);
        QCOMPARE(shown_trials(w), (QList<int>{0, 2, 4}));
    }

    // A pending trial of a manual experiment takes a value per metric in the Configuration panel:
    // each objective's and each constrained metric's are needed.
    void resultOfEveryMetricByHand() {
        Outcomes outcomes;
        outcomes.metrics = {"throughput", "latency", "memory"};
        outcomes.objectives = {Objective{"throughput", false, std::nullopt}, Objective{"latency", true, std::nullopt}};
        outcomes.constraints = {OutcomeConstraint{"memory", ConstraintSense::AtMost, 100.0}};
        Experiment e = manual_experiment(outcomes);
        Trial pending;
        pending.index = 0;
        pending.parameters = with_active(1);
        pending.generator = "manual";
        e.trials.push_back(pending);
        MainWindow w;
        w.setRememberRecentFiles(false);
        w.setPromptHandler(discard());
        QVERIFY(w.newExperiment(e));
        w.document()->setSelectedTrial(0);
        ConfigurationInspector* inspector = w.inspector();
        QVERIFY(!inspector->resultBox()->isHidden());
        QVERIFY(inspector->metricEdit("throughput") == nullptr);  // the first objective's is resultEdit()
        QVERIFY(inspector->metricEdit("latency") && inspector->metricEdit("memory"));
        inspector->resultEdit()->setText("10");
        inspector->recordButton()->click();
        QVERIFY2(inspector->resultError().contains("latency (an objective)"), qPrintable(inspector->resultError()));
        inspector->metricEdit("latency")->setText("3");
        inspector->metricSemEdit("latency")->setText("0.5");
        inspector->recordButton()->click();
        QVERIFY2(inspector->resultError().contains("memory (it is constrained)"), qPrintable(inspector->resultError()));
        inspector->metricEdit("memory")->setText("lots");
        inspector->recordButton()->click();
        QVERIFY2(inspector->resultError().contains("memory: 'lots' is not a number"), qPrintable(inspector->resultError()));
        inspector->metricEdit("memory")->setText("150");
        inspector->recordButton()->click();
        const Trial& t = *w.document()->experiment().find_trial(0);
        QCOMPARE(t.status, TrialStatus::Completed);
        QCOMPARE(t.value("throughput"), std::optional<double>(10.0));
        QCOMPARE(t.measurement("latency")->sem, std::optional<double>(0.5));
        QCOMPARE(t.value("memory"), std::optional<double>(150.0));
        QCOMPARE(w.document()->experiment().feasibility(t), Feasibility::Infeasible);
        TrialsTableModel* model = w.trialsModel();
        QCOMPARE(model->index(0, model->column(TrialsTableModel::Feasible)).data().toString(), QString("no"));
        QVERIFY2(inspector->summaryText().contains("Infeasible: memory &lt;= 100 does not hold"),
                 qPrintable(inspector->summaryText()));
    }

    // Metrics, objectives, a threshold and a constraint for the user's own system, saved and loaded.
    void dialogCreatesTwoObjectivesAndAConstraint() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        NewExperimentDialog dialog;
        dialog.setSource(NewExperimentDialog::Source::OwnParameters);
        dialog.parameterEditor()->setParameters({});
        dialog.parameterEditor()->pasteText("threads\tinteger\t1\t64\t\t8\t\ncache_mb\tcontinuous\t16\t4096\t\t256\t\n");
        OutcomeTableEditor* editor = dialog.outcomesEditor();
        QCOMPARE(editor->rowCount(), 1);
        editor->table()->item(0, OutcomeTableEditor::Name)->setText("throughput");
        editor->addRow();
        editor->table()->item(1, OutcomeTableEditor::Name)->setText("p99_ms");
        editor->roleBox(1)->setCurrentIndex(editor->roleBox(1)->findText("minimize"));
        editor->table()->item(1, OutcomeTableEditor::Threshold)->setText("80");
        editor->appendRow({"cost", "tracked", "", "<= 100"});
        std::optional<Experiment> e = dialog.buildExperiment();
        QVERIFY2(e.has_value(), qPrintable(dialog.errorText()));
        const std::string path = dir.filePath("service.sebo.json").toStdString();
        save_experiment(*e, path);

        const Experiment loaded = load_experiment(path);
        const Outcomes& o = loaded.outcomes;
        QCOMPARE(o.metrics, (std::vector<std::string>{"throughput", "p99_ms", "cost"}));
        QCOMPARE(o.objectives.size(), std::size_t(2));
        QCOMPARE(o.objectives[0].metric, std::string("throughput"));
        QVERIFY(!o.objectives[0].minimize && !o.objectives[0].threshold);
        QCOMPARE(o.objectives[1].metric, std::string("p99_ms"));
        QVERIFY(o.objectives[1].minimize);
        QCOMPARE(o.objectives[1].threshold, std::optional<double>(80.0));
        QCOMPARE(o.constraints.size(), std::size_t(1));
        QCOMPARE(o.constraints[0].text(), std::string("cost <= 100"));
        QCOMPARE(loaded.space.dimension(), 2);

        // Opened in the window, it shows the objectives scatter.
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(QString::fromStdString(path)));
        QVERIFY(w.centralCharts()->showsScatter());
        QCOMPARE(w.trialsModel()->metricColumnCount(), 3);
    }

    // Bad input is refused with a message naming the row, the metric and the column.
    void dialogRefusesBadOutcomes() {
        NewExperimentDialog dialog;
        dialog.setSource(NewExperimentDialog::Source::OwnParameters);
        OutcomeTableEditor* editor = dialog.outcomesEditor();
        editor->setOutcomes(Outcomes::single("throughput", false));
        editor->appendRow({"p99_ms", "minimize", "", "< 50"});
        QVERIFY(!dialog.buildExperiment());
        QVERIFY2(dialog.errorText().contains("Metric 2 (p99_ms), constraint: '< 50' is not \"<= number\""),
                 qPrintable(dialog.errorText()));
        editor->table()->item(1, OutcomeTableEditor::Constraint)->setText("<= fifty");
        QVERIFY(editor->errorText().contains("'<= fifty'"));  // checked as typed
        editor->table()->item(1, OutcomeTableEditor::Constraint)->setText("<= 50");
        QVERIFY(editor->errorText().isEmpty());
        editor->table()->item(1, OutcomeTableEditor::Threshold)->setText("fast");
        QVERIFY(!dialog.buildExperiment());
        QVERIFY2(dialog.errorText().contains("Metric 2 (p99_ms), threshold: 'fast' is not a number"),
                 qPrintable(dialog.errorText()));
        editor->table()->item(1, OutcomeTableEditor::Threshold)->setText("");
        editor->table()->item(1, OutcomeTableEditor::Name)->setText("throughput");
        QVERIFY(!dialog.buildExperiment());
        QVERIFY2(dialog.errorText().contains("Metric 2 (throughput), name: another metric is called 'throughput'"),
                 qPrintable(dialog.errorText()));
        editor->table()->item(1, OutcomeTableEditor::Name)->setText("p99_ms");
        editor->appendRow({"cost", "tracked", "100", ""});
        QVERIFY(!dialog.buildExperiment());
        QVERIFY2(dialog.errorText().contains("Metric 3 (cost), threshold: only an objective has a threshold"),
                 qPrintable(dialog.errorText()));
        editor->table()->item(2, OutcomeTableEditor::Threshold)->setText("");
        for (int r = 0; r < 2; ++r) editor->roleBox(r)->setCurrentIndex(editor->roleBox(r)->findText("tracked"));
        QVERIFY(!dialog.buildExperiment());
        QVERIFY2(dialog.errorText().contains("make at least one metric an objective"), qPrintable(dialog.errorText()));
        for (const char* name : {"a", "b", "c"}) editor->appendRow({name, "maximize", "", ""});
        editor->roleBox(0)->setCurrentIndex(0);
        editor->roleBox(1)->setCurrentIndex(0);
        QVERIFY(!dialog.buildExperiment());
        QVERIFY2(dialog.errorText().contains("at most 4 metrics can be objectives; 5 are"), qPrintable(dialog.errorText()));
        editor->roleBox(5)->setCurrentIndex(editor->roleBox(5)->findText("tracked"));
        std::optional<Experiment> e = dialog.buildExperiment();
        QVERIFY2(e.has_value(), qPrintable(dialog.errorText()));
        QCOMPARE(e->outcomes.objectives.size(), std::size_t(4));
        QCOMPARE(e->outcomes.constraints[0].text(), std::string("p99_ms <= 50"));
    }

    // A built-in problem fills in its own metrics; its objectives and constraints may change.
    void builtInProblemFillsTheMetrics() {
        NewExperimentDialog dialog;
        const int at = dialog.problemBox()->findData("sparse-quadratic");
        QVERIFY(at >= 0);
        dialog.problemBox()->setCurrentIndex(at);
        OutcomeTableEditor* editor = dialog.problemOutcomesEditor();
        QVERIFY(editor->fixedMetrics());
        QCOMPARE(editor->rowCount(), 1);
        QCOMPARE(editor->table()->item(0, OutcomeTableEditor::Name)->text(), QString("quadratic"));
        QVERIFY(!(editor->table()->item(0, OutcomeTableEditor::Name)->flags() & Qt::ItemIsEditable));
        QCOMPARE(editor->roleBox(0)->currentText(), QString("maximize"));
        QCOMPARE(editor->table()->item(0, OutcomeTableEditor::Threshold)->text(), QString("0"));
        dialog.dimensionBox()->setValue(6);
        std::optional<Experiment> e = dialog.buildExperiment();
        QVERIFY2(e.has_value(), qPrintable(dialog.errorText()));
        QCOMPARE(e->outcomes.summary(), make_problem_experiment(e->evaluator.problem, e->method, 0).outcomes.summary());
        // A constraint of the user's own on the problem's metric.
        editor->table()->item(0, OutcomeTableEditor::Constraint)->setText(">= -2");
        e = dialog.buildExperiment();
        QVERIFY2(e.has_value(), qPrintable(dialog.errorText()));
        QCOMPARE(e->outcomes.constraints.size(), std::size_t(1));
        QCOMPARE(e->outcomes.constraints[0].text(), std::string("quadratic >= -2"));
    }
};

SEBO_TEST_MAIN(TestMooGui)
}  // namespace test_moo_gui
#include "test_moo_gui.moc"
