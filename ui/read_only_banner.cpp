#include "read_only_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

#include "experiment_document.h"

namespace sebo::ui {

ReadOnlyBanner::ReadOnlyBanner(ExperimentDocument* document, QWidget* parent) : QFrame(parent), document_(document) {
    setObjectName("readOnlyBanner");
    setFrameShape(QFrame::StyledPanel);
    // The palette's own colours, so that it reads in light and dark themes alike.
    setBackgroundRole(QPalette::AlternateBase);
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 6, 6);
    auto* icon = new QLabel(this);
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxInformation).pixmap(size, size));
    label_ = new QLabel(this);
    label_->setWordWrap(true);
    label_->setTextFormat(Qt::PlainText);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    reload_ = new QPushButton(tr("Reload"), this);
    reload_->setToolTip(tr("Read the file again (and edit it, if that process is done)"));
    layout->addWidget(icon, 0, Qt::AlignTop);
    layout->addWidget(label_, 1);
    layout->addWidget(reload_, 0, Qt::AlignVCenter);
    connect(reload_, &QPushButton::clicked, this, [this] {
        if (auto error = document_->reload()) emit reloadFailed(*error);
    });
    connect(document_, &ExperimentDocument::accessChanged, this, [this] {
        changed_ = false;
        refresh();
    });
    connect(document_, &ExperimentDocument::fileChangedOnDisk, this, [this] {
        changed_ = true;
        refresh();
    });
    refresh();
}

QString ReadOnlyBanner::text() const { return isHidden() ? QString() : label_->text(); }

void ReadOnlyBanner::refresh() {
    if (!document_->isReadOnly()) {
        hide();
        return;
    }
    QString text = tr("%1. The explorer shows the file read-only.").arg(document_->readOnlyReason());
    if (changed_) text += " " + tr("The file has changed since it was read.");
    label_->setText(text);
    reload_->setVisible(changed_);
    show();
}

}  // namespace sebo::ui
