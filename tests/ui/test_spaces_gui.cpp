// The explorer's side of issue 14, items 4–6: the parameter table's "Min change" column, the New
// experiment dialog's "Measure the status quo first", the method panel's sparsity range (its
// errors under the field), the frontier chart's shading outside that range, and the status quo
// trial labelled as such in the trials table and the inspector.

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QTableWidget>
#include <QtTest>

#include "configuration_inspector.h"
#include "experiment/status_quo.h"
#include "experiment_document.h"
#include "frontier_chart_view.h"
#include "main_window.h"
#include "prompt_test_support.h"
#include "method_panel.h"
#include "new_experiment_dialog.h"
#include "outcome_table_editor.h"
#include "parameter_table_editor.h"
#include "trials_table_model.h"
#include "ui_test_support.h"
#include "test_main.h"

namespace test_spaces_gui {

using namespace sebo;
using namespace sebo::ui;
using sebo::test::discard;

namespace {

// The 10-parameter quadratic run with the status quo first.
Experiment status_quo_experiment(int trials) {
    Experiment e = test::small_problem_experiment();
    e.method.status_quo_first = true;
    return test::run_with_engine(e, trials);
}

}  // namespace

class TestSpacesGui : public QObject {
    Q_OBJECT

private slots:
    void minChangeColumn() {
        ParameterTableEditor editor;
        editor.setParameters({});
        QCOMPARE(editor.pasteText("name\tkind\tlower\tupper\tlog\ttarget\tgroup\tmin_change\n"
                                  "timeout\tcontinuous\t1\t60\t\t30\t\t5%\n"
                                  "workers\tinteger\t1\t32\t\t4\t\t2\n"
                                  "ratio\tcontinuous\t0\t1\t\t\t\t\n"),
                 3);
        std::optional<SearchSpace> space = editor.readSpace();
        QVERIFY2(space.has_value(), qPrintable(editor.errorText()));
        QVERIFY(space->parameter(0).min_change == std::optional<MinChange>(MinChange{5.0, true}));
        QVERIFY(space->parameter(1).min_change == std::optional<MinChange>(MinChange{2.0, false}));
        QVERIFY(!space->parameter(2).min_change);
        // Shown back as it was given.
        editor.setParameters(space->parameters());
        QCOMPARE(editor.table()->item(0, ParameterTableEditor::MinChange)->text(), QString("5%"));
        QCOMPARE(editor.table()->item(1, ParameterTableEditor::MinChange)->text(), QString("2"));
        // Bad cells are refused at the cell, naming the value.
        editor.table()->item(1, ParameterTableEditor::MinChange)->setText("a bit");
        QVERIFY(!editor.readSpace());
        QVERIFY2(editor.errorText().contains("Row 2, min change: 'a bit' is not a number or a percentage"),
                 qPrintable(editor.errorText()));
        QCOMPARE(editor.table()->currentColumn(), int(ParameterTableEditor::MinChange));
        editor.table()->item(1, ParameterTableEditor::MinChange)->setText("40");
        QVERIFY(!editor.readSpace());
        QVERIFY2(editor.errorText().contains("Row 2, min_change: '40' is larger than the range 31"),
                 qPrintable(editor.errorText()));
        QCOMPARE(editor.table()->currentColumn(), int(ParameterTableEditor::MinChange));
    }

    void dialogMeasuresTheStatusQuoFirst() {
        NewExperimentDialog dialog;
        dialog.setSource(NewExperimentDialog::Source::OwnParameters);
        dialog.parameterEditor()->setParameters({});
        dialog.parameterEditor()->pasteText("temperature\tcontinuous\t20\t90\t\t25\t\t2.5\n");
        dialog.outcomesEditor()->setOutcomes(Outcomes::single("yield", false));
        QVERIFY(dialog.statusQuoBox()->isChecked());
        std::optional<Experiment> e = dialog.buildExperiment();
        QVERIFY2(e.has_value(), qPrintable(dialog.errorText()));
        QVERIFY(e->method.status_quo_first);
        QVERIFY(e->space.parameter(0).min_change == std::optional<MinChange>(MinChange{2.5, false}));
        dialog.statusQuoBox()->setChecked(false);
        e = dialog.buildExperiment();
        QVERIFY(e.has_value() && !e->method.status_quo_first);
    }

