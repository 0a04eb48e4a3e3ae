#include "io/csv_table.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <limits>
#include <set>
#include <system_error>

#include "core/format.h"
#include "core/input_error.h"
#include "io/csv_cell.h"

namespace sebo {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }


// Reads records one at a time, counting lines as it goes (quoted fields may span lines).
class CsvReader {
public:
    CsvReader(const std::string& text, const std::string& source) : text_(text), source_(source) {
        if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
    }

    bool at_end() const { return pos_ >= text_.size(); }

    // One record; `blank` is set for a line with nothing but spaces.
    std::vector<std::string> next(int& first_line, bool& blank) {
        first_line = line_;
        std::vector<std::string> cells;
        bool any_quoted = false;
        for (;;) {
            while (pos_ < text_.size() && is_blank(text_[pos_])) ++pos_;
            std::string cell;
            if (pos_ < text_.size() && text_[pos_] == '"') {
                any_quoted = true;
                read_quoted(cell, first_line);
            } else {
                const std::size_t start = pos_;
                while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r') ++pos_;
                std::size_t end = pos_;
                while (end > start && is_blank(text_[end - 1])) --end;
                cell = text_.substr(start, end - start);
            }
            cells.push_back(std::move(cell));
            if (pos_ >= text_.size()) break;
            const char c = text_[pos_];
            if (c == ',') {
                ++pos_;
                continue;
            }
            // A line break: CRLF, LF or a lone CR.
            ++pos_;
            if (c == '\r' && pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
            ++line_;
            break;
        }
        blank = !any_quoted && cells.size() == 1 && cells.front().empty();
        return cells;
    }

private:
    void read_quoted(std::string& cell, int first_line) {
        ++pos_;  // the opening quote
        for (;;) {
            if (pos_ >= text_.size())
                throw InputError(source_ + " line " + std::to_string(first_line),
                                 "a quoted field is not closed (a \" is missing)");
            const char c = text_[pos_];
            if (c == '"') {
                if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
                    cell += '"';
                    pos_ += 2;
                    continue;
                }
                ++pos_;
                break;
            }
            if (c == '\n' || (c == '\r' && !(pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n'))) ++line_;
            cell += c;
            ++pos_;
        }
        while (pos_ < text_.size() && is_blank(text_[pos_])) ++pos_;
        if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r')
            throw InputError(source_ + " line " + std::to_string(line_),
                             std::string("unexpected '") + text_[pos_] + "' after a closing quote (a quote inside a "
                                                                         "quoted field is written twice: \"\")");
    }

    const std::string& text_;
    const std::string& source_;
    std::size_t pos_ = 0;
    int line_ = 1;
};

}  // namespace

std::optional<std::size_t> CsvTable::column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return i;
    return std::nullopt;
}

std::optional<std::size_t> CsvTable::column_ignoring_case(const std::string& name) const {
    const std::string wanted = lower_case(name);
    for (std::size_t i = 0; i < header.size(); ++i)
        if (lower_case(header[i]) == wanted) return i;
    return std::nullopt;
}

std::string CsvTable::where(int line) const { return source + " line " + std::to_string(line); }

std::string CsvTable::where(int line, const std::string& column_name) const {
    return where(line) + ", column " + column_name;
}

CsvTable parse_csv_table(const std::string& text, const std::string& source) {
    CsvTable table;
    table.source = source;
    CsvReader reader(text, source);
    bool have_header = false;
    while (!reader.at_end()) {
        int line = 0;
        bool blank = false;
        std::vector<std::string> cells = reader.next(line, blank);
        if (blank) continue;
        // The apostrophe our exports put before a would-be formula is not part of the value.
        for (std::string& cell : cells) cell = strip_formula_guard(std::move(cell));
        if (!have_header) {
            have_header = true;
            table.header_line = line;
            std::set<std::string> seen;
            for (std::size_t i = 0; i < cells.size(); ++i) {
                if (cells[i].empty())
                    throw InputError(table.where(line), "column " + std::to_string(i + 1) + " of the header has no name");
                if (!seen.insert(cells[i]).second)
                    throw InputError(table.where(line), "the column '" + cells[i] + "' appears twice in the header");
            }
            table.header = std::move(cells);
            continue;
        }
        if (cells.size() != table.header.size())
            throw InputError(table.where(line), std::to_string(cells.size()) + (cells.size() == 1 ? " cell" : " cells") +
                                                    ", but the header has " + std::to_string(table.header.size()) +
                                                    " columns");
        table.rows.push_back({line, std::move(cells)});
    }
    if (!have_header) throw InputError(source, "the file is empty (expected a header row)");
    return table;
}

std::string read_text_file(const std::string& path, std::uint64_t max_bytes) {
    const auto message = [](int error) { return std::error_code(error, std::generic_category()).message(); };
    // O_NONBLOCK: opening a FIFO must not hang waiting for a writer; it is then refused below.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw InputError(path, "cannot open: " + message(errno));
    std::string text;
    try {
        struct stat info {};
        if (::fstat(fd, &info) != 0) throw InputError(path, "cannot read: " + message(errno));
        if (!S_ISREG(info.st_mode)) throw InputError(path, "not a regular file");
        const auto too_big = [&](std::uint64_t size) {
            throw InputError(path, std::to_string(size) + " bytes; files over " + std::to_string(max_bytes >> 20) +
                                       " MiB are refused");
        };
        // Checked before reading: a huge file is refused without reading it into memory.
        if (static_cast<std::uint64_t>(info.st_size) > max_bytes) too_big(static_cast<std::uint64_t>(info.st_size));
        text.reserve(static_cast<std::size_t>(info.st_size));
        std::array<char, 1 << 16> buffer{};
        for (;;) {
            const ssize_t n = ::read(fd, buffer.data(), buffer.size());
            if (n < 0) {
                if (errno == EINTR) continue;
                throw InputError(path, "cannot read: " + message(errno));
            }
            if (n == 0) break;
            text.append(buffer.data(), static_cast<std::size_t>(n));
            // The file may grow while it is read; the limit holds for what is actually read.
            if (text.size() > max_bytes) too_big(text.size());
        }
    } catch (...) {
        ::close(fd);
        throw;
    }
    ::close(fd);
    return text;
}

std::optional<double> parse_number(const std::string& text) {
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    if (begin != end && *begin == '+') {
        ++begin;
        if (begin != end && *begin == '-') return std::nullopt;
    }
    if (begin == end || *begin == '+') return std::nullopt;
    double value = 0.0;
    const auto [stop, error] = std::from_chars(begin, end, value, std::chars_format::general);
    if (stop != end) return std::nullopt;
    if (error == std::errc::result_out_of_range) {
        // Beyond the double range: report an infinity (or zero for an underflow) rather than garbage.
        const bool negative = *begin == '-';
        const auto e = text.find_first_of("eE");
        const bool underflow = e != std::string::npos && e + 1 < text.size() && text[e + 1] == '-';
        if (underflow) return negative ? -0.0 : 0.0;
        return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    }
    if (error != std::errc()) return std::nullopt;
    return value;
}

}  // namespace sebo
