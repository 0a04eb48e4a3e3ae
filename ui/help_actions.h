#pragma once
// Help › Documentation (F1) and Help › Keyboard shortcuts (issue 32, item 7): each opens its
// window beside the main window (documentation_window.h, shortcut_list.h), or brings it to the
// front when it is open. The main window only places the actions in its Help menu.

#include <QObject>
#include <QPointer>
#include <QString>

class QAction;
class QMainWindow;

namespace sebo::ui {

class DocumentationWindow;
class ShortcutsDialog;

class HelpActions : public QObject {
    Q_OBJECT
public:
    explicit HelpActions(QMainWindow* window);

    QAction* documentationAction() const { return documentation_; }
    QAction* shortcutsAction() const { return shortcuts_; }

    // Shows the documentation window (made on first use) at a shipped document ("docs/method.md",
    // with a section after '#'); an empty path keeps the document shown (the README at first).
    DocumentationWindow* showDocumentation(const QString& path = {});
    // Shows the list of keyboard shortcuts, read from the window as it is now.
    ShortcutsDialog* showShortcuts();
    // The open windows (null when closed).
    DocumentationWindow* documentationWindow() const;
    ShortcutsDialog* shortcutsDialog() const;

private:
    QMainWindow* window_;
    QAction* documentation_;
    QAction* shortcuts_;
    QPointer<DocumentationWindow> documentation_window_;
    QPointer<ShortcutsDialog> shortcuts_dialog_;
};

}  // namespace sebo::ui
