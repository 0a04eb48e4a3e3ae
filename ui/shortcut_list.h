#pragma once
// Help › Keyboard shortcuts (issue 32, item 7): every key the main window answers to, read from
// the window itself when the list is shown, so that it cannot drift from what the window does:
//  - each action with a shortcut, under the menu that holds it ("Run", "View › Go to panel"), in
//    the menu bar's order; an action only the window or one of its panels holds is listed under
//    "Window" or the panel's title;
//  - then the keys that views handle themselves, from the constants those views use: Escape in
//    the parallel coordinates (ParallelCoordinatesView::kClearBrushesKey) and Ctrl with the mouse
//    on the charts (ChartZoom::kModifier).
// ShortcutsDialog shows them grouped by menu, filtered as one types in its search field.

#include <QDialog>
#include <QList>
#include <QString>

class QAction;
class QLineEdit;
class QMainWindow;
class QTreeWidget;

namespace sebo::ui {

struct ShortcutEntry {
    QString place;  // "File", "View › Go to panel", "Parallel coordinates"
    QString what;   // the action's text without its mnemonic and trailing dots, or what the key does
    QString keys;   // as the platform writes them ("Ctrl+Shift+R"); several separated by ", "
    const QAction* action = nullptr;  // null for the keys a view handles itself
};

// An action's text as a list shows it: "&Open…" → "Open".
QString plain_action_text(const QString& text);

QList<ShortcutEntry> window_shortcuts(const QMainWindow& window);

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    explicit ShortcutsDialog(const QMainWindow& window, QWidget* parent = nullptr);

    const QList<ShortcutEntry>& entries() const { return entries_; }
    QTreeWidget* tree() const { return tree_; }
    QLineEdit* searchEdit() const { return search_; }

private:
    // Shows the entries whose place, description or keys contain `text` (any case), and the
    // groups that have one.
    void filter(const QString& text);

    QList<ShortcutEntry> entries_;
    QTreeWidget* tree_;
    QLineEdit* search_;
};

}  // namespace sebo::ui
