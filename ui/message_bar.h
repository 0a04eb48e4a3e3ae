#pragma once
// An in-window message strip (like KDE's KMessageWidget): load errors, failed steps and
// autosave problems are shown here instead of in modal boxes, so the user can read the
// field path and value while looking at the experiment, and nothing blocks a running step.

#include <QFrame>
#include <QString>
#include <functional>

class QLabel;
class QPushButton;
class QToolButton;

namespace sebo::ui {

class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Information, Warning, Error };

    explicit MessageBar(QWidget* parent = nullptr);

    // Shows the message, without an action button.
    void showMessage(Kind kind, const QString& text);
    // Adds a button to the message being shown (e.g. "Exclude trial 7"): clicking it dismisses
    // the message and runs `action`. The next showMessage or dismiss removes it.
    void setAction(const QString& label, std::function<void()> action);
    QString text() const;
    Kind kind() const { return kind_; }
    QPushButton* actionButton() const { return action_button_; }

public slots:
    void dismiss();

private:
    QLabel* icon_;
    QLabel* label_;
    QToolButton* close_;
    QPushButton* action_button_;
    std::function<void()> action_;
    Kind kind_ = Kind::Information;
};

}  // namespace sebo::ui
