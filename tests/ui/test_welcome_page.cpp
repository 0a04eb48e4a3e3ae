// The welcome page at 1366×768 (issue 32, item 7): with the panels where the window puts them,
// every bundled example is in view without scrolling, in the platform's font (not a smaller one),
// and each one opens its example.

#include <QAbstractButton>
#include <QApplication>
#include <QScrollArea>
#include <QScrollBar>

#include "example_catalog.h"
#include "experiment_document.h"
#include "main_window.h"
#include "test_main.h"
#include "test_support.h"
#include "welcome_page.h"

namespace test_welcome_page {

using namespace sebo;
using namespace sebo::ui;

namespace {

void settle() {
    for (int i = 0; i < 6; ++i) {
        QCoreApplication::processEvents();
        QCoreApplication::sendPostedEvents();
    }
}

}  // namespace

class TestWelcomePage : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        make_settings()->clear();
    }

    void theExamplesAreInViewAt1366x768() {
        const QList<BundledExample> examples = bundled_example_catalog();
        QVERIFY(examples.size() >= 7);
        MainWindow w;
        w.setRememberRecentFiles(false);
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        settle();
        QCOMPARE(w.size(), QSize(1366, 768));
        WelcomePage* page = w.welcomePage();
        QVERIFY(page->isVisible());
        QWidget* viewport = page->scrollArea()->viewport();
        QCOMPARE(page->scrollArea()->verticalScrollBar()->value(), 0);
        const QList<QWidget*> buttons = page->exampleButtons();
        QCOMPARE(buttons.size(), examples.size());
        for (int i = 0; i < buttons.size(); ++i) {
            QWidget* b = buttons[i];
            QVERIFY(b->isVisible());
            const QRect in_view(b->mapTo(viewport, QPoint(0, 0)), b->size());
            QVERIFY2(viewport->rect().contains(in_view),
                     qPrintable(QString("%1 at %2,%3 %4x%5; the view is %6x%7")
                                    .arg(examples[i].title).arg(in_view.x()).arg(in_view.y()).arg(in_view.width())
                                    .arg(in_view.height()).arg(viewport->width()).arg(viewport->height())));
        }
        // Each with two lines of its description besides the title, in at least the platform's
        // font, and all of the description in its tooltip.
        const QFont platform = QApplication::font();
        for (int i = 0; i < buttons.size(); ++i) {
            QWidget* b = buttons[i];
            QVERIFY(b->height() >= 3 * QFontMetrics(platform).height());
            QVERIFY(b->font().pointSizeF() >= platform.pointSizeF());
            QVERIFY(b->toolTip().contains(examples[i].description.simplified()));
        }
        // A click opens the example.
        auto* last = qobject_cast<QAbstractButton*>(buttons.last());
        QVERIFY(last);
        QTest::mouseClick(last, Qt::LeftButton);
        QVERIFY(w.document()->hasExperiment());
        QCOMPARE(QString::fromStdString(w.document()->experiment().name), examples.last().title);
    }
};

SEBO_TEST_MAIN(TestWelcomePage)
}  // namespace test_welcome_page
#include "test_welcome_page.moc"
