#pragma once
// "Run an external command?" — the confirmation before an experiment's external command runs for
// the first time (SPEC §7). It shows everything that will run, as `sebo run` does
// (evaluators/command_review.h): the program resolved to an absolute path, every argument, the
// folder, the timeout and concurrency, and every environment variable the file adds or changes.
// A variable that can hijack the program (LD_PRELOAD, PATH, PYTHONPATH, ...) is refused, with the
// engine's message, unless its box is ticked; Run stays disabled until then. "Trust this file's
// command" keeps the approval across sessions (command_trust_store.h).

#include <QDialog>
#include <QList>
#include <QString>
#include <QStringList>

#include "evaluators/command_review.h"

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace sebo::ui {

class CommandTrustDialog : public QDialog {
    Q_OBJECT
public:
    // `source` names where the experiment comes from (its file, or "this new experiment");
    // `can_trust`: whether the experiment has a file the trust can be kept for.
    CommandTrustDialog(CommandReview review, const QString& source, bool can_trust, QWidget* parent = nullptr);

    const CommandReview& review() const { return review_; }
    // Everything the dialog says, as plain text: where the command comes from, the review, and
    // the refusal of every variable not ticked.
    QString text() const;
    // The engine's messages for the hijacking variables that are not ticked (empty: it may run).
    QStringList refusals() const;

    QStringList hijackingVariables() const;
    QStringList allowedVariables() const;
    // Ticks (or unticks) the box of a hijacking variable; false when the file sets no such one.
    bool setAllowed(const QString& name, bool allowed);
    bool trustRequested() const;
    void setTrustRequested(bool trust);
    QCheckBox* trustBox() const { return trust_; }
    QPushButton* runButton() const { return run_; }

private:
    void updateRefusals();

    CommandReview review_;
    QString intro_;
    QPlainTextEdit* details_;
    QList<QCheckBox*> allow_;  // one per hijacking variable, in the file's order
    QLabel* refusals_label_ = nullptr;
    QCheckBox* trust_;
    QPushButton* run_;
};

}  // namespace sebo::ui
