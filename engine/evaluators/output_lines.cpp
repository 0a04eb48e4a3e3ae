#include "evaluators/output_lines.h"

#include <algorithm>
#include <cassert>

namespace sebo {

namespace {

// The largest cut <= limit that does not split a UTF-8 character of `text` (a continuation byte
// 10xxxxxx never starts a piece); a run of continuation bytes longer than any character (invalid
// UTF-8) is cut at the limit.
std::size_t utf8_cut(const std::string& text, std::size_t limit) {
    std::size_t cut = limit;
    while (cut > 0 && limit - cut < 4 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return cut > 0 && limit - cut < 4 ? cut : limit;
}

}  // namespace

OutputLineSplitter::OutputLineSplitter(std::size_t max_line_bytes) : max_line_bytes_(std::max<std::size_t>(max_line_bytes, 4)) {}

void OutputLineSplitter::emit_long_pieces(const LineCallback& line) {
    while (current_.size() > max_line_bytes_) {
        const std::size_t cut = utf8_cut(current_, max_line_bytes_);
        if (line) line(std::string_view(current_).substr(0, cut));
        current_.erase(0, cut);
    }
}

void OutputLineSplitter::feed(std::string_view bytes, const LineCallback& line) {
    std::size_t start = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (pending_cr_) {
            pending_cr_ = false;
            if (c == '\n') {
                if (line) line(current_);
                current_.clear();
                start = i + 1;
                continue;
            }
            current_.clear();  // a carriage return: the line starts over
        }
        if (c == '\n' || c == '\r') {
            current_.append(bytes.substr(start, i - start));
            emit_long_pieces(line);
            if (c == '\n') {
                if (line) line(current_);
                current_.clear();
            } else {
                pending_cr_ = true;
            }
            start = i + 1;
        }
    }
    current_.append(bytes.substr(start));
    emit_long_pieces(line);
}

void OutputLineSplitter::finish(const LineCallback& line) {
    pending_cr_ = false;
    if (!current_.empty() && line) line(current_);
    current_.clear();
}

}  // namespace sebo
