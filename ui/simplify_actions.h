#pragma once
// The Trial › Simplify… action (issue 16; also in the trial context menu): enabled for a trial the
// model can simplify, otherwise disabled with a tooltip saying why (experiment/simplify.h); it
// opens a SimplifyDialog for the selected trial. The main window only places the action.

#include <QObject>
#include <QPointer>
#include <QString>

#include "step_runner.h"

class QAction;
class QWidget;

namespace sebo::ui {

class ExperimentDocument;
class SimplifyDialog;

class SimplifyActions : public QObject {
    Q_OBJECT
public:
    SimplifyActions(ExperimentDocument* document, QWidget* dialog_parent);

    QAction* simplifyAction() const { return simplify_; }
    // The dialog opened last, while it is open.
    SimplifyDialog* dialog() const;

    // How the dialogs run steps with the experiment's evaluator (the main window's run path);
    // without one they only add steps as pending trials.
    void setStepRunner(StepRunner runner) { runner_ = std::move(runner); }

    // Follows the document's selection and state.
    void update();
    // Opens the dialog for the selected trial (when the action is enabled).
    void simplifySelected();
    // The main window's run ended: the open dialog says what its run recorded.
    void runEnded(const QString& message);

signals:
    // A one-line summary for the status bar after steps were added.
    void changed(const QString& summary);

private:
    ExperimentDocument* document_;
    QWidget* dialog_parent_;
    QAction* simplify_;
    QPointer<SimplifyDialog> dialog_;
    StepRunner runner_;
};

}  // namespace sebo::ui
