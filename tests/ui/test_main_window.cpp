// The SEBO Explorer window with real widgets (offscreen): opening files, what the charts and
// the table show, selecting a trial by clicking the chart, picking and exporting
// configurations, malformed files, save/reopen, manual results, the method panel's checks,
// settings isolation, drag-and-drop, and closing during a step.

#include <QApplication>
#include <QBarSet>
#include <QChartView>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMimeData>
#include <QProcess>
#include <QPushButton>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QUrl>
#include <QValueAxis>

#include "activation_chart_view.h"
#include "chosen_export.h"
#include "io/csv_export.h"
#include "configuration_inspector.h"
#include "configuration_model.h"
#include "core/input_error.h"
#include "experiment/replicates.h"
#include "experiment_document.h"
#include "frontier_chart_view.h"
#include "hypervolume_chart_view.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "message_bar.h"
#include "method_panel.h"
#include "resource_paths.h"
#include "results_import.h"
#include "run_controller.h"
#include "run_progress_widget.h"
#include "test_main.h"
#include "test_support.h"
#include "trials_table_model.h"
#include "ui_test_support.h"

namespace test_main_window {

using namespace sebo;
using namespace sebo::ui;
using sebo::test::read_all;

namespace {

void write_all(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

// An experiment with a real frontier: 12 Sobol trials of the 10-D quadratic, then copies of
// some of them with all but a few coordinates set to the target (evaluated by the problem),
// as a sparse strategy would propose. One more trial failed.
Experiment frontier_experiment() {
    Experiment e = test::run_with_engine(test::small_problem_experiment(/*budget=*/40), 12);
    const auto problem = make_problem(e.evaluator.problem);
    const std::vector<double> target = e.space.target();
    const int keep_counts[] = {1, 2, 3, 5};
    for (int c = 0; c < 4; ++c) {
        Trial t = e.trials[static_cast<std::size_t>(c)];
        t.index = e.next_trial_index();
        for (std::size_t i = static_cast<std::size_t>(keep_counts[c]); i < t.parameters.size(); ++i)
            t.parameters[i] = target[i];
        t.values = problem->evaluate(t.parameters, 0);
        t.generator = "sparse-copy";
        e.trials.push_back(t);
    }
    Trial failed = e.trials[5];
    failed.index = e.next_trial_index();
    failed.status = TrialStatus::Failed;
    failed.values.clear();
    failed.error = "simulated failure: the lab ran out of reagent";
    e.trials.push_back(failed);
    return e;
}

MainWindow::PromptHandler answer(QMessageBox::StandardButton button, QStringList* asked = nullptr) {
    return [button, asked](const QString& title, const QString&, QMessageBox::StandardButtons,
                           QMessageBox::StandardButton) {
        if (asked) *asked << title;
        return button;
    };
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString frontier_path_;

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        frontier_path_ = dir_.filePath("frontier.sebo.json");
        save_experiment(frontier_experiment(), frontier_path_.toStdString());
        // Start from empty settings (test mode: ~/.qttest, never the user's file).
        make_settings()->clear();
    }

    void settingsAreIsolatedInTestMode() {
        QVERIFY2(make_settings()->fileName().contains(".qttest"), qPrintable(make_settings()->fileName()));
    }

    // A fresh window explains itself instead of showing blank charts.
    void emptyStatesAreExplained() {
        MainWindow w;
        QVERIFY(!w.windowIcon().isNull());  // the resources are linked in
        QVERIFY(!w.document()->hasExperiment());
        QVERIFY(!w.frontierChart()->isShowingChart());
        QVERIFY(!w.hypervolumeChart()->emptyText().isEmpty());
        QVERIFY(!w.stepAction()->isEnabled());

        QVERIFY(w.newExperiment(test::small_problem_experiment()));
        QVERIFY(w.document()->hasExperiment());
        QVERIFY(w.document()->isModified());  // not saved yet
        QVERIFY(!w.frontierChart()->isShowingChart());
        QVERIFY2(w.frontierChart()->emptyText().contains("No trials yet"), qPrintable(w.frontierChart()->emptyText()));
        QVERIFY(w.hypervolumeChart()->emptyText().contains("first completed trial"));
        QVERIFY(!w.activationChart()->emptyText().isEmpty());
        QVERIFY(w.stepAction()->isEnabled());
        w.setPromptHandler(answer(QMessageBox::Discard));
    }

    // Table rows and chart point counts match the file, checked against the engine's analytics.
    void openShowsTrialsAndCharts() {
        MainWindow w;
        QVERIFY(w.openFile(frontier_path_));
        const Experiment expected = load_experiment(frontier_path_.toStdString());
        const FrontierReport report = analyze_frontier(expected);
        const int completed = expected.count(TrialStatus::Completed);
        const int pareto = static_cast<int>(report.pareto_trials.size());
        QVERIFY(pareto >= 2);

        QCOMPARE(w.trialsModel()->rowCount(), static_cast<int>(expected.trials.size()));
        QCOMPARE(w.trialsProxy()->rowCount(), static_cast<int>(expected.trials.size()));
        QVERIFY(w.frontierChart()->isShowingChart());
        QCOMPARE(w.frontierChart()->frontierSeries()->count(), pareto);
        QCOMPARE(w.frontierChart()->trialsSeries()->count(), completed - pareto);
        QCOMPARE(w.frontierChart()->newestSeries()->count(), 1);
        QCOMPARE(w.hypervolumeChart()->traceSeries()->count(), static_cast<int>(expected.trials.size()));
        SEBO_COMPARE_NEAR(w.hypervolumeChart()->traceSeries()->at(w.hypervolumeChart()->traceSeries()->count() - 1).y(),
                          report.hypervolume, 1e-9);
        // Step line: starts at the sparsest frontier level and ends at D with the best value.
        const QLineSeries* step = w.frontierChart()->stepSeries();
        QVERIFY(step->count() >= 2);
        QCOMPARE(step->at(step->count() - 1).x(), double(expected.max_sparsity()));
        SEBO_COMPARE_NEAR(step->at(step->count() - 1).y(), *report.levels.back().best_objective, 1e-12);

        // Zoom to frontier: the x axis ends just past the least sparse frontier trial.
        int widest = 0;
        for (int trial : report.pareto_trials) widest = std::max(widest, expected.sparsity(*expected.find_trial(trial)));
        w.frontierChart()->setZoomToFrontier(true);
        QVERIFY(w.frontierChart()->axisX()->max() > widest);
        QVERIFY(w.frontierChart()->axisX()->max() < std::max(widest + 2.0, 1.2 * widest + 0.5));
        w.frontierChart()->setZoomToFrontier(false);
        QCOMPARE(w.frontierChart()->axisX()->max(), expected.max_sparsity() + 0.5);

        // Failed trials stay visible, with their error.
        bool saw_failure = false;
        for (int r = 0; r < w.trialsModel()->rowCount(); ++r) {
            const QString status = w.trialsModel()->index(r, TrialsTableModel::Status).data().toString();
            if (status == "failed") {
                saw_failure = true;
                QVERIFY(w.trialsModel()->index(r, w.trialsModel()->column(TrialsTableModel::Error)).data().toString().contains("reagent"));
            }
        }
        QVERIFY(saw_failure);

        // Frontier-only filter and numeric sorting.
        w.frontierOnlyBox()->setChecked(true);
        QCOMPARE(w.trialsProxy()->rowCount(), pareto);
        w.frontierOnlyBox()->setChecked(false);
        w.trialsView()->sortByColumn(w.trialsModel()->column(TrialsTableModel::Value), Qt::AscendingOrder);
        double previous = -std::numeric_limits<double>::infinity();
        for (int r = 0; r < w.trialsProxy()->rowCount(); ++r) {
            const QVariant v = w.trialsProxy()->index(r, w.trialsModel()->column(TrialsTableModel::Value)).data(TrialsTableModel::SortRole);
            if (!v.isValid()) continue;
            QVERIFY(v.toDouble() >= previous);
            previous = v.toDouble();
        }

        // Activation frequencies: sorted, and equal to the engine's shares.
        const QList<double> shares = w.activationChart()->percentages();
        QVERIFY(!shares.isEmpty());
        for (int i = 1; i < shares.size(); ++i) QVERIFY(shares[i - 1] >= shares[i]);
        const QString top = w.activationChart()->categories().first();
        const int top_index = *expected.space.index_of(top.toStdString());
        SEBO_COMPARE_NEAR(shares.first(), report.activation_frequency[static_cast<std::size_t>(top_index)] * 100.0, 0.05);

        // The file went into the recent files.
        QCOMPARE(w.recentFiles().value(0), QFileInfo(frontier_path_).absoluteFilePath());
    }

    // Every bundled example opens, and the views agree with it.
    void bundledExamplesOpen() {
        const QStringList examples = bundled_examples();
        // Branin, sourcing, Hartmann6, the hand-tuned service, the web service (two objectives and
        // a limit), the mixed space and the noisy lab (resources/examples).
        QVERIFY2(examples.size() >= 7, qPrintable(examples.join(", ")));
        for (const QString& path : examples) {
            MainWindow w;
            QVERIFY2(w.openFile(path), qPrintable(w.messageBar()->text()));
            const Experiment e = load_experiment(path.toStdString());
            QCOMPARE(w.trialsModel()->rowCount(), static_cast<int>(e.trials.size()));
            // One objective, no outcome constraint, no replicates: every completed trial is a
            // marker of the measured frontier chart (otherwise infeasible trials, other objectives
            // and merged replicates are drawn apart; test_moo_gui and test_noisy_views check those).
            if (e.outcomes.objectives.size() != 1 || !e.outcomes.constraints.empty() || has_replicates(e)) continue;
            QCOMPARE(w.frontierChart()->trialsSeries()->count() + w.frontierChart()->frontierSeries()->count(),
                     e.count(TrialStatus::Completed));
            QCOMPARE(w.frontierChart()->frontierSeries()->count(),
                     static_cast<int>(analyze_frontier(e).pareto_trials.size()));
        }
    }

    // Clicking a frontier marker selects that trial in the inspector, the table and the chart.
    void clickingAFrontierPointSelectsIt() {
        MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(frontier_path_));
        QApplication::processEvents();
        const Experiment e = load_experiment(frontier_path_.toStdString());
        const FrontierReport report = analyze_frontier(e);
        const int target_trial = report.pareto_trials.front();  // the sparsest frontier trial

        const std::optional<QPoint> at = w.frontierChart()->trialPosition(target_trial);
        QVERIFY(at.has_value());
        QVERIFY(w.frontierChart()->chartView()->viewport()->rect().contains(*at));
        QTest::mouseClick(w.frontierChart()->chartView()->viewport(), Qt::LeftButton, {}, *at);

        QCOMPARE(w.document()->selectedTrial(), target_trial);
        QVERIFY2(w.inspector()->titleText().contains(QString("Trial %1").arg(target_trial)),
                 qPrintable(w.inspector()->titleText()));
        QVERIFY(w.inspector()->titleText().contains("frontier"));
        const Trial& t = *e.find_trial(target_trial);
        const int active = e.space.active_count(t.parameters);
        QVERIFY(w.inspector()->summaryText().contains(QString("%1 of %2").arg(active).arg(e.space.dimension())));
        // One row per parameter, changed ones first, with the trial's values.
        ConfigurationModel* model = w.inspector()->parameterModel();
        QCOMPARE(model->rowCount(), e.space.dimension());
        QCOMPARE(model->changedCount(), active);
        for (int r = 0; r < model->rowCount(); ++r) {
            const bool changed = model->index(r, 0).data(ConfigurationModel::ChangedRole).toBool();
            QCOMPARE(changed, r < active);
            const int p = model->index(r, 0).data(ConfigurationModel::ParameterRole).toInt();
            SEBO_COMPARE_NEAR(model->index(r, ConfigurationModel::Value).data(ConfigurationModel::SortRole).toDouble(),
                              t.parameters[static_cast<std::size_t>(p)], 0.0);
        }
        // The selection ring is on the trial and the table row is current.
        QCOMPARE(w.frontierChart()->selectedSeries()->count(), 1);
        const QModelIndex current = w.trialsView()->currentIndex();
        QCOMPARE(current.data(TrialsTableModel::TrialRole).toInt(), target_trial);
        // The tooltip names the active parameters.
        const QString tip = w.frontierChart()->tooltipFor(target_trial);
        QVERIFY(tip.contains(QString::fromStdString(e.space.parameter(0).name)));

        // Clicking empty space selects nothing new.
        QTest::mouseClick(w.frontierChart()->chartView()->viewport(), Qt::LeftButton, {}, QPoint(3, 3));
        QCOMPARE(w.document()->selectedTrial(), target_trial);
        w.close();
    }

