#pragma once
// A small writer of inline SVG for the report's charts: a few shapes and texts in user
// coordinates (pixels, y down), styled by class names that the report's style sheet defines.
// Every text and tooltip is escaped (report/html_text.h). The result is one <svg> element, with
// a title for screen readers, to be placed in an HTML document as it is.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sebo {

class SvgWriter {
public:
    enum class Anchor { Start, Middle, End };

    // A drawing of width × height pixels; `title` is its accessible name.
    SvgWriter(double width, double height, std::string_view title);

    double width() const { return width_; }
    double height() const { return height_; }

    void line(double x1, double y1, double x2, double y2, std::string_view css_class);
    // An open line through the points (nothing for fewer than two).
    void polyline(const std::vector<std::pair<double, double>>& points, std::string_view css_class);
    // A tooltip, when given, is the shape's <title> (shown on hover in a browser).
    void circle(double cx, double cy, double r, std::string_view css_class, std::string_view tooltip = {});
    void rect(double x, double y, double w, double h, std::string_view css_class, std::string_view tooltip = {});
    // Text whose baseline starts, is centred or ends at (x, y); rotated by `degrees` about (x, y).
    void text(double x, double y, std::string_view content, Anchor anchor, std::string_view css_class,
              double degrees = 0.0);

    // The <svg> element.
    std::string str() const;

private:
    double width_, height_;
    std::string title_;
    std::string body_;
};

// A coordinate with one decimal ("12.5"), enough for a chart and a tenth of the text of a full
// double.
std::string svg_coordinate(double value);

}  // namespace sebo
