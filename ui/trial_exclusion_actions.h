#pragma once
// Excluding trials from analysis in the window (experiment/trial_exclusion.h): the Trial ›
// Exclude from analysis… / Include in analysis action for the selected trial (also in the
// trials table's context menu), and — when a new value is extreme next to the others
// (experiment/extreme_values.h) — a warning in the message bar with an "Exclude trial N" button.
// The main window only places the action and reports new values; everything else is here.

#include <QList>
#include <QObject>
#include <QString>
#include <functional>
#include <optional>

class QAction;
class QWidget;

namespace sebo::ui {

class ExperimentDocument;
class MessageBar;

class TrialExclusionActions : public QObject {
    Q_OBJECT
public:
    // Asks for the reason to exclude `trial`, starting from `suggested`; unset when cancelled.
    // The default is a text input dialog; tests install their own.
    using ReasonPrompt = std::function<std::optional<QString>(int trial, const QString& suggested)>;

    TrialExclusionActions(ExperimentDocument* document, MessageBar* message_bar, QWidget* dialog_parent);

    // Toggles the selected trial: "Exclude from analysis…" or "Include in analysis".
    QAction* toggleAction() const { return toggle_; }
    void setReasonPrompt(ReasonPrompt prompt) { prompt_ = std::move(prompt); }

    // Excludes (with a reason) or includes (no reason) a trial; false, with the message shown
    // in the message bar, when it cannot be done.
    bool setExcluded(int trial, const std::optional<QString>& reason);

    // Warns in the message bar about the first of `trials` whose value is extreme, offering to
    // exclude it. Returns that trial, or −1.
    int checkNewValues(const QList<int>& trials);

    // Follows the document's selection and state (enabled only for a completed trial).
    void update();

signals:
    // A one-line summary for the status bar after a change.
    void changed(const QString& summary);

private:
    void toggleSelected();

    ExperimentDocument* document_;
    MessageBar* message_bar_;
    QWidget* dialog_parent_;
    QAction* toggle_;
    ReasonPrompt prompt_;
};

}  // namespace sebo::ui
