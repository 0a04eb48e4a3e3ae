#include "vertical_scroll_area.h"

#include <QScrollBar>

namespace sebo::ui {

VerticalScrollArea::VerticalScrollArea(QWidget* parent) : QScrollArea(parent) {
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

QSize VerticalScrollArea::minimumSizeHint() const {
    QSize size = QScrollArea::minimumSizeHint();
    if (widget())
        size.setWidth(widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth());
    return size;
}

}  // namespace sebo::ui