    // Choose a trial with a note, export it as JSON and CSV, and read the files back.
    void chooseAndExport() {
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        QVERIFY(w.openFile(frontier_path_));
        const Experiment e = load_experiment(frontier_path_.toStdString());
        const int trial = analyze_frontier(e).pareto_trials.at(1);
        w.document()->setSelectedTrial(trial);
        QCOMPARE(w.inspector()->trial(), trial);
        w.inspector()->chosenBox()->setChecked(true);
        w.inspector()->noteEdit()->setText("cheap to deploy, two changes");
        emit w.inspector()->noteEdit()->editingFinished();
        QCOMPARE(w.document()->experiment().chosen.size(), std::size_t(1));
        QCOMPARE(w.document()->experiment().chosen[0].trial, trial);
        QCOMPARE(w.document()->experiment().chosen[0].note, std::string("cheap to deploy, two changes"));
        QVERIFY(w.document()->isModified());
        QVERIFY(w.trialsModel()
                    ->index(w.trialsModel()->rowOfTrial(trial), w.trialsModel()->column(TrialsTableModel::Chosen))
                    .data()
                    .toString()
                    .contains("cheap"));

        const Trial& t = *e.find_trial(trial);
        const int active = e.space.active_count(t.parameters);

        const QString json_path = dir_.filePath("chosen.json");
        QVERIFY(w.exportChosen(json_path, /*changed_only=*/true));
        const QJsonObject root = QJsonDocument::fromJson(read_all(json_path)).object();
        const QJsonArray configurations = root["configurations"].toArray();
        QCOMPARE(configurations.size(), 1);
        const QJsonObject c = configurations[0].toObject();
        QCOMPARE(c["trial"].toInt(), trial);
        QCOMPARE(c["note"].toString(), QString("cheap to deploy, two changes"));
        SEBO_COMPARE_NEAR(c["objective"].toDouble(), *e.objective_value(t), 1e-12);
        const QJsonObject parameters = c["parameters"].toObject();
        QCOMPARE(parameters.size(), active);
        for (auto it = parameters.begin(); it != parameters.end(); ++it) {
            const int p = *e.space.index_of(it.key().toStdString());
            SEBO_COMPARE_NEAR(it.value().toDouble(), t.parameters[static_cast<std::size_t>(p)], 0.0);
        }

        const QString csv_path = dir_.filePath("chosen.csv");
        QVERIFY(w.exportChosen(csv_path, /*changed_only=*/false));
        const QStringList lines = QString::fromUtf8(read_all(csv_path)).trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + e.space.dimension());
        QCOMPARE(lines[0], QString("trial,note,parameter,value,target,changed"));
        int changed_rows = 0;
        for (int i = 1; i < lines.size(); ++i) {
            QVERIFY(lines[i].startsWith(QString("%1,\"cheap to deploy, two changes\",").arg(trial)));
            const QStringList cells = lines[i].split(',');
            const QString name = cells[cells.size() - 4];
            const int p = *e.space.index_of(name.toStdString());
            SEBO_COMPARE_NEAR(cells[cells.size() - 3].toDouble(), t.parameters[static_cast<std::size_t>(p)], 0.0);
            if (cells.last() == "true") ++changed_rows;
        }
        QCOMPARE(changed_rows, active);

