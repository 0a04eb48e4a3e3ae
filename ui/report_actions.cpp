#include "report_actions.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QWidget>
#include <exception>

#include "experiment_document.h"
#include "core/sha256.h"
#include "file_locations.h"
#include "io/file_io.h"
#include "report/report_file.h"

namespace sebo::ui {

ReportActions::ReportActions(ExperimentDocument* document, QWidget* parent)
    : QObject(parent), document_(document), parent_(parent) {
    export_ = new QAction(tr("Export re&port…"), this);
    export_->setObjectName("exportReportAction");
    export_->setToolTip(tr("Write a report to share: one HTML file with the question, the frontier, the chosen "
                           "configurations, warnings and where it came from (PDF when Chromium is installed)"));
    connect(export_, &QAction::triggered, this, &ReportActions::exportDialog);
    connect(document_, &ExperimentDocument::snapshotChanged, this, &ReportActions::update);
    connect(document_, &ExperimentDocument::experimentReplaced, this, &ReportActions::update);
    choose_path_ = [this](const QString& title, const QString& filters, const QString& suggested) {
        return QFileDialog::getSaveFileName(parent_, title, suggested, filters);
    };
    update();
}

void ReportActions::update() { export_->setEnabled(document_->hasExperiment()); }

std::optional<QString> ReportActions::exportTo(const QString& path) {
    if (!document_->hasExperiment()) return tr("There is no experiment to report on.");
    if (auto refused = refuse_bundled_path(path)) return refused;
    const ReportFormat format = path.endsWith(".pdf", Qt::CaseInsensitive) ? ReportFormat::Pdf : ReportFormat::Html;
    if (format == ReportFormat::Pdf && !find_browser())
        return QString::fromStdString(browser_missing_message()) + ".";
    try {
        // Where it came from: the file's own bytes when there is a file, and whether the experiment
        // shown here has changes not saved to it.
        ReportSource source;
        const QString file = document_->filePath();
        if (!file.isEmpty() && QFileInfo(file).isFile()) {
            source.path = file.toStdString();
            source.sha256 = sha256_hex(read_experiment_text(source.path));
            source.unsaved_changes = document_->isModified();
        }
        QApplication::setOverrideCursor(Qt::WaitCursor);  // a PDF takes the browser a few seconds
        struct RestoreCursor {
            ~RestoreCursor() { QApplication::restoreOverrideCursor(); }
        } restore;
        write_report(report_of(document_->experiment(), source), path.toStdString(), format);
    } catch (const std::exception& error) {
        return QString::fromStdString(error.what());
    }
    return std::nullopt;
}

void ReportActions::exportDialog() {
    if (!document_->hasExperiment()) return;
    const bool pdf = find_browser().has_value();
    const QString filters = pdf ? tr("HTML (*.html);;PDF (*.pdf)") : tr("HTML (*.html)");
    const QString file = document_->filePath();
    QString base = file.isEmpty() ? QStringLiteral("experiment") : QFileInfo(file).fileName();
    if (base.endsWith(".sebo.json")) base.chop(10);
    const QString suggested = base + "-report.html";
    const QString path = choose_path_(tr("Export report"), filters, suggested);
    if (path.isEmpty()) return;
    if (auto error = exportTo(path)) {
        emit failed(tr("Could not write the report %1: %2").arg(QDir::toNativeSeparators(path), *error));
        return;
    }
    emit exported(tr("Wrote the report %1").arg(QDir::toNativeSeparators(path)));
}

}  // namespace sebo::ui
