#include "save_status_label.h"

#include <QDir>
#include <QFileInfo>
#include <QTime>

#include "experiment_document.h"

namespace sebo::ui {

SaveStatusLabel::SaveStatusLabel(ExperimentDocument* document, QWidget* parent) : QLabel(parent), document_(document) {
    setObjectName("saveStatus");
    setTextFormat(Qt::PlainText);
    const auto reset = [this] {
        saved_at_.clear();
        refresh();
    };
    connect(document_, &ExperimentDocument::experimentReplaced, this, reset);
    connect(document_, &ExperimentDocument::filePathChanged, this, reset);
    connect(document_, &ExperimentDocument::accessChanged, this, &SaveStatusLabel::refresh);
    connect(document_, &ExperimentDocument::autosaved, this, [this] {
        saved_at_ = QTime::currentTime().toString("HH:mm:ss");
        refresh();
    });
    refresh();
}

void SaveStatusLabel::refresh() {
    if (!document_->hasExperiment()) {
        clear();
        setToolTip({});
        return;
    }
    switch (document_->access()) {
    case ExperimentDocument::Access::ReadOnly:
        setText(tr("Read-only"));
        setToolTip(document_->readOnlyReason());
        return;
    case ExperimentDocument::Access::Writable: {
        const QString name = QFileInfo(document_->filePath()).fileName();
        setText(saved_at_.isEmpty() ? tr("Autosaves to %1").arg(name) : tr("Autosaved to %1 at %2").arg(name, saved_at_));
        setToolTip(tr("Every completed trial is written to %1 at once.")
                       .arg(QDir::toNativeSeparators(document_->filePath())));
        return;
    }
    case ExperimentDocument::Access::Untitled:
        if (document_->recoveryPath().isEmpty()) {
            setText(tr("Not saved to a file yet"));
            setToolTip(tr("Save As puts it in a file of your own; until then new trials are autosaved to a recovery "
                          "file."));
        } else {
            setText(tr("Autosaved to a recovery file at %1").arg(saved_at_));
            setToolTip(tr("%1\nSave As keeps the experiment in a file of your own.")
                           .arg(QDir::toNativeSeparators(document_->recoveryPath())));
        }
        return;
    }
}

}  // namespace sebo::ui
