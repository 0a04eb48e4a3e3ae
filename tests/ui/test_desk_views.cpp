// Issue 32 ("The decision desk"): every view speaks every objective and metric, and says it
// readably — the hypervolume's reference point, the method panel, the parallel coordinates (an
// axis per metric, objectives first), the trials table (a value and SEM column per metric, the
// changed parameters), "Explain with the model" naming its objective, axis titles and ticks that
// fit; keyboard focus that shows and panels raised from the keyboard; messages that go when they
// no longer hold; the Objectives tab's filter scoped to that tab.

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QValueAxis>

#include "central_charts.h"
#include "chart_source.h"
#include "configuration_inspector.h"
#include "desk_test_support.h"
#include "experiment_document.h"
#include "focus_indicator.h"
#include "frontier_chart_view.h"
#include "hypervolume_chart_view.h"
#include "io/experiment_file.h"
#include "io/file_lock.h"
#include "io/shared_experiment_file.h"
#include "main_window.h"
#include "message_bar.h"
#include "method_panel.h"
#include "objective_scatter_view.h"
#include "parallel_coordinates_view.h"
#include "read_only_banner.h"
#include "prompt_test_support.h"
#include "test_main.h"
#include "test_support.h"
#include "tick_labels.h"
#include "trials_table_model.h"
#include "ui_test_support.h"

