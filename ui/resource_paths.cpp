#include "resource_paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace sebo::ui {

QString bundled_resources_directory() { return QStringLiteral(SEBO_RESOURCES_DIR); }

QString examples_directory() {
    QStringList candidates;
    if (QCoreApplication::instance()) {
        const QString app = QCoreApplication::applicationDirPath();
        candidates << app + "/../share/sebo-explorer/examples"  // installed
                   << app + "/examples"                         // relocated bundle
                   << app + "/../../resources/examples"         // build-*/app/ inside the source tree
                   << app + "/../resources/examples";
    }
    candidates << QStringLiteral(SEBO_RESOURCES_DIR "/examples");
    for (const QString& c : candidates) {
        const QFileInfo info(c);
        if (info.isDir() && !QDir(c).entryList({"*.sebo.json"}, QDir::Files).isEmpty())
            return info.canonicalFilePath();
    }
    return {};
}

QStringList bundled_examples() {
    const QString dir = examples_directory();
    if (dir.isEmpty()) return {};
    QStringList paths;
    for (const QString& name : QDir(dir).entryList({"*.sebo.json"}, QDir::Files, QDir::Name))
        paths << QDir(dir).absoluteFilePath(name);
    return paths;
}

QString default_example() {
    const QStringList all = bundled_examples();
    for (const QString& p : all)
        if (QFileInfo(p).fileName().contains("branin", Qt::CaseInsensitive)) return p;
    return all.isEmpty() ? QString() : all.first();
}

}  // namespace sebo::ui
