#include "help_actions.h"

#include <QAction>
#include <QKeySequence>
#include <QMainWindow>

#include "documentation_window.h"
#include "shortcut_list.h"

namespace sebo::ui {

HelpActions::HelpActions(QMainWindow* window) : QObject(window), window_(window) {
    documentation_ = new QAction(tr("&Documentation"), this);
    documentation_->setShortcut(QKeySequence::HelpContents);
    documentation_->setToolTip(tr("The README and the documents of the method, its results and the file format, "
                                  "as shipped with the program (%1)")
                                   .arg(documentation_->shortcut().toString(QKeySequence::NativeText)));
    connect(documentation_, &QAction::triggered, this, [this] { showDocumentation(); });
    // In the window too, so that F1 works while a menu is closed and the welcome page shows.
    window_->addAction(documentation_);

    shortcuts_ = new QAction(tr("&Keyboard shortcuts"), this);
    shortcuts_->setToolTip(tr("Every key the window answers to, by menu"));
    connect(shortcuts_, &QAction::triggered, this, [this] { showShortcuts(); });
}

DocumentationWindow* HelpActions::documentationWindow() const { return documentation_window_; }
ShortcutsDialog* HelpActions::shortcutsDialog() const { return shortcuts_dialog_; }

DocumentationWindow* HelpActions::showDocumentation(const QString& path) {
    if (!documentation_window_) {
        documentation_window_ = new DocumentationWindow(window_);
        documentation_window_->setAttribute(Qt::WA_DeleteOnClose);
    }
    if (!path.isEmpty()) documentation_window_->showDocument(path);
    documentation_window_->show();
    documentation_window_->raise();
    documentation_window_->activateWindow();
    return documentation_window_;
}

ShortcutsDialog* HelpActions::showShortcuts() {
    // Made again each time: the list is of the window as it is now.
    if (shortcuts_dialog_) shortcuts_dialog_->close();
    shortcuts_dialog_ = new ShortcutsDialog(*window_, window_);
    shortcuts_dialog_->setAttribute(Qt::WA_DeleteOnClose);
    shortcuts_dialog_->show();
    return shortcuts_dialog_;
}

}  // namespace sebo::ui
