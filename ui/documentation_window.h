#pragma once
// Help › Documentation (issue 32, item 7): the README and docs/*.md, as shipped inside the program
// (ui/CMakeLists.txt compiles them and the images they show into it as resources under
// :/documentation/, each at its path in the repository), in a window of their own: the documents
// listed on the left, the one chosen rendered from its Markdown on the right (markdown_browser.h:
// links between the documents and to their sections work, web links open in the system's browser),
// Back and Forward, and a search in the page. Offline: nothing is fetched.

#include <QList>
#include <QString>
#include <QUrl>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QToolButton;

namespace sebo::ui {

class MarkdownBrowser;

struct ShippedDocument {
    QString path;   // in the repository: "README.md", "docs/method.md"
    QString title;  // its first heading, without Markdown
    QUrl url() const { return QUrl("qrc:/documentation/" + path); }
};

// The documents compiled into the program: the README, then docs/*.md in reading order (the
// method and its results before the file format, the measurements and the architecture; a
// document added to docs/ later comes after them).
QList<ShippedDocument> shipped_documents();

class DocumentationWindow : public QWidget {
    Q_OBJECT
public:
    explicit DocumentationWindow(QWidget* parent = nullptr);

    MarkdownBrowser* browser() const { return browser_; }
    QListWidget* documentList() const { return list_; }
    // What the last link that could not be followed here said (empty when none).
    QString notice() const;

    // Shows a shipped document by its path in the repository, with a section ("docs/results.md#noisy");
    // false when no such document is shipped.
    bool showDocument(const QString& path);

protected:
    // Shift+Enter in the search field finds the match before.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void findInPage(bool backwards);
    void syncList(const QUrl& source);

    QList<ShippedDocument> documents_;
    QListWidget* list_;
    MarkdownBrowser* browser_;
    QToolButton* back_;
    QToolButton* forward_;
    QLineEdit* find_;
    QLabel* notice_;
};

}  // namespace sebo::ui
