#pragma once
// Text put into the report's HTML and SVG. Everything the user wrote (names, notes, descriptions,
// commands, reasons) goes through html_escaped, in element content and in attribute values alike,
// so that a parameter called "<script>" is shown as written and never becomes markup.

#include <string>
#include <string_view>

namespace sebo {

// & < > " ' as character references; every other byte as it is (the text is UTF-8).
std::string html_escaped(std::string_view text);

}  // namespace sebo
