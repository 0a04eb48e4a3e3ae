#include "documentation_window.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSplitter>
#include <QStyle>
#include <QTextStream>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "markdown_browser.h"
#include "screen_fit.h"
#include "tinted_label.h"

namespace sebo::ui {

namespace {

const QString kRoot = QStringLiteral(":/documentation/");

// The first level-one heading of a Markdown file, without its code marks; empty when it has none.
QString first_heading(const QString& file) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return {};
    QTextStream in(&f);
    bool fenced = false;
    while (!in.atEnd()) {
        const QString line = in.readLine();
        if (line.startsWith("```")) fenced = !fenced;
        else if (!fenced && line.startsWith("# ")) return line.mid(2).remove('`').trimmed();
    }
    return {};
}

}  // namespace

QList<ShippedDocument> shipped_documents() {
    // The user's questions first (what it does, how, how well), the maintainers' last.
    static const QStringList reading_order = {"README.md",           "docs/method.md",      "docs/results.md",
                                              "docs/file-format.md", "docs/performance.md", "docs/reliability.md",
                                              "docs/architecture.md"};
    QStringList paths;
    if (QFileInfo(kRoot + "README.md").isFile()) paths << "README.md";
    for (const QString& name : QDir(kRoot + "docs").entryList({"*.md"}, QDir::Files, QDir::Name)) paths << "docs/" + name;
    const auto rank = [](const QString& path) {
        const qsizetype at = reading_order.indexOf(path);
        return at < 0 ? reading_order.size() : at;
    };
    std::stable_sort(paths.begin(), paths.end(), [&](const QString& a, const QString& b) { return rank(a) < rank(b); });
    QList<ShippedDocument> documents;
    for (const QString& path : paths) {
        const QString heading = first_heading(kRoot + path);
        documents << ShippedDocument{path, heading.isEmpty() ? QFileInfo(path).fileName() : heading};
    }
    return documents;
}

DocumentationWindow::DocumentationWindow(QWidget* parent) : QWidget(parent, Qt::Window) {
    setObjectName("documentationWindow");
    setWindowTitle(tr("SEBO Explorer documentation"));
    documents_ = shipped_documents();

    list_ = new QListWidget(this);
    list_->setAccessibleName(tr("Documents"));
    for (const ShippedDocument& d : documents_) {
        auto* item = new QListWidgetItem(d.title, list_);
        item->setToolTip(d.path);
    }
    list_->setWordWrap(true);

    browser_ = new MarkdownBrowser(this);
    browser_->setAccessibleName(tr("Document"));

    back_ = new QToolButton(this);
    back_->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    back_->setText(tr("Back"));
    back_->setToolTip(tr("Back (Alt+Left)"));
    back_->setShortcut(QKeySequence::Back);
    back_->setEnabled(false);
    forward_ = new QToolButton(this);
    forward_->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    forward_->setText(tr("Forward"));
    forward_->setToolTip(tr("Forward (Alt+Right)"));
    forward_->setShortcut(QKeySequence::Forward);
    forward_->setEnabled(false);
    for (QToolButton* b : {back_, forward_}) b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    connect(back_, &QToolButton::clicked, browser_, &QTextBrowser::backward);
    connect(forward_, &QToolButton::clicked, browser_, &QTextBrowser::forward);
    connect(browser_, &QTextBrowser::backwardAvailable, back_, &QToolButton::setEnabled);
    connect(browser_, &QTextBrowser::forwardAvailable, forward_, &QToolButton::setEnabled);

    find_ = new QLineEdit(this);
    find_->setPlaceholderText(tr("Find in this document"));
    find_->setAccessibleName(tr("Find in this document"));
    find_->setToolTip(tr("%1; Enter finds the next match, Shift+Enter the one before")
                          .arg(QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText)));
    find_->setClearButtonEnabled(true);
    connect(find_, &QLineEdit::returnPressed, this, [this] { findInPage(false); });
    connect(find_, &QLineEdit::textEdited, this, [this] {
        // Search as one types, from the start of the current match.
        QTextCursor cursor = browser_->textCursor();
        cursor.setPosition(cursor.selectionStart());
        browser_->setTextCursor(cursor);
        findInPage(false);
    });
    find_->installEventFilter(this);
    auto* find_action = new QAction(this);
    find_action->setShortcut(QKeySequence::Find);
    connect(find_action, &QAction::triggered, this, [this] {
        find_->setFocus(Qt::ShortcutFocusReason);
        find_->selectAll();
    });
    addAction(find_action);

    notice_ = new TintedLabel(TintedLabel::Tint::Muted, QString(), this);
    notice_->setWordWrap(true);
    notice_->hide();

    auto* top = new QHBoxLayout;
    top->addWidget(back_);
    top->addWidget(forward_);
    top->addStretch(1);
    top->addWidget(find_, 1);
    auto* right = new QWidget(this);
    auto* right_layout = new QVBoxLayout(right);
    right_layout->setContentsMargins(0, 0, 0, 0);
    right_layout->addLayout(top);
    right_layout->addWidget(browser_, 1);
    right_layout->addWidget(notice_);
    auto* splitter = new QSplitter(this);
    splitter->addWidget(list_);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({list_->fontMetrics().averageCharWidth() * 28, 800});
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(list_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0 || row >= documents_.size()) return;
        const QUrl url = documents_[row].url();
        if (browser_->source().adjusted(QUrl::RemoveFragment) != url) browser_->setSource(url);
    });
    connect(browser_, &QTextBrowser::sourceChanged, this, &DocumentationWindow::syncList);
    connect(browser_, &MarkdownBrowser::notice, this, [this](const QString& text) {
        notice_->setText(text);
        notice_->show();
    });

    resize(1100, 760);
    fit_on_screen(this);
    if (!documents_.isEmpty()) browser_->setSource(documents_.front().url());
}

QString DocumentationWindow::notice() const { return notice_->isHidden() ? QString() : notice_->text(); }

bool DocumentationWindow::showDocument(const QString& path) {
    const QUrl url("qrc:/documentation/" + path);
    if (!QFileInfo(":" + url.path()).isFile()) return false;
    browser_->setSource(url);
    return true;
}

void DocumentationWindow::syncList(const QUrl& source) {
    notice_->hide();
    const QUrl document = source.adjusted(QUrl::RemoveFragment);
    for (int row = 0; row < documents_.size(); ++row)
        if (documents_[row].url() == document) {
            const QSignalBlocker quiet(list_);
            list_->setCurrentRow(row);
            setWindowTitle(tr("%1 — SEBO Explorer documentation").arg(documents_[row].title));
        }
}

void DocumentationWindow::findInPage(bool backwards) {
    const QString text = find_->text();
    if (text.isEmpty()) return;
    const QTextDocument::FindFlags flags = backwards ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    bool found = browser_->find(text, flags);
    if (!found) {
        // Go round: from the other end of the document.
        QTextCursor cursor = browser_->textCursor();
        cursor.movePosition(backwards ? QTextCursor::End : QTextCursor::Start);
        browser_->setTextCursor(cursor);
        found = browser_->find(text, flags);
    }
    notice_->setText(found ? QString() : tr("“%1” is not in this document.").arg(text));
    notice_->setVisible(!found);
}

bool DocumentationWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == find_ && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) && (key->modifiers() & Qt::ShiftModifier)) {
            findInPage(true);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace sebo::ui
