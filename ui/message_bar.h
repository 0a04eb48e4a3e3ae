#pragma once
// An in-window message strip (like KDE's KMessageWidget): load errors, failed steps and
// autosave problems are shown here instead of in modal boxes, so the user can read the
// field path and value while looking at the experiment, and nothing blocks a running step.

#include <QFrame>
#include <QString>
#include <functional>

#include "palette_colors.h"

class QLabel;
class QPushButton;
class QToolButton;

namespace sebo::ui {

class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Information, Warning, Error };

    explicit MessageBar(QWidget* parent = nullptr);

    // Shows the message, without an action button. `topic` names what the message is about
    // (e.g. "waiting:7"), so that it can be taken back when that no longer holds, without
    // removing a newer message (dismissTopic).
    void showMessage(Kind kind, const QString& text, const QString& topic = {});
    // Adds a button to the message being shown (e.g. "Exclude trial 7"): clicking it dismisses
    // the message and runs `action`. The next showMessage or dismiss removes it.
    void setAction(const QString& label, std::function<void()> action);
    QString text() const;
    QString topic() const { return isHidden() ? QString() : topic_; }
    // Dismisses the message when it is about `topic`.
    void dismissTopic(const QString& topic);
    Kind kind() const { return kind_; }
    QPushButton* actionButton() const { return action_button_; }
    // The colours in use (from the palette, palette_colors.h), for tests of contrast.
    QColor backgroundColor() const;
    QColor textColor() const;

public slots:
    void dismiss();

protected:
    void changeEvent(QEvent* event) override;

private:
    Tone tone() const;
    QPalette surroundingPalette() const;
    void applyColors();

    QLabel* icon_;
    QLabel* label_;
    QToolButton* close_;
    QPushButton* action_button_;
    std::function<void()> action_;
    Kind kind_ = Kind::Information;
    QString topic_;
};

}  // namespace sebo::ui
