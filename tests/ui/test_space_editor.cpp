// The new-experiment dialog's parameter editor with every kind it has a row for (issue 14 item 7):
// fixed parameters (a value, bounds optional), min_change (units or N %; choices are
// test_choice_editor.cpp's), and the table of linear
// parameter constraints checked as they are typed — the parser's message with its column on the
// row, an empty feasible set or a target that violates a constraint under the table, and Create
// disabled meanwhile. A space file with fixed parameters and constraints loads into the editor
// and creates the same space as `sebo new --space` (the real CLI; the two files' "space" members
// are compared). Then the configuration inspector of such an experiment: fixed parameters last,
// marked "fixed" and never changed, and the minimum change in the value's tooltip.

#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include "configuration_inspector.h"
#include "configuration_model.h"
#include "experiment_document.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "new_experiment_dialog.h"
#include "outcome_table_editor.h"
#include "parameter_constraint_editor.h"
#include "parameter_table_editor.h"
#include "test_main.h"
#include "test_support.h"
#include "ui_test_support.h"

namespace test_space_editor {

using namespace sebo;
using namespace sebo::ui;

namespace {

// Two fractions with a minimum change, an integer, a log-scale parameter, two fixed parameters
// (one with bounds) and three constraints, one of which holds a fixed parameter as a constant.
// At the targets (fa 0, fb 0.1, threads 4): 0.1 <= 1, 4 >= 0, 0.3 <= 0.9.
const char* const kSpaceJson = R"({
  "parameters": [
    {"name": "fa", "lower": 0, "upper": 1, "min_change": "5%"},
    {"name": "fb", "lower": 0, "upper": 1, "target": 0.1, "min_change": 0.02},
    {"name": "threads", "kind": "integer", "lower": 1, "upper": 16, "target": 4},
    {"name": "cache_mb", "lower": 16, "upper": 4096, "log": true, "target": 64},
    {"name": "level", "kind": "fixed", "value": 3},
    {"name": "mode", "kind": "fixed", "value": 0.5, "lower": 0, "upper": 1}
  ],
  "parameter_constraints": ["fa + fb <= 1", "threads - 8*fa >= 0", "fa + level/10 <= 0.9"]
})";

void write_all(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

nlohmann::json read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return nlohmann::json::parse(f.readAll().toStdString());
}

QString cell(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString();
}

}  // namespace

class TestSpaceEditor : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }

