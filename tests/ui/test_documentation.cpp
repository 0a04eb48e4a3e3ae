// Help › Documentation (issue 32, item 7): the README and docs/*.md are compiled into the program
// with the images they show, byte for byte the files of the source tree; F1 opens them in a window
// of the explorer; a click on a relative link opens the other document at its section; images are
// shown, scaled to the view; web links go to the system's browser and nothing is fetched; a link
// to a folder of the source tree says that it is not shipped; code blocks wrap, so a document
// never scrolls sideways.

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>

#include "documentation_window.h"
#include "help_actions.h"
#include "main_window.h"
#include "markdown_browser.h"
#include "test_main.h"
#include "test_support.h"
#include "ui_test_support.h"

namespace test_documentation {

using namespace sebo;
using namespace sebo::ui;
using sebo::test::read_all;

namespace {

QString source_file(const QString& relative) { return QString::fromStdString(test::source_path(relative.toStdString())); }

// The relative targets of a Markdown file's links and images, "](target)", outside code blocks.
QStringList relative_links(const QString& markdown) {
    QStringList links;
    bool fenced = false;
    static const QRegularExpression link(R"(\]\(([^)\s]+)\))");
    for (const QString& line : markdown.split('\n')) {
        if (line.startsWith("```")) fenced = !fenced;
        if (fenced) continue;
        for (auto m = link.globalMatch(line); m.hasNext();) {
            const QString target = m.next().captured(1);
            if (!target.contains("://") && !target.startsWith("mailto:") && !target.startsWith('#')) links << target;
        }
    }
    return links;
}

// The position of the first text of `browser`'s document linking to `href`, or -1.
int link_position(const MarkdownBrowser* browser, const QString& href) {
    for (QTextBlock b = browser->document()->begin(); b.isValid(); b = b.next())
        for (QTextBlock::iterator it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().anchorHref() == href) return it.fragment().position();
    return -1;
}

// Scrolls the text at `position` into view.
QTextCursor reveal(MarkdownBrowser* browser, int position) {
    QTextCursor cursor(browser->document());
    cursor.setPosition(position + 1);
    browser->setTextCursor(cursor);
    browser->ensureCursorVisible();
    QCoreApplication::processEvents();
    return cursor;
}

// Clicks on the text at `position` as a user does.
void click_text(MarkdownBrowser* browser, int position) {
    const QTextCursor cursor = reveal(browser, position);
    const QRect at = browser->cursorRect(cursor);
    const QPoint point(at.left() - 3, at.center().y());  // on the character before the cursor
    QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, point);
}

// Where the heading with anchor `name` is, relative to the top of the view (pixels).
int heading_offset(const MarkdownBrowser* browser, const QString& name) {
    for (QTextBlock b = browser->document()->begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() == 0 || b.begin().atEnd()) continue;
        if (!b.begin().fragment().charFormat().anchorNames().contains(name)) continue;
        const QRectF r = browser->document()->documentLayout()->blockBoundingRect(b);
        return static_cast<int>(r.top()) - browser->verticalScrollBar()->value();
    }
    return -100000;
}

// The images of the document shown: loaded from the program and no wider than the view. Returns
// how many there are, or -1 with `problem` set.
int fitted_images(const MarkdownBrowser* browser, QString* problem) {
    int images = 0;
    const int room = browser->viewport()->width();
    for (QTextBlock b = browser->document()->begin(); b.isValid(); b = b.next())
        for (QTextBlock::iterator it = b.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat f = it.fragment().charFormat();
            if (!f.isImageFormat()) continue;
            const QTextImageFormat image = f.toImageFormat();
            const QVariant data = browser->document()->resource(QTextDocument::ImageResource, QUrl(image.name()));
            if (!data.isValid() || data.isNull()) *problem = image.name() + " is not loaded";
            else if (!(image.width() > 100 && image.width() <= room))
                *problem = QString("%1 is %2 px wide in a view of %3").arg(image.name()).arg(image.width()).arg(room);
            if (!problem->isEmpty()) return -1;
            ++images;
        }
    return images;
}

QMenu* help_menu(MainWindow& w) {
    for (QAction* a : w.menuBar()->actions())
        if (a->text().remove('&') == "Help") return a->menu();
    return nullptr;
}

}  // namespace

