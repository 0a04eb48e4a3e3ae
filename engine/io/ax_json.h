#pragma once
// Reading the values of Ax's JSON encoding (ax/storage/json_store/encoder.py in facebook/Ax): an
// object of a class is {"__type": "ClassName", ...}; an enum is {"__type": "EnumName", "name":
// "MEMBER"}; a special float is NaN/Infinity (older Ax, through Python's json) or
// {"__type": "float", "value": "nan"} (newer Ax; io/python_json.h reads both); a datetime is
// {"__type": "datetime", "value": "2025-02-03 18:40:14.672845"}; a pandas DataFrame is
// {"__type": "DataFrame", "value": "<the DataFrame's own JSON, as text>"}, JSON inside JSON.
// Every problem is an InputError naming the JSON path and the value. Internal to the Ax importer
// (io/import_ax.h).

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace sebo::ax {

using Document = nlohmann::json;

// A DataFrame's text longer than this is refused (as other text files: csv_table.h): a real
// experiment's data are far smaller, and a hostile file could otherwise ask for gigabytes.
inline constexpr std::size_t kMaxDataFrameBytes = std::size_t{64} << 20;

// The "__type" of an encoded object; "" for anything else.
std::string type_of(const Document& value);

const Document& expect_object(const Document& value, const std::string& path);
const Document& expect_array(const Document& value, const std::string& path);
// A member that must be present (null allowed: the caller decides).
const Document& required(const Document& object, const std::string& path, const char* key);
// nullptr when absent or null.
const Document* optional(const Document& object, const char* key);

std::string string_value(const Document& value, const std::string& path);
bool boolean_value(const Document& value, const std::string& path);
// A finite number (a JSON number, or a special float, which is refused naming it).
double finite_number(const Document& value, const std::string& path);
// An integer (a JSON integer, or a float with no fraction) within int's range.
int integer_value(const Document& value, const std::string& path);
// An enum member's name, e.g. "COMPLETED" of {"__type": "TrialStatus", "name": "COMPLETED"}.
std::string enum_name(const Document& value, const std::string& path);
// Seconds since 1970 of an encoded datetime, counted as if it were UTC (Ax writes the local time
// without a zone, so only differences between two of them mean something); unset for null.
std::optional<double> datetime_seconds(const Document* value, const std::string& path);

// One cell of a DataFrame row: the value (null when the frame has no such cell).
struct DataFrameRow {
    std::string index;  // the row's label in the frame
    std::map<std::string, Document> cells;

    const Document* cell(const std::string& column) const;
};

// The rows of an encoded DataFrame (pandas' to_json in its default "columns" orientation:
// {"column": {"row label": value, ...}, ...}), in the order of the first column's labels.
std::vector<DataFrameRow> read_data_frame(const Document& encoded, const std::string& path);

}  // namespace sebo::ax
