#include "file_locations.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <exception>

#include "io/file_lock.h"
#include "resource_paths.h"

namespace sebo::ui {

namespace {

// The canonical form of a path that may not exist yet: its nearest existing folder resolved.
QString canonical(const QString& path) {
    QFileInfo info(QFileInfo(path).absoluteFilePath());
    QStringList tail;
    while (!info.exists() && !info.isRoot() && info.absoluteFilePath() != info.absolutePath()) {
        tail.prepend(info.fileName());
        info = QFileInfo(info.absolutePath());
    }
    QString base = info.canonicalFilePath();
    if (base.isEmpty()) base = info.absoluteFilePath();
    for (const QString& part : tail) base = QDir(base).filePath(part);
    return QDir::cleanPath(base);
}

bool inside(const QString& path, const QString& folder) {
    if (folder.isEmpty()) return false;
    const QString root = canonical(folder);
    return path == root || path.startsWith(root + '/');
}

}  // namespace

bool is_bundled_path(const QString& path) {
    if (path.isEmpty()) return false;
    const QString file = canonical(path);
    QStringList folders{examples_directory(), bundled_resources_directory()};
    if (QCoreApplication::instance())
        folders << QCoreApplication::applicationDirPath() + "/../share/sebo-explorer";
    for (const QString& folder : folders)
        if (QFileInfo(folder).isDir() && inside(file, folder)) return true;
    return false;
}

std::optional<QString> refuse_bundled_path(const QString& path) {
    if (!is_bundled_path(path)) return std::nullopt;
    return QCoreApplication::translate("FileLocations", "%1 is in the application's own folder, which is never written; "
                                                        "choose another folder.")
        .arg(QDir::toNativeSeparators(QFileInfo(path).absolutePath()));
}

QString recovery_directory() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
    QDir().mkpath(dir);
    return dir;
}

QString new_recovery_path(const QString& name) {
    QString stem = name;
    if (stem.endsWith(".sebo.json", Qt::CaseInsensitive)) stem.chop(10);
    stem.replace(QRegularExpression("[^A-Za-z0-9._-]+"), "-");
    stem.remove(QRegularExpression("^[.-]+"));
    if (stem.isEmpty()) stem = "experiment";
    const QString dir = recovery_directory();
    const QString base = QString("%1-%2-%3")
                             .arg(stem.left(60), QDateTime::currentDateTime().toString("yyyyMMdd-hhmmss"))
                             .arg(QCoreApplication::applicationPid());
    QString path = QDir(dir).filePath(base + ".sebo.json");
    for (int n = 2; QFileInfo::exists(path); ++n) path = QDir(dir).filePath(QString("%1-%2.sebo.json").arg(base).arg(n));
    return path;
}

QString recovery_lock_path(const QString& recovery_path) { return recovery_path + ".lock"; }

QStringList orphaned_recovery_files() {
    QStringList orphans;
    const QFileInfoList files =
        QDir(recovery_directory()).entryInfoList({"*.sebo.json"}, QDir::Files | QDir::Readable, QDir::Time);
    for (const QFileInfo& file : files) {
        FileLockOptions options;
        options.program = "sebo-explorer";
        options.activity = "open in";
        try {
            // Taken at once and dropped: nobody holds it.
            FileLock probe = FileLock::acquire(recovery_lock_path(file.absoluteFilePath()).toStdString(),
                                               file.fileName().toStdString(), options);
        } catch (const std::exception&) {
            continue;  // a window autosaves to it now (or its folder cannot be locked)
        }
        orphans << file.absoluteFilePath();
    }
    return orphans;
}

QString with_experiment_extension(const QString& path) {
    if (path.isEmpty() || path.endsWith(".json", Qt::CaseInsensitive)) return path;
    return path + ".sebo.json";
}

QString dialog_directory(const QString& experiment_path, const QString& fallback) {
    if (!experiment_path.isEmpty()) {
        const QFileInfo info(experiment_path);
        if (info.absoluteDir().exists()) return info.absolutePath();
    }
    if (!fallback.isEmpty() && QFileInfo(fallback).isDir()) return fallback;
    return QDir::homePath();
}

}  // namespace sebo::ui
