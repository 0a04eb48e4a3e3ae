#include "screen_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>
#include <algorithm>

namespace sebo::ui {

void fit_on_screen(QWidget* window) {
    QWidget* parent = window->parentWidget() ? window->parentWidget()->window() : nullptr;
    QScreen* screen = parent && parent->screen() ? parent->screen() : window->screen();
    if (!screen) screen = QGuiApplication::primaryScreen();
    if (!screen) return;
    const QRect free = screen->availableGeometry();
    // The frame (title bar, borders) as the window system draws it; none before it is shown.
    const QSize frame = window->frameGeometry().size() - window->geometry().size();
    const QSize room = (free.size() - frame).expandedTo(QSize(1, 1));
    const QSize size = window->size().boundedTo(room).expandedTo(window->minimumSize().boundedTo(room));
    if (size != window->size()) window->resize(size);
    const QSize outer = size + frame;
    const QPoint centre = parent && parent->isVisible() ? parent->frameGeometry().center() : free.center();
    const int x = std::clamp(centre.x() - outer.width() / 2, free.left(), std::max(free.left(), free.right() + 1 - outer.width()));
    const int y = std::clamp(centre.y() - outer.height() / 2, free.top(), std::max(free.top(), free.bottom() + 1 - outer.height()));
    window->move(x, y);
}

}  // namespace sebo::ui
