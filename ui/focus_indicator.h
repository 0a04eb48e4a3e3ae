#pragma once
// A visible keyboard focus everywhere in a window (issue 32: 13 of 16 Tab presses showed no
// focus — charts, the parallel coordinates, tables and scroll areas draw none of their own). A
// frame in the palette's highlight colour around the widget that has the keyboard focus, drawn
// on top of the window and transparent to the mouse; it follows the focus, and the widget as it
// moves, resizes or hides. Shown only when the focus came from the keyboard (Tab, Backtab, a
// shortcut), as the platform styles do for their own focus rectangles.

#include <QPointer>
#include <QWidget>

namespace sebo::ui {

class FocusIndicator : public QWidget {
    Q_OBJECT
public:
    // Follows the focus within `window` (and draws over it).
    explicit FocusIndicator(QWidget* window);

    // The widget framed now (nullptr when hidden).
    QWidget* target() const { return isVisible() ? target_.data() : nullptr; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void follow(QWidget* widget, Qt::FocusReason reason);
    void place();

    QPointer<QWidget> target_;
    bool keyboard_ = false;
};

}  // namespace sebo::ui
