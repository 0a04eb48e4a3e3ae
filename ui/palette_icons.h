#pragma once
// Glyph icons in the palette's colours. The style's media icons (Step, Run, Run to budget,
// Cancel) are black glyphs: on a dark palette they all but vanish. These actions get the same
// glyphs drawn in the palette's button text colour (its disabled one when disabled), again
// whenever the palette changes (the system switches between light and dark).

#include <QIcon>
#include <QList>

class QAction;
class QPalette;
class QWidget;

namespace sebo::ui {

// `icon`'s shapes (its alpha) filled with the palette's button text colour, per mode.
QIcon palette_glyph_icon(const QIcon& icon, const QPalette& palette);

// Gives `actions` palette_glyph_icon() of their current icons now, and again whenever `watched`
// (a widget showing them, e.g. the tool bar) gets a new palette.
void follow_palette_with_icons(QWidget* watched, const QList<QAction*>& actions);

}  // namespace sebo::ui
