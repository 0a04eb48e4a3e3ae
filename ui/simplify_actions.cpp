#include "simplify_actions.h"

#include <QAction>
#include <QWidget>

#include "experiment/simplify.h"
#include "experiment_document.h"
#include "simplify_dialog.h"

namespace sebo::ui {

SimplifyActions::SimplifyActions(ExperimentDocument* document, QWidget* dialog_parent)
    : QObject(dialog_parent), document_(document), dialog_parent_(dialog_parent) {
    simplify_ = new QAction(tr("&Simplify…"), this);
    simplify_->setObjectName("simplifyAction");
    connect(simplify_, &QAction::triggered, this, &SimplifyActions::simplifySelected);
    update();
}

SimplifyDialog* SimplifyActions::dialog() const { return dialog_.data(); }

void SimplifyActions::update() {
    const int selected = document_->selectedTrial();
    std::optional<std::string> why;
    if (!document_->hasExperiment() || selected < 0)
        why = "select a completed trial";
    else
        why = simplify_unavailable(document_->experiment(), selected);
    simplify_->setEnabled(!why);
    simplify_->setToolTip(why ? tr("Cannot simplify: %1").arg(QString::fromStdString(*why))
                              : tr("The model's predicted path from trial %1 to the target, one reset parameter per step")
                                    .arg(selected));
}

void SimplifyActions::simplifySelected() {
    const int trial = document_->selectedTrial();
    if (!document_->hasExperiment() || simplify_unavailable(document_->experiment(), trial)) return;
    if (dialog_) dialog_->close();
    auto* dialog = new SimplifyDialog(document_, trial, dialog_parent_, runner_);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SimplifyDialog::stepsAdded, this, &SimplifyActions::changed);
    dialog_ = dialog;
    dialog->show();
}

void SimplifyActions::runEnded(const QString& message) {
    if (dialog_) dialog_->runEnded(message);
}

}  // namespace sebo::ui
