#pragma once
// UTF-8 checks for text read from users' files. Experiment files are JSON, whose parser already
// refuses ill-formed UTF-8; CSV sheets are plain bytes, so names read from them are checked here
// before they can reach a saved file (which replaces bad bytes with U+FFFD: two names differing
// only in bad bytes would become the same name, and the file would no longer load).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sebo {

// The offset of the first byte of the first ill-formed sequence (a stray continuation byte, a
// truncated or overlong sequence, a UTF-16 surrogate, a code point above U+10FFFF), or nothing
// when the text is well-formed UTF-8.
std::optional<std::size_t> find_invalid_utf8(std::string_view text);

// The length of the well-formed UTF-8 sequence that starts at text[i] (1 to 4 bytes), or 0 when
// the bytes there are ill-formed (Unicode 15, table 3-7).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

// The text for a message: bytes of ill-formed sequences written as \xHH, the rest unchanged.
std::string escape_invalid_utf8(std::string_view text);

}  // namespace sebo
