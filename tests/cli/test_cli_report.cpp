// `sebo report` (issue 32 item 4) as a real child process: the bundled manual example and a run
// with two objectives as self-contained HTML naming the file by the SHA-256 of its bytes; and
// every mistake (no file, a file that is not an experiment, no --out, a bad --format or --timeout,
// an unknown option, PDF without a browser) refused with exit code 2 and a message naming it.
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_report {

namespace {

using sebo::test::read_bytes;
using sebo::test::read_json;
using sebo::test::run_sebo;
using sebo::test::write_bytes;
using Result = sebo::test::CliResult;

const QString kExample = QString(SEBO_SOURCE_DIR) + "/resources/examples/service-tuning.sebo.json";

}  // namespace

class TestCliReport : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString path(const QString& name) const { return dir.filePath(name); }

private slots:
    void theBundledManualExampleAsHtml() {
        const QString out = path("service.html");
        const Result r = run_sebo({"report", kExample, "--out", out});
        SEBO_EXPECT(r, 0, "");
        QVERIFY2(r.out.contains("wrote " + out + " (html)"), qPrintable(r.out));
        const QString html = QString::fromUtf8(read_bytes(out));
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        for (const char* heading : {"The question", "The frontier", "Chosen configurations", "Progress", "Method", "Warnings",
                                    "Where this came from"})
            QVERIFY2(html.contains(QString("<h2>%1</h2>").arg(heading)), heading);
        QVERIFY(html.contains("<h1>Tuning a service by hand</h1>"));
        // The file by the hash of its bytes, as sha256sum would print it.
        const QByteArray sha = QCryptographicHash::hash(read_bytes(kExample), QCryptographicHash::Sha256).toHex();
        QVERIFY(html.contains("<code class=\"hash\">" + QString::fromLatin1(sha) + "</code>"));
        QVERIFY(html.contains("<code>" + kExample + "</code>"));
        // The trials as the file has them: their count, the earliest date, the failed and pending ones.
        const QJsonArray trials = read_json(kExample)["trials"].toArray();
        QString first;
        int pending = 0;
        for (const auto& t : trials) {
            const QString created = t.toObject()["created_at"].toString();
            if (!created.isEmpty() && (first.isEmpty() || created < first)) first = created;
            pending += t.toObject()["status"].toString() == "pending";
        }
        QVERIFY(html.contains(QString("<th>trials</th><td>%1: ").arg(trials.size())));
        QVERIFY(html.contains("<th>first trial</th><td>" + first + "</td>"));
        QVERIFY(html.contains(QString("%1 trials are still waiting for a result").arg(pending)));
        QVERIFY(html.contains("Trial 12 failed"));
        QVERIFY(html.contains("manual: results entered by a person"));
        // One objective: one frontier chart, the hypervolume and the activation.
        QCOMPARE(html.count("<svg"), 3);
        QCOMPARE(html.count("</svg>"), 3);
        QVERIFY(!html.contains("src=") && !html.contains("href=") && !html.contains("<script"));
    }

    void twoObjectivesTwoFrontierCharts() {
        const QString file = path("bc.sebo.json");
        SEBO_EXPECT(run_sebo({"run", "--problem", "branin-currin", "--strategy", "sobol", "--trials", "10", "--seed", "3",
                              "--out", file, "--force", "--quiet"}),
                    0, "");
        const QString out = path("bc.html");
        SEBO_EXPECT(run_sebo({"report", file, "--out", out, "--format", "html"}), 0, "");
        const QString html = QString::fromUtf8(read_bytes(out));
        const QJsonArray objectives = read_json(file)["objectives"].toArray();
        QCOMPARE(objectives.size(), 2);
        for (const auto& o : objectives)
            QVERIFY(html.contains("<title>" + o.toObject()["metric"].toString() + " against the number of changed parameters</title>"));
        QCOMPARE(html.count("<svg"), 4);
    }

    void mistakesAreExitCodeTwo() {
        SEBO_EXPECT(run_sebo({"report", path("missing.sebo.json"), "--out", path("x.html")}), 2, "missing.sebo.json");
        write_bytes(path("not.sebo.json"), "{\"format\": \"something else\"}");
        SEBO_EXPECT(run_sebo({"report", path("not.sebo.json"), "--out", path("x.html")}), 2, "format");
        SEBO_EXPECT(run_sebo({"report", kExample}), 2, "--out PATH is required");
        SEBO_EXPECT(run_sebo({"report", "--out", path("x.html")}), 2, "an experiment FILE is required");
        SEBO_EXPECT(run_sebo({"report", kExample, "--out", path("x.html"), "--format", "docx"}), 2,
                    "--format: 'docx' is not a report format; expected html or pdf");
        SEBO_EXPECT(run_sebo({"report", kExample, "--out", path("x.html"), "--timeout", "0"}), 2, "--timeout: 0");
        SEBO_EXPECT(run_sebo({"report", kExample, "--out", path("x.html"), "--colour"}), 2, "unknown option '--colour'");
        SEBO_EXPECT(run_sebo({"report", kExample, "--out", path("x.pdf"), "--browser", path("no-such-browser")}), 2,
                    "--browser: '" + path("no-such-browser") + "' is not an executable file");
        QVERIFY(!QFile::exists(path("x.html")) && !QFile::exists(path("x.pdf")));
    }

    void pdfWithoutABrowserSaysHowToInstallOne() {
        // PATH without any browser: the report is refused before anything is written, never faked.
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PATH", dir.path());
        p.setProcessEnvironment(env);
        p.start(SEBO_CLI_PATH, {"report", kExample, "--out", path("y.pdf")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("none of chromium, chromium-browser, google-chrome is on PATH"), qPrintable(err));
        QVERIFY2(err.contains("apt install chromium"), qPrintable(err));
        QVERIFY(!QFile::exists(path("y.pdf")));
    }
};

SEBO_TEST_MAIN(TestCliReport)
}  // namespace test_cli_report
#include "test_cli_report.moc"
