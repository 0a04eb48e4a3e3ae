#pragma once
// CSV tables read from users' files (a search space, observed results, historical data): RFC 4180
// fields, a header row, and messages that name the file, the line and the column
// ("space.csv line 4, column upper: 'ten' is not a number").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sebo {

struct CsvTable {
    struct Row {
        int line = 0;  // line of the file where the row starts (1-based)
        std::vector<std::string> cells;
    };

    std::string source;  // the file's name, as it appears in messages
    int header_line = 1;
    std::vector<std::string> header;
    std::vector<Row> rows;

    // The index of the column with this header name (exact match), if there is one.
    std::optional<std::size_t> column(const std::string& name) const;
    // Case-insensitive match, for the fixed column names ("objective", "Lower", ...).
    std::optional<std::size_t> column_ignoring_case(const std::string& name) const;
    // "<source> line <line>" and "<source> line <line>, column <name>": the field of an InputError.
    std::string where(int line) const;
    std::string where(int line, const std::string& column_name) const;
};

// Parses CSV text. Fields are separated by commas and rows by LF, CRLF or CR; a field in double
// quotes may hold commas, line breaks and doubled quotes (""). Space and tab around a field are
// not part of it. Blank lines and a UTF-8 byte-order mark (as spreadsheets write) are skipped.
// A cell, the header's included, loses the apostrophe that guards a would-be spreadsheet formula
// (strip_formula_guard, io/csv_cell.h: "'=x" reads as "=x", "''=x" as "'=x", "'abc" as it is).
// The first row is the header: its names must be non-empty and unique, and every row must have
// as many cells as the header. Throws InputError naming the line (and column) of the problem.
CsvTable parse_csv_table(const std::string& text, const std::string& source);

// The whole file as text; throws InputError (field: the path) when it cannot be read, is not a
// regular file, or is larger than max_bytes (checked from its size first, so a huge file is not read).
std::string read_text_file(const std::string& path, std::uint64_t max_bytes = std::uint64_t{64} << 20);

// A CSV cell as a number: decimal or exponent notation with an optional sign, independent of the
// process locale. Empty when the text is not a number; non-finite results ("inf", "nan", "1e400")
// are returned as such so that the caller can say so.
std::optional<double> parse_number(const std::string& text);

}  // namespace sebo
