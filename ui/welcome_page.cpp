#include "welcome_page.h"

#include <QCommandLinkButton>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "tinted_label.h"

namespace sebo::ui {

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    auto* page = new QVBoxLayout(content);
    page->addStretch(1);
    auto* column = new QVBoxLayout;

    auto* title = new QLabel(tr("SEBO Explorer"), content);
    QFont title_font = title->font();
    title_font.setPointSizeF(title_font.pointSizeF() * 2.0);
    title_font.setBold(true);
    title->setFont(title_font);
    auto* subtitle = new QLabel(tr("Find configurations that perform well and change as few parameters as "
                                   "possible, and see the whole trade-off."),
                                content);
    subtitle->setWordWrap(true);
    column->addWidget(title);
    column->addWidget(subtitle);
    column->addSpacing(12);

    auto* buttons = new QHBoxLayout;
    auto* create = new QPushButton(tr("New experiment…"), content);
    connect(create, &QPushButton::clicked, this, &WelcomePage::newRequested);
    auto* open = new QPushButton(tr("Open a file…"), content);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    for (QPushButton* b : {create, open}) {
        b->setMinimumHeight(b->sizeHint().height() * 3 / 2);
        buttons->addWidget(b, 1);
    }
    column->addLayout(buttons);
    column->addSpacing(12);

    auto* examples_title = new QLabel(tr("<b>Examples</b>"), content);
    column->addWidget(examples_title);
    examples_layout_ = new QVBoxLayout;
    examples_layout_->setSpacing(2);
    column->addLayout(examples_layout_);
    column->addSpacing(12);

    column->addWidget(new QLabel(tr("<b>Recent files</b>"), content));
    recent_ = new QListWidget(content);
    recent_->setMaximumHeight(recent_->fontMetrics().height() * 8);
    recent_->setMinimumHeight(recent_->fontMetrics().height() * 3);
    connect(recent_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const QString path = item->data(Qt::UserRole).toString();
        if (!path.isEmpty()) emit recentRequested(path);
    });
    column->addWidget(recent_);
    column->addWidget(new TintedLabel(TintedLabel::Tint::Muted, tr("You can also drop an experiment file onto this window."),
                                      content));

    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addLayout(column, 3);
    row->addStretch(1);
    page->addLayout(row);
    page->addStretch(2);
}

void WelcomePage::setExamples(const QList<BundledExample>& examples) {
    for (QWidget* b : example_buttons_) b->deleteLater();
    example_buttons_.clear();
    for (const BundledExample& example : examples) {
        auto* button = new QCommandLinkButton(example.title, example.description, this);
        button->setToolTip(QDir::toNativeSeparators(example.path));
        const QString path = example.path;
        connect(button, &QCommandLinkButton::clicked, this, [this, path] { emit exampleRequested(path); });
        examples_layout_->addWidget(button);
        example_buttons_ << button;
    }
    if (examples.isEmpty()) {
        auto* none = new TintedLabel(TintedLabel::Tint::Muted, tr("No bundled examples were found next to the program."), this);
        examples_layout_->addWidget(none);
        example_buttons_ << none;
    }
}

void WelcomePage::setRecentFiles(const QStringList& paths) {
    recent_->clear();
    for (const QString& path : paths) {
        const QString label = QString("%1  (%2)").arg(QFileInfo(path).fileName(),
                                                      QDir::toNativeSeparators(QFileInfo(path).absolutePath()));
        auto* item = new QListWidgetItem(label, recent_);
        item->setData(Qt::UserRole, path);
        item->setToolTip(QDir::toNativeSeparators(path));
    }
    if (paths.isEmpty()) {
        auto* item = new QListWidgetItem(tr("(none yet)"), recent_);
        item->setFlags(Qt::NoItemFlags);
    }
}

}  // namespace sebo::ui
