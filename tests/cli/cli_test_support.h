#pragma once
// Running the real `sebo` binary from the CLI tests, and reading what it wrote.

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTest>

namespace sebo::test {

struct CliResult {
    int code = -1;  // −1 when it crashed or did not finish within the limit
    QString out, err;
};

// Checks a run's exit code and that its stderr contains `fragment`, printing stderr on failure.
#define SEBO_EXPECT(result, code_, fragment)                                                                        \
    do {                                                                                                            \
        const ::sebo::test::CliResult& sebo_r_ = (result);                                                          \
        QVERIFY2(sebo_r_.code == (code_), qPrintable(QString("exit %1, stderr: %2").arg(sebo_r_.code).arg(sebo_r_.err))); \
        QVERIFY2(sebo_r_.err.contains(fragment), qPrintable(sebo_r_.err));                                          \
    } while (false)

inline CliResult run_sebo(const QStringList& args, const QString& workdir = {}) {
    QProcess p;
    if (!workdir.isEmpty()) p.setWorkingDirectory(workdir);
    p.start(SEBO_CLI_PATH, args);
    if (!p.waitForFinished(600000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// A failure to write is a failure of the calling test.
inline void write_bytes(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable("cannot write " + path));
    QVERIFY2(f.write(bytes) == bytes.size(), qPrintable("cannot write " + path));
}

inline QByteArray read_bytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A test evaluator of tests/fixtures/evaluators.
inline QString evaluator_fixture(const QString& name) {
    return QString(SEBO_SOURCE_DIR) + "/tests/fixtures/evaluators/" + name;
}

inline QJsonObject read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// A metric's recorded value (or standard error) on a trial object of an experiment file:
// trial["values"][metric]["mean"] (or ["sem"]); 0 when absent.
inline double metric_value(const QJsonObject& trial, const QString& metric, const char* member = "mean") {
    return trial["values"].toObject()[metric].toObject()[member].toDouble();
}

}  // namespace sebo::test
