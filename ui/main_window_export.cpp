// MainWindow: exporting chosen configurations, trials and charts, copying a configuration,
// importing results, and their dialogs (the class is in main_window.h).

#include "main_window.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <exception>
#include <optional>

#include "activation_chart_view.h"
#include "chosen_export.h"
#include "experiment_document.h"
#include "file_locations.h"
#include "central_charts.h"
#include "frontier_chart_view.h"
#include "hypervolume_chart_view.h"
#include "io/csv_export.h"
#include "resource_paths.h"
#include "results_import.h"
#include "trial_exclusion_actions.h"

namespace sebo::ui {

namespace {

// Writes text atomically (temporary file + rename), like the engine's saves.
std::optional<QString> write_text_file(const QString& path, const QString& text) {
    if (auto refused = refuse_bundled_path(path)) return refused;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) return file.errorString();
    file.write(text.toUtf8());
    if (!file.commit()) return file.errorString();
    return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Export

bool MainWindow::exportChosen(const QString& path, bool changed_only) {
    const Experiment& e = document_->experiment();
    if (e.chosen.empty()) {
        showError(tr("No configuration is chosen yet: select a trial and tick Chosen in the Configuration panel."));
        return false;
    }
    QString text;
    try {
        text = QString::fromStdString(export_format_for(path) == ExportFormat::Csv ? chosen_to_csv(e, changed_only)
                                                                                   : chosen_to_json(e, changed_only));
    } catch (const std::exception& error) {
        showError(tr("Could not export the chosen configurations: %1").arg(QString::fromStdString(error.what())));
        return false;
    }
    if (auto error = write_text_file(path, text)) {
        showError(tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), *error));
        return false;
    }
    statusBar()->showMessage(tr("Exported %1 to %2")
                                 .arg(count_text(static_cast<long long>(e.chosen.size()), tr("chosen configuration"),
                                                 tr("chosen configurations")),
                                      QDir::toNativeSeparators(path)),
                             5000);
    return true;
}

bool MainWindow::exportConfiguration(int trial, const QString& path, bool changed_only) {
    QString text;
    try {
        text = configuration_text(document_->experiment(), trial, changed_only, export_format_for(path));
    } catch (const std::exception& error) {
        showError(QString::fromStdString(error.what()));
        return false;
    }
    if (auto error = write_text_file(path, text)) {
        showError(tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), *error));
        return false;
    }
    statusBar()->showMessage(tr("Exported trial %1 to %2").arg(trial).arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool MainWindow::exportTrials(const QString& path) {
    if (auto error = write_text_file(path, QString::fromStdString(trials_to_csv(document_->experiment())))) {
        showError(tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), *error));
        return false;
    }
    statusBar()->showMessage(tr("Exported the trials to %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool MainWindow::importResults(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        showError(tr("Could not read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return false;
    }
    ResultsImport imported;
    try {
        imported = parse_results_csv(file.readAll().toStdString(), document_->experiment());
    } catch (const std::exception& error) {
        showError(tr("Could not import %1:\n%2\nNo result was recorded.")
                      .arg(QDir::toNativeSeparators(path), QString::fromStdString(error.what())));
        return false;
    }
    if (auto error = document_->recordResults(imported.rows)) {
        showError(tr("Could not record the imported results: %1").arg(*error));
        return false;
    }
    QString text = tr("Imported %1 from %2.")
                       .arg(count_text(static_cast<long long>(imported.rows.size()), tr("result"), tr("results")),
                            QFileInfo(path).fileName());
    if (imported.skipped_not_pending > 0)
        text += " " + tr("Skipped %1 that already had a result.")
                          .arg(count_text(imported.skipped_not_pending, tr("row"), tr("rows")));
    if (imported.skipped_empty > 0)
        text += " " + tr("%1 still without a value.")
                          .arg(count_text(imported.skipped_empty, tr("pending trial"), tr("pending trials")));
    showInfo(text);
    QList<int> recorded;
    for (const ResultRow& row : imported.rows) recorded << row.trial;
    exclusion_->checkNewValues(recorded);
    return true;
}

bool MainWindow::exportChart(Chart chart, const QString& path) {
    // The frontier chart, or with several objectives the chart of the tab shown in the middle.
    const ChartPanel* panel = chart == Chart::Frontier      ? qobject_cast<ChartPanel*>(charts_->currentWidget())
                              : chart == Chart::Hypervolume ? static_cast<ChartPanel*>(hypervolume_)
                                                            : static_cast<ChartPanel*>(activation_);
    const bool svg = path.endsWith(".svg", Qt::CaseInsensitive);
    std::optional<QString> error = refuse_bundled_path(path);
    if (!error) error = svg ? panel->saveSvg(path) : panel->savePng(path);
    if (error) {
        showError(*error);
        return false;
    }
    statusBar()->showMessage(tr("Saved the chart to %1").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

void MainWindow::copyConfiguration(int trial) {
    if (!document_->snapshot()->trial(trial)) return;
    try {
        const QString text =
            configuration_text(document_->experiment(), trial, changed_only_->isChecked(), ExportFormat::Json);
        QApplication::clipboard()->setText(text);
        statusBar()->showMessage(tr("Copied trial %1 to the clipboard as JSON").arg(trial), 5000);
    } catch (const std::exception& error) {
        showError(QString::fromStdString(error.what()));
    }
}

// ---------------------------------------------------------------------------------------------
// Export dialogs (thin: ask for a path, then call the functions above)

void MainWindow::exportChosenDialog() {
    const QString path = askSavePath(tr("Export chosen configurations"), tr("JSON (*.json);;CSV (*.csv)"),
                                     "chosen-configurations.json");
    if (!path.isEmpty()) exportChosen(path, changed_only_->isChecked());
}

void MainWindow::exportConfigurationDialog(int trial) {
    if (!document_->snapshot()->trial(trial)) return;
    const QString path = askSavePath(tr("Export configuration of trial %1").arg(trial),
                                     tr("JSON (*.json);;CSV (*.csv)"), QString("trial-%1.json").arg(trial));
    if (!path.isEmpty()) exportConfiguration(trial, path, changed_only_->isChecked());
}

void MainWindow::exportTrialsDialog() {
    const QString path = askSavePath(tr("Export trials"), tr("CSV (*.csv)"), "trials.csv");
    if (!path.isEmpty()) exportTrials(path);
}

void MainWindow::exportChartDialog(Chart chart) {
    const QString name = chart == Chart::Frontier ? "frontier" : chart == Chart::Hypervolume ? "hypervolume" : "activation";
    const QString filters = ChartPanel::svgExportAvailable() ? tr("PNG image (*.png);;SVG image (*.svg)")
                                                             : tr("PNG image (*.png)");
    const QString path = askSavePath(tr("Export chart"), filters, name + ".png");
    if (!path.isEmpty()) exportChart(chart, path);
}

void MainWindow::importResultsDialog() {
    auto settings = make_settings();
    const QString dir = dialogDirectory();
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import results"), dir, tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty()) return;
    settings->setValue("lastDirectory", QFileInfo(path).absolutePath());
    importResults(path);
}

}  // namespace sebo::ui
