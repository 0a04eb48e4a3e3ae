#include "confirm_actions.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStringList>
#include <QVBoxLayout>
#include <exception>

#include "core/timestamp.h"
#include "experiment/replicates.h"
#include "experiment/runner.h"
#include "experiment_document.h"

namespace sebo::ui {

namespace {

constexpr int kDefaultRepeats = 2;
constexpr int kMaxRepeats = 100;
const char* const kGenerator = "confirm";

QString trial_names(const std::vector<int>& trials) {
    QStringList names;
    for (int t : trials) names << QString::number(t);
    return names.join(", ");
}

}  // namespace

ConfirmDialog::ConfirmDialog(const QString& what, bool manual, QWidget* parent) : QDialog(parent) {
    setObjectName("confirmDialog");
    setWindowTitle(tr("Confirm with more measurements"));
    auto* layout = new QVBoxLayout(this);
    auto* text = new QLabel(what, this);
    text->setWordWrap(true);
    layout->addWidget(text);
    auto* form = new QFormLayout;
    repeats_ = new QSpinBox(this);
    repeats_->setRange(1, kMaxRepeats);
    repeats_->setValue(kDefaultRepeats);
    repeats_->setAccessibleName(tr("More measurements of each configuration"));
    form->addRow(tr("More measurements of each:"), repeats_);
    layout->addLayout(form);
    auto* how = new QLabel(manual ? tr("They are added as pending trials: measure them and enter or import the results.")
                                  : tr("They are added as pending trials and measured at once with the experiment's "
                                       "evaluator, one per step (or by the next Step when a run cannot start now)."),
                           this);
    how->setWordWrap(true);
    layout->addWidget(how);
    auto* note = new QLabel(tr("Measurements of one configuration count as one in the analysis: the charts show their mean "
                               "and standard error, and the model weighs every one."),
                            this);
    note->setWordWrap(true);
    layout->addWidget(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

int ConfirmDialog::repeats() const { return repeats_->value(); }

ConfirmActions::ConfirmActions(ExperimentDocument* document, QWidget* dialog_parent)
    : QObject(dialog_parent), document_(document), dialog_parent_(dialog_parent) {
    trial_ = new QAction(tr("C&onfirm with more measurements…"), this);
    trial_->setObjectName("confirmTrialAction");
    connect(trial_, &QAction::triggered, this, [this] { confirmAsking({document_->selectedTrial()}); });
    frontier_ = new QAction(tr("Confirm the &frontier with more measurements…"), this);
    frontier_->setObjectName("confirmFrontierAction");
    connect(frontier_, &QAction::triggered, this, [this] {
        // A copy: adding the trials replaces the snapshot that holds the frontier's list.
        const std::vector<int> pareto = document_->snapshot()->report.pareto_trials;
        confirmAsking(pareto);
    });
    update();
}

bool ConfirmActions::manual() const {
    return !runner_.available() || document_->experiment().evaluator.kind == EvaluatorSpec::Kind::Manual;
}

void ConfirmActions::update() {
    const bool editable = document_->hasExperiment() && !document_->isReadOnly();
    const Trial* t = document_->snapshot()->trial(document_->selectedTrial());
    trial_->setEnabled(editable && t && t->status == TrialStatus::Completed);
    trial_->setToolTip(t ? tr("Measure trial %1's configuration again, to tell its true value from the noise").arg(t->index)
                         : tr("Select a completed trial first"));
    const std::size_t frontier = document_->snapshot()->report.pareto_trials.size();
    frontier_->setEnabled(editable && frontier > 0);
    frontier_->setToolTip(tr("Measure every configuration on the frontier again (%1 now)").arg(frontier));
}

bool ConfirmActions::confirmAsking(const std::vector<int>& trials) {
    if (trials.empty() || !document_->hasExperiment()) return false;
    const QString what = trials.size() == 1
                             ? tr("Measure the configuration of trial %1 again.").arg(trials.front())
                             : tr("Measure the %1 configurations of the frontier again (trials %2).")
                                   .arg(trials.size())
                                   .arg(trial_names(trials));
    ConfirmDialog dialog(what, manual(), dialog_parent_);
    const int answer = dialog_runner_ ? dialog_runner_(dialog) : dialog.exec();
    if (answer != QDialog::Accepted) return false;
    return confirm(trials, dialog.repeats());
}

bool ConfirmActions::confirm(const std::vector<int>& trials, int repeats) {
    std::vector<std::vector<double>> points;
    try {
        points = replicate_points(document_->experiment(), trials, repeats);
    } catch (const std::exception& error) {
        emit failed(tr("Nothing to confirm: %1").arg(QString::fromStdString(error.what())));
        return false;
    }
    const Experiment& e = document_->experiment();
    std::vector<Trial> added;
    int next = e.next_trial_index();
    const std::string now = utc_timestamp();
    for (std::vector<double>& point : points) {
        Trial t;
        t.index = next++;
        t.parameters = std::move(point);
        t.generator = kGenerator;
        t.created_at = now;
        added.push_back(std::move(t));
    }
    std::vector<int> indices;
    if (const auto error = document_->appendTrials(added, &indices)) {
        emit failed(tr("The trials were added but not saved: %1").arg(*error));
        return false;
    }
    const QString of = trials.size() == 1 ? tr("trial %1").arg(trials.front()) : tr("trials %1").arg(trial_names(trials));
    const QString what = (indices.size() == 1 ? tr("1 more measurement of %1").arg(of)
                                                : tr("%1 more measurements of %2").arg(indices.size()).arg(of));
    if (manual()) {
        emit changed(tr("Added %1 as pending trials %2: measure them and enter or import the results.")
                         .arg(what, trial_names(indices)));
        return true;
    }
    // The run evaluates the pending trials first (evaluate_pending), one per step.
    const QString why = runner_.cannot_run();
    if (why.isEmpty() && runner_.run(static_cast<int>(indices.size()))) {
        emit changed(tr("Measuring %1 (trials %2).").arg(what, trial_names(indices)));
        return true;
    }
    emit changed(tr("Added %1 as pending trials %2; Step measures them%3")
                     .arg(what, trial_names(indices), why.isEmpty() ? QString(".") : tr(" (not now: %1)").arg(why)));
    return true;
}

}  // namespace sebo::ui
