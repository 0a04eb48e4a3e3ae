#include "io/json_document.h"

#include <cctype>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/format.h"
#include "core/input_error.h"
#include "io/utf8_text.h"

namespace sebo {

using Document = nlohmann::json;

std::string member_path(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
}

std::string element_path(const std::string& parent, std::size_t i) {
    return parent + "[" + std::to_string(i) + "]";
}

std::string shown_text(const std::string& text) {
    constexpr std::size_t kMaxShown = 60;
    if (text.size() <= kMaxShown) return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::size_t cut = kMaxShown;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    const std::string shown = nlohmann::json(text.substr(0, cut)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return shown.substr(0, shown.size() - 1) + "...\"";
}

std::string describe_value(const Document& value) {
    switch (value.type()) {
    case Document::value_t::null: return "null";
    case Document::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case Document::value_t::string: return "the string " + shown_text(value.get_ref<const std::string&>());
    case Document::value_t::number_integer: return std::to_string(value.get<std::int64_t>());
    case Document::value_t::number_unsigned: return std::to_string(value.get<std::uint64_t>());
    case Document::value_t::number_float: return format_number(value.get<double>());
    case Document::value_t::object: return "an object";
    case Document::value_t::array: return "an array";
    default: return "an unsupported value";
    }
}

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& message) { throw InputError(field, message); }

// Refuses deep nesting before parsing. The parser itself is iterative, but serializing and
// walking a document recurse per level, and the format needs only four levels; a limit makes
// hostile input harmless whatever the library version does.
void check_nesting(const std::string& text, int max_nesting) {
    int depth = 0;
    bool in_string = false, escaped = false;
    std::size_t line = 1, column = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            column = 0;
        } else {
            ++column;
        }
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_nesting)
                fail("", "arrays and objects are nested deeper than " + std::to_string(max_nesting) +
                             " levels at line " + std::to_string(line) + ", column " + std::to_string(column) +
                             " (byte " + std::to_string(i + 1) + ")");
        } else if (c == ']' || c == '}') {
            if (depth > 0) --depth;
        }
    }
}

// Builds the document as nlohmann's own DOM parser does, and also knows the JSON path of the
// value being parsed. That path names the field of a number beyond the double range (the parser
// refuses "1e400" as a number overflow rather than storing infinity) and of a duplicate key
// (which nlohmann would silently resolve to the last value).
class DocumentBuilder final : public nlohmann::json_sax<Document> {
public:
    explicit DocumentBuilder(const std::string& text) : text_(text) {}
    Document take() { return std::move(root_); }

    bool null() override { return add(Document(nullptr)); }
    bool boolean(bool value) override { return add(Document(value)); }
    bool number_integer(number_integer_t value) override { return add(Document(value)); }
    bool number_unsigned(number_unsigned_t value) override { return add(Document(value)); }
    bool number_float(number_float_t value, const string_t&) override { return add(Document(value)); }
    bool string(string_t& value) override { return add(Document(std::move(value))); }
    bool binary(binary_t& value) override { return add(Document::binary(std::move(value))); }
    bool start_object(std::size_t) override { return open(Document::object()); }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(Document::array()); }
    bool end_array() override { return close(); }

    bool key(string_t& name) override {
        Level& level = levels_.back();
        const auto [slot, inserted] = level.container->get_ref<Document::object_t&>().try_emplace(name);
        level.key = std::move(name);
        if (!inserted) fail(current_path(), "the key " + shown_text(level.key) + " appears twice");
        level.slot = &slot->second;
        return true;
    }

    bool parse_error(std::size_t byte, const std::string& token, const nlohmann::json::exception& error) override {
        const std::string what = error.what();
        if (error.id == 406)  // out_of_range: number overflow
            fail(current_path(), token + " is not a finite number (it is beyond the range of a double)");
        // A bad key is not the value of the key before it: name the object instead.
        std::string where = current_path();
        if (what.find("object key") != std::string::npos && !levels_.empty()) {
            const std::string object = path_of(levels_.size() - 1);
            where = object.empty() ? "a key of the top-level object" : "a key of " + object;
        }
        // error.what() is "[json.exception.parse_error.101] parse error at line L, column C: why;
        // last read: '<raw bytes>'[; expected ...]"; keep "at line L, column C" and "why", add the
        // byte offset, the field being read and the offending text (the raw bytes may not be UTF-8).
        const auto start = what.find("parse error");
        const auto colon = start == std::string::npos ? std::string::npos : what.find(": ", start);
        if (colon == std::string::npos) fail("", "not valid JSON: " + escape_invalid_utf8(what));
        const std::string position = what.substr(start + 11, colon - start - 11);
        std::string why = what.substr(colon + 2);
        if (const auto last = why.find("; last read: '"); last != std::string::npos) {
            const auto expected = why.find("'; expected", last);
            why = why.substr(0, last) + (expected == std::string::npos ? "" : why.substr(expected + 1));
        }
        fail("", "not valid JSON" + position + " (byte " + std::to_string(byte) + ")" +
                     (where.empty() ? "" : ", in " + where) + ": " + why + "; found " + offending_text(byte, token, what));
    }

