#pragma once
// The bundled example experiments (resource_paths.h finds them) with what the welcome page, the
// File and Help menus show of each: the experiment's own name and description, which the files
// carry (sebo run/new --name --description made them), in a fixed order — the default example
// first.

#include <QList>
#include <QString>

namespace sebo::ui {

struct BundledExample {
    QString path;
    QString title;        // the experiment's name, else the file name
    QString description;  // one or two sentences; may be empty
};

// Every bundled example; unreadable files are listed by their file name.
QList<BundledExample> bundled_example_catalog();

}  // namespace sebo::ui
