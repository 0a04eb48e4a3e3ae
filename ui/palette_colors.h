#pragma once
// Colours derived from the widget palette (QPalette::Text, ::Base, ::Window, ...), so that the
// explorer follows the system's light or dark theme instead of fixed greys and text colours
// (STYLE.md: Qt's palette roles). A view asks here for what a colour means — secondary text, an
// error, the frontier's blue — and gets a shade that stays readable on the palette's background:
// text at a WCAG 2 contrast ratio of at least 4.5, lines and markers at least 3.

#include <QColor>
#include <QPalette>

namespace sebo::ui {

// WCAG 2 relative luminance (0 black .. 1 white) and contrast ratio (1 .. 21).
double relative_luminance(const QColor& color);
double contrast_ratio(const QColor& a, const QColor& b);
// Whether the palette's base (the background of views and charts) is dark.
bool is_dark(const QPalette& palette);

// `a` blended towards `b` by `t` (0: a, 1: b), alpha included.
QColor mix(const QColor& a, const QColor& b, double t);
// `color`, lightened or darkened (hue kept) just enough to reach `ratio` against `background`.
QColor with_contrast(const QColor& color, const QColor& background, double ratio);

// Minimum contrast ratios (WCAG 2: 1.4.3 text, 1.4.11 graphical objects).
inline constexpr double kTextContrast = 4.5;
inline constexpr double kGraphicContrast = 3.0;

// Secondary text (explanations, empty states, gutters), on the palette's window or base.
QColor muted_text(const QPalette& palette);
// Text that reports an error or a failed trial.
QColor error_text(const QPalette& palette);
// Background and border of a message strip (information, warning, error) on the window.
enum class Tone { Information, Warning, Error };
QColor tone_background(const QPalette& palette, Tone tone);
QColor tone_border(const QPalette& palette, Tone tone);

// What a mark in a chart means; each role keeps its hue in light and dark themes.
enum class ChartRole {
    Trial,         // every completed trial (neutral)
    Frontier,      // non-dominated trials
    BestStep,      // "best with at most k active": distinct from Frontier (issue 17, item 4)
    Newest,        // the newest trial
    Selected,      // the selection ring
    Hypervolume,   // the hypervolume trace
    InitialDesign, // the band of the Sobol design (a fill)
    Activation,    // activation-frequency bars
    Excluded,      // a trial excluded from analysis (a cross)
    OffAxis,       // a value beyond the axis, drawn at its end under an arrow
    Grid,          // grid lines
    AxisLine       // axis lines and ticks
};
// The role's colour on the palette's base, at graphic contrast (fills and grid lines are
// deliberately faint and exempt).
QColor chart_color(const QPalette& palette, ChartRole role);

}  // namespace sebo::ui
