#pragma once
// The context menu of a trial (issue 17, item 12), the same wherever it opens: a row of the
// trials table, a point of the frontier chart, a line of the parallel coordinates. It holds the
// Trial menu's actions (mark as chosen, copy the configuration, export it, ...), which act on the
// selected trial, so it selects the trial it was opened on first.
//
// Adding an entry is one addAction() call; a view gets the menu with one attach() call that says
// which trial lies under a point of the view.

#include <QList>
#include <QObject>
#include <QPoint>
#include <functional>
#include <map>
#include <optional>

class QAction;
class QMenu;
class QWidget;

namespace sebo::ui {

class ExperimentDocument;

class TrialContextMenu : public QObject {
    Q_OBJECT
public:
    // The trial under a point of the watched widget (in its coordinates), if any.
    using TrialAt = std::function<std::optional<int>(const QPoint&)>;

    TrialContextMenu(ExperimentDocument* document, QWidget* parent);

    void addAction(QAction* action);
    void addSeparator();
    // Right-clicks (and the menu key) on `widget` open the menu for the trial under the pointer.
    void attach(QWidget* widget, TrialAt trial_at);

    // Selects `trial` and returns the menu filled for it, not shown (tests look at it).
    QMenu* prepare(int trial);
    // prepare(), then shows the menu at a global position until it closes.
    void popup(int trial, const QPoint& global_position);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    ExperimentDocument* document_;
    QMenu* menu_;
    QList<QAction*> entries_;  // nullptr: a separator
    std::map<QObject*, TrialAt> attached_;
};

}  // namespace sebo::ui
