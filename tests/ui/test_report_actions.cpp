// File › Export report… (ui/report_actions.h) in the real window: the action sits in the File menu,
// writes the open experiment's report as HTML naming its file by the SHA-256 of its bytes, says
// when the window holds changes not saved to the file (and includes them, escaped), and refuses PDF
// without a browser instead of writing something else.
#include <QAction>
#include <QCryptographicHash>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>

#include "experiment_document.h"
#include "io/experiment_file.h"
#include "main_window.h"
#include "report/browser_render.h"
#include "report_actions.h"
#include "report_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_report_actions {

using namespace sebo;
using namespace sebo::ui;

namespace {

QString read_text(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString sha256_of(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex())
                                       : QString();
}

}  // namespace

class TestReportActions : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString path(const QString& name) const { return dir.filePath(name); }

private slots:
    void exportsTheOpenExperimentFromTheFileMenu() {
        const QString file = path("service.sebo.json");
        save_experiment(test::report_experiment(), file.toStdString());
        MainWindow w;
        auto* actions = w.findChild<ReportActions*>();
        QVERIFY(actions);
        QAction* action = actions->exportAction();
        QVERIFY(!action->isEnabled());  // nothing open yet
        QMenu* file_menu = nullptr;
        for (QAction* menu : w.menuBar()->actions())
            if (menu->text() == "&File") file_menu = menu->menu();
        QVERIFY(file_menu && file_menu->actions().contains(action));
        QVERIFY(w.openFile(file));
        QVERIFY(action->isEnabled());

        // Through the action, with the path chooser answered as a person would.
        QString asked_suggestion;
        actions->setPathChooser([&](const QString&, const QString&, const QString& suggested) {
            asked_suggestion = suggested;
            return path("from-menu.html");
        });
        action->trigger();
        QCOMPARE(asked_suggestion, QString("service-report.html"));
        const QString html = read_text(path("from-menu.html"));
        QVERIFY(html.contains("<h1>Service tuning</h1>"));
        QVERIFY(html.contains("<code class=\"hash\">" + sha256_of(file) + "</code>"));
        QVERIFY(!html.contains("changes not saved"));

        // A change not saved yet: in the report, escaped, and said next to the file's hash.
        w.document()->setChosen(2, true, "faster <b>and</b> safe");
        QVERIFY(w.document()->isModified());
        const std::optional<QString> error = actions->exportTo(path("modified.html"));
        QVERIFY2(!error, qPrintable(error.value_or(QString())));
        const QString modified = read_text(path("modified.html"));
        QVERIFY(modified.contains("<h3>Trial 2</h3>"));
        QVERIFY(modified.contains("faster &lt;b&gt;and&lt;/b&gt; safe"));
        QVERIFY(modified.contains("<code class=\"hash\">" + sha256_of(file) + "</code> (the file as saved; this report includes changes not saved to it)"));
    }

    void pdfNeedsABrowser() {
        const QString file = path("pdf.sebo.json");
        save_experiment(test::report_experiment(), file.toStdString());
        MainWindow w;
        QVERIFY(w.openFile(file));
        auto* actions = w.findChild<ReportActions*>();
        const QByteArray saved = qgetenv("PATH");
        qputenv("PATH", dir.path().toLocal8Bit());  // no browser here
        const std::optional<QString> error = actions->exportTo(path("r.pdf"));
        qputenv("PATH", saved);
        QVERIFY(error);
        QVERIFY2(error->contains("apt install chromium"), qPrintable(*error));
        QVERIFY(!QFile::exists(path("r.pdf")));
        if (!find_browser()) QSKIP("no chromium on PATH: the PDF itself is tested where it is installed");
        const std::optional<QString> printed = actions->exportTo(path("r.pdf"));
        QVERIFY2(!printed, qPrintable(printed.value_or(QString())));
        QFile pdf(path("r.pdf"));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
    }
};

SEBO_TEST_MAIN(TestReportActions)
}  // namespace test_report_actions
#include "test_report_actions.moc"
