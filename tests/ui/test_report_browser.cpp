// The report in a real browser engine (issue 32 item 4): `sebo report --format pdf` prints it with
// headless Chromium, and the PDF's text (pdftotext, poppler-utils) has every section, the numbers,
// the changes in their wording and the markup-like note as plain text; a picture of the HTML taken
// by Chromium itself is not blank and shows the charts' colours. Skipped, saying why, where Chromium
// or pdftotext is not installed (Debian: apt install chromium poppler-utils).
#include <QCryptographicHash>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>

#include "io/experiment_file.h"
#include "report/browser_render.h"
#include "report_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_report_browser {

using namespace sebo;

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

Run run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// Pixels within `tolerance` of `colour` in every channel.
int pixels_near(const QImage& image, QColor colour, int tolerance = 24) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += std::abs(c.red() - colour.red()) <= tolerance && std::abs(c.green() - colour.green()) <= tolerance &&
                 std::abs(c.blue() - colour.blue()) <= tolerance;
        }
    return n;
}

}  // namespace

class TestReportBrowser : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString file, browser;

    QString path(const QString& name) const { return dir.filePath(name); }

private slots:
    void initTestCase() {
        file = path("service.sebo.json");
        save_experiment(test::report_experiment(), file.toStdString());
        if (auto found = find_browser()) browser = QString::fromStdString(*found);
    }

    void pdfPrintedByChromium() {
        if (browser.isEmpty()) QSKIP("no chromium on PATH: install it to test the report in a browser (Debian: apt install chromium)");
        const QString pdftotext = QStandardPaths::findExecutable("pdftotext");
        if (pdftotext.isEmpty()) QSKIP("no pdftotext on PATH: install poppler-utils to read the PDF's text");
        const QString pdf = path("service.pdf");
        const Run made = run(SEBO_CLI_PATH, {"report", file, "--out", pdf, "--format", "pdf"});
        QVERIFY2(made.code == 0, qPrintable(made.err));
        QFile bytes(pdf);
        QVERIFY(bytes.open(QIODevice::ReadOnly));
        QVERIFY(bytes.read(5) == "%PDF-");
        const Run text = run(pdftotext, {"-layout", pdf, "-"});
        QVERIFY2(text.code == 0, qPrintable(text.err));
        const QString t = text.out;
        for (const char* expected : {"Service tuning", "The question", "The frontier", "Chosen configurations", "Progress",
                                     "Method", "Warnings", "Where this came from"})
            QVERIFY2(t.contains(expected), qPrintable(QString("'%1' not in the PDF's text:\n%2").arg(expected, t)));
        // The numbers and the changes as the tables give them.
        QVERIFY2(t.contains("1234.5"), qPrintable(t));
        QVERIFY(t.contains("cache_mb 256 \u2192 811"));
        QVERIFY(t.contains("mode plain \u2192 fast"));
        QVERIFY(t.contains("+10 %"));
        QVERIFY(t.contains("memory <= 100"));
        // The note is text on the page, not markup the browser ran or hid.
        QVERIFY(t.contains("<script>steal()</script> & keep"));
        QVERIFY(t.contains("Trial 2 is feasible and better on every objective"));
        QFile source(file);
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QString sha = QString::fromLatin1(QCryptographicHash::hash(source.readAll(), QCryptographicHash::Sha256).toHex());
        // On one line, as sha256sum prints it.
        QVERIFY2(t.contains(sha), qPrintable(t));
    }

    void pictureOfTheHtmlIsNotBlank() {
        if (browser.isEmpty()) QSKIP("no chromium on PATH: install it to test the report in a browser (Debian: apt install chromium)");
        const QString html = path("service.html");
        const Run made = run(SEBO_CLI_PATH, {"report", file, "--out", html});
        QVERIFY2(made.code == 0, qPrintable(made.err));
        const QString png = path("service.png");
        const Run shot = run(browser, {"--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
                                       "--user-data-dir=" + path("profile"), "--screenshot=" + png, "--window-size=1200,1600",
                                       QUrl::fromLocalFile(html).toString()});
        QVERIFY2(shot.code == 0, qPrintable(shot.err));
        QImage image(png);
        QVERIFY2(!image.isNull(), "the browser wrote no picture");
        QCOMPARE(image.size(), QSize(1200, 1600));
        image = image.convertToFormat(QImage::Format_RGB32);
        QSet<QRgb> colours;
        int white = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QRgb c = image.pixel(x, y);
                colours.insert(c);
                white += c == qRgb(255, 255, 255);
            }
        QVERIFY2(colours.size() > 16, qPrintable(QString("%1 colours").arg(colours.size())));
        QVERIFY2(white < image.width() * image.height() * 97 / 100, qPrintable(QString("%1 white pixels").arg(white)));
        // The infeasible trial's red ring exists only in the frontier chart: the SVG was drawn.
        QVERIFY2(pixels_near(image, QColor("#c62828")) > 10, "no pixel of the infeasible trial's ring");
    }
};

SEBO_TEST_MAIN(TestReportBrowser)
}  // namespace test_report_browser
#include "test_report_browser.moc"
