#pragma once
// A program's output stream cut into lines as the bytes arrive, for a live log (the explorer's
// Evaluator log shows each evaluation's stderr while it runs). The engine never prints: the
// lines go to a callback.
//
//   "\n" and "\r\n" end a line (the line is handed over without them);
//   a lone "\r" returns to the start of the line, as on a terminal: what came before it on that
//   line is dropped, so a progress bar that redraws itself ("\r 40%", "\r 41%", ...) ends as one
//   line with its last state instead of thousands;
//   a line longer than max_line_bytes is handed over in pieces of at most that many bytes, cut
//   on UTF-8 character boundaries, so that a program that never writes a newline cannot make
//   the buffer grow without bound;
//   finish() hands over a last line that has no newline.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace sebo {

class OutputLineSplitter {
public:
    using LineCallback = std::function<void(std::string_view line)>;

    explicit OutputLineSplitter(std::size_t max_line_bytes = 4096);

    // Adds bytes; calls `line` for every line they complete.
    void feed(std::string_view bytes, const LineCallback& line);
    // The end of the stream: a pending line without its newline is handed over.
    void finish(const LineCallback& line);

private:
    void emit_long_pieces(const LineCallback& line);

    std::size_t max_line_bytes_;
    std::string current_;
    bool pending_cr_ = false;  // a "\r" was the last byte: a line end if "\n" follows
};

}  // namespace sebo
