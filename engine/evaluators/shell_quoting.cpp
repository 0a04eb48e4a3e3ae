#include "evaluators/shell_quoting.h"

#include <cstdio>

#include "io/utf8_text.h"

namespace sebo {
namespace {

// Characters no POSIX shell gives a meaning to, anywhere in a word.
constexpr std::string_view kPlain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_";

char32_t decode(std::string_view text, std::size_t i, std::size_t length) {
    const auto byte = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(text[i + k])); };
    if (length == 1) return byte(0);
    char32_t c = byte(0) & (0xFFu >> (length + 1));
    for (std::size_t k = 1; k < length; ++k) c = (c << 6) | (byte(k) & 0x3Fu);
    return c;
}

// Characters that do not show as themselves: controls, spaces other than U+0020 that look like
// it, and the invisible format characters (zero-width, bidirectional overrides and isolates,
// variation selectors, tags, the BOM).
bool is_hidden(char32_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0xA0) || c == 0xAD || c == 0x34F || c == 0x61C || c == 0x115F ||
           c == 0x1160 || c == 0x17B4 || c == 0x17B5 || c == 0x180E || (c >= 0x2000 && c <= 0x200F) ||
           (c >= 0x2028 && c <= 0x202F) || (c >= 0x205F && c <= 0x206F) || c == 0x3000 || c == 0x3164 ||
           (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFEFF || c == 0xFFA0 || (c >= 0xFFF0 && c <= 0xFFFB) ||
           (c >= 0xE0000 && c <= 0xE0FFF);
}

std::string escape(const char* format, unsigned value) {
    char text[16];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

}  // namespace

std::string shell_quoted(std::string_view text) {
    bool plain = !text.empty();
    bool needs_escapes = false;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence_length(text, i);
        if (n == 0 || is_hidden(decode(text, i, n))) {
            needs_escapes = true;
            break;
        }
        if (n == 1 && kPlain.find(text[i]) == std::string_view::npos) plain = false;
        i += n;
    }
    if (plain && !needs_escapes) return std::string(text);
    if (!needs_escapes) {
        // Single quotes keep every character literal; a quote itself is closed, escaped, reopened.
        std::string out = "'";
        for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        return out + "'";
    }
    std::string out = "$'";
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) {  // a byte that is not UTF-8 (always >= 0x80, unlike the controls below)
            out += escape("\\x%02X", static_cast<unsigned char>(text[i]));
            ++i;
            continue;
        }
        const char32_t c = decode(text, i, n);
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else if (c == '\\' || c == '\'') out += std::string("\\") + static_cast<char>(c);
        else if (is_hidden(c)) out += c < 0x80 ? escape("\\x%02X", static_cast<unsigned>(c))
                                    : c <= 0xFFFF ? escape("\\u%04X", static_cast<unsigned>(c))
                                                  : escape("\\U%08X", static_cast<unsigned>(c));
        else out.append(text, i, n);
        i += n;
    }
    return out + "'";
}

}  // namespace sebo
