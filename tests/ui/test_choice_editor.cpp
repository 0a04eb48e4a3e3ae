// Choice parameters in the explorer's parameter editor (issue 14, item 7): a choice row typed into
// the New experiment dialog — its Values and Ordered columns, the cells a choice has not greyed,
// the engine's messages for an empty or repeated value and a target that is not among the values
// shown as they are typed with Create disabled — creates an experiment whose saved file holds the
// Parameter the space CSV loader gives for the same row; the README's example space opens and
// reads back unchanged; a JSON space's choice (a string value that reads as a number kept a
// string) reads back as the JSON loader gives it; a linear constraint naming a choice is refused
// with the engine's message. Then the exports marking a fixed parameter "fixed". (The parallel
// coordinates' choice axis: test_choice_display.cpp.)
//
// With SEBO_SCREENSHOT_DIR set, the dialog with its choice row is saved there as
// gui-choices-editor.png, and the editor with the README's space as gui-choices-readme-space.png
// (to look at; nothing is compared).

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>
#include <nlohmann/json.hpp>

#include "chosen_export.h"
#include "io/csv_export.h"
#include "io/experiment_file.h"
#include "io/space_file.h"
#include "new_experiment_dialog.h"
#include "outcome_table_editor.h"
#include "palette_colors.h"
#include "parameter_constraint_editor.h"
#include "parameter_table_editor.h"
#include "test_main.h"
#include "test_support.h"
#include "ui_test_support.h"

