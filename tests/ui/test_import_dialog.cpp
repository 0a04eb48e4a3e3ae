// File › Import experiment… (issue 31): the preview of another tool's experiment (parameters and
// their kinds, objectives and constraints, trials by status, warnings), the target chosen as the
// status-quo arm, a trial from the list or per parameter, a storage's studies to choose from, a
// refused source, and the untitled experiment the main window opens from it (Save As makes it a
// file).

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include "experiment_document.h"
#include "import_dialog.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "message_bar.h"
#include "prompt_test_support.h"
#include "test_main.h"

namespace test_import_dialog {

using namespace sebo;
using namespace sebo::ui;

namespace {

QString fixture(const QString& name) { return QString(SEBO_SOURCE_DIR) + "/tests/fixtures/" + name; }

QString text(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString("(no cell)");
}

// The row of `name` in the first column.
int row_of(const QTableWidget* table, const QString& name) {
    for (int r = 0; r < table->rowCount(); ++r)
        if (text(table, r, 0) == name) return r;
    return -1;
}

}  // namespace

class TestImportDialog : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The hand-written Ax Client snapshot: what the preview shows, the status quo as the target.
    void ax_preview() {
        ImportDialog dialog(fixture("ax/ax_client_1x_handwritten.json"));
        QVERIFY2(dialog.hasImport(), qPrintable(dialog.errorText()));
        QVERIFY(!dialog.studyBox()->isVisibleTo(&dialog));
        QCOMPARE(dialog.sourceLabel()->text(),
                 QString("Ax Client snapshot (Ax 1.x), experiment 'reactor_yield' from ax_client_1x_handwritten.json"));
        const QTableWidget* p = dialog.parameterTable();
        QCOMPARE(p->rowCount(), 7);  // six that vary and the fixed reactor; batch is left out
        QCOMPARE(text(p, 0, ImportDialog::Name), QString("temperature"));
        QCOMPARE(text(p, 0, ImportDialog::Kind), QString("continuous"));
        QCOMPARE(text(p, 0, ImportDialog::Range), QString("[20, 90]"));
        QCOMPARE(text(p, row_of(p, "catalyst_g"), ImportDialog::Kind), QString("integer"));
        QCOMPARE(text(p, row_of(p, "stir_speed"), ImportDialog::Kind), QString("choice (ordered)"));
        QCOMPARE(text(p, row_of(p, "stir_speed"), ImportDialog::Range), QString("100 | 200 | 400"));
        QCOMPARE(text(p, row_of(p, "inert_gas"), ImportDialog::Range), QString("true | false"));
        QCOMPARE(text(p, row_of(p, "reactor"), ImportDialog::Kind), QString("fixed"));
        const QTableWidget* o = dialog.outcomeTable();
        QCOMPARE(o->rowCount(), 4);
        QCOMPARE(text(o, 0, ImportDialog::Role), QString("maximize"));
        QCOMPARE(text(o, 0, ImportDialog::Limit), QString("0.5"));
        QCOMPARE(text(o, 1, ImportDialog::Role), QString("minimize"));
        QCOMPARE(text(o, 2, ImportDialog::Metric), QString("cost"));
        QCOMPARE(text(o, 2, ImportDialog::Limit), QString("<= 100"));
        QCOMPARE(text(o, 3, ImportDialog::Role), QString("tracked"));
        QCOMPARE(dialog.trialSummary()->text(), QString("10 trials: 5 completed, 3 failed, 1 abandoned, 1 pending"));
        QCOMPARE(dialog.warningList()->count(), 3);
        QVERIFY(dialog.warningList()->item(0)->text().startsWith("fixed parameter 'batch' = B7 is left out"));

        // The status quo is the target, as `sebo new --from` has it.
        QVERIFY(dialog.statusQuoButton()->isEnabled());
        QVERIFY(dialog.statusQuoButton()->isChecked());
        QVERIFY(dialog.targetDescription().startsWith("the status-quo arm 'status_quo' (temperature = 25,"));
        QVERIFY(dialog.importButton()->isEnabled());
        const QTableWidget* t = dialog.targetTable();
        QCOMPARE(t->rowCount(), 6);
        QCOMPARE(text(t, row_of(t, "solvent"), 1), QString("water"));
        std::optional<Experiment> e = dialog.experiment();
        QVERIFY(e);
        QCOMPARE(e->space.target(), (std::vector<double>{25.0, 2.0, 0.0, 0.0, 1.0, 1.0}));
    }

