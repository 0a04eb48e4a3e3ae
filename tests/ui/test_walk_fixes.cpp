// Defects found in issue 32's walk-through under a virtual display (1024×700, 1366×768,
// 1920×1080, light and dark, 2×), each with real windows and real files (offscreen):
//  - a window as large as the screen put its status bar beyond the screen's edge (the window
//    manager adds the frame), hiding the save status, the progress and "Wrote the report";
//  - the comparison of candidates sized its rows before the dialog gave its columns their width:
//    rows two to three times too tall, the metrics below the fold;
//  - keyboard: Alt+T opened the Trial menu only while the Method panel was hidden ("BONSAI
//    &tolerance" took it), and menus gave one letter to two items (File: Open recent and Export
//    report; Trial: Mark as chosen and Confirm with more measurements, Export configuration and
//    Enter result), so the letter only cycled between them;
//  - after "Run selected steps" the Simplify dialog kept saying "Running 1 step(s)…";
//  - in the dark theme the Simplify dialog's charts stayed white (Qt Charts' light theme);
//  - whether the charts showed the model's estimates or the measurements was a barely different
//    grey of a toggle button, and the hypervolume panel's "now" (of the estimates) differed from
//    the status bar's (measured) without saying so;
//  - the parallel coordinates, under the configuration, showed a plot 25 to 50 px tall inside
//    scroll bars at every size;
//  - the sheet of every trial (File › Export › trials), filled in for the pending ones in a
//    spreadsheet and read back, was "13 of the rows … cannot be used": the measured trials' rows.

#include <QAbstractAxis>
#include <QAbstractButton>
#include <QAction>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QDockWidget>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScreen>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabBar>
#include <QTableWidget>
#include <QTemporaryDir>

#include "comparison_view.h"
#include "dark_palette.h"
#include "chart_source.h"
#include "dock_layout.h"
#include "frontier_chart_view.h"
#include "hypervolume_chart_view.h"
#include "experiment_document.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "message_bar.h"
#include "parallel_coordinates_view.h"
#include "resource_paths.h"
#include "run_controller.h"
#include "simplify_actions.h"
#include "simplify_dialog.h"
#include "test_main.h"
#include "test_support.h"
#include "ui_test_support.h"

namespace test_walk_fixes {

using namespace sebo;
using namespace sebo::ui;

namespace {

// A bundled example by its file name.
QString bundled_example(const QString& name) { return QDir(examples_directory()).filePath(name); }

// The Alt+letter a text gives its widget or menu item ("Export re&port…" → Alt+P); empty without one.
QKeySequence mnemonic_of(const QString& text) { return QKeySequence::mnemonic(text); }

// Every menu under `menu` (itself included).
QList<QMenu*> menus_under(QMenu* menu) {
    QList<QMenu*> all{menu};
    for (QAction* a : menu->actions())
        if (a->menu()) all << menus_under(a->menu());
    return all;
}

// The Alt+letters that widgets inside the window's panels and central area answer to: buttons,
// check boxes, tabs, group boxes and labels with a buddy (each takes its letter while visible).
QStringList widget_mnemonics(QWidget* root, const QKeySequence& key) {
    QStringList found;
    const auto check = [&](const QString& text, const QWidget* w) {
        if (!text.isEmpty() && mnemonic_of(text) == key) found << QString("%1 '%2'").arg(w->metaObject()->className(), text);
    };
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (qobject_cast<QMenu*>(w) || qobject_cast<QMenuBar*>(w)) continue;
        if (auto* b = qobject_cast<QAbstractButton*>(w)) check(b->text(), w);
        else if (auto* l = qobject_cast<QLabel*>(w); l && l->buddy()) check(l->text(), w);
        else if (auto* g = qobject_cast<QGroupBox*>(w)) check(g->title(), w);
        else if (auto* t = qobject_cast<QTabBar*>(w))
            for (int i = 0; i < t->count(); ++i) check(t->tabText(i), w);
    }
    return found;
}

}  // namespace

