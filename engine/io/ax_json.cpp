#include "io/ax_json.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "core/format.h"
#include "core/input_error.h"
#include "io/json_document.h"
#include "io/python_json.h"

namespace sebo::ax {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) { throw InputError(path, message); }

// The nesting of a DataFrame's JSON: an object of columns, each an object of cells.
constexpr int kDataFrameNesting = 4;

}  // namespace

std::string type_of(const Document& value) {
    if (!value.is_object()) return "";
    const auto it = value.find("__type");
    return it != value.end() && it->is_string() ? it->get<std::string>() : "";
}

const Document& expect_object(const Document& value, const std::string& path) {
    if (!value.is_object()) fail(path, "expected an object, got " + describe_value(value));
    return value;
}

const Document& expect_array(const Document& value, const std::string& path) {
    if (!value.is_array()) fail(path, "expected an array, got " + describe_value(value));
    return value;
}

const Document& required(const Document& object, const std::string& path, const char* key) {
    const auto it = object.find(key);
    if (it == object.end()) fail(member_path(path, key), "required field is missing");
    return *it;
}

const Document* optional(const Document& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string string_value(const Document& value, const std::string& path) {
    if (!value.is_string()) fail(path, "expected a string, got " + describe_value(value));
    return value.get<std::string>();
}

bool boolean_value(const Document& value, const std::string& path) {
    if (!value.is_boolean()) fail(path, "expected true or false, got " + describe_value(value));
    return value.get<bool>();
}

double finite_number(const Document& value, const std::string& path) {
    const auto x = python_float(value);
    if (!x) fail(path, "expected a number, got " + describe_value(value));
    if (!std::isfinite(*x)) fail(path, format_number(*x) + " is not a finite number");
    return *x;
}

int integer_value(const Document& value, const std::string& path) {
    if (value.is_number_integer() || value.is_number_unsigned()) {
        if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT_MAX))
            fail(path, describe_value(value) + " is too large");
        if (value.is_number_integer()) {
            const auto i = value.get<std::int64_t>();
            if (i < INT_MIN || i > INT_MAX) fail(path, std::to_string(i) + " is out of range");
            return static_cast<int>(i);
        }
        return static_cast<int>(value.get<std::uint64_t>());
    }
    const double x = finite_number(value, path);
    if (std::floor(x) != x) fail(path, format_number(x) + " is not an integer");
    if (x < INT_MIN || x > INT_MAX) fail(path, format_number(x) + " is out of range");
    return static_cast<int>(x);
}

std::string enum_name(const Document& value, const std::string& path) {
    expect_object(value, path);
    return string_value(required(value, path, "name"), member_path(path, "name"));
}

std::optional<double> datetime_seconds(const Document* value, const std::string& path) {
    if (!value) return std::nullopt;
    if (type_of(*value) != "datetime") fail(path, "expected a datetime object, got " + describe_value(*value));
    const std::string text = string_value(required(*value, path, "value"), member_path(path, "value"));
    int year = 0, month = 0, day = 0, hour = 0, minute = 0;
    double second = 0;
    char tail = 0;
    // Ax's strftime format "%Y-%m-%d %H:%M:%S.%f".
    if (std::sscanf(text.c_str(), "%4d-%2d-%2d %2d:%2d:%lf%c", &year, &month, &day, &hour, &minute, &second, &tail) != 6 ||
        month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || !(second >= 0 && second < 61))
        fail(member_path(path, "value"), shown_text(text) + " is not a time such as \"2025-02-03 18:40:14.672845\"");
    std::tm tm{};
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = minute;
    return static_cast<double>(::timegm(&tm)) + second;
}

const Document* DataFrameRow::cell(const std::string& column) const {
    const auto it = cells.find(column);
    return it == cells.end() || it->second.is_null() ? nullptr : &it->second;
}

std::vector<DataFrameRow> read_data_frame(const Document& encoded, const std::string& path) {
    if (type_of(encoded) != "DataFrame") fail(path, "expected a DataFrame object, got " + describe_value(encoded));
    const std::string at = member_path(path, "value");
    const Document& text = required(encoded, path, "value");
    if (!text.is_string()) fail(at, "expected the DataFrame's JSON as a string, got " + describe_value(text));
    const std::string& json = text.get_ref<const std::string&>();
    if (json.size() > kMaxDataFrameBytes)
        fail(at, "the DataFrame's text is " + std::to_string(json.size()) + " bytes; texts over " +
                     std::to_string(kMaxDataFrameBytes >> 20) + " MiB are refused");
    Document frame;
    try {
        frame = parse_python_json(json, kDataFrameNesting);
    } catch (const InputError& e) {
        // The inner document's own path follows the string's: "….df.value: mean.3: ...".
        const std::string inner = e.what();
        fail(at, "the DataFrame's text is not a DataFrame: " + inner);
    }
    if (!frame.is_object()) fail(at, "the DataFrame's text is not a JSON object of columns, it is " + describe_value(frame));
    std::vector<DataFrameRow> rows;
    std::map<std::string, std::size_t> row_of;
    for (const auto& [column, cells] : frame.items()) {
        if (!cells.is_object())
            fail(at, "column '" + column + "' of the DataFrame is " + describe_value(cells) + ", not an object of cells");
        for (const auto& [label, value] : cells.items()) {
            auto [it, added] = row_of.try_emplace(label, rows.size());
            if (added) rows.push_back({label, {}});
            rows[it->second].cells[column] = value;
        }
    }
    return rows;
}

}  // namespace sebo::ax
