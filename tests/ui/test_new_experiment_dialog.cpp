// The New-experiment dialog on its own (no window): the parameter table's spreadsheet paste and
// its cell-by-cell validation, and experiments built from a built-in problem, from the user's own
// parameters, and with an external command split into an argv list.

#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

#include "new_experiment_dialog.h"
#include "outcome_table_editor.h"
#include "parameter_table_editor.h"
#include "test_main.h"

namespace test_new_experiment_dialog {

using namespace sebo;
using namespace sebo::ui;

class TestNewExperimentDialog : public QObject {
    Q_OBJECT

private slots:
    // The parameter table: spreadsheet paste, then a bad row refused at its cell.
    void parameterTablePasteAndValidation() {
        ParameterTableEditor editor;
        editor.setParameters({});
        QCOMPARE(editor.pasteText("name\tkind\tlower\tupper\tlog\ttarget\tgroup\n"
                                  "learning_rate\tcontinuous\t0.0001\t1\ttrue\t0.01\t\n"
                                  "layers\tinteger\t1\t8\t\t1\tarchitecture\r\n"
                                  "width\tint\t16\t512\t\t\tarchitecture\n"),
                 3);
        std::optional<SearchSpace> space = editor.readSpace();
        QVERIFY2(space.has_value(), qPrintable(editor.errorText()));
        QCOMPARE(space->dimension(), 3);
        QVERIFY(space->parameter(0).log_scale);
        QCOMPARE(*space->parameter(0).target, 0.01);
        QCOMPARE(space->parameter(1).kind, ParameterKind::Integer);
        QCOMPARE(space->parameter(2).resolved_target(), 16.0);  // 0 is outside [16, 512]
        QCOMPARE(space->group_count(), 2);

        QCOMPARE(editor.pasteText("depth\tinteger\t5\t2\n"), 1);  // upper below lower
        QVERIFY(!editor.readSpace());
        QVERIFY2(editor.errorText().contains("Row 4") && editor.errorText().contains("upper"),
                 qPrintable(editor.errorText()));
        QCOMPARE(editor.table()->currentRow(), 3);
        QCOMPARE(editor.table()->currentColumn(), int(ParameterTableEditor::Upper));

        editor.table()->item(3, ParameterTableEditor::Upper)->setText("abc");
        QVERIFY(!editor.readSpace());
        QVERIFY(editor.errorText().contains("'abc' is not a number"));
    }

    // New experiment from a built-in problem and from the user's own parameters.
    void newExperimentDialog() {
        NewExperimentDialog dialog;
        const int at = dialog.problemBox()->findData("sparse-quadratic");
        QVERIFY(at >= 0);
        dialog.problemBox()->setCurrentIndex(at);
        dialog.dimensionBox()->setValue(6);
        dialog.budgetBox()->setValue(12);
        dialog.seedEdit()->setText("5");
        std::optional<Experiment> e = dialog.buildExperiment();
        QVERIFY2(e.has_value(), qPrintable(dialog.errorText()));
        QCOMPARE(e->space.dimension(), 6);
        QCOMPARE(e->evaluator.kind, EvaluatorSpec::Kind::Problem);
        QCOMPARE(e->method.budget, 12);
        QCOMPARE(e->seed, std::uint64_t(5));

        dialog.seedEdit()->setText("-1");
        QVERIFY(!dialog.buildExperiment());
        QVERIFY(dialog.errorText().contains("Seed"));
        dialog.seedEdit()->setText("5");

        dialog.setSource(NewExperimentDialog::Source::OwnParameters);
        dialog.parameterEditor()->setParameters({});
        dialog.parameterEditor()->pasteText("temperature\tcontinuous\t20\t90\t\t25\t\nstir\tinteger\t0\t10\t\t\t\n");
        dialog.outcomesEditor()->table()->item(0, OutcomeTableEditor::Name)->setText("yield");
        dialog.outcomesEditor()->roleBox(0)->setCurrentIndex(0);  // maximize
        e = dialog.buildExperiment();
        QVERIFY2(e.has_value(), qPrintable(dialog.errorText()));
        QCOMPARE(e->space.dimension(), 2);
        QCOMPARE(e->primary_objective().metric, std::string("yield"));
        QVERIFY(!e->primary_objective().minimize);
        QCOMPARE(e->evaluator.kind, EvaluatorSpec::Kind::Manual);
        QVERIFY(!e->validate());

        // An external command: the text is split into an argv list (quotes respected), no shell.
        dialog.evaluatorBox()->setCurrentIndex(dialog.evaluatorBox()->findData(int(EvaluatorSpec::Kind::Command)));
        QVERIFY(dialog.commandEdit()->isEnabled());
        dialog.commandEdit()->setText("");
        QVERIFY(!dialog.buildExperiment());
        QVERIFY(dialog.errorText().contains("Command"));
        dialog.commandEdit()->setText(R"(/bin/sh "my script.sh" --rate=3 ; $(x))");
        dialog.timeoutBox()->setValue(120);
        e = dialog.buildExperiment();
        QVERIFY2(e.has_value(), qPrintable(dialog.errorText()));
        QCOMPARE(e->evaluator.kind, EvaluatorSpec::Kind::Command);
        const std::vector<std::string> argv = {"/bin/sh", "my script.sh", "--rate=3", ";", "$(x)"};
        QCOMPARE(e->evaluator.command, argv);
        QCOMPARE(e->evaluator.timeout_seconds, 120.0);
    }
};

SEBO_TEST_MAIN(TestNewExperimentDialog)
}  // namespace test_new_experiment_dialog
#include "test_new_experiment_dialog.moc"
