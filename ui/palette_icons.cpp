#include "palette_icons.h"

#include <QAction>
#include <QEvent>
#include <QImage>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QPointer>
#include <QWidget>
#include <utility>

namespace sebo::ui {

namespace {

QPixmap filled(const QPixmap& shape, const QColor& color) {
    QImage image = shape.toImage().convertToFormat(QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    painter.setCompositionMode(QPainter::CompositionMode_SourceIn);
    painter.fillRect(image.rect(), color);
    painter.end();
    QPixmap out = QPixmap::fromImage(image);
    out.setDevicePixelRatio(shape.devicePixelRatio());
    return out;
}

// Keeps the style's icons and recolours them on every palette change of the watched widget.
class IconFollower : public QObject {
public:
    IconFollower(QWidget* watched, const QList<QAction*>& actions) : QObject(watched), watched_(watched) {
        for (QAction* a : actions) originals_.append({a, a->icon()});
        watched->installEventFilter(this);
        apply();
    }

protected:
    bool eventFilter(QObject* object, QEvent* event) override {
        if (object == watched_ && event->type() == QEvent::PaletteChange) apply();
        return false;
    }

private:
    void apply() {
        for (const auto& [action, icon] : std::as_const(originals_))
            if (action) action->setIcon(palette_glyph_icon(icon, watched_->palette()));
    }
    QWidget* watched_;
    QList<std::pair<QPointer<QAction>, QIcon>> originals_;
};

}  // namespace

QIcon palette_glyph_icon(const QIcon& icon, const QPalette& palette) {
    QList<QSize> sizes = icon.availableSizes();
    if (sizes.isEmpty()) sizes = {QSize(16, 16), QSize(24, 24), QSize(32, 32)};
    QIcon out;
    for (const QSize& size : sizes) {
        const QPixmap shape = icon.pixmap(size);
        if (shape.isNull()) continue;
        out.addPixmap(filled(shape, palette.color(QPalette::Active, QPalette::ButtonText)), QIcon::Normal);
        out.addPixmap(filled(shape, palette.color(QPalette::Active, QPalette::ButtonText)), QIcon::Active);
        out.addPixmap(filled(shape, palette.color(QPalette::Disabled, QPalette::ButtonText)), QIcon::Disabled);
    }
    return out;
}

void follow_palette_with_icons(QWidget* watched, const QList<QAction*>& actions) {
    new IconFollower(watched, actions);
}

}  // namespace sebo::ui
