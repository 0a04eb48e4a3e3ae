// Help › Keyboard shortcuts (issue 32, item 7): the list is read from the window, so every action
// with a shortcut that the window or its menus hold is in it with its keys, grouped by menu — an
// action added later too — and so are the keys the views handle themselves (Escape clears the
// parallel coordinates' brushes); the search field filters it.

#include <QAction>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTreeWidget>

#include "help_actions.h"
#include "main_window.h"
#include "parallel_coordinates_view.h"
#include "resource_paths.h"
#include "shortcut_list.h"
#include "test_main.h"
#include "test_support.h"

namespace test_shortcut_list {

using namespace sebo;
using namespace sebo::ui;

namespace {

// An action's text as a person reads it in a menu: without the mnemonic's '&' and the dots.
QString as_read(QString text) {
    text.remove('&');
    while (text.endsWith(QChar(0x2026)) || text.endsWith('.')) text.chop(1);
    return text;
}

// Whether a widget is `window` or inside it: a menu of its menu bar is a popup window of its own,
// a child of the bar; another window (the documentation's) is not inside it.
bool belongs_to(const QWidget* widget, const QWidget* window) {
    for (const QWidget* w = widget; w; w = w->parentWidget()) {
        if (w == window) return true;
        if (w->isWindow() && !qobject_cast<const QMenu*>(w)) return false;
    }
    return false;
}

// Every action with a shortcut that works in `window`: added to the window, to a widget in it, or
// to one of its menus.
QList<QAction*> actions_with_shortcuts(const QMainWindow& window) {
    QList<QAction*> actions;
    for (QAction* a : window.findChildren<QAction*>()) {
        if (a->shortcuts().isEmpty()) continue;
        for (QObject* o : a->associatedObjects())
            if (auto* w = qobject_cast<QWidget*>(o); w && belongs_to(w, &window)) {
                actions << a;
                break;
            }
    }
    return actions;
}

// The rows of the dialog's tree: group, command, keys; hidden rows left out when `visible_only`.
struct Row {
    QString group, what, keys;
};
QList<Row> rows(const ShortcutsDialog& dialog, bool visible_only = false) {
    QList<Row> out;
    for (int g = 0; g < dialog.tree()->topLevelItemCount(); ++g) {
        const QTreeWidgetItem* group = dialog.tree()->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i) {
            const QTreeWidgetItem* item = group->child(i);
            if (visible_only && (item->isHidden() || group->isHidden())) continue;
            out << Row{group->text(0), item->text(0), item->text(1)};
        }
    }
    return out;
}

bool listed(const QList<Row>& rows, const QString& what, const QString& keys, QString* group = nullptr) {
    for (const Row& r : rows)
        if (r.what == what && r.keys == keys) {
            if (group) *group = r.group;
            return true;
        }
    return false;
}

QString native(const QKeySequence& keys) { return keys.toString(QKeySequence::NativeText); }

}  // namespace

