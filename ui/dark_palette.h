#pragma once
// A dark palette like those of the common desktop dark themes: what the explorer looks like on
// a dark system, for `sebo-explorer --screenshot ... --palette dark` and the dark-mode tests.

#include <QPalette>

namespace sebo::ui {

QPalette dark_palette();

}  // namespace sebo::ui
