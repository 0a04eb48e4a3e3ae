#include "io/csv_cell.h"

#include <cmath>

#include "io/csv_table.h"

namespace sebo {
namespace {

// Characters that make a spreadsheet read a cell as a formula (tab and carriage return: some
// spreadsheets skip them and read what follows).
bool starts_formula(char c) { return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r'; }

// True when `text` is apostrophes (any number, or at least one) followed by a formula character.
bool guarded_shape(const std::string& text, bool at_least_one_apostrophe) {
    const std::size_t first = text.find_first_not_of('\'');
    if (first == std::string::npos) return false;
    if (at_least_one_apostrophe && first == 0) return false;
    return starts_formula(text[first]);
}

}  // namespace

std::string csv_quote(const std::string& field) {
    if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
    std::string quoted = "\"";
    for (char c : field) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string csv_text_cell(const std::string& text) {
    if (!guarded_shape(text, false)) return csv_quote(text);
    // A signed number (a choice value "-2.5", a parameter value) is data, not a formula.
    if (const auto number = parse_number(text); number && std::isfinite(*number)) return csv_quote(text);
    return csv_quote("'" + text);
}

std::string strip_formula_guard(std::string cell) {
    if (guarded_shape(cell, true)) cell.erase(0, 1);
    return cell;
}

}  // namespace sebo
