#include "tinted_label.h"

#include <QEvent>

#include "palette_colors.h"

namespace sebo::ui {

TintedLabel::TintedLabel(Tint tint, QWidget* parent) : TintedLabel(tint, QString(), parent) {}

TintedLabel::TintedLabel(Tint tint, const QString& text, QWidget* parent) : QLabel(text, parent), tint_(tint) {
    setWordWrap(true);
    applyColor();
}

void TintedLabel::setTint(Tint tint) {
    tint_ = tint;
    applyColor();
}

void TintedLabel::applyColor() {
    const QColor color = tint_ == Tint::Error ? error_text(palette()) : muted_text(palette());
    if (palette().color(QPalette::WindowText) == color) return;
    QPalette p = palette();
    p.setColor(QPalette::WindowText, color);
    p.setColor(QPalette::Text, color);
    setPalette(p);
}

void TintedLabel::changeEvent(QEvent* event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) applyColor();
}

QString error_outline_style(const QPalette& palette) {
    return QString("border: 1px solid %1;").arg(error_text(palette).name());
}

}  // namespace sebo::ui
