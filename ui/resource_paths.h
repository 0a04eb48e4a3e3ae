#pragma once
// Where the bundled example experiments live at run time: next to an installed executable
// (../share/sebo-explorer/examples), in the source tree beside a build tree, or the source
// tree this library was compiled from.

#include <QString>
#include <QStringList>

namespace sebo::ui {

// The resources folder of the source tree this library was compiled from.
QString bundled_resources_directory();
// The first existing examples folder, or empty when none is found.
QString examples_directory();
// Absolute paths of the bundled "*.sebo.json" files, sorted by name.
QStringList bundled_examples();
// The example to open for "--example": one whose name mentions "branin" first, else the first.
QString default_example();

}  // namespace sebo::ui
