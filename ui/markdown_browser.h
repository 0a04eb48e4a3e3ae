#pragma once
// A QTextBrowser for the Markdown documents shipped inside the program (documentation_window.h):
// it shows a document the way the repository's web page does as far as links go —
//  - a heading is a link target named as GitHub names it (heading_anchor()), so that
//    "results.md#fast-nuts-against-the-papers-settings" scrolls to that section (Qt's Markdown
//    reader makes no targets of headings);
//  - a relative link to another shipped document opens it here (with its section), one to the web
//    (http, https, mailto) goes to the system's browser, never inside: nothing is fetched;
//  - a link to something not shipped (a folder of the source tree) says so (notice()) instead of
//    showing an empty page;
//  - images wider than the view are shown scaled to its width, and code blocks wrap (on a
//    background of their own), so that a document never scrolls sideways;
//  - a document is laid out once, after it was read: Qt 6.4's Markdown reader inserts a document
//    piece by piece, and a view on screen laid it out again after each piece (method.md took
//    1.5 s to open, results.md 2 s; about 60 ms now).

#include <QHash>
#include <QSize>
#include <QTextBrowser>
#include <functional>
#include <optional>

class QTimer;

namespace sebo::ui {

// The anchor GitHub gives a Markdown heading: its text in lower case, without the characters that
// are not letters, digits, spaces, hyphens or underscores, spaces turned into hyphens
// ("Imports (sebo new --from, File › Import experiment…)" → "imports-sebo-new---from-file--import-experiment").
// A heading repeated in a document gets "-1", "-2", ... after the first (added by the browser).
QString heading_anchor(const QString& heading);

class MarkdownBrowser : public QTextBrowser {
    Q_OBJECT
public:
    // Opens a web link outside the program; the default is QDesktopServices::openUrl. Tests
    // install a recorder.
    using ExternalOpener = std::function<bool(const QUrl& url)>;

    explicit MarkdownBrowser(QWidget* parent = nullptr);

    void setExternalOpener(ExternalOpener opener) { open_external_ = std::move(opener); }
    // Follows a link as a click does (relative links against the document shown).
    void followLink(const QUrl& link);
    // The anchors of the document shown, in order (for tests).
    QStringList headingAnchors() const;

public slots:
    // The ways QTextBrowser loads a document, each laid out once (loadQuietly).
    void backward() override;
    void forward() override;
    void reload() override;

signals:
    // A sentence for the user about a link that could not be followed here.
    void notice(const QString& text);

protected:
    void doSetSource(const QUrl& name, QTextDocument::ResourceType type) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // Runs `load` (QTextBrowser loading `target`) with the document's layout held back when a
    // document is read: a document without a page size is not laid out. The page size comes back
    // once the document is read and prepared (afterLoad), or after `load` if nothing was read.
    void loadQuietly(const QUrl& target, bool always_reads, const std::function<void()>& load);
    void holdLayout();
    void releaseLayout();
    // After a document was shown (sourceChanged).
    void afterLoad(const QUrl& url);
    // After a document was loaded: its headings become anchors (a loaded document has none), its
    // code blocks wrap. False for a document prepared before.
    bool prepareLoadedDocument();
    void fitImages();

    ExternalOpener open_external_;
    QUrl shown_;  // the document shown
    QHash<QString, QSize> image_sizes_;  // natural sizes, by resolved resource path
    int fitted_width_ = -1;
    std::optional<QSizeF> held_page_size_;  // while the layout is held back
    QTimer* refit_;                         // images fit the width once a resize is over
};

}  // namespace sebo::ui