class TestWalkFixes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString path(const QString& name) const { return QDir(dir_.path()).filePath(name); }

    // Opens ten Sobol trials of a six-parameter quadratic (a GP model, so that it is quick) in
    // `w` and the Simplify dialog of a trial that changes at least three parameters, computed.
    SimplifyDialog* simplify_in(MainWindow& w, const QString& name) {
        Experiment e = test::small_problem_experiment(30, 6, 5);
        e.method.model = ModelKind::Gp;
        e = test::run_with_engine(e, 10);
        const QString file = path(name);
        save_experiment(e, file.toStdString());
        w.setRememberRecentFiles(false);
        if (!w.openFile(file)) return nullptr;
        int trial = -1;
        for (const Trial& t : e.trials)
            if (t.status == TrialStatus::Completed && e.space.active_count(t.parameters) >= 3) trial = t.index;
        if (trial < 0) return nullptr;
        w.document()->setSelectedTrial(trial);
        if (!w.simplifyActions()->simplifyAction()->isEnabled()) return nullptr;
        w.simplifyActions()->simplifyAction()->trigger();
        SimplifyDialog* dialog = w.simplifyActions()->dialog();
        if (!dialog || !QTest::qWaitFor([dialog] { return !dialog->isComputing(); }, test::kHangGuardMs)) return nullptr;
        return dialog->outcome().ok ? dialog : nullptr;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        make_settings()->clear();
    }

    // Without a saved layout, on a screen too small for the wide arrangement, the window takes the
    // whole free area: maximized, so that the window manager fits its frame and the status bar
    // stays on the screen. On a large screen it keeps its share of it, unmaximized.
    void aWindowAsLargeAsTheScreenIsMaximized() {
        make_settings()->clear();
        {
            MainWindow w;
            const QSize available = w.screen()->availableGeometry().size();
            QCOMPARE(DockLayout::initialWindowSize(available), available);  // the offscreen screen is small
            w.restoreLayout(available);
            QVERIFY(w.windowState() & Qt::WindowMaximized);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY2(w.screen()->availableGeometry().contains(w.frameGeometry()),
                     qPrintable(QString("frame %1,%2 %3x%4").arg(w.frameGeometry().x()).arg(w.frameGeometry().y())
                                    .arg(w.frameGeometry().width()).arg(w.frameGeometry().height())));
        }
        {
            // A layout saved on a larger screen gives way to the default one for this screen: the same.
            MainWindow big;
            big.resize(1900, 1040);
            auto settings = make_settings();
            DockLayout::save(&big, big.docks(), *settings, QSize(1920, 1050));
            MainWindow small;
            small.restoreLayout(QSize(1024, 700));
            QVERIFY(small.windowState() & Qt::WindowMaximized);
        }
        make_settings()->clear();
        {
            MainWindow wide;
            wide.restoreLayout(QSize(1920, 1050));  // nothing saved: 92 % of a large screen
            QVERIFY(!(wide.windowState() & Qt::WindowMaximized));
        }
    }

    // Two candidates and the status quo of the bundled web-service example (two objectives, a
    // limit): once shown, every row is as tall as its wrapped text at the columns' widths, and the
    // whole comparison is in view at the dialog's first size.
    void comparisonRowsFitTheirText() {
        const Experiment e = load_experiment(bundled_example("web-service.sebo.json").toStdString());
        ComparisonDialog dialog(e, {5, 9}, nullptr, QString());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QApplication::processEvents();
        QTableWidget* table = dialog.table();
        QCOMPARE(table->rowCount(), 5);  // changed parameters, three metrics, constraints

        int total = 0;
        for (int r = 0; r < table->rowCount(); ++r) {
            // The tallest cell's text, wrapped at its column's width (less the cell's margins).
            int needed = 0;
            for (int c = 0; c < table->columnCount(); ++c) {
                const QRect box(0, 0, table->columnWidth(c) - 8, 100000);
                needed = std::max(needed, table->fontMetrics()
                                              .boundingRect(box, Qt::TextWordWrap, table->item(r, c)->text())
                                              .height());
            }
            QVERIFY2(table->rowHeight(r) <= needed + 12,
                     qPrintable(QString("row %1 ('%2') is %3 px tall, its text needs %4")
                                    .arg(r).arg(table->verticalHeaderItem(r)->text()).arg(table->rowHeight(r)).arg(needed)));
            total += table->rowHeight(r);
        }
        QVERIFY2(total <= table->viewport()->height(),
                 qPrintable(QString("rows %1 px in a %2 px view").arg(total).arg(table->viewport()->height())));
    }

    // Within each menu a letter names one item, and no control in the window's panels takes a
    // menu's Alt+letter away from the menu bar (a visible one wins, so the menu did not open).
    void everyMnemonicReachesOneThing() {
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(bundled_example("web-service.sebo.json")));
        w.resize(1920, 1050);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QStringList problems;
        for (QAction* top : w.menuBar()->actions()) {
            if (!top->menu()) continue;
            for (QMenu* menu : menus_under(top->menu())) {
                QMap<QKeySequence, QString> taken;
                for (QAction* a : menu->actions()) {
                    if (a->isSeparator() || !a->isVisible()) continue;
                    const QKeySequence key = mnemonic_of(a->text());
                    if (key.isEmpty()) continue;
                    if (taken.contains(key))
                        problems << QString("%1: '%2' and '%3' share %4")
                                        .arg(menu->title(), taken[key], a->text(), key.toString());
                    taken[key] = a->text();
                }
            }
            const QKeySequence key = mnemonic_of(top->text());
            QList<QWidget*> areas{w.centralWidget()};
            for (QDockWidget* d : w.docks().all()) areas << d;
            for (QWidget* area : areas)
                for (const QString& taker : widget_mnemonics(area, key))
                    problems << QString("%1 takes %2 from the %3 menu").arg(taker, key.toString(), top->text());
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
    }

    // "Run selected steps" of the Simplify dialog: once the run ends, the status line names the
    // trial it recorded (no more "Running…") and the steps can be run again.
    void simplifySaysWhenItsRunEnded() {
        MainWindow w;
        SimplifyDialog* dialog = simplify_in(w, "simplify.sebo.json");
        QVERIFY(dialog);
        dialog->table()->selectRow(1);
        QVERIFY2(dialog->runButton()->isEnabled(), qPrintable(dialog->runButton()->toolTip()));
        QSignalSpy finished(w.controller(), &RunController::runFinished);
        QVERIFY(dialog->runSelectedSteps());
        QVERIFY(dialog->statusLabel()->text().startsWith("Running"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Finished);
        const Trial& run = w.document()->experiment().trials.back();
        QCOMPARE(run.index, 10);
        QCOMPARE(run.generator, std::string("simplify"));
        QCOMPARE(run.status, TrialStatus::Completed);
        const QString status = dialog->statusLabel()->text();
        QVERIFY2(!status.contains("Running") && status.contains("trial 10 (completed)"), qPrintable(status));
        QVERIFY2(dialog->runButton()->isEnabled(), qPrintable(dialog->runButton()->toolTip()));
    }

    // An objective with standard errors: the charts show the model's estimates by default. Above
    // each chart that can show them a check box says so, in step with View › Model estimates both
    // ways, and the hypervolume's figure says whose it is.
    void modelEstimatesSayWhetherTheyAreShown() {
        Experiment e = test::small_problem_experiment(30, 3, 5);
        e.method.model = ModelKind::Gp;
        e = test::run_with_engine(e, 12);
        for (Trial& t : e.trials)
            for (auto& [metric, m] : t.values) m.sem = 0.05;
        MainWindow w;
        w.setPromptHandler([](const QString&, const QString&, QMessageBox::StandardButtons, QMessageBox::StandardButton) {
            return QMessageBox::Discard;
        });
        w.chartSource()->setDelay(0);
        QVERIFY(w.newExperiment(e));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction* toggle = w.chartSource()->toggleAction();
        QTRY_VERIFY_WITH_TIMEOUT(toggle->isEnabled() && toggle->isChecked(), test::kHangGuardMs);
        const auto box_in = [](QWidget* panel) -> QCheckBox* {
            for (QCheckBox* box : panel->findChildren<QCheckBox*>())
                if (box->text().startsWith("Model estimates")) return box;
            return nullptr;
        };
        // The whole line (a narrow panel shows it cut with "…", its tooltip whole).
        const auto hypervolume_text = [&w] { return w.hypervolumeChart()->referenceText(); };
        QCheckBox* on_hypervolume = box_in(w.hypervolumeChart());
        QCheckBox* on_frontier = box_in(w.frontierChart());
        QVERIFY(on_hypervolume && on_frontier);
        QVERIFY(on_hypervolume->isChecked() && on_frontier->isChecked());
        QVERIFY2(hypervolume_text().endsWith("(of the model's estimates)"), qPrintable(hypervolume_text()));

        on_hypervolume->click();  // back to the measurements, everywhere
        QVERIFY(!toggle->isChecked());
        QCOMPARE(w.chartSource()->chartSnapshot()->values, ValueView::Measured);
        QVERIFY(!on_hypervolume->isChecked() && !on_frontier->isChecked());
        QVERIFY2(!hypervolume_text().contains("estimates"), qPrintable(hypervolume_text()));

        toggle->trigger();  // from the View menu
        QVERIFY(on_hypervolume->isChecked() && on_frontier->isChecked());
        QCOMPARE(w.chartSource()->chartSnapshot()->values, ValueView::ModelEstimates);
    }

    // At the sizes of real desks, with the two-objective example (nine axes) and the panel
    // brought forward as Alt+n does, the parallel coordinates are drawn whole: no scrolling up and
    // down, and a plot taller than the canvas's least height.
    void parallelCoordinatesShowTheirWholePlot_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1024x700") << QSize(1024, 700);
        QTest::newRow("1366x768") << QSize(1366, 768);
        QTest::newRow("1920x1050") << QSize(1920, 1050);
    }
    void parallelCoordinatesShowTheirWholePlot() {
        QFETCH(QSize, size);
        make_settings()->clear();
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(bundled_example("web-service.sebo.json")));
        w.resize(size);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::processEvents();
        w.raisePanel(w.docks().parallel);
        for (int i = 0; i < 6; ++i) QApplication::processEvents();
        QWidget* canvas = w.parallelCoordinates()->canvas();
        auto* scroll = qobject_cast<QScrollArea*>(canvas->parentWidget()->parentWidget());
        QVERIFY(scroll);
        QVERIFY(canvas->isVisible());
        const int least = canvas->minimumSizeHint().height();
        QVERIFY2(scroll->viewport()->height() >= least,
                 qPrintable(QString("the canvas needs %1 px, its panel shows %2").arg(least).arg(scroll->viewport()->height())));
        QVERIFY(!scroll->verticalScrollBar()->isVisible());

        // Every axis's name whole ("com…ion" at the right edge before), inside the canvas, and
        // clear of the other names on its row.
        const ParallelCoordinatesView* pc = w.parallelCoordinates();
        QFont bold = canvas->font();
        bold.setBold(true);
        const QFontMetrics fm(bold);
        for (std::size_t a = 0; a < pc->axes().size(); ++a) {
            const QRectF box = pc->nameBox(a);
            const QString name = pc->axes()[a].name;
            QVERIFY2(box.width() >= fm.horizontalAdvance(name),
                     qPrintable(QString("'%1' needs %2 px, has %3").arg(name).arg(fm.horizontalAdvance(name)).arg(box.width())));
            QVERIFY2(box.left() >= 0.0 && box.right() <= canvas->width(), qPrintable(name));
            if (a >= 2) QVERIFY2(!box.intersects(pc->nameBox(a - 2)), qPrintable(name));
        }
    }

    // The manual lab's round trip: File › Export › trials as CSV, two pending trials filled in as
    // a spreadsheet does and saved as "CSV UTF-8" (a byte order mark, CRLF), Trial › Import
    // results: recorded without a question, the other trials' rows counted as already recorded.
    void anExportedSheetFilledInReadsBack() {
        const QString file = path("lab.sebo.json");
        QVERIFY(QFile::copy(bundled_example("service-tuning.sebo.json"), file));
        QFile::setPermissions(file, QFile::ReadOwner | QFile::WriteOwner);
        QStringList asked;
        MainWindow w;
        w.setRememberRecentFiles(false);
        w.setPromptHandler([&asked](const QString& title, const QString&, QMessageBox::StandardButtons, QMessageBox::StandardButton) {
            asked << title;
            return QMessageBox::No;
        });
        QVERIFY(w.openFile(file));
        const QString exported = path("trials.csv");
        QVERIFY(w.exportTrials(exported));
        QFile in(exported);
        QVERIFY(in.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromUtf8(in.readAll()).split('\n', Qt::SkipEmptyParts);
        const QStringList header = lines[0].split(',');
        const qsizetype trial_column = header.indexOf("trial"), value_column = header.indexOf("throughput");
        QVERIFY(trial_column >= 0 && value_column >= 0);
        for (QString& line : lines) {
            QStringList cells = line.split(',');
            QCOMPARE(cells.size(), header.size());
            if (cells[trial_column] == "13") cells[value_column] = "1402.5";
            if (cells[trial_column] == "14") cells[value_column] = "1288";
            line = cells.join(',');
        }
        const QString filled = path("filled.csv");
        QFile out(filled);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("\xEF\xBB\xBF" + lines.join("\r\n").toUtf8() + "\r\n");
        out.close();

        QVERIFY(w.importResults(filled));
        QVERIFY2(asked.isEmpty(), qPrintable(asked.join(", ")));
        const Experiment& e = w.document()->experiment();
        QCOMPARE(e.find_trial(13)->status, TrialStatus::Completed);
        QCOMPARE(*e.find_trial(13)->value("throughput"), 1402.5);
        QCOMPARE(*e.find_trial(14)->value("throughput"), 1288.0);
        QCOMPARE(e.find_trial(15)->status, TrialStatus::Pending);
        const QString message = w.messageBar()->text();
        QVERIFY2(message.startsWith("Imported 2 results from filled.csv.") && message.contains("13 rows are already recorded."),
                 qPrintable(message));
    }

    // With the dark palette (sebo-explorer --palette dark) the Simplify dialog's charts have the
    // dark background and light text of the main window's charts.
    void simplifyChartsFollowADarkPalette() {
        const QPalette before = QApplication::palette();
        QApplication::setPalette(dark_palette());
        {
            MainWindow w;
            SimplifyDialog* dialog = simplify_in(w, "dark.sebo.json");
            QVERIFY(dialog);
            const QPalette p = dialog->palette();
            QVERIFY(!dialog->chartViews().empty());
            for (QChartView* view : dialog->chartViews()) {
                QCOMPARE(view->chart()->backgroundBrush().color(), p.color(QPalette::Base));
                QVERIFY(!view->chart()->axes().isEmpty());
                for (QAbstractAxis* axis : view->chart()->axes()) {
                    QCOMPARE(axis->labelsBrush().color(), p.color(QPalette::Text));
                    QCOMPARE(axis->titleBrush().color(), p.color(QPalette::Text));
                }
            }
        }
        QApplication::setPalette(before);
    }
};

SEBO_TEST_MAIN(TestWalkFixes)
}  // namespace test_walk_fixes
#include "test_walk_fixes.moc"
