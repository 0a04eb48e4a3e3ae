#include "trial_context_menu.h"

#include <QAction>
#include <QContextMenuEvent>
#include <QMenu>
#include <QWidget>

#include "experiment_document.h"

namespace sebo::ui {

TrialContextMenu::TrialContextMenu(ExperimentDocument* document, QWidget* parent)
    : QObject(parent), document_(document), menu_(new QMenu(parent)) {
    menu_->setObjectName("trialContextMenu");
}

void TrialContextMenu::addAction(QAction* action) { entries_ << action; }

void TrialContextMenu::addSeparator() { entries_ << nullptr; }

void TrialContextMenu::attach(QWidget* widget, TrialAt trial_at) {
    attached_[widget] = std::move(trial_at);
    widget->installEventFilter(this);
    connect(widget, &QObject::destroyed, this, [this, widget] { attached_.erase(widget); });
}

QMenu* TrialContextMenu::prepare(int trial) {
    // The actions act on the selected trial and update their text and state when it changes.
    document_->setSelectedTrial(trial);
    menu_->clear();
    menu_->setTitle(tr("Trial %1").arg(trial));
    for (QAction* a : entries_) {
        if (a) menu_->addAction(a);
        else menu_->addSeparator();
    }
    return menu_;
}

void TrialContextMenu::popup(int trial, const QPoint& global_position) { prepare(trial)->exec(global_position); }

bool TrialContextMenu::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::ContextMenu) {
        if (auto it = attached_.find(watched); it != attached_.end()) {
            auto* menu_event = static_cast<QContextMenuEvent*>(event);
            if (auto trial = it->second(menu_event->pos())) {
                popup(*trial, menu_event->globalPos());
                return true;
            }
        }
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace sebo::ui
