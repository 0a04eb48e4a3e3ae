// Issue 16 in the window: Trial › Simplify… on a frontier trial opens a dialog that computes the
// model's path off the GUI thread, shows it as a chart and a table (one row per step, the
// changed count falling by one per row), and adds a selected step as a pending trial. The action
// is disabled, with a tooltip saying why, for a pending trial and when nothing is selected. Then
// "explain this trial" in the configuration inspector on the same trial.

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTableWidget>

#include "configuration_inspector.h"
#include "experiment_document.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "simplify_actions.h"
#include "simplify_dialog.h"
#include "test_main.h"
#include "test_support.h"
#include "trial_context_menu.h"
#include "trial_explanation_view.h"
#include "ui_test_support.h"

namespace test_simplify_ui {

using namespace sebo;
using namespace sebo::ui;

class TestSimplifyUi : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void simplifyAFrontierTrialAndAddAStep() {
        // 14 Sobol trials of the 10-D quadratic, then one pending trial; the model is the MAP GP
        // so that the fit takes a moment, not NUTS's seconds.
        Experiment e = test::run_with_engine(test::small_problem_experiment(/*budget=*/40), 14);
        e.method.model = ModelKind::Gp;
        const QString path = dir_.filePath("simplify.sebo.json");
        save_experiment(e, path.toStdString());
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(path));
        Trial pending;
        pending.index = e.next_trial_index();
        pending.parameters = e.space.target();
        pending.generator = "manual";
        QVERIFY(!w.document()->appendTrials({pending}));
        QAction* simplify = w.simplifyActions()->simplifyAction();
        bool in_menu = false;
        for (QAction* menu : w.menuBar()->actions())
            if (menu->menu() && menu->menu()->actions().contains(simplify)) in_menu = true;
        QVERIFY(in_menu);
        QVERIFY(!simplify->isEnabled());  // nothing selected
        QVERIFY2(simplify->toolTip().contains("select a completed trial"), qPrintable(simplify->toolTip()));
        w.document()->setSelectedTrial(pending.index);
        QVERIFY(!simplify->isEnabled());
        QVERIFY2(simplify->toolTip().contains(QString("trial %1 is pending").arg(pending.index)), qPrintable(simplify->toolTip()));

