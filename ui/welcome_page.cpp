#include "welcome_page.h"

#include <QAbstractButton>
#include <QDir>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QStyleOptionButton>
#include <QStylePainter>
#include <QTextLayout>
#include <QVBoxLayout>
#include <algorithm>

#include "tinted_label.h"

namespace sebo::ui {

namespace {

// The first `count` lines `text` takes in `width` pixels of `font`, the last one cut with "…" when
// there is more.
QStringList first_lines(const QString& text, const QFont& font, int width, int count) {
    QStringList lines;
    QTextLayout layout(text, font);
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid() && lines.size() < count; line = layout.createLine()) {
        line.setLineWidth(width);
        const QString rest = text.mid(line.textStart());
        if (lines.size() == count - 1) lines << QFontMetrics(font).elidedText(rest, Qt::ElideRight, width);
        else lines << rest.left(line.textLength()).trimmed();
    }
    layout.endLayout();
    return lines;
}

// A bundled example as a button in the window's font: its title in bold, and its description
// cut to two lines (all of it in the tooltip). Seven examples as QCommandLinkButtons, each with
// its whole description, were 600 pixels tall and left the welcome page scrolling at 1366×768
// (issue 32); QCommandLinkButton also draws in a fixed 9 pt, whatever the platform's font.
class ExampleButton : public QAbstractButton {
public:
    static constexpr int kDescriptionLines = 2;

    ExampleButton(const BundledExample& example, QWidget* parent)
        : QAbstractButton(parent), title_(example.title), description_(example.description.simplified()) {
        setFocusPolicy(Qt::StrongFocus);
        setAttribute(Qt::WA_Hover);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        setAccessibleName(title_);
        setAccessibleDescription(description_);
        setToolTip(description_.isEmpty() ? QDir::toNativeSeparators(example.path)
                                          : QString("%1\n\n%2").arg(description_, QDir::toNativeSeparators(example.path)));
    }

    // Columns of equal width whatever the titles' lengths.
    QSize sizeHint() const override { return {36 * fontMetrics().averageCharWidth(), minimumSizeHint().height()}; }
    QSize minimumSizeHint() const override {
        const int lines = description_.isEmpty() ? 0 : kDescriptionLines;
        const int height = titleFont().metrics.height() + lines * fontMetrics().lineSpacing() + 2 * padding();
        return {16 * fontMetrics().averageCharWidth(), height};
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QStylePainter painter(this);
        QStyleOptionButton option;
        option.initFrom(this);
        option.state |= isDown() ? QStyle::State_Sunken : QStyle::State_Raised;
        painter.drawControl(QStyle::CE_PushButtonBevel, option);
        const QRect text = rect().adjusted(padding(), padding(), -padding(), -padding());
        painter.setPen(palette().color(QPalette::ButtonText));
        painter.setFont(titleFont().font);
        painter.drawText(text, Qt::AlignLeft | Qt::AlignTop,
                         titleFont().metrics.elidedText(title_, Qt::ElideRight, text.width()));
        painter.setFont(font());
        int y = text.top() + titleFont().metrics.height();
        for (const QString& line : first_lines(description_, font(), text.width(), kDescriptionLines)) {
            const QRect row(text.left(), y, text.width(), fontMetrics().height());
            painter.drawText(row, Qt::AlignLeft | Qt::AlignVCenter, line);
            y += fontMetrics().lineSpacing();
        }
    }

private:
    struct Bold {
        QFont font;
        QFontMetrics metrics;
    };
    Bold titleFont() const {
        QFont bold = font();
        bold.setBold(true);
        return {bold, QFontMetrics(bold)};
    }
    int padding() const { return fontMetrics().height() / 2; }

    QString title_;
    QString description_;
};

}  // namespace

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    scroll_ = new QScrollArea(this);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll_);
    auto* content = new QWidget(scroll_);
    scroll_->setWidget(content);
    auto* page = new QVBoxLayout(content);
    page->addStretch(1);
    // The page's column: readable lines on a wide window, the whole width on a narrow one.
    auto* column_widget = new QWidget(content);
    column_widget->setMaximumWidth(120 * fontMetrics().averageCharWidth());
    auto* column = new QVBoxLayout(column_widget);
    column->setContentsMargins(0, 0, 0, 0);

    // The title with the two ways in beside it, then what the program is for.
    auto* top = new QHBoxLayout;
    auto* title = new QLabel(tr("SEBO Explorer"), content);
    QFont title_font = title->font();
    title_font.setPointSizeF(title_font.pointSizeF() * 2.0);
    title_font.setBold(true);
    title->setFont(title_font);
    top->addWidget(title);
    top->addStretch(1);
    auto* create = new QPushButton(tr("New experiment…"), content);
    connect(create, &QPushButton::clicked, this, &WelcomePage::newRequested);
    auto* open = new QPushButton(tr("Open a file…"), content);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    for (QPushButton* b : {create, open}) top->addWidget(b);
    column->addLayout(top);
    auto* subtitle = new QLabel(tr("Find configurations that perform well and change as few parameters as "
                                   "possible, and see the whole trade-off."),
                                content);
    subtitle->setWordWrap(true);
    column->addWidget(subtitle);
    column->addSpacing(fontMetrics().height() / 2);

    auto* examples_title = new QLabel(tr("<b>Examples</b>"), content);
    column->addWidget(examples_title);
    examples_layout_ = new QGridLayout;
    examples_layout_->setSpacing(fontMetrics().height() / 3);
    examples_layout_->setColumnStretch(0, 1);
    examples_layout_->setColumnStretch(1, 1);
    column->addLayout(examples_layout_);
    column->addSpacing(fontMetrics().height() / 2);

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
    row->addWidget(column_widget, 12);
    row->addStretch(1);
    page->addLayout(row);
    page->addStretch(2);
}

void WelcomePage::setExamples(const QList<BundledExample>& examples) {
    for (QWidget* b : example_buttons_) b->deleteLater();
    example_buttons_.clear();
    // Two columns, in the catalogue's order row by row.
    constexpr int kColumns = 2;
    for (const BundledExample& example : examples) {
        auto* button = new ExampleButton(example, this);
        const QString path = example.path;
        connect(button, &QAbstractButton::clicked, this, [this, path] { emit exampleRequested(path); });
        const int at = static_cast<int>(example_buttons_.size());
        examples_layout_->addWidget(button, at / kColumns, at % kColumns);
        example_buttons_ << button;
    }
    if (examples.isEmpty()) {
        auto* none = new TintedLabel(TintedLabel::Tint::Muted, tr("No bundled examples were found next to the program."), this);
        examples_layout_->addWidget(none, 0, 0, 1, kColumns);
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