    void methodPanelSetsTheSparsityRange() {
        MainWindow w;
        w.setPromptHandler(discard());
        Experiment e = test::run_with_engine(test::small_problem_experiment(), 4);
        e.method.strategy = StrategyKind::SeboL0;
        QVERIFY(w.newExperiment(e));
        MethodPanel* panel = w.methodPanel();
        auto* max = qobject_cast<QLineEdit*>(panel->fieldEditor("method.max_active"));
        auto* min = qobject_cast<QLineEdit*>(panel->fieldEditor("method.min_active"));
        QVERIFY(max && min);
        QVERIFY(max->text().isEmpty() && min->text().isEmpty());
        max->setText("3");
        emit max->textEdited(max->text());
        min->setText("1");
        QVERIFY(panel->apply());
        QCOMPARE(w.document()->experiment().method.max_active, std::optional<int>(3));
        QCOMPARE(w.document()->experiment().method.min_active, std::optional<int>(1));
        // The rules land under their fields.
        max->setText("11");
        emit max->textEdited(max->text());
        QVERIFY(!panel->apply());
        QVERIFY2(panel->fieldError("method.max_active").contains("11 is above the 10 parameters"),
                 qPrintable(panel->fieldError("method.max_active")));
        max->setText("2");
        min->setText("3");
        QVERIFY(!panel->apply());
        QVERIFY2(panel->fieldError("method.min_active").contains("3 is above max_active 2"),
                 qPrintable(panel->fieldError("method.min_active")));
        min->setText("");
        max->setText("");
        QVERIFY(panel->apply());
        QVERIFY(!w.document()->experiment().method.max_active && !w.document()->experiment().method.min_active);
    }

    // Counts outside [N, M] are shaded; D = 10, so the axis runs from −0.5 to 10.5.
    void frontierShadesOutsideTheRange() {
        Experiment e = test::run_with_engine(test::small_problem_experiment(), 6);
        FrontierChartView chart;
        chart.resize(900, 600);
        chart.setSnapshot(make_snapshot(e, 1));
        QVERIFY(chart.rangeShade().bands().empty());
        e.method.max_active = 4;
        e.method.min_active = 2;
        chart.setSnapshot(make_snapshot(e, 2));
        using Bands = std::vector<std::pair<double, double>>;
        QCOMPARE(chart.rangeShade().bands(), (Bands{{-0.5, 1.5}, {4.5, 10.5}}));
        e.method.min_active.reset();
        chart.setSnapshot(make_snapshot(e, 3));
        QCOMPARE(chart.rangeShade().bands(), (Bands{{4.5, 10.5}}));
    }

    void statusQuoIsLabelled() {
        const Experiment e = status_quo_experiment(3);
        QCOMPARE(QString::fromStdString(e.trials[0].generator), QString(kStatusQuoGenerator));
        const SnapshotPtr snapshot = make_snapshot(e, 1);
        TrialsTableModel model;
        model.setSnapshot(snapshot);
        QCOMPARE(model.data(model.index(0, model.column(TrialsTableModel::Generator))).toString(), QString("status quo"));
        QCOMPARE(model.data(model.index(1, model.column(TrialsTableModel::Generator))).toString(), QString("sobol"));
        ConfigurationInspector inspector;
        inspector.setSnapshot(snapshot);
        inspector.setTrial(0);
        QVERIFY2(inspector.titleText().contains("the status quo"), qPrintable(inspector.titleText()));
        QVERIFY2(inspector.summaryText().contains("status quo (every parameter at its target"),
                 qPrintable(inspector.summaryText()));
        inspector.setTrial(1);
        QVERIFY(!inspector.titleText().contains("status quo"));
    }
};

SEBO_TEST_MAIN(TestSpacesGui)
}  // namespace test_spaces_gui
#include "test_spaces_gui.moc"
