#pragma once
// Reading the JSON text of an experiment or space file into a document, with messages that name
// what is wrong where: the JSON path of a duplicate key or of a number beyond the double range,
// the line, column, byte and offending text of a syntax error, and nesting beyond a limit (all
// as InputError, core/input_error.h). The typed reading of the document is experiment_file.cpp's.

#include <cstddef>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace sebo {

// Parses `text`. Arrays and objects nested deeper than `max_nesting` are refused before parsing
// (the parser is iterative, but serializing and walking a document recurse per level).
nlohmann::json parse_json_document(const std::string& text, int max_nesting);

// JSON paths as the messages name fields: "method.budget", "trials[3]".
std::string member_path(const std::string& parent, const std::string& key);
std::string element_path(const std::string& parent, std::size_t i);

// A string from a file, quoted and escaped for a message, cut to a readable length (on a UTF-8
// character boundary: the parser has already checked the encoding).
std::string shown_text(const std::string& text);

// Names a value found in a file, for "expected X, got Y" messages: null, true, the string "…",
// 42, 0.5, an object, an array.
std::string describe_value(const nlohmann::json& value);

}  // namespace sebo
