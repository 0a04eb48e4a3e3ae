#pragma once
// Keeps a top-level window that grows after it was shown (a dialog that adds charts once its
// computation ends) whole on its screen: no larger than the screen's free area, centred over its
// parent again, and moved inside the free area. At 1366×768 the Simplify dialog of a constrained
// two-objective experiment grew to 1020×620 around its first, small position, and its last chart
// and Close button left the screen (issue 32).

class QWidget;

namespace sebo::ui {

// Resizes `window` to at most the available geometry of its screen (less its frame), centres it
// over its parent (or the screen), and keeps its frame inside that geometry.
void fit_on_screen(QWidget* window);

}  // namespace sebo::ui
