#include "trial_exclusion_actions.h"

#include <QAction>
#include <QInputDialog>
#include <QLineEdit>
#include <QWidget>

#include "experiment/extreme_values.h"
#include "experiment_document.h"
#include "message_bar.h"

namespace sebo::ui {

TrialExclusionActions::TrialExclusionActions(ExperimentDocument* document, MessageBar* message_bar,
                                             QWidget* dialog_parent)
    : QObject(dialog_parent), document_(document), message_bar_(message_bar), dialog_parent_(dialog_parent) {
    toggle_ = new QAction(tr("E&xclude from analysis…"), this);
    toggle_->setToolTip(tr("Leave the selected trial out of the model, the frontier, the hypervolume and the "
                           "activation frequencies (its value is kept), or count it again"));
    connect(toggle_, &QAction::triggered, this, &TrialExclusionActions::toggleSelected);
    prompt_ = [this](int trial, const QString& suggested) -> std::optional<QString> {
        const Trial* t = document_->snapshot()->trial(trial);
        bool ok = false;
        const QString reason = QInputDialog::getText(
            dialog_parent_, tr("Exclude trial %1 from analysis").arg(trial),
            tr("Why is the value of trial %1 (%2) not to be trusted? It stays in the experiment, shown as a cross, "
               "and counts nowhere until you include it again.")
                .arg(trial)
                .arg(t && document_->experiment().objective_value(*t) ? display_number(*document_->experiment().objective_value(*t))
                                                                      : QString()),
            QLineEdit::Normal, suggested, &ok);
        if (!ok) return std::nullopt;
        return reason;
    };
    update();
}

void TrialExclusionActions::update() {
    const int selected = document_->selectedTrial();
    const Trial* t = selected >= 0 ? document_->snapshot()->trial(selected) : nullptr;
    const bool excluded = t && t->exclusion;
    toggle_->setText(excluded ? tr("I&nclude in analysis") : tr("E&xclude from analysis…"));
    toggle_->setEnabled(t && t->status == TrialStatus::Completed);
}

void TrialExclusionActions::toggleSelected() {
    const int trial = document_->selectedTrial();
    const Trial* t = trial >= 0 ? document_->snapshot()->trial(trial) : nullptr;
    if (!t) return;
    if (t->exclusion) {
        setExcluded(trial, std::nullopt);
        return;
    }
    const auto extreme = find_extreme_value(document_->experiment(), trial);
    const QString suggested = extreme ? tr("extreme value") : tr("implausible value");
    if (const auto reason = prompt_(trial, suggested)) setExcluded(trial, *reason);
}

bool TrialExclusionActions::setExcluded(int trial, const std::optional<QString>& reason) {
    const double before = document_->snapshot()->report.hypervolume;
    if (const auto error = document_->setExcluded(trial, reason)) {
        message_bar_->showMessage(MessageBar::Kind::Error, reason ? tr("Trial %1 could not be excluded: %2").arg(trial).arg(*error)
                                                                  : tr("Trial %1 could not be included: %2").arg(trial).arg(*error));
        return false;
    }
    const double after = document_->snapshot()->report.hypervolume;
    emit changed((reason ? tr("Trial %1 is excluded from analysis") : tr("Trial %1 counts in the analysis again")).arg(trial) +
                 tr(" · hypervolume %1 (was %2)").arg(display_number(after, 5), display_number(before, 5)));
    update();
    return true;
}

int TrialExclusionActions::checkNewValues(const QList<int>& trials) {
    const Experiment& e = document_->experiment();
    for (int trial : trials) {
        const auto extreme = find_extreme_value(e, trial);
        if (!extreme) continue;
        const QString text = QString::fromStdString(describe(*extreme));
        message_bar_->showMessage(MessageBar::Kind::Warning,
                                  tr("Extreme value: %1. If the measurement failed, exclude the trial: it stays in "
                                     "the experiment and counts nowhere (Trial › Include in analysis undoes it).")
                                      .arg(text));
        message_bar_->setAction(tr("Exclude trial %1").arg(trial), [this, trial, text] {
            setExcluded(trial, tr("extreme value (%1)").arg(text));
        });
        return trial;
    }
    return -1;
}

}  // namespace sebo::ui
