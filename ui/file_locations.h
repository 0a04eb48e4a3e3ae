#pragma once
// Where the explorer writes (issue: examples must never be written): the application's own
// folders are never written (a bundled example opens as an untitled copy), an untitled
// experiment autosaves to a recovery file in the user's data folder, experiment files get their
// extension, and file dialogs start in the current experiment's folder.

#include <QString>
#include <QStringList>
#include <optional>

namespace sebo::ui {

// Inside one of the application's own folders (the bundled examples, the resources of the
// source tree, an installation's share folder): opened as copies, never written.
bool is_bundled_path(const QString& path);
// Why `path` may not be written (it is in one of those folders), or nothing.
std::optional<QString> refuse_bundled_path(const QString& path);

// <AppDataLocation>/recovery: where untitled experiments are autosaved (created when needed).
QString recovery_directory();
// A new, unused recovery file for an experiment called `name`:
// "<recovery>/<name>-<yyyyMMdd-hhmmss>-<pid>.sebo.json" (the name made safe for a file name).
QString new_recovery_path(const QString& name);

// The sidecar lock a window holds on the recovery file it autosaves to (io/file_lock.h): the
// kernel drops it when the window's process ends in any way.
QString recovery_lock_path(const QString& recovery_path);
// Recovery files that no window holds (their explorer crashed, was killed, or `sebo-explorer
// --run` left them), newest first.
QStringList orphaned_recovery_files();

// "mine" -> "mine.sebo.json"; a name that already ends in ".json" is kept.
QString with_experiment_extension(const QString& path);

// The folder a file dialog starts in: the open experiment's folder when it has a file, else
// `fallback` (the last folder used), else the home folder.
QString dialog_directory(const QString& experiment_path, const QString& fallback);

}  // namespace sebo::ui
