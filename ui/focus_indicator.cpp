#include "focus_indicator.h"

#include <QApplication>
#include <QDockWidget>
#include <QTimer>
#include <QEvent>
#include <QFocusEvent>
#include <QPainter>

#include "palette_colors.h"

namespace sebo::ui {

namespace {

constexpr int kWidth = 2;  // of the frame, outside the widget where there is room

}  // namespace

FocusIndicator::FocusIndicator(QWidget* window) : QWidget(window) {
    setObjectName("focusIndicator");
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    hide();
    // Focus-in events carry the reason; QApplication::focusChanged does not.
    qApp->installEventFilter(this);
}

bool FocusIndicator::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
    case QEvent::FocusIn:
        if (auto* w = qobject_cast<QWidget*>(watched); w && w->window() == window())
            follow(w, static_cast<QFocusEvent*>(event)->reason());
        break;
    case QEvent::FocusOut:
        if (watched == target_) hide();
        break;
    case QEvent::Move:
    case QEvent::Resize:
    case QEvent::Show:
    case QEvent::Hide:
        // The framed widget, or one of its ancestors (a dock moving, a splitter resizing).
        if (target_ && watched->isWidgetType() &&
            (watched == target_ || static_cast<QWidget*>(watched)->isAncestorOf(target_)))
            place();
        break;
    default: break;
    }
    return false;
}

void FocusIndicator::follow(QWidget* widget, Qt::FocusReason reason) {
    target_ = widget;
    // A click shows where the focus is already; the keyboard needs to see where it went.
    keyboard_ = reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason || reason == Qt::ShortcutFocusReason ||
                reason == Qt::OtherFocusReason;
    // Tab also walks into panels tabbed behind another one: that panel comes forward, so the
    // focus is never on something unseen. The dock area lays the tab out when it next can.
    if (keyboard_)
        for (QWidget* w = widget; w && w != window(); w = w->parentWidget())
            if (auto* dock = qobject_cast<QDockWidget*>(w); dock && dock->isVisible() && dock->visibleRegion().isEmpty()) {
                dock->raise();
                QTimer::singleShot(0, this, [this] { place(); });
                break;
            }
    place();
}

void FocusIndicator::place() {
    QWidget* w = target_.data();
    if (!w || !keyboard_ || !w->isVisible() || !w->hasFocus() || w == window()) {
        hide();
        return;
    }
    // Around the widget, within the window.
    const QRect area(w->mapTo(window(), QPoint(0, 0)), w->size());
    setGeometry(area.adjusted(-kWidth, -kWidth, kWidth, kWidth).intersected(window()->rect()));
    show();
    raise();
    update();
}

void FocusIndicator::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QColor color = with_contrast(palette().color(QPalette::Highlight), palette().color(QPalette::Window), kGraphicContrast);
    painter.setPen(QPen(color, kWidth, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter.drawRect(QRectF(rect()).adjusted(kWidth / 2.0, kWidth / 2.0, -kWidth / 2.0, -kWidth / 2.0));
}

}  // namespace sebo::ui
