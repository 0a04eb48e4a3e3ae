// Compare candidates and the change request (issue 32 item 3), with a real window offscreen: trials
// selected in the trials table with the mouse (a click, then Ctrl+click), Trial › Compare…, the
// table's cells, Copy as text and Copy as CSV through the clipboard, Trial › Export change request…
// to a real file. The values are worked out by hand from the measurements below.

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabBar>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>

#include "chart_source.h"
#include "comparison_view.h"
#include "configuration_inspector.h"
#include "core/format.h"
#include "experiment_document.h"
#include "main_window.h"
#include "parameter_builders.h"
#include "prompt_test_support.h"
#include "service_test_support.h"
#include "test_main.h"
#include "test_support.h"
#include "trials_table_model.h"
#include "ui_test_support.h"

namespace test_comparison_view {

using namespace sebo;
using namespace sebo::ui;

using sebo::test::discard;

namespace {

// The web service (service_test_support.h). The status quo (cache_mb 256, threads 4) measured
// twice: throughput 1000 and 1020 (mean 1010).
Experiment service() {
    Experiment e = test::web_service_experiment();
    const auto add = [&](std::vector<double> p, double throughput, double p99, double memory) {
        e.trials.push_back(test::measured_service_trial(e.next_trial_index(), std::move(p), throughput, p99, memory));
    };
    add({256, 4}, 1000, 50, 80);   // 0: the status quo
    add({811, 4}, 1150, 45, 90);   // 1
    add({811, 8}, 900, 60, 120);   // 2: breaks memory <= 100
    add({256, 4}, 1020, 52, 80);   // 3: the status quo again
    add({300, 6}, 1080, 49, 85);   // 4
    add({400, 2}, 990, 51, 70);    // 5
    add({500, 16}, 1200, 47, 99);  // 6
    add({600, 12}, 1010, 44, 95);  // 7
    e.chosen = {ChosenConfiguration{1, "cheap to roll out"}};
    return e;
}

// The trials panel in front (clicking its tab when it shares a tab group), laid out.
void show_trials(MainWindow& w) {
    QDockWidget* dock = w.docks().trials;
    dock->raise();
    for (QTabBar* bar : w.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->isVisible() && bar->tabText(i) == dock->windowTitle()) bar->setCurrentIndex(i);
    QApplication::processEvents();
    QVERIFY(w.trialsView()->isVisible());
}

QRect row_rect(MainWindow& w, int trial) {
    QTableView* view = w.trialsView();
    for (int row = 0; row < view->model()->rowCount(); ++row) {
        const QModelIndex index = view->model()->index(row, 0);
        if (index.data(TrialsTableModel::TrialRole).toInt() == trial) {
            view->scrollTo(index);
            return view->visualRect(index);
        }
    }
    return {};
}

void click_row(MainWindow& w, int trial, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    const QRect rect = row_rect(w, trial);
    QVERIFY2(rect.isValid(), qPrintable(QString("no row for trial %1").arg(trial)));
    QTest::mouseClick(w.trialsView()->viewport(), Qt::LeftButton, modifiers, rect.center());
}

QString cell(const ComparisonDialog& d, int row, int column) { return d.table()->item(row, column)->text(); }

}  // namespace

class TestComparisonView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void compareTrialsSelectedInTheTable() {
        MainWindow w;
        w.setPromptHandler(discard());
        w.resize(1366, 768);
        QVERIFY(w.newExperiment(service()));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        show_trials(w);
        // The model's estimates first, so that the comparison has them.
        w.chartSource()->setDelay(0);
        QTRY_VERIFY_WITH_TIMEOUT(w.chartSource()->estimates() != nullptr, test::kHangGuardMs);
        const auto report = w.chartSource()->estimates();
        // The inspector lists the estimates in the experiment's order of metrics, not alphabetically.
        w.document()->setSelectedTrial(1);
        const QString summary = w.inspector()->summaryText();
        const auto estimates_at = summary.indexOf("Model's estimate</b>: throughput ");
        QVERIFY2(estimates_at >= 0, qPrintable(summary));
        QVERIFY2(summary.indexOf("p99 ", estimates_at) < summary.indexOf("memory ", estimates_at), qPrintable(summary));

        click_row(w, 1);
        click_row(w, 2, Qt::ControlModifier);
        QAction* compare = w.comparisonActions()->compareAction();
        QVERIFY2(compare->isEnabled(), qPrintable(compare->toolTip()));
        compare->trigger();
        ComparisonDialog* d = w.comparisonActions()->dialog();
        QVERIFY(d);
        QVERIFY(QTest::qWaitForWindowExposed(d));
        QCOMPARE(d->columnTrials(), (std::vector<int>{0, 1, 2}));
        QCOMPARE(d->table()->horizontalHeaderItem(0)->text(), QString("Status quo\n(trials 0, 3)"));
        QCOMPARE(d->table()->horizontalHeaderItem(1)->text(), QString("Trial 1"));
        QCOMPARE(d->table()->verticalHeaderItem(1)->text(), QString("throughput (maximized)"));
        QCOMPARE(d->table()->verticalHeaderItem(3)->text(), QString("memory (memory <= 100)"));
        QCOMPARE(cell(*d, 0, 0), QString("no change"));
        QCOMPARE(cell(*d, 0, 1), QString("1 change:\ncache_mb 256 \u2192 811"));
        QCOMPARE(cell(*d, 0, 2), QString("2 changes:\ncache_mb 256 \u2192 811\nthreads 4 \u2192 8"));
        // The status quo: the mean of 1000 and 1020, the sample sd (14.142…) / √2 = 10.
        QVERIFY2(cell(*d, 1, 0).startsWith("1010 \u00b1 10 (mean of 2)"), qPrintable(cell(*d, 1, 0)));
        // +140 = 1150 − 1010, 13.86 % of 1010; p99 −6 = 45 − 51, −11.76 %.
        const QStringList throughput = cell(*d, 1, 1).split('\n');
        QCOMPARE(throughput.at(0), QString("1150 (+140, +13.9 %)"));
        const MetricEstimate& estimate = report->find(1)->estimates.at("throughput");
        QVERIFY2(throughput.at(1).startsWith(QString("model %1 (95 %: %2 \u2013 %3), P(better than the status quo) ")
                                                 .arg(QString::fromStdString(format_short(estimate.mean)),
                                                      QString::fromStdString(format_short(estimate.lower, 4)),
                                                      QString::fromStdString(format_short(estimate.upper, 4)))),
                 qPrintable(throughput.at(1)));
        QVERIFY(cell(*d, 2, 1).startsWith("45 (-6, -11.8 %)"));
        // memory is constrained, so modelled: it has an estimate too.
        QVERIFY2(cell(*d, 3, 2).startsWith("120 (+40, +50.0 %)\nmodel "), qPrintable(cell(*d, 3, 2)));
        QCOMPARE(cell(*d, 4, 1), QString("met"));
        QCOMPARE(cell(*d, 4, 2), QString("not met"));
        QCOMPARE(d->table()->item(1, 2)->toolTip(), QString("Worse than the status quo"));

