#include "report/svg_writer.h"

#include <charconv>
#include <cmath>

#include "report/html_text.h"

namespace sebo {

namespace {

const char* anchor_name(SvgWriter::Anchor anchor) {
    switch (anchor) {
    case SvgWriter::Anchor::Start: return "start";
    case SvgWriter::Anchor::Middle: return "middle";
    case SvgWriter::Anchor::End: return "end";
    }
    return "start";
}

std::string class_attribute(std::string_view css_class) {
    return css_class.empty() ? std::string() : " class=\"" + html_escaped(css_class) + "\"";
}

// A shape with an optional <title> child: "<circle …/>" or "<circle …><title>…</title></circle>".
std::string element(std::string_view name, const std::string& attributes, std::string_view tooltip) {
    std::string out = "<" + std::string(name) + attributes;
    if (tooltip.empty()) return out + "/>\n";
    return out + "><title>" + html_escaped(tooltip) + "</title></" + std::string(name) + ">\n";
}

}  // namespace

std::string svg_coordinate(double value) {
    if (!std::isfinite(value)) value = 0.0;  // a chart's caller keeps its points finite; never emit "nan"
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 1);
    std::string text(buffer, result.ptr);
    if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0) text.resize(text.size() - 2);
    return text == "-0" ? "0" : text;
}

SvgWriter::SvgWriter(double width, double height, std::string_view title)
    : width_(width), height_(height), title_(title) {}

void SvgWriter::line(double x1, double y1, double x2, double y2, std::string_view css_class) {
    body_ += element("line",
                     " x1=\"" + svg_coordinate(x1) + "\" y1=\"" + svg_coordinate(y1) + "\" x2=\"" + svg_coordinate(x2) +
                         "\" y2=\"" + svg_coordinate(y2) + "\"" + class_attribute(css_class),
                     {});
}

void SvgWriter::polyline(const std::vector<std::pair<double, double>>& points, std::string_view css_class) {
    if (points.size() < 2) return;
    std::string list;
    for (const auto& [x, y] : points) list += (list.empty() ? "" : " ") + svg_coordinate(x) + "," + svg_coordinate(y);
    body_ += element("polyline", " points=\"" + list + "\"" + class_attribute(css_class), {});
}

void SvgWriter::circle(double cx, double cy, double r, std::string_view css_class, std::string_view tooltip) {
    body_ += element("circle",
                     " cx=\"" + svg_coordinate(cx) + "\" cy=\"" + svg_coordinate(cy) + "\" r=\"" + svg_coordinate(r) +
                         "\"" + class_attribute(css_class),
                     tooltip);
}

void SvgWriter::rect(double x, double y, double w, double h, std::string_view css_class, std::string_view tooltip) {
    body_ += element("rect",
                     " x=\"" + svg_coordinate(x) + "\" y=\"" + svg_coordinate(y) + "\" width=\"" + svg_coordinate(w) +
                         "\" height=\"" + svg_coordinate(h) + "\"" + class_attribute(css_class),
                     tooltip);
}

void SvgWriter::text(double x, double y, std::string_view content, Anchor anchor, std::string_view css_class,
                     double degrees) {
    std::string attributes = " x=\"" + svg_coordinate(x) + "\" y=\"" + svg_coordinate(y) + "\" text-anchor=\"" +
                             anchor_name(anchor) + "\"" + class_attribute(css_class);
    if (degrees != 0.0)
        attributes += " transform=\"rotate(" + svg_coordinate(degrees) + " " + svg_coordinate(x) + " " + svg_coordinate(y) + ")\"";
    body_ += "<text" + attributes + ">" + html_escaped(content) + "</text>\n";
}

std::string SvgWriter::str() const {
    // Inline in HTML, so without an xmlns: the report holds no address of any kind.
    return "<svg width=\"" + svg_coordinate(width_) + "\" height=\"" +
           svg_coordinate(height_) + "\" viewBox=\"0 0 " + svg_coordinate(width_) + " " + svg_coordinate(height_) +
           "\" role=\"img\" aria-label=\"" + html_escaped(title_) + "\">\n<title>" + html_escaped(title_) + "</title>\n" +
           body_ + "</svg>";
}

}  // namespace sebo
