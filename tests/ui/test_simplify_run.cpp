// Issue 16 item 3 in the window, with several objectives and an outcome constraint: the Simplify
// dialog's table and charts show every objective's predicted mean ± sd and the probability of
// feasibility (as experiment/simplify.h computes them), and "Run selected steps" runs a chosen
// step through the main window's run path — the command confirmation first — with a real command
// evaluator (a small awk script among the test fixtures): its result is recorded in the file like any run.

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>

#include "command_trust_dialog.h"
#include "experiment_document.h"
#include "experiment_snapshot.h"
#include "experiment/sobol_strategy.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "run_controller.h"
#include "simplify_actions.h"
#include "simplify_dialog.h"
#include "test_support.h"
#include "ui_test_support.h"
#include "test_main.h"

namespace test_simplify_run {

using namespace sebo;
using namespace sebo::ui;

namespace {

// yield = Σ x (maximized), cost = Σ x² (minimized), subject to cost <= 1.5; the evaluator
// tests/fixtures/evaluators/yield_and_cost.sh computes the same from the trial document.
double yield_of(const std::vector<double>& x) {
    double s = 0.0;
    for (double v : x) s += v;
    return s;
}
double cost_of(const std::vector<double>& x) {
    double s = 0.0;
    for (double v : x) s += v * v;
    return s;
}


}  // namespace

class TestSimplifyRun : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString path(const QString& name) const { return QDir(dir_.path()).canonicalPath() + "/" + name; }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
    }

    void pathOfEveryObjectiveAndARunStep() {
        // Three parameters in [0, 1] (target 0), twelve Sobol trials measured with the same formulas.
        Experiment e;
        e.name = "two objectives";
        std::vector<Parameter> parameters;
        for (const char* name : {"x0", "x1", "x2"})
            parameters.push_back(Parameter{name, ParameterKind::Continuous, 0.0, 1.0, false, std::nullopt, {}, {}, {}, false});
        e.space = SearchSpace(parameters);
        e.outcomes.metrics = {"yield", "cost"};
        e.outcomes.objectives = {Objective{"yield", false, std::nullopt}, Objective{"cost", true, std::nullopt}};
        e.outcomes.constraints = {OutcomeConstraint{"cost", ConstraintSense::AtMost, 1.5}};
        e.evaluator.kind = EvaluatorSpec::Kind::Command;
        e.evaluator.command = {"sh", test::source_path("tests/fixtures/evaluators/yield_and_cost.sh")};
        e.evaluator.timeout_seconds = 60;
        e.method.strategy = StrategyKind::Sobol;
        e.method.model = ModelKind::Gp;
        e.method.initial_trials = 12;
        e.method.budget = 20;
        e.seed = 3;
        const auto points = next_sobol_points(e, 12);
        for (int i = 0; i < 12; ++i) {
            Trial t;
            t.index = i;
            t.parameters = points[static_cast<std::size_t>(i)];
            t.status = TrialStatus::Completed;
            t.values["yield"] = {yield_of(t.parameters), std::nullopt};
            t.values["cost"] = {cost_of(t.parameters), std::nullopt};
            t.generator = "sobol";
            e.trials.push_back(t);
        }
        QVERIFY2(!e.validate(), e.validate().value_or("").c_str());
        const QString file = path("two.sebo.json");
        save_experiment(e, file.toStdString());

        MainWindow w;
        w.setRememberRecentFiles(false);
        w.setPromptHandler([](const QString&, const QString&, QMessageBox::StandardButtons, QMessageBox::StandardButton) {
            return QMessageBox::Discard;
        });
        int asked = 0;
        w.setDialogHandler([&asked](QDialog& dialog) {
            if (!qobject_cast<CommandTrustDialog*>(&dialog)) return int(QDialog::Rejected);
            ++asked;
            return int(QDialog::Accepted);
        });
        QVERIFY(w.openFile(file));
        // A feasible trial with all three parameters changed.
        int trial = -1;
        for (const Trial& t : e.trials)
            if (cost_of(t.parameters) <= 1.5 && e.space.active_count(t.parameters) == 3) trial = t.index;
        QVERIFY(trial >= 0);
        w.document()->setSelectedTrial(trial);
        QVERIFY2(w.simplifyActions()->simplifyAction()->isEnabled(), qPrintable(w.simplifyActions()->simplifyAction()->toolTip()));
        w.simplifyActions()->simplifyAction()->trigger();
        SimplifyDialog* dialog = w.simplifyActions()->dialog();
        QVERIFY(dialog);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isComputing(), test::kHangGuardMs);
        QVERIFY2(dialog->outcome().ok, qPrintable(dialog->outcome().message));

        // Columns: changed, each objective ± sd, P(feasible), reset, within tolerance.
        QTableWidget* table = dialog->table();
        QStringList headers;
        for (int c = 0; c < table->columnCount(); ++c) headers << table->horizontalHeaderItem(c)->text();
        QCOMPARE(headers, (QStringList{"Changed", "yield ± sd", "cost ± sd", "P(feasible)", "Reset at this step", "Within tolerance"}));
        const SimplifyPath& simplified = dialog->outcome().path;
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(static_cast<int>(simplified.steps.size()), 4);
        for (int r = 0; r < table->rowCount(); ++r) {
            const SimplifyStep& s = simplified.steps[static_cast<std::size_t>(r)];
            QCOMPARE(s.objectives.size(), std::size_t{2});
            QVERIFY(s.feasibility.has_value());
            QVERIFY(*s.feasibility >= 0.0 && *s.feasibility <= 1.0);
            QCOMPARE(table->item(r, 1)->text(), display_number(s.objectives[0].mean) + " ± " + display_number(s.objectives[0].sd, 3));
            QCOMPARE(table->item(r, 2)->text(), display_number(s.objectives[1].mean) + " ± " + display_number(s.objectives[1].sd, 3));
            QCOMPARE(table->item(r, 3)->text(), display_number(*s.feasibility, 3));
        }
        // A chart per objective (mean and ± sd) and one of the probability (its mean only, on [0, 1]).
        QCOMPARE(dialog->chartViews().size(), std::size_t{3});
        for (int q = 0; q < 3; ++q) {
            const QList<QAbstractSeries*> series = dialog->chartViews()[static_cast<std::size_t>(q)]->chart()->series();
            QCOMPARE(series.size(), q < 2 ? 3 : 1);
            auto* mean = static_cast<QLineSeries*>(series.back());
            QCOMPARE(mean->count(), 4);
            for (int r = 0; r < 4; ++r) {
                const SimplifyStep& s = simplified.steps[static_cast<std::size_t>(r)];
                const double expected = q < 2 ? s.objectives[static_cast<std::size_t>(q)].mean : *s.feasibility;
                QCOMPARE(mean->at(r).x(), static_cast<double>(s.changed.size()));
                QCOMPARE(mean->at(r).y(), expected);
            }
        }

        // Run the one-changed step with the experiment's command.
        QVERIFY(!dialog->runButton()->isEnabled());  // nothing selected
        table->selectRow(2);
        QVERIFY2(dialog->runButton()->isEnabled(), qPrintable(dialog->runButton()->toolTip()));
        const std::vector<double> step = simplified.steps[2].parameters;
        QCOMPARE(e.space.active_count(step), 1);
        QSignalSpy finished(w.controller(), &RunController::runFinished);
        QVERIFY(dialog->runSelectedSteps());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, test::kHangGuardMs);
        QCOMPARE(finished.at(0).at(0).value<RunEnd>(), RunEnd::Finished);
        QCOMPARE(asked, 1);  // the command confirmation came first
        // Recorded like any run: completed, the script's values, in the file.
        const Experiment on_disk = load_experiment(file.toStdString());
        QCOMPARE(on_disk.trials.size(), std::size_t{13});
        const Trial& run = on_disk.trials.back();
        QCOMPARE(run.index, 12);
        QCOMPARE(run.generator, std::string("simplify"));
        QCOMPARE(run.status, TrialStatus::Completed);
        QCOMPARE(run.parameters, step);
        QCOMPARE(run.value("yield").value_or(-1.0), yield_of(step));
        QCOMPARE(run.value("cost").value_or(-1.0), cost_of(step));

        // A manual experiment's steps are added as pending, not run.
        Experiment manual = on_disk;
        manual.evaluator = {};
        manual.evaluator.kind = EvaluatorSpec::Kind::Manual;
        const QString manual_file = path("manual.sebo.json");
        save_experiment(manual, manual_file.toStdString());
        QVERIFY(w.openFile(manual_file));
        w.document()->setSelectedTrial(trial);
        w.simplifyActions()->simplifyAction()->trigger();
        dialog = w.simplifyActions()->dialog();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isComputing(), test::kHangGuardMs);
        dialog->table()->selectRow(1);
        QVERIFY(dialog->addButton()->isEnabled());
        QVERIFY(!dialog->runButton()->isEnabled());
        QVERIFY2(dialog->runButton()->toolTip().contains("entered by hand"), qPrintable(dialog->runButton()->toolTip()));
    }
};

SEBO_TEST_MAIN(TestSimplifyRun)
}  // namespace test_simplify_run
#include "test_simplify_run.moc"
