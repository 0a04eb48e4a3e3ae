#pragma once
// A chart's frame in the palette's colours: the background of views (QPalette::Base), text and
// titles in QPalette::Text, grid and axis lines in the chart roles' shades (palette_colors.h).
// Qt Charts' default theme is a light one whatever the palette; every chart of the explorer is
// styled here, so that none stays white in a dark theme (issue 32's walk-through: the Simplify
// dialog's charts did).

#include <QList>
#include <QPalette>

class QAbstractAxis;
class QChart;

namespace sebo::ui {

// Styles `chart` and `axes` (besides the chart's own axes: those attached to no series yet).
void style_chart(QChart* chart, const QPalette& palette, const QList<QAbstractAxis*>& axes = {});

}  // namespace sebo::ui
