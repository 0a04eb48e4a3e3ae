#pragma once
// Running the real `sebo` binary from the CLI tests, and reading what it wrote.

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace sebo::test {

struct CliResult {
    int code = -1;  // −1 when it crashed or did not finish within the limit
    QString out, err;
};

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

// The bytes of a file (empty when it cannot be read).
inline QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline QJsonObject read_json(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

}  // namespace sebo::test
