#pragma once
// An in-window message strip (like KDE's KMessageWidget): load errors, failed steps and
// autosave problems are shown here instead of in modal boxes, so the user can read the
// field path and value while looking at the experiment, and nothing blocks a running step.

#include <QFrame>
#include <QString>

class QLabel;
class QToolButton;

namespace sebo::ui {

class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Information, Warning, Error };

    explicit MessageBar(QWidget* parent = nullptr);

    void showMessage(Kind kind, const QString& text);
    QString text() const;
    Kind kind() const { return kind_; }

public slots:
    void dismiss();

private:
    QLabel* icon_;
    QLabel* label_;
    QToolButton* close_;
    Kind kind_ = Kind::Information;
};

}  // namespace sebo::ui
