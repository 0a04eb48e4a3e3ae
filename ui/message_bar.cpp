#include "message_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

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

void MessageBar::showMessage(Kind kind, const QString& text) {
    kind_ = kind;
    QStyle::StandardPixmap pixmap = QStyle::SP_MessageBoxInformation;
    QString background = "#e8f1fb", border = "#7aa7d9";
    if (kind == Kind::Warning) {
        pixmap = QStyle::SP_MessageBoxWarning;
        background = "#fff6e0";
        border = "#e0b050";
    } else if (kind == Kind::Error) {
        pixmap = QStyle::SP_MessageBoxCritical;
        background = "#fde8e8";
        border = "#d66";
    }
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon_->setPixmap(style()->standardIcon(pixmap).pixmap(size, size));
    setStyleSheet(QString("#messageBar { background: %1; border: 1px solid %2; border-radius: 4px; }"
                          "#messageBar QLabel { color: #202020; }")
                      .arg(background, border));
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

QString MessageBar::text() const { return isHidden() ? QString() : label_->text(); }

void MessageBar::dismiss() {
    label_->clear();
    action_ = nullptr;
    action_button_->hide();
    hide();
}

}  // namespace sebo::ui