    // A trial from the list, then one value changed by hand; a value that is not allowed.
    void ax_target_choice() {
        ImportDialog dialog(fixture("ax/ax_client_1x_handwritten.json"));
        dialog.trialButton()->setChecked(true);
        const int at = dialog.trialBox()->findText("Ax trial 3, arm 3_0 (completed)");
        QVERIFY(at >= 0);
        dialog.trialBox()->setCurrentIndex(at);
        QVERIFY2(dialog.targetDescription().startsWith("Ax trial 3, arm 3_0 (temperature = 55.5, pressure = 3, catalyst_g = 9, "
                                                      "solvent = ethanol"),
                 qPrintable(dialog.targetDescription()));
        QTableWidget* t = dialog.targetTable();
        QCOMPARE(text(t, row_of(t, "temperature"), 1), QString("55.5"));
        t->item(row_of(t, "temperature"), 1)->setText("30");
        QVERIFY2(dialog.targetDescription().contains("with the targets given for temperature (temperature = 30, pressure = 3"),
                 qPrintable(dialog.targetDescription()));
        QCOMPARE(dialog.experiment()->space.target()[0], 30.0);
        QCOMPARE(dialog.experiment()->space.target()[3], 1.0);  // ethanol, from trial 3
        // Not one of the choice's values: refused at once, Import disabled, the trial's others kept.
        t->item(row_of(t, "solvent"), 1)->setText("brine");
        QCOMPARE(dialog.errorText(), QString("Target of solvent: 'brine' is not one of the values water, ethanol, toluene"));
        QVERIFY(!dialog.importButton()->isEnabled());
        QVERIFY(!dialog.experiment());
        QCOMPARE(text(t, row_of(t, "pressure"), 1), QString("3"));
        // Another base drops what was typed.
        dialog.defaultRuleButton()->setChecked(true);
        QVERIFY(dialog.errorText().isEmpty());
        QVERIFY(dialog.targetDescription().startsWith("the default rule"));
        QCOMPARE(dialog.experiment()->space.target()[0], 20.0);  // 0 is outside [20, 90]: the lower bound
    }

    // An Optuna storage of two studies: both offered, the preview follows the one chosen.
    void optuna_studies() {
        ImportDialog dialog(fixture("optuna/studies.db"));
        QVERIFY(dialog.studyBox()->isVisibleTo(&dialog));
        QCOMPARE(dialog.studyBox()->count(), 2);
        QCOMPARE(dialog.studyBox()->itemText(0), QString("mlp (22 trials)"));
        QCOMPARE(dialog.parameterTable()->rowCount(), 8);
        QVERIFY(!dialog.statusQuoButton()->isEnabled());
        QVERIFY(dialog.defaultRuleButton()->isChecked());
        dialog.studyBox()->setCurrentIndex(1);
        QVERIFY(dialog.sourceLabel()->text().startsWith("Optuna SQLite storage (Optuna 3.1.0, schema 12), study 'service'"));
        QCOMPARE(dialog.parameterTable()->rowCount(), 3);
        QCOMPARE(dialog.outcomeTable()->rowCount(), 4);
        QCOMPARE(text(dialog.outcomeTable(), 2, ImportDialog::Metric), QString("constraint_0"));
        QCOMPARE(text(dialog.outcomeTable(), 2, ImportDialog::Limit), QString("<= 0"));
        QCOMPARE(dialog.trialSummary()->text(), QString("16 trials: 15 completed, 1 failed"));
        QCOMPARE(dialog.experiment()->name, std::string("service"));
    }

    void refused_source() {
        QTemporaryDir dir;
        const QString path = dir.filePath("broken.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"_type\": \"AxClient\", \"experiment\": {\"__type\": \"Experiment\"");
        f.close();
        ImportDialog dialog(path);
        QVERIFY(!dialog.hasImport());
        QVERIFY2(dialog.errorText().startsWith("not valid JSON"), qPrintable(dialog.errorText()));
        QVERIFY(!dialog.importButton()->isEnabled());
        QCOMPARE(dialog.sourceLabel()->text(), QString("Cannot import broken.json"));
    }

    // The window: the accepted preview opens as an untitled experiment, which Save As puts in a file.
    void main_window_opens_it_untitled() {
        MainWindow w;
        w.setPromptHandler(test::discard());
        int shown = 0;
        w.setDialogHandler([&](QDialog& dialog) {
            auto* import = qobject_cast<ImportDialog*>(&dialog);
            if (!import) return int(QDialog::Rejected);
            ++shown;
            import->trialButton()->setChecked(true);
            import->trialBox()->setCurrentIndex(import->trialBox()->findText("Ax trial 2 (completed)"));
            return int(QDialog::Accepted);
        });
        QVERIFY(w.importAction()->isEnabled());
        QVERIFY(w.importExperiment(fixture("ax/ax_client_snapshot_2025-02.json")));
        QCOMPARE(shown, 1);
        const ExperimentDocument* doc = w.document();
        QVERIFY(doc->hasExperiment());
        QCOMPARE(doc->access(), ExperimentDocument::Access::Untitled);
        QVERIFY(doc->filePath().isEmpty());
        QCOMPARE(doc->experiment().name, std::string("tune_cnn_on_mnist"));
        QCOMPARE(doc->experiment().trials.size(), std::size_t(26));
        QCOMPARE(doc->experiment().space.target(), doc->experiment().find_trial(2)->parameters);
        QVERIFY2(w.messageBar()->text().contains("Imported ax_client_snapshot_2025-02.json. Its target: Ax trial 2 (lr = "),
                 qPrintable(w.messageBar()->text()));

        QTemporaryDir dir;
        QVERIFY(w.saveFileAs(dir.filePath("cnn")));
        QCOMPARE(doc->filePath(), dir.filePath("cnn.sebo.json"));
        const Experiment saved = load_experiment(dir.filePath("cnn.sebo.json").toStdString());
        QCOMPARE(saved.trials.size(), std::size_t(26));
        QCOMPARE(saved.space.target(), doc->experiment().space.target());

        // Cancelled, or refused: the open experiment stays.
        w.setDialogHandler([](QDialog&) { return int(QDialog::Rejected); });
        QVERIFY(!w.importExperiment(fixture("optuna/studies.db")));
        QCOMPARE(doc->filePath(), dir.filePath("cnn.sebo.json"));
    }
};

SEBO_TEST_MAIN(TestImportDialog)
}  // namespace test_import_dialog
#include "test_import_dialog.moc"
