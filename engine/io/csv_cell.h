#pragma once
// One cell of the CSV sheets the programs write (trial and configuration exports, result sheets,
// `sebo bench`'s results.csv) and read back (`sebo import`, `sebo observe --csv`, the GUI's
// import): RFC 4180 quoting, and a guard against spreadsheet formulas.
//
// A spreadsheet runs a cell that begins with =, +, - or @ as a formula (some also a cell after a
// tab or carriage return), so an experiment shared with a parameter named
// `=HYPERLINK("http://…","open")` or a note "@SUM(…)" would run it in whoever opens the export.
// Following OWASP's advice on CSV injection, such a text cell is written with a leading
// apostrophe, which spreadsheets take to mean "text" and do not show. Numbers are left alone
// (-2.5, +3 and -1e-3 stay numbers). So that the guard can be undone exactly, a cell that
// begins with apostrophes and then one of those characters gets one more apostrophe too, and the
// readers remove exactly one: every text reads back as it was written ('abc, with no trigger
// after the apostrophe, is neither guarded nor changed).

#include <string>

namespace sebo {

// RFC 4180 quoting of one CSV field: quoted when it holds a comma, quote or line break, with
// quotes inside doubled. Text that users or files can choose goes through csv_text_cell instead.
std::string csv_quote(const std::string& field);

// A text cell as written: prefixed with ' when it matches ^'*[=+\-@\t\r] and is not a finite
// number (parse_number), then quoted (csv_quote).
std::string csv_text_cell(const std::string& text);

// A cell as read (after unquoting): one leading ' removed when the cell matches ^'+[=+\-@\t\r],
// otherwise unchanged. The inverse of csv_text_cell's guard.
std::string strip_formula_guard(std::string cell);

}  // namespace sebo
