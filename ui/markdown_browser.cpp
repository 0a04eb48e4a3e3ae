#include "markdown_browser.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QFileInfo>
#include <QImageReader>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QTimer>
#include <algorithm>
#include <vector>

namespace sebo::ui {

namespace {

bool is_web(const QUrl& url) {
    const QString scheme = url.scheme();
    return scheme == "http" || scheme == "https" || scheme == "mailto";
}

// The resource file behind a qrc: URL (":/documentation/docs/method.md"); empty for any other.
QString resource_file(const QUrl& url) { return url.scheme() == "qrc" ? ":" + url.path() : QString(); }

QList<QTextBlock> heading_blocks(const QTextDocument* document) {
    QList<QTextBlock> headings;
    for (QTextBlock b = document->begin(); b.isValid(); b = b.next())
        if (b.blockFormat().headingLevel() > 0 && !b.text().isEmpty()) headings << b;
    return headings;
}

QStringList anchors_of(const QTextBlock& block) {
    const QTextBlock::iterator first = block.begin();
    return first.atEnd() ? QStringList() : first.fragment().charFormat().anchorNames();
}

}  // namespace

QString heading_anchor(const QString& heading) {
    QString anchor;
    for (const QChar c : heading.trimmed().toLower()) {
        if (c.isLetterOrNumber() || c.isMark() || c == '-' || c == '_') anchor += c;
        else if (c == ' ') anchor += '-';
    }
    return anchor;
}

MarkdownBrowser::MarkdownBrowser(QWidget* parent) : QTextBrowser(parent), refit_(new QTimer(this)) {
    // Every link goes through followLink(): QTextBrowser would open a web address inside itself.
    setOpenLinks(false);
    setOpenExternalLinks(false);
    open_external_ = [](const QUrl& url) { return QDesktopServices::openUrl(url); };
    connect(this, &QTextBrowser::anchorClicked, this, &MarkdownBrowser::followLink);
    // Emitted by every way a document is shown, after it was read and before a position from the
    // history is restored.
    connect(this, &QTextBrowser::sourceChanged, this, &MarkdownBrowser::afterLoad);
    refit_->setSingleShot(true);
    refit_->setInterval(100);
    connect(refit_, &QTimer::timeout, this, &MarkdownBrowser::fitImages);
}

void MarkdownBrowser::doSetSource(const QUrl& name, QTextDocument::ResourceType type) {
    const QUrl target = name.isRelative() ? source().resolved(name) : name;
    loadQuietly(target, false, [&] { QTextBrowser::doSetSource(name, type); });
}

void MarkdownBrowser::backward() {
    loadQuietly(historyUrl(-1), false, [this] { QTextBrowser::backward(); });
}

void MarkdownBrowser::forward() {
    loadQuietly(historyUrl(1), false, [this] { QTextBrowser::forward(); });
}

void MarkdownBrowser::reload() {
    loadQuietly(source(), true, [this] { QTextBrowser::reload(); });
}

void MarkdownBrowser::loadQuietly(const QUrl& target, bool always_reads, const std::function<void()>& load) {
    // QTextBrowser reads a document only when it is another one; a link within it only scrolls.
    const bool reads = always_reads || target.adjusted(QUrl::RemoveFragment) != source().adjusted(QUrl::RemoveFragment);
    if (reads) holdLayout();
    load();
    releaseLayout();
}

void MarkdownBrowser::holdLayout() {
    if (held_page_size_) return;
    held_page_size_ = document()->pageSize();
    document()->setPageSize(QSizeF(0, 0));  // null: the layout waits
}

void MarkdownBrowser::releaseLayout() {
    if (!held_page_size_) return;
    document()->setPageSize(*held_page_size_);
    held_page_size_.reset();
}

void MarkdownBrowser::afterLoad(const QUrl& url) {
    // source() is still the document before (QTextBrowser updates its history after this).
    shown_ = (url.isRelative() ? source().resolved(url) : url).adjusted(QUrl::RemoveFragment);
    if (prepareLoadedDocument()) {
        fitted_width_ = -1;
        fitImages();
        horizontalScrollBar()->setValue(0);
    }
    releaseLayout();
    // Laid out to the end, so that the scroll bars take a position restored from the history.
    document()->documentLayout()->documentSize();
    // QTextBrowser looked for the section before its heading was made a target (and laid out).
    if (!url.fragment().isEmpty()) scrollToAnchor(url.fragment());
}

void MarkdownBrowser::followLink(const QUrl& link) {
    const QUrl target = link.isRelative() ? source().resolved(link) : link;
    if (is_web(target)) {
        if (!open_external_(target)) emit notice(tr("No web browser could open %1.").arg(target.toString()));
        return;
    }
    const QString file = resource_file(target);
    if (!file.isEmpty() && QFileInfo(file).isFile() && file.endsWith(".md", Qt::CaseInsensitive)) {
        setSource(target);
        return;
    }
    emit notice(tr("“%1” is not among the documents shipped with the program; it is part of the project's source tree.")
                    .arg(link.toString()));
}

QStringList MarkdownBrowser::headingAnchors() const {
    QStringList anchors;
    for (const QTextBlock& b : heading_blocks(document())) anchors << anchors_of(b);
    return anchors;
}

bool MarkdownBrowser::prepareLoadedDocument() {
    const QList<QTextBlock> headings = heading_blocks(document());
    // A document shown before (a link within it) keeps its targets.
    if (!headings.isEmpty() && !anchors_of(headings.front()).isEmpty()) return false;
    QHash<QString, int> seen;
    for (const QTextBlock& block : headings) {
        QString anchor = heading_anchor(block.text());
        if (const int repeats = seen[anchor]++; repeats > 0) anchor += '-' + QString::number(repeats);
        QTextCursor cursor(block);
        cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        QTextCharFormat target;
        target.setAnchor(true);
        target.setAnchorNames({anchor});
        cursor.mergeCharFormat(target);
    }
    // Code blocks wrap, on a background of their own: a long command line would otherwise make
    // the whole document scroll sideways in a window narrower than a web page.
    QTextBlockFormat code;
    code.setNonBreakableLines(false);
    code.setBackground(palette().color(QPalette::AlternateBase));
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next())
        if (b.blockFormat().nonBreakableLines()) QTextCursor(b).mergeBlockFormat(code);
    return true;
}