namespace test_desk_views {

using namespace sebo;
using namespace sebo::ui;

using sebo::test::discard;

namespace {

// The yield/cost experiment with a tracked metric "memory" (recorded on every other trial) and
// standard errors of cost.
Experiment three_metric_experiment() {
    Experiment e = test::yield_and_cost_experiment();
    e.outcomes.metrics.push_back("memory");
    for (Trial& t : e.trials) {
        if (t.index % 2 == 0) t.values["memory"] = Measurement{100.0 + 10.0 * t.index, std::nullopt};
        t.values["cost"].sem = 0.01 * (t.index + 1);
    }
    return e;
}

}  // namespace

class TestDeskViews : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        make_settings()->clear();
        QVERIFY(dir_.isValid());
    }

    // Every objective and metric: hypervolume reference, method panel, parallel coordinates, the
    // table's value and SEM columns, the axis titles.
    void everyViewSpeaksEveryObjective() {
        const Experiment e = three_metric_experiment();
        QVERIFY2(!e.validate(), e.validate().value_or("").c_str());
        MainWindow w;
        w.setPromptHandler(discard());
        QVERIFY(w.newExperiment(e));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const FrontierReport report = analyze_frontier(e);

        // The hypervolume's reference point names both objectives, and its axis has a title and
        // plain-number ticks.
        const QString reference = w.hypervolumeChart()->referenceText();
        QVERIFY2(reference.contains("yield = " + display_number(report.reference_utilities[0], 4)) &&
                     reference.contains("cost = " + display_number(-report.reference_utilities[1], 4)) &&
                     reference.contains(QString("%1 active").arg(report.reference_sparsity)),
                 qPrintable(reference));
        QCOMPARE(w.hypervolumeChart()->axisY()->titleText(), QString("Hypervolume"));
        // In a narrow panel the line stays one line, cut with "…", and its tooltip holds it whole:
        // wrapped, it took the height the vertical title needs (Qt Charts cut it to "Hypervolu...").
        {
            HypervolumeChartView narrow;
            narrow.setSnapshot(w.chartSource()->chartSnapshot());
            narrow.resize(260, 220);
            narrow.show();
            QVERIFY(QTest::qWaitForWindowExposed(&narrow));
            QLabel* line = nullptr;
            for (QLabel* label : narrow.findChildren<QLabel*>())
                if (label->isVisible() && label->text().startsWith("Reference")) line = label;
            QVERIFY(line);
            QCOMPARE(narrow.referenceText(), reference);
            QVERIFY2(line->text().endsWith(QChar(0x2026)) && line->text().size() < reference.size(), qPrintable(line->text()));
            QVERIFY2(line->height() < 2 * line->fontMetrics().lineSpacing(), qPrintable(QString::number(line->height())));
            QVERIFY(line->toolTip().startsWith(reference));
        }
        // (The labels' rule is ChartPanel::labelTicks's, tested in test_axis_labels.)
        QCOMPARE(tick_labels(0.0, 40000.0, 10000.0).format, std::string("%.0f"));
        QCOMPARE(tick_labels(0.0, 0.8, 0.2).format, std::string("%.1f"));
        QCOMPARE(tick_labels(0.0, 0.05, 0.01).format, std::string("%.2f"));
        QCOMPARE(tick_labels(0.0, 3e7, 1e7).format, std::string("%.0f"));

        // The method panel: both objectives, the constraint, the tracked metric.
        const QString problem = w.methodPanel()->problemText();
        QVERIFY2(problem.contains("Objectives: yield (maximize), cost (minimize)") &&
                     problem.contains("Constraint: cost &lt;= 1.5") && problem.contains("Tracked: memory"),
                 qPrintable(problem));

        // The frontier's objective axis: a short title with the direction.
        QCOMPARE(w.frontierChart()->axisY()->titleText(), QString("yield \u2191"));

        // Parallel coordinates: Active, yield, cost, memory, then parameters; a trial without a
        // memory value has none there (and no brush on memory keeps it).
        ParallelCoordinatesView* pc = w.parallelCoordinates();
        const auto& axes = pc->axes();
        QVERIFY(axes.size() >= 4);
        QCOMPARE(axes[0].kind, ParallelCoordinatesView::Axis::Kind::Active);
        QStringList metrics;
        for (std::size_t a = 1; a < 4; ++a) {
            QCOMPARE(axes[a].kind, ParallelCoordinatesView::Axis::Kind::Metric);
            metrics << axes[a].metric;
        }
        QCOMPARE(metrics, (QStringList{"yield", "cost", "memory"}));
        QCOMPARE(axes[1].name, QString("yield \u2191"));
        QCOMPARE(axes[2].name, QString("cost \u2193"));
        for (std::size_t a = 4; a < axes.size(); ++a) QCOMPARE(axes[a].kind, ParallelCoordinatesView::Axis::Kind::Parameter);
        for (std::size_t i = 0; i < pc->trials().size(); ++i) {
            const Trial& t = *e.find_trial(pc->trials()[i]);
            QCOMPARE(pc->value(static_cast<int>(i), 2), *t.value("cost"));
            if (t.index % 2 == 0) QCOMPARE(pc->value(static_cast<int>(i), 3), *t.value("memory"));
            else QVERIFY(std::isnan(pc->value(static_cast<int>(i), 3)));
        }
        pc->setBrush(3, ParallelCoordinatesView::Brush{0.0, 1e9});
        for (int trial : pc->matchingTrials()) QCOMPARE(trial % 2, 0);
        pc->clearBrushes();
        // Names and end values fit: the spacing holds the widest end value.
        const QFontMetrics fm = pc->canvas()->fontMetrics();
        for (std::size_t a = 0; a < axes.size(); ++a)
            for (const auto& tick : pc->tickLabels(a)) QVERIFY(fm.horizontalAdvance(tick.text) + 6 <= pc->axisSpacing());

        // The table: a value and a SEM column per metric, objectives first; SEM shown where one
        // was recorded.
        TrialsTableModel* model = w.trialsModel();
        QCOMPARE(model->metricColumnCount(), 3);
        QCOMPARE(model->headerData(model->column(TrialsTableModel::Value, 0), Qt::Horizontal).toString(), QString("yield"));
        QCOMPARE(model->headerData(model->column(TrialsTableModel::Value, 1), Qt::Horizontal).toString(), QString("cost"));
        QCOMPARE(model->headerData(model->column(TrialsTableModel::Sem, 1), Qt::Horizontal).toString(), QString("cost SEM"));
        QCOMPARE(model->headerData(model->column(TrialsTableModel::Value, 2), Qt::Horizontal).toString(), QString("memory"));
        const int cost_sem = model->semColumn("cost");
        QCOMPARE(model->index(model->rowOfTrial(3), cost_sem).data().toString(), display_number(0.04, 3));
        QVERIFY(!w.trialsView()->isColumnHidden(cost_sem));
        QVERIFY(w.trialsView()->isColumnHidden(model->semColumn("yield")));
        QVERIFY(w.trialsView()->isColumnHidden(model->semColumn("memory")));
        QVERIFY(!w.trialsView()->isColumnHidden(model->column(TrialsTableModel::Feasible)));
    }

    // The Changed parameters column: "name old → new" from the status quo, sorted by how many,
    // filtered by the words typed.
    void changedParametersColumn() {
        Experiment e = test::yield_and_cost_experiment(4);
        e.trials[1].parameters = {0.25, 0.0, 0.0};
        e.trials[2].parameters = {0.0, 0.5, 0.75};
        e.trials[3].parameters = {0.0, 0.0, 0.0};
        MainWindow w;
        w.setPromptHandler(discard());
        QVERIFY(w.newExperiment(e));
        TrialsTableModel* model = w.trialsModel();
        const int changed = model->column(TrialsTableModel::Changed);
        QCOMPARE(model->headerData(changed, Qt::Horizontal).toString(), QString("Changed parameters"));
        QCOMPARE(model->index(1, changed).data().toString(), QString("x0 0 \u2192 0.25"));
        QCOMPARE(model->index(2, changed).data().toString(), QString("x1 0 \u2192 0.5, x2 0 \u2192 0.75"));
        QCOMPARE(model->index(3, changed).data().toString(), QString("no change"));
        w.trialsView()->sortByColumn(changed, Qt::AscendingOrder);
        QList<int> order;
        for (int r = 0; r < w.trialsProxy()->rowCount(); ++r)
            order << w.trialsProxy()->index(r, 0).data(TrialsTableModel::TrialRole).toInt();
        QCOMPARE(order.mid(0, 3), (QList<int>{3, 1, 2}));
        w.changedFilterEdit()->setText("x2");
        QCOMPARE(w.trialsProxy()->rowCount(), 1 + (e.space.active_mask(e.trials[0].parameters)[2] ? 1 : 0));
        w.changedFilterEdit()->setText("X1 x2");  // every word, letter case ignored
        QVERIFY(w.trialsProxy()->rowCount() >= 1);
        for (int r = 0; r < w.trialsProxy()->rowCount(); ++r) {
            const QString text = w.trialsProxy()->index(r, changed).data().toString();
            QVERIFY(text.contains("x1") && text.contains("x2"));
        }
        w.changedFilterEdit()->clear();
        QCOMPARE(w.trialsProxy()->rowCount(), 4);
    }

    // "Until you save it…" goes once the experiment is in a file; a file run by `sebo run` opens
    // read-only and becomes writable by itself once that run is done.
    void staleMessagesGo() {
        MainWindow w;
        w.setRememberRecentFiles(false);
        w.setPromptHandler(discard());
        QVERIFY(w.newExperiment(test::small_problem_experiment()));
        QVERIFY(w.messageBar()->text().contains("Until you save it"));
        const QString path = dir_.filePath("saved.sebo.json");
        QVERIFY(w.saveFileAs(path));
        QVERIFY2(w.messageBar()->isHidden() || !w.messageBar()->text().contains("Until you save it"),
                 qPrintable(w.messageBar()->text()));

        const QString held_path = dir_.filePath("held.sebo.json");
        save_experiment(test::small_problem_experiment(), held_path.toStdString());
        FileLockOptions options;
        options.program = "sebo run";
        options.activity = "being run by";
        FileLock held = acquire_run_lock(held_path.toStdString(), options);
        QVERIFY(w.openFile(held_path));
        QVERIFY(w.document()->isReadOnly());
        QVERIFY(w.readOnlyBanner()->text().contains("being run by `sebo run`"));
        held.release();
        QTRY_VERIFY_WITH_TIMEOUT(!w.document()->isReadOnly(), test::kHangGuardMs);
        QVERIFY(w.readOnlyBanner()->isHidden());
        QVERIFY(w.stepAction()->isEnabled());
    }

    // The Objectives tab's "at most k changed" filters the table only while that tab is shown.
    void objectivesFilterStaysOnItsTab() {
        MainWindow w;
        w.setPromptHandler(discard());
        QVERIFY(w.newExperiment(test::yield_and_cost_experiment()));
        CentralCharts* charts = w.centralCharts();
        QVERIFY(charts->showsScatter());
        charts->setCurrentWidget(charts->scatter());
        charts->scatter()->setLevel(1);
        QCOMPARE(w.trialsProxy()->activeLimit(), std::optional<int>(1));
        const int limited = w.trialsProxy()->rowCount();
        QVERIFY(limited < 12);
        charts->setCurrentWidget(charts->frontier());
        QCOMPARE(w.trialsProxy()->activeLimit(), std::nullopt);
        QCOMPARE(w.trialsProxy()->rowCount(), 12);
        charts->setCurrentWidget(charts->scatter());
        QCOMPARE(w.trialsProxy()->activeLimit(), std::optional<int>(1));
        QCOMPARE(w.trialsProxy()->rowCount(), limited);
    }

    // Every Tab press lands on a widget that is framed; Alt+n brings panel n in front of the
    // panels tabbed with it, with the focus in it.
    void keyboardFocusShowsAndPanelsComeForward() {
        MainWindow w;
        w.setPromptHandler(discard());
        QVERIFY(w.newExperiment(test::run_with_engine(test::small_problem_experiment(30), 8)));
        w.resize(1366, 768);
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.frontierChart()->setFocus(Qt::OtherFocusReason);
        int framed = 0;
        for (int i = 0; i < 16; ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QWidget* focus = QApplication::focusWidget();
            QVERIFY(focus);
            QWidget* frame = w.focusIndicator()->target();
            if (frame == focus) {
                ++framed;
                const QRect around = w.focusIndicator()->geometry();
                const QRect widget(focus->mapTo(&w, QPoint(0, 0)), focus->size());
                QVERIFY2(around.contains(widget.intersected(w.rect())),
                         qPrintable(QString("%1 (%2): frame %3,%4 %5x%6, widget %7,%8 %9x%10")
                                        .arg(focus->metaObject()->className(), focus->objectName())
                                        .arg(around.x()).arg(around.y()).arg(around.width()).arg(around.height())
                                        .arg(widget.x()).arg(widget.y()).arg(widget.width()).arg(widget.height())));
            } else {
                QFAIL(qPrintable(QString("Tab %1: %2 (%3) has the focus and is not framed")
                                     .arg(i + 1)
                                     .arg(focus->metaObject()->className(), focus->objectName())));
            }
        }
        QCOMPARE(framed, 16);

        // The compact arrangement tabs Parallel coordinates with the hypervolume: Alt+n raises either.
        const QList<QDockWidget*> docks = w.docks().all();
        const int parallel = static_cast<int>(docks.indexOf(w.docks().parallel));
        const int hypervolume = static_cast<int>(docks.indexOf(w.docks().hypervolume));
        QVERIFY(w.tabifiedDockWidgets(w.docks().parallel).contains(w.docks().hypervolume));
        for (int index : {parallel, hypervolume, parallel}) {
            QAction* go = w.panelActions()[index];
            QCOMPARE(go->shortcut(), QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_0 + index + 1)));
            QTest::keySequence(&w, go->shortcut());
            QDockWidget* dock = docks[index];
            QVERIFY(!dock->visibleRegion().isEmpty());
            QVERIFY2(dock->isAncestorOf(QApplication::focusWidget()), qPrintable(dock->windowTitle()));
            for (QDockWidget* other : w.tabifiedDockWidgets(dock)) QVERIFY(other->visibleRegion().isEmpty());
            QCOMPARE(w.focusIndicator()->target(), QApplication::focusWidget());
        }
    }
};

SEBO_TEST_MAIN(TestDeskViews)
}  // namespace test_desk_views
#include "test_desk_views.moc"