        // One configuration to the clipboard.
        w.copyConfiguration(trial);
        const QJsonObject copied = QJsonDocument::fromJson(QApplication::clipboard()->text().toUtf8()).object();
        QCOMPARE(copied["trial"].toInt(), trial);

        // Charts export as PNG (SVG only with Qt SVG).
        const QString png = dir_.filePath("frontier.png");
        QVERIFY(w.exportChart(MainWindow::Chart::Frontier, png));
        QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 640);
        if (!ChartPanel::svgExportAvailable()) QVERIFY(!w.exportChart(MainWindow::Chart::Frontier, dir_.filePath("f.svg")));
    }

    // A malformed file shows the engine's message (field path and value) and keeps the
    // current experiment, unchanged.
    void malformedFileKeepsTheCurrentExperiment() {
        MainWindow w;
        QVERIFY(w.openFile(frontier_path_));
        const std::string before = experiment_to_json_text(w.document()->experiment());

        // A trial whose parameter is out of bounds.
        Experiment bad = load_experiment(frontier_path_.toStdString());
        QString text = QString::fromStdString(experiment_to_json_text(bad));
        const QString bad_path = dir_.filePath("bad.sebo.json");
        QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
        QJsonObject root = doc.object();
        QJsonArray trials = root["trials"].toArray();
        QJsonObject third = trials[3].toObject();
        QJsonObject params = third["parameters"].toObject();
        params["x3"] = 12.0;
        third["parameters"] = params;
        trials[3] = third;
        root["trials"] = trials;
        write_all(bad_path, QJsonDocument(root).toJson());
        QString expected_message;
        try {
            load_experiment(bad_path.toStdString());
            QFAIL("the engine accepted an out-of-bounds value");
        } catch (const InputError& error) {
            expected_message = QString::fromStdString(error.what());
        }
        QVERIFY(expected_message.contains("trials[3]"));

        QVERIFY(!w.openFile(bad_path));
        QCOMPARE(w.messageBar()->kind(), MessageBar::Kind::Error);
        QVERIFY2(w.messageBar()->text().contains(expected_message), qPrintable(w.messageBar()->text()));
        QCOMPARE(experiment_to_json_text(w.document()->experiment()), before);
        QCOMPARE(w.document()->filePath(), QFileInfo(frontier_path_).absoluteFilePath());
        QVERIFY(!w.document()->isModified());

        // A truncated file, and a file that is not JSON at all.
        const QString truncated = dir_.filePath("truncated.sebo.json");
        write_all(truncated, read_all(frontier_path_).left(500));
        QVERIFY(!w.openFile(truncated));
        QVERIFY(!w.messageBar()->text().isEmpty());
        const QString garbage = dir_.filePath("garbage.sebo.json");
        write_all(garbage, "this is not an experiment");
        QVERIFY(!w.openFile(garbage));
        QCOMPARE(experiment_to_json_text(w.document()->experiment()), before);
        QCOMPARE(w.trialsModel()->rowCount(), static_cast<int>(w.document()->experiment().trials.size()));
    }

    // Save as, reopen in another window, compare everything.
    void saveReopenCompare() {
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        QVERIFY(w.newExperiment(frontier_experiment()));
        w.document()->setChosen(w.document()->experiment().trials[13].index, true, "keep");
        const QString path = dir_.filePath("saved.sebo.json");
        QVERIFY(w.saveFileAs(path));
        QVERIFY(!w.document()->isModified());
        QVERIFY(!w.isWindowModified());

        MainWindow other;
        QVERIFY(other.openFile(path));
        QCOMPARE(experiment_to_json_text(other.document()->experiment()),
                 experiment_to_json_text(w.document()->experiment()));
        QCOMPARE(other.document()->experiment().chosen.size(), std::size_t(1));
        QCOMPARE(other.document()->experiment().chosen[0].note, std::string("keep"));
    }

    // Unsaved changes: Cancel keeps the experiment; Discard opens the other file.
    void unsavedChangesPrompt() {
        MainWindow w;
        QStringList asked;
        QVERIFY(w.newExperiment(test::small_problem_experiment()));
        w.setPromptHandler(answer(QMessageBox::Cancel, &asked));
        QVERIFY(!w.openFile(frontier_path_));
        QCOMPARE(asked.size(), 1);
        QVERIFY(w.document()->filePath().isEmpty());
        w.setPromptHandler(answer(QMessageBox::Discard, &asked));
        QVERIFY(w.openFile(frontier_path_));
        QCOMPARE(asked.size(), 2);
    }

    // Steps from the window: the new trial appears in the table and the chart.
    void stepFromTheWindow() {
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        QVERIFY(w.newExperiment(test::small_problem_experiment()));
        QSignalSpy finished(w.controller(), &RunController::runFinished);
        w.stepAction()->trigger();
        QVERIFY(w.controller()->isRunning());
        QVERIFY(!w.stepAction()->isEnabled());
        QVERIFY(w.cancelAction()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(w.trialsModel()->rowCount(), 1);
        QVERIFY(w.frontierChart()->isShowingChart());
        QCOMPARE(w.frontierChart()->frontierSeries()->count() + w.frontierChart()->trialsSeries()->count(), 1);
        QCOMPARE(w.frontierChart()->newestSeries()->count(), 1);
        QVERIFY(w.stepAction()->isEnabled());

        w.runCountBox()->setValue(3);
        w.runAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, test::kHangGuardMs);
        QCOMPARE(w.trialsModel()->rowCount(), 4);
        QCOMPARE(w.hypervolumeChart()->traceSeries()->count(), 4);
    }

    // An external command runs only after the user approved the exact command line.
    void externalCommandNeedsApproval() {
        Experiment e = test::small_problem_experiment(3, 3);
        e.evaluator = {};
        e.evaluator.kind = EvaluatorSpec::Kind::Command;
        e.evaluator.command = {"/bin/sh", std::string(SEBO_SOURCE_DIR) + "/tests/fixtures/evaluators/sum_parameters.sh"};
        e.evaluator.timeout_seconds = 30;
        const QString path = dir_.filePath("command.sebo.json");
        save_experiment(e, path.toStdString());

        MainWindow w;
        QStringList asked;
        w.setPromptHandler(answer(QMessageBox::No, &asked));
        QVERIFY(w.openFile(path));
        QSignalSpy finished(w.controller(), &RunController::runFinished);
        w.stepAction()->trigger();
        QCOMPARE(asked, QStringList{"Run an external command?"});
        QVERIFY(!w.controller()->isRunning());
        QCOMPARE(w.trialsModel()->rowCount(), 0);

        w.setPromptHandler(answer(QMessageBox::Yes, &asked));
        w.stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(asked.size(), 2);
        const Experiment& done = w.document()->experiment();
        QCOMPARE(int(done.trials.size()), 1);
        QCOMPARE(int(done.trials[0].status), int(TrialStatus::Completed));
        double sum = 0;
        for (double v : done.trials[0].parameters) sum += v;
        SEBO_COMPARE_NEAR(*done.objective_value(done.trials[0]), sum, 1e-9);
        // Approved once: the next step does not ask again.
        w.stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, test::kHangGuardMs);
        QCOMPARE(asked.size(), 2);
    }

    // Closing during a step asks, then cancels cleanly; answering No keeps the window open.
    void closingDuringAStepAsksAndCancels() {
        MainWindow w;
        QVERIFY(w.newExperiment(test::run_with_engine(test::small_problem_experiment(), 2)));
        const QString path = dir_.filePath("closing.sebo.json");
        QVERIFY(w.saveFileAs(path));
        const QByteArray file_before = read_all(path);
        w.controller()->setStrategyFactory(
            [](const MethodSettings&) { return std::make_unique<test::EndlessStrategy>(); });
        w.show();
        w.stepAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(w.controller()->lastProgress().phase == "spinning", test::kHangGuardMs);
        // The status bar shows the phase and the elapsed time.
        QTRY_VERIFY_WITH_TIMEOUT(w.runProgress()->phaseText().contains("spinning"), test::kHangGuardMs);
        QVERIFY(w.runProgress()->phaseText().contains(" s"));

        QStringList asked;
        w.setPromptHandler(answer(QMessageBox::No, &asked));
        QVERIFY(!w.close());
        QVERIFY(w.controller()->isRunning());
        w.setPromptHandler(answer(QMessageBox::Yes, &asked));
        QVERIFY(w.close());
        QCOMPARE(asked, (QStringList{"A step is running", "A step is running"}));
        QVERIFY(!w.controller()->isRunning());
        QCOMPARE(w.document()->experiment().trials.size(), std::size_t(2));
        QCOMPARE(read_all(path), file_before);
    }

    // Cancel from the toolbar restores the actions and leaves the experiment as it was.
    void cancelActionFromTheWindow() {
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        QVERIFY(w.newExperiment(test::small_problem_experiment()));
        const std::string before = experiment_to_json_text(w.document()->experiment());
        w.controller()->setStrategyFactory(
            [](const MethodSettings&) { return std::make_unique<test::EndlessStrategy>(); });
        QSignalSpy finished(w.controller(), &RunController::runFinished);
        w.runToBudgetAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(w.controller()->lastProgress().phase == "spinning", test::kHangGuardMs);
        w.cancelAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Cancelled);
        QCOMPARE(experiment_to_json_text(w.document()->experiment()), before);
        QVERIFY(w.stepAction()->isEnabled());
        QVERIFY(!w.cancelAction()->isEnabled());
    }

    // Manual evaluation: a step adds a pending trial; the user types the value, or marks a
    // trial failed; bad input is refused at the field.
    void manualEvaluation() {
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        Experiment e = test::small_problem_experiment();
        e.evaluator.kind = EvaluatorSpec::Kind::Manual;
        QVERIFY(w.newExperiment(e));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString path = dir_.filePath("manual.sebo.json");
        QVERIFY(w.saveFileAs(path));
        QSignalSpy finished(w.controller(), &RunController::runFinished);
        w.stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(w.document()->experiment().trials.size(), std::size_t(1));
        QCOMPARE(w.document()->experiment().trials[0].status, TrialStatus::Pending);
        // The new pending trial is selected and its result editor shown.
        QCOMPARE(w.document()->selectedTrial(), 0);
        QVERIFY(!w.inspector()->resultBox()->isHidden());
        QVERIFY(w.frontierChart()->emptyText().contains("waiting for a result"));

        w.inspector()->resultEdit()->setText("not a number");
        QTest::mouseClick(w.inspector()->recordButton(), Qt::LeftButton);
        QVERIFY(!w.inspector()->resultError().isEmpty());
        QCOMPARE(w.document()->experiment().trials[0].status, TrialStatus::Pending);

        w.inspector()->resultEdit()->setText("4.25");
        w.inspector()->semEdit()->setText("0.5");
        QTest::mouseClick(w.inspector()->recordButton(), Qt::LeftButton);
        const Trial& t = w.document()->experiment().trials[0];
        QCOMPARE(t.status, TrialStatus::Completed);
        QCOMPARE(w.document()->experiment().objective_measurement(t)->mean, 4.25);
        QCOMPARE(*w.document()->experiment().objective_measurement(t)->sem, 0.5);
        QVERIFY(w.inspector()->resultBox()->isHidden());
        QVERIFY(w.frontierChart()->isShowingChart());
        // Autosaved with the result.
        const Experiment saved = load_experiment(path.toStdString());
        QCOMPARE(*saved.objective_value(saved.trials[0]), 4.25);

        w.stepAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, test::kHangGuardMs);
        QCOMPARE(w.document()->selectedTrial(), 1);
        w.inspector()->failureEdit()->setText("sample contaminated");
        QTest::mouseClick(w.inspector()->failButton(), Qt::LeftButton);
        QCOMPARE(w.document()->experiment().trials[1].status, TrialStatus::Failed);
        QCOMPARE(w.document()->experiment().trials[1].error, std::string("sample contaminated"));
    }

    // Results of pending trials imported from the Trials CSV export, filled in by hand.
    void importResultsFromCsv() {
        Experiment e = test::small_problem_experiment();
        e.evaluator.kind = EvaluatorSpec::Kind::Manual;
        auto strategy = make_strategy(e.method);
        for (int i = 0; i < 4; ++i) run_step(e, *strategy, nullptr, StepControl{}, 1);
        QCOMPARE(e.count(TrialStatus::Pending), 4);
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        QVERIFY(w.newExperiment(e));

        // Header of trials_to_csv; trial 0 measured, 1 failed, 2 left empty, 3 with a SEM.
        const QString good = dir_.filePath("results.csv");
        write_all(good, "trial,status,objective,sem,active,generator,error\n"
                        "0,pending,1.5,,10,sobol,\n"
                        "1,failed,,,10,sobol,\"pump broke, rerun later\"\n"
                        "2,pending,,,10,sobol,\n"
                        "3,pending,-2.25,0.125,10,sobol,\n");
        QVERIFY2(w.importResults(good), qPrintable(w.messageBar()->text()));
        const Experiment& after = w.document()->experiment();
        QCOMPARE(after.trials[0].status, TrialStatus::Completed);
        QCOMPARE(*after.objective_value(after.trials[0]), 1.5);
        QCOMPARE(after.trials[1].status, TrialStatus::Failed);
        QCOMPARE(after.trials[1].error, std::string("pump broke, rerun later"));
        QCOMPARE(after.trials[2].status, TrialStatus::Pending);
        QCOMPARE(*after.objective_value(after.trials[3]), -2.25);
        QCOMPARE(*after.objective_measurement(after.trials[3])->sem, 0.125);
        QVERIFY(w.messageBar()->text().contains("Imported 3 results"));
        QVERIFY2(w.messageBar()->text().contains("1 row still without a value"), qPrintable(w.messageBar()->text()));

        // A bad value names its line and column, and nothing is recorded.
        const QString bad = dir_.filePath("bad-results.csv");
        write_all(bad, "trial,objective\n2,abc\n");
        const std::string before = experiment_to_json_text(w.document()->experiment());
        QVERIFY(!w.importResults(bad));
        QVERIFY2(w.messageBar()->text().contains("line 2: column objective: 'abc' is not a number"),
                 qPrintable(w.messageBar()->text()));
        QCOMPARE(experiment_to_json_text(w.document()->experiment()), before);
        write_all(bad, "trial,objective\n99,1\n");
        QVERIFY(!w.importResults(bad));
        QVERIFY2(w.messageBar()->text().contains("no trial 99 in the experiment"), qPrintable(w.messageBar()->text()));
        write_all(bad, "objective\n1\n");
        QVERIFY(!w.importResults(bad));
        QVERIFY(w.messageBar()->text().contains("no 'trial' column"));
    }

    // Cells a spreadsheet would run as formulas (io/csv_cell.h): the chosen-configurations CSV
    // writes the note, the name and the choice value after an apostrophe, and the results import
    // reads a guarded header name and cell without it.
    void exportAndImportGuardFormulas() {
        Parameter link;
        link.name = "=HYPERLINK(\"x\",\"y\")";
        Parameter mode;
        mode.name = "mode";
        mode.kind = ParameterKind::Choice;
        mode.values = {{"plain", std::nullopt}, {"-low", std::nullopt}};
        mode.upper = 1.0;
        Experiment e;
        e.space = SearchSpace({link, mode});
        e.outcomes = Outcomes::single("-loss", true);
        for (int i = 0; i < 2; ++i) {
            Trial t;
            t.index = i;
            t.parameters = {0.5, 1.0};
            e.trials.push_back(t);
        }
        ChosenConfiguration chosen;
        chosen.trial = 0;
        chosen.note = "@ask the vendor first";
        e.chosen.push_back(chosen);
        QCOMPARE(QString::fromStdString(chosen_to_csv(e, false)), QString("trial,note,parameter,value,target,changed\n"
                                                  "0,'@ask the vendor first,\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\",0.5,0,true\n"
                                                  "0,'@ask the vendor first,mode,'-low,plain,true\n"));
        const ResultsImportPlan imported = plan_results_import(
            e, "trial,status,'-loss,error\n0,,1.5,\n1,failed,,\"'=cmd|' /C calc'!A0\"\n", "sheet.csv");
        QCOMPARE(imported.results.size(), std::size_t{2});
        QCOMPARE(imported.results[0].values.at("-loss").mean, 1.5);
        QCOMPARE(imported.results[1].error, std::string("=cmd|' /C calc'!A0"));
    }

    // The method panel refuses invalid settings with a message at the field.
    void methodPanelValidates() {
        MainWindow w;
        w.setPromptHandler(answer(QMessageBox::Discard));
        QVERIFY(w.newExperiment(test::run_with_engine(test::small_problem_experiment(), 6)));
        MethodPanel* panel = w.methodPanel();
        auto* budget = qobject_cast<QSpinBox*>(panel->fieldEditor("method.budget"));
        QVERIFY(budget);
        budget->setValue(3);  // below the 6 trials already run
        QVERIFY(!panel->apply());
        QVERIFY2(panel->fieldError("method.budget").contains("6 trials"), qPrintable(panel->fieldError("method.budget")));
        QCOMPARE(w.document()->experiment().method.budget, 20);

        budget->setValue(30);
        // Cross-field rules of MethodSettings::validate() land under their field too.
        auto* restarts = qobject_cast<QLineEdit*>(panel->fieldEditor("method.restarts"));
        QVERIFY(restarts);
        restarts->setText("5000");  // above raw_samples (1024)
        emit restarts->textEdited(restarts->text());
        QVERIFY(!panel->apply());
        QVERIFY2(panel->fieldError("method.restarts").contains("raw_samples"),
                 qPrintable(panel->fieldError("method.restarts")));
        restarts->setText("20");
        auto* strategy = qobject_cast<QComboBox*>(panel->fieldEditor("method.strategy"));
        strategy->setCurrentIndex(strategy->findData(static_cast<int>(StrategyKind::EiEr)));
        auto* lambda = qobject_cast<QLineEdit*>(panel->fieldEditor("method.lambda"));
        QVERIFY(lambda && lambda->isEnabled());
        lambda->setText("-0.5");
        QVERIFY(!panel->apply());
        QVERIFY(panel->fieldError("method.lambda").contains("non-negative"));
        lambda->setText("0.05");
        QVERIFY(panel->apply());
        QCOMPARE(w.document()->experiment().method.strategy, StrategyKind::EiEr);
        QCOMPARE(w.document()->experiment().method.lambda, 0.05);
        strategy->setCurrentIndex(strategy->findData(static_cast<int>(StrategyKind::Sobol)));
        QVERIFY(!lambda->isEnabled());
        QVERIFY(panel->apply());
        QVERIFY(panel->fieldError("method.budget").isEmpty());
        QCOMPARE(w.document()->experiment().method.budget, 30);

        // The seed is editable only before the first trial, and must be a whole number.
        QVERIFY(!panel->fieldEditor("seed")->isEnabled());
        QVERIFY(w.newExperiment(test::small_problem_experiment()));
        auto* seed = qobject_cast<QLineEdit*>(panel->fieldEditor("seed"));
        QVERIFY(seed && seed->isEnabled());
        seed->setText("12abc");
        emit seed->textEdited(seed->text());
        QVERIFY(!panel->apply());
        QVERIFY(panel->fieldError("seed").contains("12abc"));
        seed->setText("123");
        QVERIFY(panel->apply());
        QCOMPARE(w.document()->experiment().seed, std::uint64_t(123));
    }

    // Dropping a file onto the window opens it.
    void dropOpensAFile() {
        MainWindow w;
        w.show();
        auto* mime = new QMimeData;
        mime->setUrls({QUrl::fromLocalFile(frontier_path_)});
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &drop);
        QTRY_COMPARE_WITH_TIMEOUT(w.document()->filePath(), QFileInfo(frontier_path_).absoluteFilePath(), test::kHangGuardMs);
        delete mime;
    }

    // The screenshot mode of the executable, and its argument errors (exit code 2).
    void screenshotCommandLine() {
        const QString exe = QString(SEBO_BINARY_DIR) + "/app/sebo-explorer";
        if (!QFileInfo(exe).isExecutable()) QSKIP("sebo-explorer is not built");
        const QString out = dir_.filePath("shot.png");
        QProcess p;
        // The child is not in Qt's test mode: give it its own settings folder.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("XDG_CONFIG_HOME", dir_.filePath("config"));
        env.insert("QT_QPA_PLATFORM", "offscreen");
        p.setProcessEnvironment(env);
        p.start(exe, {"--screenshot", out, frontier_path_});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QImage shot(out);
        QCOMPARE(shot.size(), QSize(1400, 900));
        QVERIFY(!QFileInfo::exists(dir_.filePath("config/SEBO/SEBO Explorer.conf")));

        // The size of a small laptop, in a dark palette: mostly dark pixels (the light default
        // is mostly light).
        auto mean_lightness = [](const QImage& image) {
            double sum = 0.0;
            int n = 0;
            for (int y = 0; y < image.height(); y += 7)
                for (int x = 0; x < image.width(); x += 7, ++n) sum += QColor(image.pixel(x, y)).lightness();
            return sum / n;
        };
        QVERIFY2(mean_lightness(shot) > 160, qPrintable(QString::number(mean_lightness(shot))));
        p.start(exe, {"--screenshot", out, "--size", "1024x700", "--palette", "dark", frontier_path_});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        shot = QImage(out);
        QCOMPARE(shot.size(), QSize(1024, 700));
        QVERIFY2(mean_lightness(shot) < 90, qPrintable(QString::number(mean_lightness(shot))));
        p.start(exe, {"--screenshot", out, "--palette", "purple", frontier_path_});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--palette: 'purple'"));

        p.start(exe, {"--screenshot", out, "--no-such-option"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("no-such-option"));
        p.start(exe, {"--screenshot", out, dir_.filePath("missing.sebo.json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("no such file"));
    }
};

SEBO_TEST_MAIN(TestMainWindow)
}  // namespace test_main_window
#include "test_main_window.moc"
