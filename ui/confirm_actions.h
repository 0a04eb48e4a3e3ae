#pragma once
// "Confirm with more measurements…" (issue 30 item 5), on a trial (the Trial menu and the trial's
// context menu) and on the whole frontier (the Trial menu): asks how many more measurements R, then
// adds R new pending trials with each configuration's parameter values (experiment/replicates.h's
// replicate_points, which `sebo confirm` uses too). A manual experiment's person measures them; an
// experiment whose evaluator runs by itself (a built-in problem, a command) evaluates pending trials
// before it proposes new ones (experiment/runner.h's evaluate_pending), so a run of that many steps
// starts at once through the main window's run path (the command confirmation, every trial saved as
// it completes). When it cannot start (a run is going, the command was not approved) the trials
// wait, and the next Step measures them: nothing is lost, and the budget is not in the way (they
// already count in it).
// Repeated configurations are one configuration in the analysis: the charts then show their mean,
// SEM and count, or the model's estimate (chart_source.h).
//
// The frontier's configurations are FrontierReport::pareto_trials (experiment/analytics.h).

#include <QDialog>
#include <QObject>
#include <functional>
#include <vector>

#include <QString>

class QAction;
class QLabel;
class QSpinBox;

namespace sebo::ui {

class ExperimentDocument;

// How many more measurements of the configurations listed.
class ConfirmDialog : public QDialog {
    Q_OBJECT
public:
    ConfirmDialog(const QString& what, bool manual, QWidget* parent = nullptr);
    QSpinBox* repeatsBox() const { return repeats_; }
    int repeats() const;

private:
    QSpinBox* repeats_;
};

class ConfirmActions : public QObject {
    Q_OBJECT
public:
    using DialogRunner = std::function<int(QDialog&)>;
    // Runs `steps` steps of the experiment's evaluator (each evaluates a pending trial first).
    struct PendingRunner {
        // Why a run cannot start now, leaving out the command approval that run() asks for (empty:
        // it can).
        std::function<QString()> cannot_run;
        // Starts the run; false when refused or the command was not approved.
        std::function<bool(int steps)> run;
        bool available() const { return cannot_run && run; }
    };

    ConfirmActions(ExperimentDocument* document, QWidget* dialog_parent);

    QAction* trialAction() const { return trial_; }
    QAction* frontierAction() const { return frontier_; }
    // Measures the added trials at once with an evaluator that runs by itself; without a runner they
    // wait for Step.
    void setPendingRunner(PendingRunner runner) { runner_ = std::move(runner); }
    // Runs the dialog that asks for R (the main window's, which tests answer).
    void setDialogRunner(DialogRunner runner) { dialog_runner_ = std::move(runner); }
    // Follows the document's selection and state.
    void update();

    // R more measurements of each trial's configuration, added pending and, when the evaluator runs
    // by itself and a run can start, measured at once. False, with failed(), when nothing was added.
    bool confirm(const std::vector<int>& trials, int repeats);
    // Asks for R, then confirm(); false when cancelled.
    bool confirmAsking(const std::vector<int>& trials);

signals:
    // A one-line summary for the status bar.
    void changed(const QString& summary);
    void failed(const QString& message);

private:
    bool manual() const;

    ExperimentDocument* document_;
    QWidget* dialog_parent_;
    QAction* trial_;
    QAction* frontier_;
    PendingRunner runner_;
    DialogRunner dialog_runner_;
};

}  // namespace sebo::ui
