#include "io/python_json.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <string_view>

#include <nlohmann/json.hpp>

#include "io/json_document.h"

namespace sebo {

namespace {

// The replacement of each word, in the form newer Ax writes (object_to_json in ax/storage/json_store).
struct PythonWord {
    std::string_view word;
    std::string_view object;
};
constexpr PythonWord kWords[] = {
    {"-Infinity", R"({"__type": "float", "value": "-inf"})"},
    {"Infinity", R"({"__type": "float", "value": "inf"})"},
    {"NaN", R"({"__type": "float", "value": "nan"})"},
};

bool word_character(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

// The text with each word outside a string replaced, or empty when there is none (the common case:
// the text is then parsed as it is, without a copy).
std::string replace_words(const std::string& text) {
    std::string out;
    bool replaced = false, in_string = false, escaped = false;
    std::size_t copied = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
            continue;
        }
        if (c != 'N' && c != 'I' && c != '-') continue;
        if (i > 0 && word_character(text[i - 1])) continue;
        for (const PythonWord& w : kWords) {
            if (text.compare(i, w.word.size(), w.word) != 0) continue;
            const std::size_t end = i + w.word.size();
            if (end < text.size() && word_character(text[end])) break;
            if (!replaced) out.reserve(text.size() + 64);
            out.append(text, copied, i - copied);
            out.append(w.object);
            copied = end;
            i = end - 1;
            replaced = true;
            break;
        }
    }
    if (!replaced) return {};
    out.append(text, copied, std::string::npos);
    return out;
}

}  // namespace

nlohmann::json parse_python_json(const std::string& text, int max_nesting) {
    const std::string replaced = replace_words(text);
    return parse_json_document(replaced.empty() ? text : replaced, max_nesting);
}

std::optional<double> python_float(const nlohmann::json& value) {
    if (value.is_number()) return value.get<double>();
    if (!value.is_object() || value.size() != 2) return std::nullopt;
    const auto type = value.find("__type");
    const auto text = value.find("value");
    if (type == value.end() || text == value.end() || !type->is_string() || *type != "float" || !text->is_string())
        return std::nullopt;
    const std::string& word = text->get_ref<const std::string&>();
    // Python's str(float): "nan", "inf", "-inf"; Ax also reads any text float() accepts, but
    // writes only these (and finite floats never take this form).
    if (word == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (word == "inf" || word == "infinity") return std::numeric_limits<double>::infinity();
    if (word == "-inf" || word == "-infinity") return -std::numeric_limits<double>::infinity();
    return std::nullopt;
}

}  // namespace sebo
