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
#include "io/csv_table.h"
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
    const QString name = QFileInfo(path).fileName();
    ResultsImportPlan plan;
    try {
        // The engine's reader and matching, as `sebo observe --csv` and `sebo import` use them.
        plan = plan_results_import(document_->experiment(), read_text_file(path.toStdString()), name.toStdString());
    } catch (const std::exception& error) {
        showError(tr("Could not import %1:\n%2\nNo result was recorded.")
                      .arg(QDir::toNativeSeparators(path), QString::fromStdString(error.what())));
        return false;
    }
    // The first few problems, one a line.
    const auto listed = [](const QStringList& lines) {
        constexpr int kShown = 5;
        QStringList shown = lines.mid(0, kShown);
        if (lines.size() > kShown) shown << tr("… and %1 more").arg(lines.size() - kShown);
        return shown.join("\n");
    };

    if (plan.kind == ResultsImportPlan::Kind::PastTrials) {
        if (!plan.problems.isEmpty()) {
            showError(tr("%1 holds no result of a pending trial, and as past measurements %2 of its rows cannot be "
                         "imported; nothing was imported:\n%3")
                          .arg(name)
                          .arg(plan.problems.size())
                          .arg(listed(plan.problems)));
            return false;
        }
        const auto answer =
            ask(tr("Import past measurements?"),
                tr("No row of %1 names a pending trial or has a pending trial's parameter values. Add its %2 as "
                   "completed trials (generator \"import\"), as `sebo import` does?")
                    .arg(name, count_text(static_cast<long long>(plan.trials.size()), tr("row"), tr("rows"))),
                QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
        if (answer != QMessageBox::Yes) return false;
        const std::size_t count = plan.trials.size();
        if (auto error = document_->importTrials(std::move(plan.trials))) {
            showError(tr("Could not save the imported trials: %1").arg(*error));
            return false;
        }
        QString text = tr("Imported %1 from %2.")
                           .arg(count_text(static_cast<long long>(count), tr("past measurement"), tr("past measurements")), name);
        if (!plan.notes.isEmpty())
            text += " " + tr("%1 outside the parameter constraints (imported as data).")
                              .arg(count_text(plan.notes.size(), tr("row is"), tr("rows are")));
        showInfo(text);
        QList<int> added;
        const Experiment& e = document_->experiment();
        for (std::size_t i = e.trials.size() - count; i < e.trials.size(); ++i) added << e.trials[i].index;
        exclusion_->checkNewValues(added);
        return true;
    }

    if (plan.results.empty()) {
        if (plan.problems.isEmpty()) {
            QStringList why;
            if (plan.skipped > 0 || plan.recorded == 0)
                why << tr("%1 without a value yet").arg(count_text(plan.skipped, tr("row"), tr("rows")));
            if (plan.recorded > 0) why << tr("%1 already recorded").arg(count_text(plan.recorded, tr("row"), tr("rows")));
            showInfo(tr("Nothing to record from %1: %2.").arg(name, why.join(tr(", "))));
            return true;
        }
        showError(tr("No row of %1 could be recorded:\n%2").arg(name, listed(plan.problems)));
        return false;
    }
    if (!plan.problems.isEmpty()) {
        // As `sebo observe --csv --partial`, on request only.
        const auto answer = ask(tr("Record part of the sheet?"),
                                tr("%1 of the rows of %2 cannot be used:\n%3\n\nRecord the %4 that match pending "
                                   "trials and leave the others?")
                                    .arg(plan.problems.size())
                                    .arg(name, listed(plan.problems))
                                    .arg(count_text(static_cast<long long>(plan.results.size()), tr("result"), tr("results"))),
                                QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes) {
            showError(tr("Nothing was recorded from %1:\n%2").arg(name, listed(plan.problems)));
            return false;
        }
    }
    if (auto error = document_->recordResults(plan.results)) {
        showError(tr("Could not record the imported results: %1").arg(*error));
        return false;
    }
    QString text =
        tr("Imported %1 from %2.").arg(count_text(static_cast<long long>(plan.results.size()), tr("result"), tr("results")), name);
    if (plan.skipped > 0)
        text += " " + tr("%1 still without a value.").arg(count_text(plan.skipped, tr("row"), tr("rows")));
    // Rows of trials measured before (the sheet of every trial, read back): left as they are.
    if (plan.recorded > 0)
        text += " " + tr("%1 already recorded.").arg(count_text(plan.recorded, tr("row is"), tr("rows are")));
    if (!plan.problems.isEmpty()) text += " " + tr("%1 left out.").arg(count_text(plan.problems.size(), tr("row"), tr("rows")));
    if (const int pending = document_->experiment().count(TrialStatus::Pending); pending > 0)
        text += " " + tr("%1 still waiting for a result.").arg(count_text(pending, tr("trial"), tr("trials")));
    showInfo(text);
    QList<int> recorded;
    for (const ObservedResult& r : plan.results) recorded << r.trial;
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