private slots:
    void fixedParametersHaveTheirRow() {
        ParameterTableEditor editor;
        editor.setParameters({});
        QCOMPARE(editor.pasteText("name\tkind\tlower\tupper\tlog\ttarget\tgroup\tmin_change\tvalue\n"
                                  "ratio\tcontinuous\t0\t1\t\t\t\t2%\t\n"
                                  "level\tfixed\t\t\t\t\t\t\t3\n"
                                  "mode\tfixed\t0\t1\t\t\t\t\t0.25\n"),
                 3);
        std::optional<SearchSpace> space = editor.readSpace();
        QVERIFY2(space.has_value(), qPrintable(editor.errorText()));
        QCOMPARE(space->dimension(), 1);
        QCOMPARE(space->fixed_parameters().size(), std::size_t{2});
        const Parameter& level = space->fixed_parameters()[0];
        QCOMPARE(level.kind, ParameterKind::Fixed);
        QCOMPARE(level.resolved_target(), 3.0);
        QCOMPARE(level.lower, 3.0);
        QCOMPARE(level.upper, 3.0);
        const Parameter& mode = space->fixed_parameters()[1];
        QCOMPARE(mode.resolved_target(), 0.25);
        QCOMPARE(mode.lower, 0.0);
        QCOMPARE(mode.upper, 1.0);
        QVERIFY(space->parameter(0).min_change == std::optional<MinChange>(MinChange{2.0, true}));
        // Shown back as given: no bounds where none were given.
        editor.setSpace(*space);
        QTableWidget* t = editor.table();
        QCOMPARE(cell(t, 1, ParameterTableEditor::Kind), QString("fixed"));
        QCOMPARE(cell(t, 1, ParameterTableEditor::Value), QString("3"));
        QCOMPARE(cell(t, 1, ParameterTableEditor::Lower), QString());
        QCOMPARE(cell(t, 2, ParameterTableEditor::Lower), QString("0"));
        QCOMPARE(cell(t, 2, ParameterTableEditor::Value), QString("0.25"));

        // Each mistake at its cell, naming the value.
        // The error's cell is `at` (-1: the edited one).
        const auto refused = [&](int row, int column, const QString& text, const QString& expected, int at = -1) {
            const QString before = cell(t, row, column);
            t->item(row, column)->setText(text);
            const bool read = editor.readSpace().has_value();
            const QString error = editor.errorText();
            const int current = t->currentColumn();
            t->item(row, column)->setText(before);
            QVERIFY2(!read, qPrintable(expected));
            QVERIFY2(error.contains(expected), qPrintable(error));
            QCOMPARE(current, at < 0 ? column : at);
        };
        refused(1, ParameterTableEditor::Value, "", "Row 2, value: a fixed parameter needs a value");
        refused(1, ParameterTableEditor::Value, "three", "Row 2, value: 'three' is not a number");
        refused(1, ParameterTableEditor::Lower, "0", "Row 2, upper: a fixed parameter's bounds are both given or neither",
                ParameterTableEditor::Upper);
        refused(1, ParameterTableEditor::Target, "3", "Row 2, target: a fixed parameter has a value (column Value)");
        refused(2, ParameterTableEditor::Value, "2", "Row 3, value: 2 is outside the bounds [0, 1]");
        refused(2, ParameterTableEditor::MinChange, "1", "Row 3, min_change: a fixed parameter is never varied");
        refused(0, ParameterTableEditor::Value, "1", "Row 1, value: only a fixed parameter has a value; this one is continuous");
        refused(0, ParameterTableEditor::Kind, "discrete-ish", "Row 1, kind: 'discrete-ish' is not continuous, integer, choice or fixed");
        refused(0, ParameterTableEditor::Kind, "fixed", "Row 1, value: a fixed parameter needs a value",
                ParameterTableEditor::Value);
    }

    void constraintsAreCheckedAsTheyAreTyped() {
        const QString space_file = path("checked.json");
        write_all(space_file, kSpaceJson);
        NewExperimentDialog dialog;
        dialog.setSource(NewExperimentDialog::Source::OwnParameters);
        ParameterTableEditor* editor = dialog.parameterEditor();
        QVERIFY2(editor->loadFile(space_file), qPrintable(editor->errorText()));
        ParameterConstraintEditor* constraints = editor->constraintEditor();
        QTableWidget* t = constraints->table();
        QCOMPARE(t->rowCount(), 3);
        // Each row says what the parser reads: the canonical form.
        QCOMPARE(cell(t, 0, ParameterConstraintEditor::Check), QString("fa + fb <= 1"));
        QCOMPARE(cell(t, 1, ParameterConstraintEditor::Check), QString("threads - 8*fa >= 0"));
        QCOMPARE(cell(t, 2, ParameterConstraintEditor::Check), QString("fa + 0.1*level <= 0.9"));
        QVERIFY(constraints->acceptable());
        QVERIFY(dialog.createButton()->isEnabled());
        QCOMPARE(editor->tabs()->tabText(1), QString("Linear constraints (3)"));
        QVERIFY2(constraints->summaryLabel()->text().contains("the target point (the status quo) is one of them"),
                 qPrintable(constraints->summaryLabel()->text()));

        // A malformed row: the parser's message with its column, and Create waits.
        t->item(0, ParameterConstraintEditor::Text)->setText("fa + + fb <= 1");
        QVERIFY2(cell(t, 0, ParameterConstraintEditor::Check).startsWith("column 6: "),
                 qPrintable(cell(t, 0, ParameterConstraintEditor::Check)));
        QVERIFY(!constraints->acceptable());
        QVERIFY(!dialog.createButton()->isEnabled());
        QVERIFY2(dialog.createButton()->toolTip().contains("Constraint 1 ('fa + + fb <= 1'), column 6"),
                 qPrintable(dialog.createButton()->toolTip()));
        QCOMPARE(editor->tabs()->tabText(1), QString("Linear constraints (3) — to fix"));
        QVERIFY(!dialog.buildExperiment());
        t->item(0, ParameterConstraintEditor::Text)->setText("fa <= ");
        QVERIFY2(cell(t, 0, ParameterConstraintEditor::Check).startsWith("column 7: "),
                 qPrintable(cell(t, 0, ParameterConstraintEditor::Check)));
        // A log-scale parameter cannot be in a linear constraint.
        t->item(0, ParameterConstraintEditor::Text)->setText("cache_mb <= 100");
        QVERIFY2(cell(t, 0, ParameterConstraintEditor::Check).contains("log scale"),
                 qPrintable(cell(t, 0, ParameterConstraintEditor::Check)));
        QVERIFY(!dialog.createButton()->isEnabled());

        // Rows that parse but that no configuration satisfies together (fa, fb <= 1).
        t->item(0, ParameterConstraintEditor::Text)->setText("fa + fb >= 3");
        QCOMPARE(cell(t, 0, ParameterConstraintEditor::Check), QString("fa + fb >= 3"));
        QVERIFY2(constraints->summaryLabel()->text().contains("no configuration satisfies"),
                 qPrintable(constraints->summaryLabel()->text()));
        QVERIFY(!dialog.createButton()->isEnabled());
        // A target point (fa 0, fb 0.1) that violates one.
        t->item(0, ParameterConstraintEditor::Text)->setText("fa + fb >= 0.5");
        QVERIFY2(constraints->summaryLabel()->text().contains(
                     "the target point (every parameter at its target: the status quo) violates the parameter constraint "
                     "fa + fb >= 0.5 (fa + fb = 0.1 with fa = 0, fb = 0.1)"),
                 qPrintable(constraints->summaryLabel()->text()));
        QVERIFY(!dialog.createButton()->isEnabled());
        // An empty row is ignored.
        t->item(0, ParameterConstraintEditor::Text)->setText("  ");
        QVERIFY(constraints->acceptable());
        QVERIFY(dialog.createButton()->isEnabled());
        // Loaded constraints are shown in their canonical form.
        QCOMPARE(constraints->constraintTexts(), (QStringList{"threads - 8*fa >= 0", "fa + 0.1*level <= 0.9"}));

        // Editing the parameters re-reads the constraints: a renamed parameter is unknown.
        QTableWidget* parameters = editor->table();
        parameters->item(0, ParameterTableEditor::Name)->setText("alpha");
        QVERIFY2(cell(t, 1, ParameterConstraintEditor::Check).contains("fa"), qPrintable(cell(t, 1, ParameterConstraintEditor::Check)));
        QVERIFY(!constraints->acceptable());
        QVERIFY(!dialog.createButton()->isEnabled());
        parameters->item(0, ParameterTableEditor::Name)->setText("fa");
        QVERIFY(constraints->acceptable());
        // While a parameter cell is wrong the rows wait for it, and Create waits for the parameter.
        parameters->item(0, ParameterTableEditor::Upper)->setText("ten");
        QVERIFY(cell(t, 1, ParameterConstraintEditor::Check).contains("once the parameters are valid"));
        QVERIFY(!dialog.createButton()->isEnabled());
        QVERIFY2(dialog.createButton()->toolTip().contains("Fix the parameters first: Row 1, upper: 'ten' is not a number"),
                 qPrintable(dialog.createButton()->toolTip()));
        QVERIFY(!dialog.buildExperiment());
        QVERIFY2(dialog.errorText().contains("Row 1, upper: 'ten' is not a number"), qPrintable(dialog.errorText()));
        // Switching to the built-in problems does not hold Create back.
        parameters->item(0, ParameterTableEditor::Upper)->setText("1");
        t->item(1, ParameterConstraintEditor::Text)->setText("fa >= 2");
        QVERIFY(!dialog.createButton()->isEnabled());
        dialog.setSource(NewExperimentDialog::Source::BuiltInProblem);
        QVERIFY(dialog.createButton()->isEnabled());
        dialog.setSource(NewExperimentDialog::Source::OwnParameters);
        QVERIFY(!dialog.createButton()->isEnabled());
    }

    void spaceFileMakesTheSameSpaceAsSeboNew() {
        const QString space_file = path("space.json");
        write_all(space_file, kSpaceJson);
        // sebo new, the real CLI.
        const QString cli_file = path("cli.sebo.json");
        QProcess sebo;
        sebo.start(SEBO_CLI_PATH, {"new", "--space", space_file, "--objective", "throughput", "--out", cli_file, "--quiet"});
        QVERIFY(sebo.waitForFinished(test::kHangGuardMs));
        QVERIFY2(sebo.exitCode() == 0, sebo.readAllStandardError().constData());

        // The dialog, from the same file.
        NewExperimentDialog dialog;
        dialog.setSource(NewExperimentDialog::Source::OwnParameters);
        QVERIFY2(dialog.parameterEditor()->loadFile(space_file), qPrintable(dialog.parameterEditor()->errorText()));
        QCOMPARE(dialog.parameterEditor()->rowCount(), 6);
        dialog.outcomesEditor()->setOutcomes(Outcomes::single("throughput", false));
        std::optional<Experiment> e = dialog.buildExperiment();
        QVERIFY2(e.has_value(), qPrintable(dialog.errorText()));
        const QString gui_file = path("gui.sebo.json");
        save_experiment(*e, gui_file.toStdString());

        const nlohmann::json cli = read_json(cli_file), gui = read_json(gui_file);
        QVERIFY(cli.contains("space"));
        QVERIFY2(cli["space"] == gui["space"], (cli["space"].dump(1) + "\n---\n" + gui["space"].dump(1)).c_str());
        QCOMPARE(gui["space"]["parameter_constraints"].size(), std::size_t{3});
        QCOMPARE(e->space.fixed_parameters().size(), std::size_t{2});
    }

    void inspectorMarksFixedParameters() {
        // An experiment of the space above with one measured trial that changes fa and threads.
        const QString space_file = path("inspect.json");
        write_all(space_file, kSpaceJson);
        NewExperimentDialog dialog;
        dialog.setSource(NewExperimentDialog::Source::OwnParameters);
        QVERIFY(dialog.parameterEditor()->loadFile(space_file));
        dialog.outcomesEditor()->setOutcomes(Outcomes::single("throughput", false));
        std::optional<Experiment> e = dialog.buildExperiment();
        QVERIFY2(e.has_value(), qPrintable(dialog.errorText()));
        Trial t;
        t.index = 0;
        t.parameters = e->space.target();
        t.parameters[0] = 0.5;  // fa
        t.parameters[2] = 8;    // threads
        t.status = TrialStatus::Completed;
        t.values["throughput"] = {10.0, std::nullopt};
        t.generator = "manual";
        e->trials.push_back(t);
        const QString file = path("inspect.sebo.json");
        save_experiment(*e, file.toStdString());

        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(file));
        w.document()->setSelectedTrial(0);
        ConfigurationModel* model = w.inspector()->parameterModel();
        QCOMPARE(model->rowCount(), 6);
        QCOMPARE(model->changedCount(), 2);
        const QStringList names{"fa", "threads", "fb", "cache_mb", "level", "mode"};
        for (int r = 0; r < model->rowCount(); ++r) {
            const QModelIndex name = model->index(r, ConfigurationModel::Name);
            QCOMPARE(name.data().toString(), names[r]);
            const bool fixed = r >= 4;
            QCOMPARE(name.data(ConfigurationModel::FixedRole).toBool(), fixed);
            QCOMPARE(name.data(ConfigurationModel::ChangedRole).toBool(), r < 2);
            QCOMPARE(model->index(r, ConfigurationModel::Changed).data().toString(),
                     fixed ? QString("fixed") : r < 2 ? QString("changed") : QString());
        }
        QCOMPARE(model->index(4, ConfigurationModel::Value).data().toString(), QString("3"));
        QVERIFY2(model->index(4, ConfigurationModel::Value).data(Qt::ToolTipRole).toString().startsWith("Fixed at 3 "),
                 qPrintable(model->index(4, ConfigurationModel::Value).data(Qt::ToolTipRole).toString()));
        // The minimum change in the value's tooltip: fa's 5 %, and the default for threads.
        const QString fa_tip = model->index(0, ConfigurationModel::Value).data(Qt::ToolTipRole).toString();
        QVERIFY2(fa_tip.contains("Minimum change: 5%"), qPrintable(fa_tip));
        const QString threads_tip = model->index(1, ConfigurationModel::Value).data(Qt::ToolTipRole).toString();
        QVERIFY2(threads_tip.contains("Minimum change: 1% of the range (the default)"), qPrintable(threads_tip));
        QVERIFY2(w.inspector()->summaryText().contains("2 of 4 parameters changed from the target (and 2 fixed, never changed)"),
                 qPrintable(w.inspector()->summaryText()));
    }
};

SEBO_TEST_MAIN(TestSpaceEditor)
}  // namespace test_space_editor
#include "test_space_editor.moc"
