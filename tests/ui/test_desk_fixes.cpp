// The defects of issue 32 ("The decision desk"), each with real windows and real files
// (offscreen): a results sheet saved by a spreadsheet (a byte order mark, no trial column, past
// measurements), Esc and the parallel-coordinate brushes, the recovery file of an unsaved
// experiment, pending trials (Simplify's duplicates, Step in a command experiment, abandoning
// and deleting), and the Simplify dialog on a small screen.

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QKeyEvent>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <atomic>

#include <QDir>
#include <QDirIterator>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QTableWidget>

#include "command_trust_dialog.h"
#include "configuration_inspector.h"
#include "desk_test_support.h"
#include "experiment/runner.h"
#include "experiment_document.h"
#include "file_locations.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "message_bar.h"
#include "parallel_coordinates_view.h"
#include "run_controller.h"
#include "simplify_actions.h"
#include "simplify_dialog.h"
#include "test_main.h"
#include "test_support.h"
#include "ui_test_support.h"

namespace test_desk_fixes {

using namespace sebo;
using namespace sebo::ui;

namespace {

void write_all(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

// Answers every question with `button` and keeps the titles asked.
MainWindow::PromptHandler answer(QMessageBox::StandardButton button, QStringList* asked = nullptr) {
    return [button, asked](const QString& title, const QString&, QMessageBox::StandardButtons, QMessageBox::StandardButton) {
        if (asked) *asked << title;
        return button;
    };
}

// The 10-parameter quadratic with results entered by hand, and `pending` Sobol proposals.
Experiment manual_with_pending(int pending) {
    Experiment e = test::small_problem_experiment();
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    auto strategy = make_strategy(e.method);
    for (int i = 0; i < pending; ++i) run_step(e, *strategy, nullptr, StepControl{}, 1);
    return e;
}

// A sheet with every parameter's value (to 17 digits, as a spreadsheet keeps them) and no trial
// column, one row per configuration.
QByteArray parameter_sheet(const Experiment& e, const std::vector<std::vector<double>>& rows,
                           const std::vector<QString>& objectives) {
    QByteArray text;
    for (int i = 0; i < e.space.dimension(); ++i) text += QByteArray::fromStdString(e.space.parameter(i).name) + ",";
    text += "objective\r\n";
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (double v : rows[r]) text += QByteArray::number(v, 'g', 17) + ",";
        text += objectives[r].toUtf8() + "\r\n";
    }
    return text;
}

}  // namespace

class TestDeskFixes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        make_settings()->clear();
        QVERIFY(dir_.isValid());
    }

    // Excel's "CSV UTF-8" starts with a byte order mark, and a lab sheet names its rows by their
    // parameter values, not by a trial column: `sebo observe --csv` takes it, and so does the window.
    void resultsSheetWithByteOrderMarkAndNoTrialColumn() {
        const Experiment e = manual_with_pending(3);
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        QVERIFY(w.newExperiment(e));
        // Rows in another order than the trials; the last one has no value yet.
        const QString sheet = dir_.filePath("lab-results.csv");
        write_all(sheet, "\xEF\xBB\xBF" + parameter_sheet(e, {e.trials[2].parameters, e.trials[0].parameters,
                                                              e.trials[1].parameters},
                                                         {"0.25", "1.5", ""}));
        QVERIFY2(w.importResults(sheet), qPrintable(w.messageBar()->text()));
        const Experiment& after = w.document()->experiment();
        QCOMPARE(after.trials[0].status, TrialStatus::Completed);
        QCOMPARE(*after.objective_value(after.trials[0]), 1.5);
        QCOMPARE(*after.objective_value(after.trials[2]), 0.25);
        QCOMPARE(after.trials[1].status, TrialStatus::Pending);
        QVERIFY2(w.messageBar()->text().contains("Imported 2 results from lab-results.csv"), qPrintable(w.messageBar()->text()));
        QVERIFY2(w.messageBar()->text().contains("1 row still without a value"), qPrintable(w.messageBar()->text()));
    }

    // Past measurements, as `sebo import` takes them: configurations no pending trial has become
    // completed trials (after asking), and a sheet with a bad row imports nothing.
    void pastMeasurementsBecomeTrials() {
        Experiment e = test::small_problem_experiment();
        e.evaluator.kind = EvaluatorSpec::Kind::Manual;
        MainWindow w;
        QStringList asked;
        w.setPromptHandler(answer(QMessageBox::Yes, &asked));
        QVERIFY(w.newExperiment(e));
        std::vector<double> a(10, 0.0), b(10, 0.0);
        a[0] = 0.5;
        b[1] = 0.75;
        b[2] = 0.125;
        const QString sheet = dir_.filePath("past.csv");
        write_all(sheet, "\xEF\xBB\xBF" + parameter_sheet(e, {a, b}, {"1.25", "0.5"}));
        QVERIFY2(w.importResults(sheet), qPrintable(w.messageBar()->text()));
        QCOMPARE(asked, QStringList{"Import past measurements?"});
        const Experiment& after = w.document()->experiment();
        QCOMPARE(after.trials.size(), std::size_t{2});
        QCOMPARE(after.trials[0].generator, std::string("import"));
        QCOMPARE(after.trials[0].status, TrialStatus::Completed);
        QCOMPARE(after.trials[0].parameters, a);
        QCOMPARE(*after.objective_value(after.trials[1]), 0.5);
        QCOMPARE(after.trials[1].parameters, b);
        QVERIFY2(w.messageBar()->text().contains("Imported 2 past measurements"), qPrintable(w.messageBar()->text()));

        // Declined: nothing changes.
        w.setPromptHandler(answer(QMessageBox::No));
        QVERIFY(!w.importResults(sheet));
        QCOMPARE(w.document()->experiment().trials.size(), std::size_t{2});
        // A value outside the bounds: nothing is imported, and the row and column are named.
        std::vector<double> c(10, 0.0);
        c[3] = 1.5;
        write_all(sheet, parameter_sheet(e, {a, c}, {"1", "2"}));
        w.setPromptHandler(answer(QMessageBox::Yes));
        QVERIFY(!w.importResults(sheet));
        QVERIFY2(w.messageBar()->text().contains("past.csv line 3, column x3"), qPrintable(w.messageBar()->text()));
        QCOMPARE(w.document()->experiment().trials.size(), std::size_t{2});
    }

    // Rows that cannot be used (a trial that already has a result) are named; the rest are recorded
    // only when the person says so, as `sebo observe --csv --partial`.
    void partOfASheetOnlyWhenAsked() {
        Experiment e = manual_with_pending(2);
        ObservedResult first{0, TrialStatus::Completed, {{e.primary_objective().metric, Measurement{1.0, std::nullopt}}}, {}};
        record_results(e, {first}, "2026-01-01T00:00:00Z");
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        QVERIFY(w.newExperiment(e));
        const QString sheet = dir_.filePath("mixed.csv");
        write_all(sheet, "trial,objective\n0,3\n1,2\n");
        QStringList asked;
        w.setPromptHandler(answer(QMessageBox::No, &asked));
        QVERIFY(!w.importResults(sheet));
        QCOMPARE(asked, QStringList{"Record part of the sheet?"});
        QVERIFY2(w.messageBar()->text().contains("line 2: trial 0 already has a result"), qPrintable(w.messageBar()->text()));
        QCOMPARE(w.document()->experiment().trials[1].status, TrialStatus::Pending);
        w.setPromptHandler(answer(QMessageBox::Yes));
        QVERIFY(w.importResults(sheet));
        QCOMPARE(*w.document()->experiment().objective_value(w.document()->experiment().trials[1]), 2.0);
        QCOMPARE(*w.document()->experiment().objective_value(w.document()->experiment().trials[0]), 1.0);
    }

    // Escape in the parallel coordinates clears their brushes and leaves a running step alone;
    // without a brush it cancels the step as before.
    void escapeClearsBrushesWithoutCancellingARun() {
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        QVERIFY(w.newExperiment(test::run_with_engine(test::small_problem_experiment(40), 8)));
        w.resize(1366, 768);
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        std::atomic<bool> release{false};
        w.controller()->setStrategyFactory([&release](const MethodSettings&) { return std::make_unique<test::BusyStrategy>(&release); });
        w.stepAction()->trigger();
        QVERIFY(w.controller()->isRunning());
        ParallelCoordinatesView* parallel = w.parallelCoordinates();
        parallel->setBrush(0, ParallelCoordinatesView::Brush{0.0, 5.0});
        QVERIFY(parallel->isBrushing());
        parallel->canvas()->setFocus(Qt::MouseFocusReason);
        QTest::keyClick(parallel->canvas(), Qt::Key_Escape);
        QVERIFY(!parallel->isBrushing());
        QVERIFY(w.controller()->isRunning());
        QVERIFY(!w.controller()->isCancelling());
        // Nothing brushed: Escape is Cancel again.
        QTest::keyClick(parallel->canvas(), Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->isRunning(), test::kHangGuardMs);
        QCOMPARE(w.document()->experiment().trials.size(), std::size_t{8});
        release = true;
    }

    // A window that ends without saving or discarding its untitled experiment (a crash) leaves its
    // recovery file; the next window offers it, opens it as the unsaved experiment it was, and a
    // second window does not offer the file the first one holds.
    void recoveryFileIsOfferedAtTheNextLaunch() {
        for (const QString& f : QDir(recovery_directory()).entryList(QDir::Files)) QFile::remove(recovery_directory() + "/" + f);
        QString recovery;
        {
            MainWindow first;
            first.setPromptHandler(answer(QMessageBox::Discard));
            Experiment e = test::small_problem_experiment(40);
            e.name = "lost afternoon";
            QVERIFY(first.newExperiment(e));
            QSignalSpy finished(first.controller(), &RunController::runFinished);
            first.controller()->run(3);
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
            recovery = first.document()->recoveryPath();
            QVERIFY(QFile::exists(recovery));
            MainWindow meanwhile;
            meanwhile.offerRecovery();  // held by the first window: not offered
            QVERIFY(meanwhile.messageBar()->isHidden());
        }  // gone without a question, as in a crash
        QVERIFY(QFile::exists(recovery));
        MainWindow second;
        second.setPromptHandler(answer(QMessageBox::Discard));
        second.offerRecovery();
        QVERIFY(!second.messageBar()->isHidden());
        QVERIFY2(second.messageBar()->text().contains("lost afternoon (3 trials) was not saved"),
                 qPrintable(second.messageBar()->text()));
        QVERIFY(second.messageBar()->actionButton()->isVisible() || !second.messageBar()->actionButton()->isHidden());
        second.messageBar()->actionButton()->click();
        QVERIFY(second.document()->hasExperiment());
        QCOMPARE(second.document()->experiment().trials.size(), std::size_t{3});
        QCOMPARE(second.document()->experiment().name, std::string("lost afternoon"));
        QVERIFY(second.document()->isModified());
        QCOMPARE(second.document()->recoveryPath(), recovery);
        MainWindow third;
        third.offerRecovery();
        QVERIFY(third.messageBar()->isHidden());
        // Discarded: the file goes.
        second.document()->discardRecovery();
        QVERIFY(!QFile::exists(recovery));
    }

    // Simplify's "Add selected steps as pending trials" adds a step once; Step in a command
    // experiment then evaluates that pending trial before proposing anything; the dialog, grown to
    // its charts, stays on the screen.
    void simplifiedStepIsAddedOnceAndEvaluatedByStep() {
        const Experiment e = test::yield_and_cost_experiment();
        const QString file = dir_.filePath("two.sebo.json");
        save_experiment(e, file.toStdString());
        MainWindow w;
        w.setRememberRecentFiles(false);
        w.setPromptHandler(answer(QMessageBox::Discard));
        w.setDialogHandler([](QDialog& dialog) {
            return qobject_cast<CommandTrustDialog*>(&dialog) ? int(QDialog::Accepted) : int(QDialog::Rejected);
        });
        QVERIFY(w.openFile(file));
        w.show();
        const int trial = test::fully_changed_feasible_trial(e);
        QVERIFY(trial >= 0);
        w.document()->setSelectedTrial(trial);
        w.simplifyActions()->simplifyAction()->trigger();
        SimplifyDialog* dialog = w.simplifyActions()->dialog();
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isComputing(), test::kHangGuardMs);
        QVERIFY2(dialog->outcome().ok, qPrintable(dialog->outcome().message));
        const QRect free = dialog->screen()->availableGeometry();
        QVERIFY2(free.contains(dialog->frameGeometry()),
                 qPrintable(QString("%1,%2 %3x%4 on %5x%6")
                                .arg(dialog->frameGeometry().x())
                                .arg(dialog->frameGeometry().y())
                                .arg(dialog->frameGeometry().width())
                                .arg(dialog->frameGeometry().height())
                                .arg(free.width())
                                .arg(free.height())));

        dialog->table()->selectRow(2);
        const std::vector<int> added = dialog->addSelectedSteps();
        QCOMPARE(added.size(), std::size_t{1});
        QVERIFY(dialog->addSelectedSteps().empty());  // the second click
        QVERIFY2(dialog->statusLabel()->text().contains("already pending"), qPrintable(dialog->statusLabel()->text()));
        QCOMPARE(w.document()->experiment().count(TrialStatus::Pending), 1);
        QCOMPARE(w.document()->experiment().trials.size(), std::size_t{13});

        QSignalSpy finished(w.controller(), &RunController::runFinished);
        QVERIFY(w.stepAction()->isEnabled());
        w.stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Finished);
        const Experiment on_disk = load_experiment(file.toStdString());
        QCOMPARE(on_disk.trials.size(), std::size_t{13});  // evaluated, nothing new proposed
        const Trial& evaluated = *on_disk.find_trial(added[0]);
        QCOMPARE(evaluated.status, TrialStatus::Completed);
        QCOMPARE(evaluated.generator, std::string("simplify"));
        QCOMPARE(evaluated.value("yield").value_or(-1.0), test::yield_of(evaluated.parameters));
        QCOMPARE(evaluated.value("cost").value_or(-1.0), test::cost_of(evaluated.parameters));
    }

    // A pending trial can be given up in the window: abandoned with the reason typed, kept in
    // the file, no longer waiting.
    void pendingTrialCanBeAbandoned() {
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        QVERIFY(w.newExperiment(manual_with_pending(2)));
        w.document()->setSelectedTrial(1);
        QVERIFY(!w.inspector()->abandonButton()->isHidden());
        w.inspector()->failureEdit()->setText("the sample was lost");
        w.inspector()->abandonButton()->click();
        const Trial& t = w.document()->experiment().trials[1];
        QCOMPARE(t.status, TrialStatus::Abandoned);
        QCOMPARE(t.error, std::string("the sample was lost"));
        QCOMPARE(w.document()->experiment().count(TrialStatus::Pending), 1);
        QVERIFY(w.inspector()->resultBox()->isHidden());
        // The menu's action, on the other one.
        w.document()->setSelectedTrial(0);
        QVERIFY(w.abandonTrial(0));
        QCOMPARE(w.document()->experiment().trials[0].status, TrialStatus::Abandoned);
        QVERIFY(!w.abandonTrial(0));  // no longer pending
        QVERIFY2(w.messageBar()->text().contains("not waiting for a result"), qPrintable(w.messageBar()->text()));
    }
};

SEBO_TEST_MAIN(TestDeskFixes)
}  // namespace test_desk_fixes
#include "test_desk_fixes.moc"