class TestShortcutList : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(!default_example().isEmpty(), "the bundled example is needed");
    }

    void everyShortcutOfTheWindowIsListedWithItsKeys() {
        MainWindow w;
        w.setRememberRecentFiles(false);
        QVERIFY(w.openFile(default_example()));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction* action = w.helpActions()->shortcutsAction();
        bool in_help = false;
        for (QAction* top : w.menuBar()->actions())
            if (top->text().remove('&') == "Help") in_help = top->menu()->actions().contains(action);
        QVERIFY(in_help);
        action->trigger();
        ShortcutsDialog* dialog = w.helpActions()->shortcutsDialog();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));

        const QList<Row> shown = rows(*dialog);
        const QList<QAction*> actions = actions_with_shortcuts(w);
        // Step, Run N, Run to budget, Cancel, New, Open, Save, Save As, Quit, Mark as chosen, Copy,
        // Enter result, Documentation, Alt+0 and one Alt+digit per panel.
        QVERIFY2(actions.size() >= 14 + w.docks().all().size(), qPrintable(QString::number(actions.size())));
        for (QAction* a : actions) {
            QStringList keys;
            for (const QKeySequence& k : a->shortcuts()) keys << native(k);
            QVERIFY2(listed(shown, as_read(a->text()), keys.join(", ")),
                     qPrintable(QString("%1 (%2) is not listed").arg(a->text(), keys.join(", "))));
        }
        // Each once, under the menu that holds it.
        QCOMPARE(shown.size(), actions.size() + 3);  // + Escape and the charts' Ctrl with the mouse
        QString group;
        QVERIFY(listed(shown, "Step", native(QKeySequence(Qt::Key_F5)), &group));
        QCOMPARE(group, QString("Run"));
        QVERIFY(listed(shown, "Documentation", native(QKeySequence(Qt::Key_F1)), &group));
        QCOMPARE(group, QString("Help"));
        QAction* third_panel = w.panelActions().at(2);
        QCOMPARE(third_panel->shortcut(), QKeySequence(Qt::ALT | Qt::Key_3));
        QVERIFY(listed(shown, as_read(third_panel->text()), native(third_panel->shortcut()), &group));
        QCOMPARE(group, QString("View › Go to panel"));
        // The keys a view handles: Escape in the parallel coordinates, the same key as Cancel.
        QVERIFY(listed(shown, "Cancel", native(QKeySequence(Qt::Key_Escape))));
        const QString clear_brushes = native(QKeySequence(ParallelCoordinatesView::kClearBrushesKey));
        bool escape = false;
        for (const Row& r : shown)
            escape |= r.group == "Parallel coordinates" && r.keys == clear_brushes && r.what.contains("brush");
        QVERIFY(escape);
    }

    // The list is read from the window when it is shown: an action given a shortcut later is in
    // it, under the window when no menu holds it.
    void aShortcutAddedLaterIsListed() {
        MainWindow w;
        w.setRememberRecentFiles(false);
        auto* added = new QAction("Zoom to e&verything…", &w);
        added->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_Z));
        w.addAction(added);
        // An action that is in no widget does nothing, and is not listed.
        auto* idle = new QAction("Idle", &w);
        idle->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_I));
        ShortcutsDialog dialog(w);
        QString group;
        QVERIFY(listed(rows(dialog), "Zoom to everything", native(added->shortcut()), &group));
        QCOMPARE(group, QString("Window"));
        QVERIFY(!listed(rows(dialog), "Idle", native(idle->shortcut())));
        // The window's and other windows' own actions are not the main window's.
        w.helpActions()->showDocumentation();
        ShortcutsDialog again(w);
        QCOMPARE(rows(again).size(), rows(dialog).size());
    }

    // Typing in the search field keeps the rows that match (a command, a key, a menu).
    void searchFilters() {
        MainWindow w;
        w.setRememberRecentFiles(false);
        ShortcutsDialog dialog(w);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const int all = rows(dialog, true).size();
        QTest::keyClicks(dialog.searchEdit(), "f5");
        const QList<Row> f5 = rows(dialog, true);
        QCOMPARE(f5.size(), 1);
        QCOMPARE(f5.first().what, QString("Step"));
        dialog.searchEdit()->clear();
        QCOMPARE(rows(dialog, true).size(), all);
        QTest::keyClicks(dialog.searchEdit(), "go to panel");
        for (const Row& r : rows(dialog, true)) QCOMPARE(r.group, QString("View › Go to panel"));
        const auto with_keys = std::count_if(w.panelActions().begin(), w.panelActions().end(),
                                             [](const QAction* a) { return !a->shortcut().isEmpty(); });
        QCOMPARE(rows(dialog, true).size(), with_keys + 1);  // + Charts (Alt+0)
    }
};

SEBO_TEST_MAIN(TestShortcutList)
}  // namespace test_shortcut_list
#include "test_shortcut_list.moc"
