#pragma once
// A label in one of the palette's derived text colours (palette_colors.h): secondary text
// (explanations, empty states) or an error message under a field. It takes the colour again when
// the palette changes (the system switches between light and dark).

#include <QLabel>

namespace sebo::ui {

class TintedLabel : public QLabel {
    Q_OBJECT
public:
    enum class Tint { Muted, Error };

    explicit TintedLabel(Tint tint, QWidget* parent = nullptr);
    TintedLabel(Tint tint, const QString& text, QWidget* parent = nullptr);

    Tint tint() const { return tint_; }
    void setTint(Tint tint);

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyColor();
    Tint tint_;
};

// The style sheet that outlines a field whose value is refused, in the palette's error colour.
QString error_outline_style(const QPalette& palette);

}  // namespace sebo::ui
