// One version for every program and every file (issue 33 item 7): `sebo --version`,
// `sebo-bench --version` and `sebo-explorer --version` print the CMake project version (and the
// commit of a build from git) from one source, engine/core/version.h, and every experiment file
// records the program that last wrote it ("written_by").
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "cli/cli_test_support.h"
#include "test_main.h"
#include "test_support.h"

namespace test_cli_version {

namespace {

QString output_of(const QString& program, const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    p.setProcessEnvironment(env);
    p.start(program, args);
    p.waitForFinished(60000);
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

// "0.1.0" from the top-level CMakeLists.txt's project(... VERSION ...).
QString project_version() {
    QFile f(QString::fromStdString(sebo::test::source_path("CMakeLists.txt")));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QRegularExpressionMatch m = QRegularExpression(R"(project\(\S+ VERSION (\S+))").match(QString::fromUtf8(f.readAll()));
    return m.hasMatch() ? m.captured(1) : QString();
}

}  // namespace

class TestCliVersion : public QObject {
    Q_OBJECT
private slots:
    void every_program_prints_one_version() {
        const QString version = project_version();
        QVERIFY(!version.isEmpty());
        const QString bin = QString(SEBO_BINARY_DIR) + "/app/";
        const QString sebo = output_of(bin + "sebo", {"--version"});
        const QString bench = output_of(bin + "sebo-bench", {"--version"});
        QVERIFY2(sebo.startsWith("sebo: SEBO Explorer " + version), qPrintable(sebo));
        const QString text = sebo.mid(QString("sebo: ").size());
        QCOMPARE(bench, "sebo-bench: " + text);
        if (QFile::exists(bin + "sebo-explorer"))
            QCOMPARE(output_of(bin + "sebo-explorer", {"--version"}), "sebo-explorer " + text.mid(QString("SEBO Explorer ").size()));
        // A build from a git checkout names its commit.
        if (QFile::exists(QString::fromStdString(sebo::test::source_path(".git"))))
            QVERIFY2(QRegularExpression(R"(^SEBO Explorer \S+ \([0-9a-f]{7,}(-dirty)?\)$)").match(text).hasMatch(), qPrintable(text));
    }

    void files_record_their_writer() {
        QTemporaryDir dir;
        const QString file = dir.filePath("v.sebo.json");
        const auto r = sebo::test::run_sebo({"run", "--problem", "branin", "--dim", "3", "--trials", "1", "--out", file, "--quiet"});
        QCOMPARE(r.code, 0);
        const QString text = output_of(QString(SEBO_BINARY_DIR) + "/app/sebo", {"--version"}).mid(QString("sebo: ").size());
        QCOMPARE(sebo::test::read_json(file)["written_by"].toString(), text);
    }
};

SEBO_TEST_MAIN(TestCliVersion)
}  // namespace test_cli_version
#include "test_cli_version.moc"
