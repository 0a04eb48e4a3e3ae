#pragma once
// JSON as Python's json module writes it by default (allow_nan=True), which is how Ax saves its
// snapshots and Optuna its journal lines: besides standard JSON, the words NaN, Infinity and
// -Infinity stand for the special floats. Newer Ax writes those floats as
// {"__type": "float", "value": "nan" | "inf" | "-inf"} instead; the reader turns the words into
// that same object, so python_float() reads both forms and the rest of the document is checked
// by the ordinary parser (io/json_document.h: duplicate keys, numbers beyond a double, nesting,
// the position of a syntax error).

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace sebo {

// Parses `text` (throws InputError as parse_json_document does). The position of a syntax error
// after a NaN, Infinity or -Infinity word is counted in the text with the word replaced.
nlohmann::json parse_python_json(const std::string& text, int max_nesting);

// A JSON number, or the special-float object above: its value. Unset for anything else.
std::optional<double> python_float(const nlohmann::json& value);

}  // namespace sebo
