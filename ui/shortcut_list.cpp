#include "shortcut_list.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QKeySequence>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "chart_zoom.h"
#include "parallel_coordinates_view.h"

namespace sebo::ui {

namespace {

QString keys_text(const QList<QKeySequence>& keys) {
    QStringList texts;
    for (const QKeySequence& k : keys) texts << k.toString(QKeySequence::NativeText);
    return texts.join(", ");
}

// "Ctrl+" as the platform writes the modifier in front of a key.
QString modifier_prefix(Qt::KeyboardModifier modifier) {
    QString text = QKeySequence(QKeyCombination(modifier, Qt::Key_A)).toString(QKeySequence::NativeText);
    text.chop(1);
    return text;
}

void collect_menu(const QMenu* menu, const QString& place, QList<ShortcutEntry>& entries, QSet<const QAction*>& listed) {
    for (const QAction* a : menu->actions()) {
        if (a->isSeparator()) continue;
        if (const QMenu* sub = a->menu()) {
            collect_menu(sub, place + " › " + plain_action_text(a->text()), entries, listed);
            continue;
        }
        if (a->shortcuts().isEmpty() || listed.contains(a)) continue;
        listed.insert(a);
        entries << ShortcutEntry{place, plain_action_text(a->text()), keys_text(a->shortcuts()), a};
    }
}

// Where an action that is in no menu works: the window, the panel holding its widget; empty when
// none of its widgets is in `window` (another window's action, or one not added to any widget,
// whose shortcut does nothing).
QString place_outside_menus(const QMainWindow& window, const QAction* action) {
    for (const QObject* o : action->associatedObjects()) {
        const auto* w = qobject_cast<const QWidget*>(o);
        if (!w || w->window() != &window) continue;
        if (w == &window) return QObject::tr("Window");
        for (const QWidget* p = w; p; p = p->parentWidget())
            if (const auto* dock = qobject_cast<const QDockWidget*>(p)) return dock->windowTitle();
        return QObject::tr("Window");
    }
    return {};
}

}  // namespace

QString plain_action_text(const QString& text) {
    QString plain;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == '&' && i + 1 < text.size()) ++i;  // "&&" is a literal '&'; "&x" marks x
        plain += text[i];
    }
    while (plain.endsWith(QChar(0x2026)) || plain.endsWith('.')) plain.chop(1);
    return plain;
}

QList<ShortcutEntry> window_shortcuts(const QMainWindow& window) {
    QList<ShortcutEntry> entries;
    QSet<const QAction*> listed;
    if (const QMenuBar* bar = window.menuBar())
        for (const QAction* a : bar->actions())
            if (const QMenu* menu = a->menu()) collect_menu(menu, plain_action_text(a->text()), entries, listed);
    QList<ShortcutEntry> elsewhere;
    for (const QAction* a : window.findChildren<QAction*>()) {
        if (a->shortcuts().isEmpty() || listed.contains(a)) continue;
        const QString place = place_outside_menus(window, a);
        if (place.isEmpty()) continue;
        listed.insert(a);
        elsewhere << ShortcutEntry{place, plain_action_text(a->text()), keys_text(a->shortcuts()), a};
    }
    std::stable_sort(elsewhere.begin(), elsewhere.end(),
                     [](const ShortcutEntry& a, const ShortcutEntry& b) { return a.place < b.place; });
    entries << elsewhere;

    const QString parallel = QObject::tr("Parallel coordinates");
    entries << ShortcutEntry{parallel, QObject::tr("Remove every brush (while the parallel coordinates have the focus)"),
                             QKeySequence(ParallelCoordinatesView::kClearBrushesKey).toString(QKeySequence::NativeText)};
    const QString charts = QObject::tr("Charts");
    const QString modifier = modifier_prefix(ChartZoom::kModifier);
    entries << ShortcutEntry{charts, QObject::tr("Zoom a chart that scrolls in its panel (the wheel alone scrolls it)"),
                             modifier + QObject::tr("Wheel")};
    entries << ShortcutEntry{charts, QObject::tr("Pan the chart (as a drag with the middle button does)"),
                             modifier + QObject::tr("Drag")};
    return entries;
}

ShortcutsDialog::ShortcutsDialog(const QMainWindow& window, QWidget* parent) : QDialog(parent) {
    setObjectName("shortcutsDialog");
    setWindowTitle(tr("Keyboard shortcuts"));
    entries_ = window_shortcuts(window);

    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Search a command or a key"));
    search_->setAccessibleName(tr("Search shortcuts"));
    search_->setClearButtonEnabled(true);
    connect(search_, &QLineEdit::textChanged, this, &ShortcutsDialog::filter);

    tree_ = new QTreeWidget(this);
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Command"), tr("Keys")});
    tree_->setRootIsDecorated(false);
    tree_->setUniformRowHeights(true);
    tree_->setSelectionMode(QAbstractItemView::NoSelection);
    QTreeWidgetItem* group = nullptr;
    for (const ShortcutEntry& e : entries_) {
        if (!group || group->text(0) != e.place) {
            group = new QTreeWidgetItem(tree_, {e.place});
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFirstColumnSpanned(true);
        }
        auto* item = new QTreeWidgetItem(group, {e.what, e.keys});
        item->setToolTip(0, e.action ? e.action->toolTip() : e.what);
    }
    tree_->expandAll();
    tree_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(false);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(search_);
    layout->addWidget(tree_, 1);
    layout->addWidget(buttons);
    resize(560, 620);
}

void ShortcutsDialog::filter(const QString& text) {
    const QString needle = text.trimmed();
    for (int g = 0; g < tree_->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = tree_->topLevelItem(g);
        const bool group_matches = group->text(0).contains(needle, Qt::CaseInsensitive);
        bool any = false;
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem* item = group->child(i);
            const bool shown = group_matches || item->text(0).contains(needle, Qt::CaseInsensitive) ||
                               item->text(1).contains(needle, Qt::CaseInsensitive);
            item->setHidden(!shown);
            any |= shown;
        }
        group->setHidden(!any);
    }
}

}  // namespace sebo::ui