        // A frontier trial with more than two changed parameters (Sobol points change them all).
        const SnapshotPtr s = w.document()->snapshot();
        int frontier = -1;
        for (const Trial& t : s->experiment.trials)
            if (t.status == TrialStatus::Completed && s->isPareto(t.index) && s->sparsityOf(t.index) > 2) frontier = t.index;
        QVERIFY(frontier >= 0);
        QVERIFY(w.trialMenu()->prepare(frontier)->actions().contains(simplify));
        QCOMPARE(w.document()->selectedTrial(), frontier);
        QVERIFY(simplify->isEnabled());
        simplify->trigger();
        SimplifyDialog* dialog = w.simplifyActions()->dialog();
        QVERIFY(dialog);
        QCOMPARE(dialog->trial(), frontier);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isComputing(), test::kHangGuardMs);
        QVERIFY2(dialog->outcome().ok, qPrintable(dialog->outcome().message));

        // The path: one row per step, the changed count falling by one per row down to 0.
        const int changed = s->sparsityOf(frontier);
        QTableWidget* table = dialog->table();
        QCOMPARE(table->rowCount(), changed + 1);
        for (int r = 1; r < table->rowCount(); ++r) QCOMPARE(table->item(r, 0)->text(), QString::number(changed - r));
        QVERIFY(table->item(0, 0)->text().contains(QString("trial %1").arg(frontier)));
        QVERIFY(table->item(1, 1)->text().contains(" ± "));
        const QList<QAbstractSeries*> series = dialog->chartView()->chart()->series();
        QCOMPARE(series.size(), 3);
        QCOMPARE(static_cast<QLineSeries*>(series.back())->count(), changed + 1);

        // Widened, the columns share the width: no wide empty "Within tolerance" column, each at
        // least as wide as its contents; narrowed (to the dialog's minimum), they still cover the
        // table and keep their contents' widths.
        std::vector<int> content;
        for (int c = 0; c < table->columnCount(); ++c)
            content.push_back(static_cast<QAbstractItemView*>(table)->sizeHintForColumn(c));
        for (const int width : {1000, 300}) {
            dialog->resize(width, 700);
            QCoreApplication::processEvents();
            int total = 0;
            for (int c = 0; c < table->columnCount(); ++c) {
                QVERIFY2(table->columnWidth(c) >= content[static_cast<std::size_t>(c)],
                         qPrintable(QString("column %1: %2 < %3").arg(c).arg(table->columnWidth(c)).arg(content[static_cast<std::size_t>(c)])));
                total += table->columnWidth(c);
            }
            const int room = table->viewport()->width();
            if (width == 1000) {
                QVERIFY2(total == room, qPrintable(QString("%1 in %2, visible %3").arg(total).arg(room).arg(dialog->isVisible())));
                QVERIFY2(table->columnWidth(table->columnCount() - 1) < room * 2 / 5,
                         qPrintable(QString("last column %1 of %2").arg(table->columnWidth(table->columnCount() - 1)).arg(room)));
            } else {
                QVERIFY2(total >= room, qPrintable(QString("%1 in %2").arg(total).arg(room)));
            }
        }

        // Add the step with two parameters left as a pending trial.
        QVERIFY(!dialog->addButton()->isEnabled());
        const int row = changed - 2;
        table->selectRow(row);
        QVERIFY(dialog->addButton()->isEnabled());
        const int before = static_cast<int>(w.document()->experiment().trials.size());
        dialog->addButton()->click();
        const Experiment after = w.document()->experiment();
        QCOMPARE(static_cast<int>(after.trials.size()), before + 1);
        const Trial added = after.trials.back();
        QCOMPARE(added.status, TrialStatus::Pending);
        QCOMPARE(added.generator, std::string("simplify"));
        QCOMPARE(added.parameters, dialog->outcome().path.steps[static_cast<std::size_t>(row)].parameters);
        QCOMPARE(after.space.active_count(added.parameters), 2);
        dialog->close();

        // Explain this trial, in the configuration inspector: predicted ± sd next to the measured
        // value, and one bar per changed parameter, sorted from the most harmful reset.
        w.document()->setSelectedTrial(frontier);
        TrialExplanationView* explain = w.inspector()->explanationView();
        QVERIFY(explain->explainButton()->isEnabled());
        QTest::mouseClick(explain->explainButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!explain->isComputing() && explain->outcome().ok, test::kHangGuardMs);
        QVERIFY2(explain->predictionLabel()->text().startsWith(QString::fromStdString(after.primary_objective().metric) + ": predicted ") &&
                     explain->predictionLabel()->text().contains(" ± ") && explain->predictionLabel()->text().contains("measured"),
                 qPrintable(explain->predictionLabel()->text()));
        const QStringList bars = explain->barLabels();
        QCOMPARE(bars.size(), changed);
        const TrialExplanation& x = explain->outcome().explanation;
        for (int i = 0; i < bars.size(); ++i) {
            QVERIFY2(bars[i].startsWith("reset " + QString::fromStdString(after.space.parameter(x.resets[static_cast<std::size_t>(i)].parameter).name) + ":"),
                     qPrintable(bars[i]));
            if (i > 0)
                QVERIFY(after.to_utility(x.resets[static_cast<std::size_t>(i - 1)].effect) <=
                        after.to_utility(x.resets[static_cast<std::size_t>(i)].effect));
        }
        // Another trial clears it; a pending one cannot be explained.
        w.document()->setSelectedTrial(added.index);
        QVERIFY(explain->barLabels().isEmpty());
        QVERIFY(!explain->explainButton()->isEnabled());
        QVERIFY2(explain->explainButton()->toolTip().contains("is pending"), qPrintable(explain->explainButton()->toolTip()));
    }
};

SEBO_TEST_MAIN(TestSimplifyUi)
}  // namespace test_simplify_ui
#include "test_simplify_ui.moc"
