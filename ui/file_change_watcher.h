#pragma once
// Tells when a file is changed or replaced on disk by another process (`sebo observe` recording a
// result in the experiment the explorer shows). Saves are atomic renames, after which a
// QFileSystemWatcher on the file has lost it (it watched the old file): the folder is watched
// too, and the file watched again whenever it reappears. A burst of events (a save writes a
// temporary file, renames it, takes and drops a lock) becomes one changed() signal, sent only
// when the file itself differs (modification time, size or identity) from when it was last
// seen. This process's own saves are reported too: the receiver compares the content.

#include <QObject>
#include <QString>

class QFileSystemWatcher;
class QTimer;

namespace sebo::ui {

class FileChangeWatcher : public QObject {
    Q_OBJECT
public:
    explicit FileChangeWatcher(QObject* parent = nullptr);

    // Starts watching `path` (what it is now counts as seen); an empty path stops watching.
    void watch(const QString& path);
    QString path() const { return path_; }

signals:
    void changed();

private:
    struct Signature {
        bool exists = false;
        qint64 size = -1;
        qint64 modified_ns = 0;
        qint64 changed_ns = 0;
        quint64 inode = 0;
        bool operator==(const Signature&) const = default;
    };
    Signature current() const;
    void rearm();
    void check();

    QFileSystemWatcher* watcher_;
    QTimer* settle_;
    QString path_;
    Signature seen_;
};

}  // namespace sebo::ui