class TestDocumentation : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Every document of the source tree is in the program, as it is in the tree, and so is every
    // image and document a document links to.
    void theDocumentsAndTheirImagesAreCompiledIn() {
        QStringList expected{"README.md"};
        for (const QString& name : QDir(source_file("docs")).entryList({"*.md"}, QDir::Files)) expected << "docs/" + name;
        QStringList shipped;
        for (const ShippedDocument& d : shipped_documents()) shipped << d.path;
        QCOMPARE(shipped.first(), QString("README.md"));
        QStringList sorted = shipped;
        sorted.sort();
        expected.sort();
        QCOMPARE(sorted, expected);
        QVERIFY(expected.contains("docs/method.md") && expected.contains("docs/results.md"));

        int images = 0;
        qint64 bytes = 0;
        for (const QString& path : shipped) {
            const QByteArray text = read_all(":/documentation/" + path);
            QCOMPARE(text, read_all(source_file(path)));
            bytes += text.size();
            const QString dir = QFileInfo(path).path();
            for (QString target : relative_links(QString::fromUtf8(text))) {
                target = target.section('#', 0, 0);
                const QString resolved = QDir::cleanPath(dir == "." ? target : dir + "/" + target);
                // Folders of the source tree (docs/results/) are not shipped; the browser says so.
                if (target.endsWith('/')) continue;
                QVERIFY2(QFileInfo(":/documentation/" + resolved).isFile(), qPrintable(path + " links to " + resolved));
                if (resolved.endsWith(".png")) {
                    const QByteArray image = read_all(":/documentation/" + resolved);
                    QCOMPARE(image, read_all(source_file(resolved)));
                    QVERIFY(!QImage::fromData(image).isNull());
                    bytes += image.size();
                    ++images;
                }
            }
        }
        QVERIFY2(images >= 25, qPrintable(QString("%1 images").arg(images)));
        // The program grows by a few megabytes, not by the whole docs/results tree.
        QVERIFY2(bytes < 5'000'000, qPrintable(QString("%1 bytes").arg(bytes)));
    }

    // The section links between the documents name headings that exist (GitHub's anchors).
    void sectionLinksLeadToHeadings() {
        QCOMPARE(heading_anchor("Fast NUTS against the paper's settings"),
                 QString("fast-nuts-against-the-papers-settings"));
        QCOMPARE(heading_anchor("Imports (sebo new --from, File › Import experiment…)"),
                 QString("imports-sebo-new---from-file--import-experiment"));
        MarkdownBrowser browser;
        browser.resize(800, 600);
        int checked = 0;
        for (const ShippedDocument& d : shipped_documents()) {
            const QString dir = QFileInfo(d.path).path();
            for (const QString& target : relative_links(QString::fromUtf8(read_all(":/documentation/" + d.path)))) {
                if (!target.contains(".md#")) continue;
                const QString linked = target.section('#', 0, 0);
                const QString file = QDir::cleanPath(dir == "." ? linked : dir + "/" + linked);
                browser.setSource(QUrl("qrc:/documentation/" + file));
                QVERIFY2(browser.headingAnchors().contains(target.section('#', 1)),
                         qPrintable(d.path + " links to " + target + "; headings: " + browser.headingAnchors().join(' ')));
                ++checked;
            }
        }
        QVERIFY(checked >= 4);
    }

    // F1 (Help › Documentation) opens the README inside the program; a click on its link to
    // docs/method.md opens that document, one there to results.md#… opens the results at that
    // section; Back returns; the images of the results are there and fit the view.
    void f1OpensTheDocumentsAndTheirLinksWork() {
        MainWindow w;
        w.setRememberRecentFiles(false);
        w.resize(1366, 768);
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QMenu* help = help_menu(w);
        QVERIFY(help);
        QAction* documentation = w.helpActions()->documentationAction();
        QVERIFY(help->actions().contains(documentation));
        QCOMPARE(documentation->shortcut(), QKeySequence(Qt::Key_F1));
        QVERIFY(!w.helpActions()->documentationWindow());
        QTest::keyClick(&w, Qt::Key_F1);
        DocumentationWindow* window = w.helpActions()->documentationWindow();
        QVERIFY(window);
        QVERIFY(QTest::qWaitForWindowExposed(window));
        MarkdownBrowser* browser = window->browser();
        QCOMPARE(browser->source(), QUrl("qrc:/documentation/README.md"));
        QCOMPARE(window->documentList()->count(), shipped_documents().size());
        QCOMPARE(window->documentList()->currentRow(), 0);
        QVERIFY(browser->toPlainText().contains("Sparse Bayesian optimization on the desktop"));
        // Markdown, not its source: no "## " or "](" left in the text shown.
        QVERIFY(!browser->toPlainText().contains("](docs/"));
        // Its long command lines wrap: nothing to scroll sideways.
        QCOMPARE(browser->horizontalScrollBar()->maximum(), 0);

        const int to_method = link_position(browser, "docs/method.md");
        QVERIFY(to_method >= 0);
        click_text(browser, to_method);
        QTRY_COMPARE(browser->source(), QUrl("qrc:/documentation/docs/method.md"));
        QCOMPARE(window->documentList()->currentItem()->toolTip(), QString("docs/method.md"));
        QVERIFY(window->windowTitle().startsWith("How SEBO Explorer proposes a configuration"));

        const QString section = "fast-nuts-against-the-papers-settings";
        const int to_results = link_position(browser, "results.md#" + section);
        QVERIFY(to_results >= 0);
        reveal(browser, to_results);
        const int method_position = browser->verticalScrollBar()->value();
        QVERIFY(method_position > 0);
        click_text(browser, to_results);
        QTRY_COMPARE(browser->source(), QUrl("qrc:/documentation/docs/results.md#" + section));
        QVERIFY(browser->verticalScrollBar()->value() > 0);
        const int offset = heading_offset(browser, section);
        QVERIFY2(offset >= -2 && offset < 40, qPrintable(QString("the heading is %1 px from the top").arg(offset)));

        // The results' figures: loaded from the program, no wider than the view.
        QString problem;
        const int images = fitted_images(browser, &problem);
        QVERIFY2(images >= 25, qPrintable(QString("%1 images; %2").arg(images).arg(problem)));

        // Back: the method again, where it was left; the list follows.
        browser->backward();
        QCOMPARE(browser->source(), QUrl("qrc:/documentation/docs/method.md"));
        // (The click that followed the link may have moved it by a line.)
        const int back_at = browser->verticalScrollBar()->value();
        QVERIFY2(std::abs(back_at - method_position) <= 2 * browser->fontMetrics().lineSpacing(),
                 qPrintable(QString("at %1, left at %2").arg(back_at).arg(method_position)));
        QCOMPARE(window->documentList()->currentItem()->toolTip(), QString("docs/method.md"));
        // The list opens a document.
        window->documentList()->setCurrentRow(0);
        QCOMPARE(browser->source(), QUrl("qrc:/documentation/README.md"));

        // Help › Documentation again brings the same window forward.
        documentation->trigger();
        QCOMPARE(w.helpActions()->documentationWindow(), window);
    }

    // A web link goes to the system's browser, never into the window; a link to a folder of the
    // source tree says that it is not shipped; neither changes the document shown.
    void webLinksOpenOutsideAndNothingIsFetched() {
        DocumentationWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QList<QUrl> opened;
        window.browser()->setExternalOpener([&opened](const QUrl& url) {
            opened << url;
            return true;
        });
        // Straight from the README to another folder's document: its images are found and fit.
        QVERIFY(window.showDocument("docs/results.md"));
        QString problem;
        const int images = fitted_images(window.browser(), &problem);
        QVERIFY2(images >= 25, qPrintable(QString("%1 images; %2").arg(images).arg(problem)));

        QVERIFY(window.showDocument("docs/reliability.md"));
        const QUrl shown = window.browser()->source();
        const int web = link_position(window.browser(), "https://llvm.org/docs/LibFuzzer.html");
        QVERIFY(web >= 0);
        click_text(window.browser(), web);
        QTRY_COMPARE(opened, QList<QUrl>{QUrl("https://llvm.org/docs/LibFuzzer.html")});
        QCOMPARE(window.browser()->source(), shown);
        QVERIFY(window.notice().isEmpty());

        QVERIFY(window.showDocument("docs/results.md"));
        window.browser()->followLink(QUrl("results/"));
        QCOMPARE(window.browser()->source(), QUrl("qrc:/documentation/docs/results.md"));
        QVERIFY2(window.notice().contains("results/") && window.notice().contains("not among the documents shipped"),
                 qPrintable(window.notice()));
        QCOMPARE(opened.size(), 1);
        QVERIFY(!window.showDocument("docs/no-such-page.md"));
    }

    // The search field finds text in the document shown, and says when it is not there.
    void findInTheDocument() {
        DocumentationWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.showDocument("docs/method.md"));
        auto* find = window.findChild<QLineEdit*>();
        QVERIFY(find);
        QTest::keyClicks(find, "homotopy");
        QCOMPARE(window.browser()->textCursor().selectedText().toLower(), QString("homotopy"));
        const int first = window.browser()->textCursor().position();
        QTest::keyClick(find, Qt::Key_Return);
        QVERIFY(window.browser()->textCursor().position() > first);
        find->clear();
        QTest::keyClicks(find, "zzyzx-not-there");
        QVERIFY(window.notice().contains("is not in this document"));
    }
};

SEBO_TEST_MAIN(TestDocumentation)
}  // namespace test_documentation
#include "test_documentation.moc"