        // Copy as text, Copy as CSV: what the buttons put on the clipboard.
        QApplication::clipboard()->clear();
        QTest::mouseClick(d->copyTextButton(), Qt::LeftButton);
        const QString text = QApplication::clipboard()->text();
        QVERIFY2(text.startsWith("Compared with the status quo (trials 0, 3): throughput 1010 \u00b1 10 (mean of 2), "),
                 qPrintable(text));
        QVERIFY2(text.contains("\nTrial 2: 2 changes: cache_mb 256 \u2192 811, threads 4 \u2192 8\n"
                               "  throughput (maximized): 900 (-110, -10.9 %); model "),
                 qPrintable(text));
        QVERIFY(text.contains("  memory (memory <= 100): 120 (+40, +50.0 %); model "));
        QVERIFY(text.endsWith("  constraints: not met\n"));
        QTest::mouseClick(d->copyCsvButton(), Qt::LeftButton);
        const QStringList csv = QApplication::clipboard()->text().split('\n');
        QCOMPARE(csv.at(0), QString("trial,status_quo,changes,active,metric,role,value,sem,count,difference,"
                                    "difference_percent,model_mean,model_lower,model_upper,p_better_than_status_quo"));
        QCOMPARE(csv.size(), 1 + 3 * 3 + 1);  // header, 3 configurations × 3 metrics, the last newline
        QVERIFY2(csv.at(9).startsWith(QString("2,false,cache_mb 256 \u2192 811; threads 4 \u2192 8,2,memory,constraint,120,,1,40,50,%1,")
                                          .arg(QString::fromStdString(format_number(report->find(2)->estimates.at("memory").mean)))),
                 qPrintable(csv.at(9)));

        // More than six: not comparable.
        click_row(w, 0);
        for (int t : {1, 2, 4, 5, 6, 7}) click_row(w, t, Qt::ControlModifier);
        QCOMPARE(w.trialsView()->selectionModel()->selectedRows().size(), 7);
        QVERIFY(!compare->isEnabled());
        click_row(w, 7, Qt::ControlModifier);  // six again
        QVERIFY(compare->isEnabled());
    }

    void exportChangeRequest() {
        QTemporaryDir dir;
        MainWindow w;
        w.setPromptHandler(discard());
        // Without the model's estimates (none are computed yet): the measurements.
        w.chartSource()->setDelay(1000000);
        QVERIFY(w.newExperiment(service()));
        w.document()->setSelectedTrial(1);
        const QString path = dir.filePath("change-request.txt");
        QString asked;
        w.comparisonActions()->setSavePathAsker([&](const QString& title, const QString&, const QString& suggested) {
            asked = title + " | " + suggested;
            return path;
        });
        QAction* action = w.comparisonActions()->changeRequestAction();
        QVERIFY(action->isEnabled());
        action->trigger();
        QCOMPARE(asked, QString("Export change request of trial 1 | change-request-trial-1.txt"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()),
                 QString("Change request: the configuration of trial 1 of the experiment \"web service\"\n"
                         "\n"
                         "Change 1 parameter (every other one stays as it is):\n"
                         "  cache_mb 256 \u2192 811\n"
                         "\n"
                         "Expected effect, as measured:\n"
                         "  throughput (maximized): 1150 (+140, +13.9 %)\n"
                         "  p99 (minimized): 45 (-6, -11.8 %)\n"
                         "  memory (memory <= 100): 90 (+10, +12.5 %)\n"
                         "  constraints: met\n"
                         "\n"
                         "Compared with the status quo (trials 0, 3): throughput 1010 \u00b1 10 (mean of 2), "
                         "p99 51 \u00b1 1 (mean of 2), memory 80 \u00b1 0 (mean of 2)\n"
                         "\n"
                         "Note: cheap to roll out\n"));
        // A pending trial has nothing to request.
        Trial pending;
        pending.index = 8;
        pending.parameters = {1000, 4};
        QVERIFY(!w.document()->appendTrials({pending}));
        w.document()->setSelectedTrial(8);
        QVERIFY(!action->isEnabled());
    }
};

SEBO_TEST_MAIN(TestComparisonView)
}  // namespace test_comparison_view
#include "test_comparison_view.moc"
