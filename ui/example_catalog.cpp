#include "example_catalog.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

#include "resource_paths.h"

namespace sebo::ui {

QList<BundledExample> bundled_example_catalog() {
    QList<BundledExample> examples;
    const QString first = default_example();
    for (const QString& path : bundled_examples()) {
        BundledExample example{path, QFileInfo(path).fileName(), {}};
        // Only the two texts are read here; opening the example checks the whole file.
        QFile file(path);
        if (file.open(QIODevice::ReadOnly)) {
            const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
            if (const QString name = root.value("name").toString().trimmed(); !name.isEmpty()) example.title = name;
            example.description = root.value("description").toString().trimmed();
        }
        examples << example;
    }
    std::stable_partition(examples.begin(), examples.end(), [&](const BundledExample& e) { return e.path == first; });
    return examples;
}

}  // namespace sebo::ui
