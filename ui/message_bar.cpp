#include "message_bar.h"

#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

#include "palette_colors.h"

namespace sebo::ui {

MessageBar::MessageBar(QWidget* parent) : QFrame(parent) {
    setObjectName("messageBar");
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 6, 6);
    icon_ = new QLabel(this);
    label_ = new QLabel(this);
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label_->setTextFormat(Qt::PlainText);
    close_ = new QToolButton(this);
    close_->setAutoRaise(true);
    close_->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close_->setToolTip(tr("Dismiss this message"));
    connect(close_, &QToolButton::clicked, this, &MessageBar::dismiss);
    action_button_ = new QPushButton(this);
    action_button_->hide();
    connect(action_button_, &QPushButton::clicked, this, [this] {
        const std::function<void()> action = std::move(action_);
        dismiss();
        if (action) action();
    });
    layout->addWidget(icon_, 0, Qt::AlignTop);
    layout->addWidget(label_, 1);
    layout->addWidget(action_button_, 0, Qt::AlignTop);
    layout->addWidget(close_, 0, Qt::AlignTop);
    hide();
}

void MessageBar::showMessage(Kind kind, const QString& text, const QString& topic) {
    kind_ = kind;
    topic_ = topic;
    QStyle::StandardPixmap pixmap = QStyle::SP_MessageBoxInformation;
    if (kind == Kind::Warning) pixmap = QStyle::SP_MessageBoxWarning;
    else if (kind == Kind::Error) pixmap = QStyle::SP_MessageBoxCritical;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon_->setPixmap(style()->standardIcon(pixmap).pixmap(size, size));
    applyColors();
    label_->setText(text);
    action_ = nullptr;
    action_button_->hide();
    show();
}

void MessageBar::setAction(const QString& label, std::function<void()> action) {
    action_ = std::move(action);
    action_button_->setText(label);
    action_button_->setVisible(!isHidden());
}

Tone MessageBar::tone() const {
    return kind_ == Kind::Error ? Tone::Error : kind_ == Kind::Warning ? Tone::Warning : Tone::Information;
}

void MessageBar::applyColors() {
    // A tint of the kind's hue over the palette's base, with the palette's own text: readable in
    // light and dark themes alike. The palette is the surroundings' (this frame's own is changed by
    // its style sheet).
    const QPalette p = surroundingPalette();
    const QColor background = tone_background(p, tone());
    const QColor text = with_contrast(p.color(QPalette::WindowText), background, kTextContrast);
    const QString sheet = QString("#messageBar { background: %1; border: 1px solid %2; border-radius: 4px; }"
                                  "#messageBar QLabel { color: %3; }")
                              .arg(background.name(), tone_border(p, tone()).name(), text.name());
    if (styleSheet() != sheet) setStyleSheet(sheet);
}

QPalette MessageBar::surroundingPalette() const {
    return parentWidget() ? parentWidget()->palette() : QGuiApplication::palette();
}

QColor MessageBar::backgroundColor() const { return tone_background(surroundingPalette(), tone()); }
QColor MessageBar::textColor() const { return label_->palette().color(QPalette::WindowText); }

void MessageBar::changeEvent(QEvent* event) {
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) applyColors();
}

QString MessageBar::text() const { return isHidden() ? QString() : label_->text(); }

void MessageBar::dismissTopic(const QString& topic) {
    if (!isHidden() && topic_ == topic) dismiss();
}

void MessageBar::dismiss() {
    topic_.clear();
    label_->clear();
    action_ = nullptr;
    action_button_->hide();
    hide();
}

}  // namespace sebo::ui