private:
    // What the parser stopped at: the end of the text, the first byte that is not UTF-8, the
    // string read so far (a bad escape or control character), or the word (NaN, Infinity, 0x10,
    // ...) or character at the error.
    std::string offending_text(std::size_t byte, const std::string& token, const std::string& what) const {
        if (byte == 0 || byte > text_.size()) return "the end of the text (it is cut short)";
        const std::size_t at = byte - 1;
        if (what.find("UTF-8") != std::string::npos) {
            if (const auto bad = find_invalid_utf8(std::string_view(text_).substr(0, byte)))
                return "the byte " + hex_byte(text_[*bad]) + " at byte " + std::to_string(*bad + 1) + " (not UTF-8 text)";
        }
        if (what.find("invalid string") != std::string::npos) {
            constexpr std::size_t kMaxShown = 60;  // the tail: the problem is at the end of the token
            const std::string shown = token.size() <= kMaxShown ? token : "..." + token.substr(token.size() - kMaxShown);
            return escape_invalid_utf8(shown);
        }
        const auto word_char = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
        };
        // A number cut short ("1.", "1e") fails at the character after it: show the number.
        const std::size_t anchor = !word_char(text_[at]) && at > 0 && word_char(text_[at - 1]) ? at - 1 : at;
        if (word_char(text_[anchor])) {
            constexpr std::size_t kMaxWord = 40;
            std::size_t first = anchor, last = anchor + 1;
            while (first > 0 && anchor - first < kMaxWord && word_char(text_[first - 1])) --first;
            while (last < text_.size() && last - anchor < kMaxWord && word_char(text_[last])) ++last;
            return "'" + text_.substr(first, last - first) + "'";
        }
        const auto c = static_cast<unsigned char>(text_[at]);
        if (c < 0x20 || c >= 0x7F) return "the byte " + hex_byte(text_[at]);
        return "'" + std::string(1, text_[at]) + "'";
    }

    static std::string hex_byte(char c) {
        constexpr char kDigits[] = "0123456789ABCDEF";
        const auto b = static_cast<unsigned char>(c);
        return std::string("0x") + kDigits[b >> 4] + kDigits[b & 0xF];
    }

    struct Level {
        Document* container;
        std::string key;           // objects: the key of the value being read
        Document* slot = nullptr;  // objects: where that value goes (std::map nodes do not move)
    };

    bool add(Document&& value) { return place(std::move(value)) != nullptr; }

    // Pointers into parents stay valid: a parent does not grow while a child is open.
    Document* place(Document&& value) {
        if (levels_.empty()) {
            root_ = std::move(value);
            return &root_;
        }
        Document& parent = *levels_.back().container;
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        Document* slot = levels_.back().slot;
        *slot = std::move(value);
        return slot;
    }

    bool open(Document&& container) {
        levels_.push_back({place(std::move(container)), {}, nullptr});
        return true;
    }

    bool close() {
        levels_.pop_back();
        return true;
    }

    // The path of the child being read at level `depth` (an open container, or for the
    // innermost level, the value being parsed).
    std::string path_of(std::size_t depth) const {
        std::string path;
        for (std::size_t i = 0; i < depth; ++i) {
            const Level& level = levels_[i];
            if (level.container->is_array())
                path = element_path(path, level.container->size() - 1);
            else
                path = member_path(path, level.key);
        }
        return path;
    }

    std::string current_path() const {
        if (levels_.empty()) return "";
        const Level& inner = levels_.back();
        const std::string outer = path_of(levels_.size() - 1);
        return inner.container->is_array() ? element_path(outer, inner.container->size())
                                           : member_path(outer, inner.key);
    }

    const std::string& text_;
    Document root_;
    std::vector<Level> levels_;
};

}  // namespace

Document parse_json_document(const std::string& text, int max_nesting) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) fail("", "the file is empty");
    check_nesting(text, max_nesting);
    DocumentBuilder builder(text);
    // Every error reaches builder.parse_error, which throws InputError.
    if (!Document::sax_parse(text, &builder)) fail("", "not valid JSON");
    return builder.take();
}

}  // namespace sebo
