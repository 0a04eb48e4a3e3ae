#include "file_change_watcher.h"

#include <sys/stat.h>

#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

namespace sebo::ui {

namespace {
// Events are gathered this long before the file is looked at: a save is a handful of events.
constexpr int kSettleMs = 100;
}  // namespace

FileChangeWatcher::FileChangeWatcher(QObject* parent)
    : QObject(parent), watcher_(new QFileSystemWatcher(this)), settle_(new QTimer(this)) {
    settle_->setSingleShot(true);
    settle_->setInterval(kSettleMs);
    connect(settle_, &QTimer::timeout, this, &FileChangeWatcher::check);
    connect(watcher_, &QFileSystemWatcher::fileChanged, settle_, qOverload<>(&QTimer::start));
    connect(watcher_, &QFileSystemWatcher::directoryChanged, settle_, qOverload<>(&QTimer::start));
}

FileChangeWatcher::Signature FileChangeWatcher::current() const {
    Signature s;
    struct stat info {};
    if (path_.isEmpty() || ::stat(QFile::encodeName(path_).constData(), &info) != 0) return s;
    s.exists = true;
    s.size = static_cast<qint64>(info.st_size);
    s.inode = static_cast<quint64>(info.st_ino);
    s.modified_ns = static_cast<qint64>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
    s.changed_ns = static_cast<qint64>(info.st_ctim.tv_sec) * 1000000000 + info.st_ctim.tv_nsec;
    return s;
}

void FileChangeWatcher::rearm() {
    if (path_.isEmpty()) return;
    if (!watcher_->files().contains(path_) && QFileInfo::exists(path_)) watcher_->addPath(path_);
    const QString folder = QFileInfo(path_).absolutePath();
    if (!watcher_->directories().contains(folder)) watcher_->addPath(folder);
}

void FileChangeWatcher::watch(const QString& path) {
    if (!watcher_->files().isEmpty()) watcher_->removePaths(watcher_->files());
    if (!watcher_->directories().isEmpty()) watcher_->removePaths(watcher_->directories());
    settle_->stop();
    path_ = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    seen_ = current();
    rearm();
}

void FileChangeWatcher::check() {
    rearm();
    const Signature now = current();
    if (now == seen_) return;
    seen_ = now;
    emit changed();
}

}  // namespace sebo::ui
