#pragma once
// A scroll area that scrolls vertically only and asks for the width its content needs (plus
// the scroll bar), so that a narrow dock never cuts off a panel's fields and buttons: the dock
// cannot get narrower than that, and a short one scrolls (issue 17, item 2).

#include <QScrollArea>

namespace sebo::ui {

class VerticalScrollArea : public QScrollArea {
    Q_OBJECT
public:
    explicit VerticalScrollArea(QWidget* parent = nullptr);
    QSize minimumSizeHint() const override;
};

}  // namespace sebo::ui
