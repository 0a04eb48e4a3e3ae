#include "palette_colors.h"

#include <algorithm>
#include <cmath>

namespace sebo::ui {

namespace {

double linear(double channel) {
    return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

// The hues the roles keep (Tableau 10, which reads well for colour-blind people), before they
// are shifted to contrast with the background.
QColor base_hue(ChartRole role) {
    switch (role) {
    case ChartRole::Frontier: return QColor(31, 119, 180);     // blue
    case ChartRole::BestStep: return QColor(44, 160, 44);      // green: not the frontier's blue
    case ChartRole::Newest: return QColor(255, 127, 14);       // orange
    case ChartRole::Selected: return QColor(214, 39, 40);      // red
    case ChartRole::Hypervolume: return QColor(44, 160, 44);   // green
    case ChartRole::Activation: return QColor(148, 103, 189);  // purple
    case ChartRole::Excluded: return QColor(176, 0, 32);       // dark red
    case ChartRole::OffAxis: return QColor(148, 0, 211);       // violet
    case ChartRole::Trial:
    case ChartRole::InitialDesign:
    case ChartRole::Grid:
    case ChartRole::AxisLine: break;
    }
    return QColor(127, 127, 127);
}

QColor tone_hue(Tone tone) {
    switch (tone) {
    case Tone::Information: return QColor(31, 119, 180);
    case Tone::Warning: return QColor(230, 160, 20);
    case Tone::Error: return QColor(214, 39, 40);
    }
    return QColor(31, 119, 180);
}

}  // namespace

double relative_luminance(const QColor& color) {
    const QColor c = color.toRgb();
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

double contrast_ratio(const QColor& a, const QColor& b) {
    const double la = relative_luminance(a), lb = relative_luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

bool is_dark(const QPalette& palette) { return relative_luminance(palette.color(QPalette::Base)) < 0.18; }

QColor mix(const QColor& a, const QColor& b, double t) {
    t = std::clamp(t, 0.0, 1.0);
    const QColor x = a.toRgb(), y = b.toRgb();
    return QColor::fromRgbF(static_cast<float>(x.redF() + (y.redF() - x.redF()) * t),
                            static_cast<float>(x.greenF() + (y.greenF() - x.greenF()) * t),
                            static_cast<float>(x.blueF() + (y.blueF() - x.blueF()) * t),
                            static_cast<float>(x.alphaF() + (y.alphaF() - x.alphaF()) * t));
}

QColor with_contrast(const QColor& color, const QColor& background, double ratio) {
    if (contrast_ratio(color, background) >= ratio) return color;
    // Towards white on a dark background, towards black on a light one; the smallest step of the
    // blend that reaches the ratio (bisection: the contrast grows monotonically along the blend).
    const bool lighten = relative_luminance(background) < 0.18;
    const QColor end = lighten ? QColor(Qt::white) : QColor(Qt::black);
    double low = 0.0, high = 1.0;
    for (int i = 0; i < 24; ++i) {
        const double t = 0.5 * (low + high);
        if (contrast_ratio(mix(color, end, t), background) >= ratio) high = t;
        else low = t;
    }
    QColor result = mix(color, end, high);
    result.setAlpha(color.alpha());
    return result;
}

QColor muted_text(const QPalette& palette) {
    const QColor text = palette.color(QPalette::WindowText);
    const QColor window = palette.color(QPalette::Window);
    const QColor base = palette.color(QPalette::Base);
    // Halfway to the background, then back to readable on both backgrounds it is shown on.
    const QColor soft = mix(text, window, 0.45);
    return with_contrast(with_contrast(soft, window, kTextContrast), base, kTextContrast);
}

QColor error_text(const QPalette& palette) {
    const QColor red(200, 0, 30);
    return with_contrast(with_contrast(red, palette.color(QPalette::Base), kTextContrast),
                         palette.color(QPalette::Window), kTextContrast);
}

QColor tone_background(const QPalette& palette, Tone tone) {
    return mix(palette.color(QPalette::Base), tone_hue(tone), is_dark(palette) ? 0.28 : 0.12);
}

QColor tone_border(const QPalette& palette, Tone tone) {
    return with_contrast(tone_hue(tone), palette.color(QPalette::Window), kGraphicContrast);
}

QColor chart_color(const QPalette& palette, ChartRole role) {
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    switch (role) {
    // Trial markers are drawn slightly translucent (overlaps show density): opaque, they contrast
    // more, so that they still reach the graphic contrast over the background.
    case ChartRole::Trial: return with_contrast(mix(text, base, 0.55), base, kGraphicContrast + 1.0);
    case ChartRole::InitialDesign: return mix(base, text, 0.12);
    case ChartRole::Grid: return mix(base, text, 0.14);
    case ChartRole::AxisLine: return with_contrast(mix(text, base, 0.45), base, kGraphicContrast);
    default: break;
    }
    return with_contrast(base_hue(role), base, kGraphicContrast);
}

}  // namespace sebo::ui