void MarkdownBrowser::resizeEvent(QResizeEvent* event) {
    QTextBrowser::resizeEvent(event);
    refit_->start();
}

void MarkdownBrowser::fitImages() {
    // The width a line of text has in the view.
    const int room = viewport()->width() - 2 * static_cast<int>(document()->documentMargin()) - 2;
    if (room <= 0 || room == fitted_width_) return;
    fitted_width_ = room;
    // Each image's new size would lay the document out again; once, after all of them.
    const bool held = held_page_size_.has_value();
    holdLayout();
    struct Image {
        int position;
        QTextImageFormat format;
    };
    std::vector<Image> images;  // collected first: changing a format changes the fragments
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next())
        for (QTextBlock::iterator it = b.begin(); !it.atEnd(); ++it)
            if (const QTextFragment f = it.fragment(); f.charFormat().isImageFormat())
                for (int i = 0; i < f.length(); ++i) images.push_back({f.position() + i, f.charFormat().toImageFormat()});
    for (Image& image : images) {
        const QString file = resource_file(shown_.resolved(QUrl(image.format.name())));
        if (file.isEmpty()) continue;
        auto size = image_sizes_.constFind(file);
        if (size == image_sizes_.cend()) size = image_sizes_.insert(file, QImageReader(file).size());
        if (size->isEmpty()) continue;
        const double width = std::min(size->width(), room);
        image.format.setWidth(width);
        image.format.setHeight(width * size->height() / size->width());
        QTextCursor cursor(document());
        cursor.setPosition(image.position);
        cursor.setPosition(image.position + 1, QTextCursor::KeepAnchor);
        cursor.setCharFormat(image.format);
    }
    if (!held) releaseLayout();
}

}  // namespace sebo::ui