namespace test_choice_editor {

using namespace sebo;
using namespace sebo::ui;

namespace {

using E = ParameterTableEditor;

QString cell(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString();
}

// Every member of two parameters, named in the failure message.
QString difference(const Parameter& a, const Parameter& b) {
    QStringList d;
    if (a.name != b.name) d << "name";
    if (a.kind != b.kind) d << "kind";
    if (a.lower != b.lower) d << QString("lower %1 vs %2").arg(a.lower).arg(b.lower);
    if (a.upper != b.upper) d << QString("upper %1 vs %2").arg(a.upper).arg(b.upper);
    if (a.log_scale != b.log_scale) d << "log_scale";
    if (a.target != b.target) d << QString("target %1 vs %2").arg(a.target.value_or(-1)).arg(b.target.value_or(-1));
    if (a.group != b.group) d << "group";
    if (a.min_change != b.min_change) d << "min_change";
    if (a.values != b.values) d << "values";
    if (a.ordered != b.ordered) d << "ordered";
    return d.join(", ");
}

void compare_spaces(const SearchSpace& got, const SearchSpace& expected) {
    QCOMPARE(got.declared_parameters().size(), expected.declared_parameters().size());
    for (std::size_t i = 0; i < got.declared_parameters().size(); ++i) {
        const QString d = difference(got.declared_parameters()[i], expected.declared_parameters()[i]);
        QVERIFY2(d.isEmpty(), qPrintable(QString("parameter %1: %2").arg(i).arg(d)));
    }
}

// The ```csv block of the README's "Optimizing your own system".
std::string readme_space_csv() {
    QFile f(QString::fromStdString(test::source_path("README.md")));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QString text = QString::fromUtf8(f.readAll());
    const qsizetype section = text.indexOf("## Optimizing your own system");
    const QRegularExpression block("```csv\n(.*?)```", QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch m = block.match(text, section);
    return m.hasMatch() ? m.captured(1).toStdString() : std::string();
}

// Edits a cell through the table's delegate as a pick from its list would: the list offered, and
// `pick` chosen from it. Empty when the cell is edited as text.
QStringList pick_from_list(QTableWidget* table, int row, int column, const QString& pick) {
    QAbstractItemDelegate* delegate = table->itemDelegate();
    const QModelIndex index = table->model()->index(row, column);
    std::unique_ptr<QWidget> editor(delegate->createEditor(table->viewport(), QStyleOptionViewItem(), index));
    auto* combo = qobject_cast<QComboBox*>(editor.get());
    if (!combo) return {};
    QStringList items;
    for (int i = 0; i < combo->count(); ++i) items << combo->itemText(i);
    delegate->setEditorData(combo, index);
    combo->setCurrentIndex(combo->findText(pick));
    delegate->setModelData(combo, table->model(), index);
    return items;
}

void write_all(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

}  // namespace

class TestChoiceEditor : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void typedChoiceRowCreatesTheExperiment() {
        NewExperimentDialog dialog;
        dialog.setSource(NewExperimentDialog::Source::OwnParameters);
        dialog.outcomesEditor()->setOutcomes(Outcomes::single("throughput", false));
        ParameterTableEditor* editor = dialog.parameterEditor();
        QTableWidget* t = editor->table();
        editor->setParameters({});
        editor->addRow();  // x1, continuous, 0 … 1
        editor->addRow();
        QVERIFY(dialog.createButton()->isEnabled());
        QCOMPARE(t->columnCount(), int(E::ColumnCount));
        QCOMPARE(t->horizontalHeaderItem(E::Values)->text(), QString("Values"));
        QCOMPARE(t->horizontalHeaderItem(E::Ordered)->text(), QString("Ordered"));
        // A continuous row has no values: greyed and read-only while empty.
        QVERIFY(!(t->item(1, E::Values)->flags() & Qt::ItemIsEditable));
        QVERIFY(!(t->item(1, E::Ordered)->flags() & Qt::ItemIsUserCheckable));
        QVERIFY(t->item(1, E::Lower)->flags() & Qt::ItemIsEditable);

        // Row 2 becomes a choice, picked from the list of kinds: its bounds go, and are greyed; the
        // values are asked for.
        t->item(1, E::Name)->setText("codec");
        QCOMPARE(pick_from_list(t, 1, E::Kind, "choice"), (QStringList{"continuous", "integer", "choice", "fixed"}));
        QCOMPARE(cell(t, 1, E::Kind), QString("choice"));
        QCOMPARE(pick_from_list(t, 1, E::Target, "x"), QStringList());  // no values yet: typed
        for (int c : {int(E::Lower), int(E::Upper), int(E::MinChange), int(E::Value)}) {
            QCOMPARE(cell(t, 1, c), QString());
            QVERIFY2(!(t->item(1, c)->flags() & Qt::ItemIsEditable), qPrintable(t->horizontalHeaderItem(c)->text()));
            QVERIFY(t->item(1, c)->background().style() != Qt::NoBrush);
            QCOMPARE(t->item(1, c)->toolTip(), QString("Does not apply to a choice parameter"));
        }
        QVERIFY(!(t->item(1, E::Log)->flags() & Qt::ItemIsUserCheckable));
        QVERIFY(t->item(1, E::Values)->flags() & Qt::ItemIsEditable);
        QVERIFY(t->item(1, E::Ordered)->flags() & Qt::ItemIsUserCheckable);
        QVERIFY(t->item(1, E::Target)->flags() & Qt::ItemIsEditable);
        const auto refused = [&](const QString& expected) {
            QVERIFY2(editor->errorText().contains(expected), qPrintable(editor->errorText()));
            QVERIFY(!editor->acceptable());
            QVERIFY(!dialog.createButton()->isEnabled());
            QVERIFY2(dialog.createButton()->toolTip().contains(expected), qPrintable(dialog.createButton()->toolTip()));
        };
        refused("Row 2, values: a choice parameter needs its values, separated by |");
        QCOMPARE(t->item(1, E::Values)->background().color(), tone_background(t->palette(), Tone::Error));

        // The engine's messages as they are typed, naming the row, the column and the value.
        t->item(1, E::Values)->setText("none|lz4|lz4");
        refused("Row 2, values: 'lz4' appears twice (values 2 and 3)");
        t->item(1, E::Values)->setText("none||zstd");
        refused("Row 2, values: value 2 is empty");
        t->item(1, E::Values)->setText("none");
        refused("Row 2, values: a choice needs at least two values, got 1");
        t->item(1, E::Values)->setText("none|lz4|zstd");
        QVERIFY2(editor->acceptable(), qPrintable(editor->problem()));
        QVERIFY(dialog.createButton()->isEnabled());
        t->item(1, E::Target)->setText("brotli");
        refused("Row 2, target: 'brotli' is not one of the values 'none|lz4|zstd'");
        QCOMPARE(t->item(1, E::Target)->background().color(), tone_background(t->palette(), Tone::Error));
        // Picked from the row's values instead.
        QCOMPARE(pick_from_list(t, 1, E::Target, "lz4"), (QStringList{"none", "lz4", "zstd"}));
        QCOMPARE(cell(t, 1, E::Target), QString("lz4"));
        QVERIFY2(editor->acceptable(), qPrintable(editor->problem()));
        QCOMPARE(pick_from_list(t, 0, E::Target, "0"), QStringList());  // a number's target is typed
        t->item(1, E::Ordered)->setCheckState(Qt::Checked);
        // A choice with a log scale is the engine's message too.
        t->item(1, E::Log)->setCheckState(Qt::Checked);
        refused("Row 2, log: a choice has no scale");
        t->item(1, E::Log)->setCheckState(Qt::Unchecked);
        // Values on a continuous row are refused where they are.
        t->item(0, E::Values)->setText("a|b");
        refused("Row 1, values: only a choice parameter has values; this one is continuous");
        t->item(0, E::Values)->setText("");
        QVERIFY2(editor->acceptable(), qPrintable(editor->problem()));
        QVERIFY(editor->errorText().isEmpty());
        QVERIFY(dialog.createButton()->isEnabled());

        // A linear constraint naming the choice is refused with the engine's message.
        ParameterConstraintEditor* constraints = editor->constraintEditor();
        constraints->setConstraints({"x1 + codec <= 1"});
        QVERIFY2(cell(constraints->table(), 0, ParameterConstraintEditor::Check)
                     .contains("it is a choice; constraints are linear in numeric parameters"),
                 qPrintable(cell(constraints->table(), 0, ParameterConstraintEditor::Check)));
        QVERIFY(!dialog.createButton()->isEnabled());
        constraints->setConstraints({"x1 <= 0.9"});
        QVERIFY(dialog.createButton()->isEnabled());

        if (const QString shots = qEnvironmentVariable("SEBO_SCREENSHOT_DIR"); !shots.isEmpty()) {
            dialog.resize(1100, 640);
            t->item(1, E::Target)->setText("brotli");  // with its message
            t->setCurrentCell(1, E::Values);
            QVERIFY(dialog.grab().save(QDir(shots).filePath("gui-choices-editor.png")));
            t->item(1, E::Target)->setText("lz4");
        }

        // Create: the saved file holds the parameter the space CSV gives for the same row.
        QTest::mouseClick(dialog.createButton(), Qt::LeftButton);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const QString file = dir_.filePath("typed.sebo.json");
        save_experiment(dialog.experiment(), file.toStdString());
        const Experiment saved = load_experiment(file.toStdString());
        const SearchSpace csv = space_from_csv_text(
            "name,kind,lower,upper,target,values,ordered\nx1,continuous,0,1,,,\ncodec,choice,,,lz4,none|lz4|zstd,true\n", "space.csv");
        compare_spaces(saved.space, csv);
        const Parameter& codec = saved.space.parameter(1);
        QCOMPARE(codec.kind, ParameterKind::Choice);
        QCOMPARE(codec.target, std::optional<double>(1.0));
        QVERIFY(codec.ordered);
        QCOMPARE(QString::fromStdString(value_text(codec, 2.0)), QString("zstd"));
        QCOMPARE(saved.space.constraint_text(0), std::string("x1 <= 0.9"));
    }

    // Changing a kind back from choice gives the row a number's cells again.
    void kindChangesBackFromChoice() {
        ParameterTableEditor editor;
        editor.setParameters({});
        QCOMPARE(editor.pasteText("level\tchoice\t\t\t\tfast\t\t\t\tslow|fast\ttrue\n"), 1);
        QTableWidget* t = editor.table();
        QVERIFY2(editor.acceptable(), qPrintable(editor.problem()));
        QCOMPARE(t->item(0, E::Ordered)->checkState(), Qt::Checked);
        t->item(0, E::Kind)->setText("int");
        QCOMPARE(cell(t, 0, E::Kind), QString("integer"));
        QCOMPARE(cell(t, 0, E::Values), QString());
        QCOMPARE(cell(t, 0, E::Target), QString());
        QCOMPARE(t->item(0, E::Ordered)->checkState(), Qt::Unchecked);
        QCOMPARE(cell(t, 0, E::Lower), QString("0"));
        QCOMPARE(cell(t, 0, E::Upper), QString("1"));
        QVERIFY2(editor.acceptable(), qPrintable(editor.problem()));
        // A pasted choice row with bounds is refused at the bound (it is not emptied for it).
        QCOMPARE(editor.pasteText("codec\tchoice\t0\t\t\t\t\t\t\ta|b\n"), 1);
        QVERIFY2(editor.problem().contains("Row 2, lower: '0': a choice parameter has values (column Values"),
                 qPrintable(editor.problem()));
        QVERIFY(t->item(1, E::Lower)->flags() & Qt::ItemIsEditable);  // so that it can be emptied
        t->item(1, E::Lower)->setText("");
        QVERIFY2(editor.acceptable(), qPrintable(editor.problem()));
        QVERIFY(!(t->item(1, E::Lower)->flags() & Qt::ItemIsEditable));
    }

    // The README's own-system example, codec and log_level included, opens and reads back the same.
    void readmeExampleRoundTrips() {
        const std::string csv = readme_space_csv();
        QVERIFY2(csv.find("codec,choice") != std::string::npos, csv.c_str());
        const QString path = dir_.filePath("space.csv");
        write_all(path, QByteArray::fromStdString(csv));
        ParameterTableEditor editor;
        QVERIFY2(editor.loadFile(path), qPrintable(editor.errorText()));
        QVERIFY(editor.errorText().isEmpty());
        const SearchSpace loaded = load_space_file(path.toStdString());
        QCOMPARE(editor.rowCount(), int(loaded.declared_parameters().size()));
        QTableWidget* t = editor.table();
        int codec = -1;
        for (int r = 0; r < t->rowCount(); ++r)
            if (cell(t, r, E::Name) == "codec") codec = r;
        QVERIFY(codec >= 0);
        QCOMPARE(cell(t, codec, E::Kind), QString("choice"));
        QCOMPARE(cell(t, codec, E::Values), QString("none|lz4|zstd"));
        QCOMPARE(cell(t, codec, E::Target), QString("none"));
        QCOMPARE(cell(t, codec, E::Lower), QString());
        std::optional<SearchSpace> read = editor.readSpace();
        QVERIFY2(read.has_value(), qPrintable(editor.errorText()));
        compare_spaces(*read, loaded);
        if (const QString shots = qEnvironmentVariable("SEBO_SCREENSHOT_DIR"); !shots.isEmpty()) {
            editor.resize(1000, 330);
            QVERIFY(editor.grab().save(QDir(shots).filePath("gui-choices-readme-space.png")));
        }
    }

    // A JSON space's choice values: the string "4" stays a string (the typed text "4" would be the
    // number 4), 8 a number; a target given as a value; ordered.
    void jsonChoiceRoundTrips() {
        const QString path = dir_.filePath("space.json");
        write_all(path, R"({"parameters": [
            {"name": "level", "kind": "choice", "values": ["4", 8, "max"], "target": 8, "ordered": true},
            {"name": "mode", "kind": "choice", "values": ["a", "b"]},
            {"name": "x", "lower": 0, "upper": 1}]})");
        ParameterTableEditor editor;
        QVERIFY2(editor.loadFile(path), qPrintable(editor.errorText()));
        QTableWidget* t = editor.table();
        QCOMPARE(cell(t, 0, E::Values), QString("4|8|max"));
        QCOMPARE(cell(t, 0, E::Target), QString("8"));
        QCOMPARE(cell(t, 1, E::Target), QString());  // unset: the first value
        std::optional<SearchSpace> read = editor.readSpace();
        QVERIFY2(read.has_value(), qPrintable(editor.errorText()));
        const SearchSpace loaded = load_space_file(path.toStdString());
        QVERIFY(!loaded.parameter(0).values[0].number);
        QCOMPARE(loaded.parameter(0).values[1].number, std::optional<double>(8.0));
        compare_spaces(*read, loaded);
        // Edited, the text is read as the space CSV reads it: now "4" is a number.
        t->item(0, E::Values)->setText("4|8|max|min");
        read = editor.readSpace();
        QVERIFY2(read.has_value(), qPrintable(editor.errorText()));
        QCOMPARE(read->parameter(0).values.size(), std::size_t{4});
        QCOMPARE(read->parameter(0).values[0].number, std::optional<double>(4.0));
    }

    // Exports mark a fixed parameter: the CSV's changed column says "fixed", the JSON names it.
    void exportsSayFixed() {
        Parameter a;
        a.name = "a";
        Parameter level;
        level.name = "level";
        level.kind = ParameterKind::Fixed;
        level.target = 3.0;
        level.lower = level.upper = 3.0;
        Parameter codec;
        codec.name = "codec";
        codec.kind = ParameterKind::Choice;
        codec.values = {{"none", std::nullopt}, {"lz4", std::nullopt}};
        Experiment e;
        e.name = "pinned";
        e.space = SearchSpace({a, level, codec});
        e.outcomes = Outcomes::single("y", false);
        Trial t;
        t.index = 0;
        t.status = TrialStatus::Completed;
        t.parameters = {0.5, 1.0};
        t.values["y"] = Measurement{2.0, std::nullopt};
        e.trials.push_back(t);
        e.chosen.push_back({0, "pinned level"});

        const QStringList csv = QString::fromStdString(chosen_to_csv(e, false)).trimmed().split('\n');
        QCOMPARE(csv, (QStringList{"trial,note,parameter,value,target,changed", "0,pinned level,a,0.5,0,true",
                                   "0,pinned level,level,3,3,fixed", "0,pinned level,codec,lz4,none,true"}));
        // Changed only: a fixed parameter never changes, so it is left out.
        QVERIFY(chosen_to_csv(e, true).find(",level,") == std::string::npos);
        QVERIFY(chosen_to_csv(e, true).find(",codec,") != std::string::npos);

        const nlohmann::json json = nlohmann::json::parse(chosen_to_json(e, false));
        const nlohmann::json& c = json["configurations"][0];
        QCOMPARE(c["parameters"]["level"].get<int>(), 3);
        QCOMPARE(c["parameters"]["codec"].get<std::string>(), std::string("lz4"));
        QCOMPARE(c["fixed"], nlohmann::json::array({"level"}));
        QCOMPARE(c["note"].get<std::string>(), std::string("pinned level"));
        QVERIFY(!nlohmann::json::parse(chosen_to_json(e, true))["configurations"][0].contains("fixed"));
        // One configuration, as copied or exported from the context menu.
        QVERIFY(configuration_text(e, 0, false, ExportFormat::Csv).contains("\nlevel,3,3,fixed\n"));
    }
};

SEBO_TEST_MAIN(TestChoiceEditor)
}  // namespace test_choice_editor
#include "test_choice_editor.moc"
