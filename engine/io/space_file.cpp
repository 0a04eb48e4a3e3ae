#include "io/space_file.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>

#include "core/format.h"
#include "core/input_error.h"
#include "io/choice_text.h"
#include "io/csv_table.h"
#include "io/experiment_file.h"
#include "io/utf8_text.h"

namespace sebo {
namespace {

constexpr std::array<const char*, 11> kColumns = {"name", "kind",  "lower", "upper",  "log",    "target",
                                                  "group", "min_change", "value", "values", "ordered"};

// Reads the cells of one row, naming the line and column of any problem.
class RowReader {
public:
    RowReader(const CsvTable& table, const std::map<std::string, std::size_t>& columns, const CsvTable::Row& row)
        : table_(table), columns_(columns), row_(row) {}

    // The cell of a column, empty when the column is absent.
    std::string cell(const char* column) const {
        const auto it = columns_.find(column);
        return it == columns_.end() ? std::string() : row_.cells[it->second];
    }

    [[noreturn]] void fail(const char* column, const std::string& message) const {
        throw InputError(table_.where(row_.line, column), message);
    }

    // A name: saved experiment files are UTF-8, so a name with other bytes is refused here
    // rather than silently changed on the next save (see io/utf8_text.h).
    std::string text(const char* column) const {
        const std::string value = cell(column);
        if (const auto bad = find_invalid_utf8(value))
            fail(column, single_quoted(escape_invalid_utf8(value)) + " is not UTF-8 text (byte " + std::to_string(*bad + 1) +
                             "); save the sheet as UTF-8");
        return value;
    }

    double number(const char* column) const {
        const std::string text = cell(column);
        if (text.empty()) fail(column, "a number is required");
        const auto value = parse_number(text);
        if (!value) fail(column, single_quoted(text) + " is not a number");
        if (!std::isfinite(*value)) fail(column, single_quoted(text) + " is not a finite number");
        return *value;
    }

    std::optional<double> optional_number(const char* column) const {
        if (cell(column).empty()) return std::nullopt;
        return number(column);
    }

    // "0.5" (the parameter's units) or "2%" (of the range); empty: none (the 1 % rule).
    std::optional<MinChange> min_change() const {
        const std::string text = cell("min_change");
        if (text.empty()) return std::nullopt;
        const auto change = min_change_from_text(text);
        if (!change) fail("min_change", single_quoted(text) + " is not a number or a percentage of the range (such as 0.5 or 2%)");
        return change;
    }

    bool flag(const char* column) const {
        const std::string text = lower_case(cell(column));
        if (text.empty() || text == "false" || text == "no" || text == "0") return false;
        if (text == "true" || text == "yes" || text == "1") return true;
        fail(column, single_quoted(cell(column)) + " is not true or false (or yes/no, 1/0)");
    }

    ParameterKind kind() const {
        const std::string text = lower_case(cell("kind"));
        if (text.empty()) return ParameterKind::Continuous;
        if (const auto kind = parameter_kind_from_string(text)) return *kind;
        fail("kind", single_quoted(cell("kind")) + " is not a parameter kind; expected continuous, integer, choice or fixed");
    }

    int line() const { return row_.line; }

private:
    const CsvTable& table_;
    const std::map<std::string, std::size_t>& columns_;
    const CsvTable::Row& row_;
};

// SearchSpace::validate_parameter says "field: message" of one parameter; the field is its CSV
// column.
void check_parameter(const Parameter& p, const RowReader& row) {
    const auto error = SearchSpace::validate_parameter(p);
    if (!error) return;
    const auto colon = error->find(": ");
    if (colon != std::string::npos) {
        const std::string field = error->substr(0, colon);
        for (const char* column : kColumns)
            if (field == column) row.fail(column, error->substr(colon + 2));
    }
    row.fail("name", *error);
}

// A fixed parameter's row: the value column, and bounds only when both are given.
void read_fixed(Parameter& p, const RowReader& reader) {
    if (!reader.cell("target").empty()) reader.fail("target", "a fixed parameter has a value (column value) instead of a target");
    if (reader.cell("value").empty()) reader.fail("value", "a fixed parameter needs a value");
    p.target = reader.number("value");
    const bool lower = !reader.cell("lower").empty(), upper = !reader.cell("upper").empty();
    if (lower != upper) reader.fail(lower ? "upper" : "lower", "a fixed parameter's bounds are both given or neither");
    p.lower = lower ? reader.number("lower") : *p.target;
    p.upper = upper ? reader.number("upper") : *p.target;
}

// A choice parameter's row (issue 14, item 1): values "none|lz4|zstd" (a value that reads as a
// finite number is that number, sent to the evaluator as one), ordered, and a target that is one of the values.
void read_choice(Parameter& p, const RowReader& reader) {
    for (const char* column : {"lower", "upper", "value"})
        if (!reader.cell(column).empty())
            reader.fail(column, "a choice parameter has values (column values, such as none|lz4|zstd) instead of " +
                                    std::string(column == std::string("value") ? "a value" : "bounds"));
    for (const char* column : {"log", "min_change"})
        if (!reader.cell(column).empty())
            reader.fail(column, single_quoted(reader.cell(column)) + ": a choice parameter has no " +
                                    (column == std::string("log") ? "scale" : "minimum change"));
    const std::string list = reader.text("values");
    if (list.empty()) reader.fail("values", "a choice parameter needs its values, separated by | (such as none|lz4|zstd)");
    p.values = choice_values_from_text(list);
    p.ordered = reader.flag("ordered");
    p.lower = 0.0;
    p.upper = static_cast<double>(p.values.size()) - 1.0;
    if (const std::string target = reader.cell("target"); !target.empty()) {
        std::string error;
        const auto k = choice_target_index(p, target, error);
        if (!k) reader.fail("target", error);
        p.target = *k;
    }
}

}  // namespace

SearchSpace space_from_csv_text(const std::string& text, const std::string& source) {
    const CsvTable table = parse_csv_table(text, source);
    std::map<std::string, std::size_t> columns;
    for (std::size_t i = 0; i < table.header.size(); ++i) {
        const std::string name = lower_case(table.header[i]);
        if (std::find(kColumns.begin(), kColumns.end(), name) == kColumns.end())
            throw InputError(table.where(table.header_line, table.header[i]),
                             "unknown column; the columns are name, kind, lower, upper, log, target, group, min_change, value, values, ordered");
        if (!columns.emplace(name, i).second)
            throw InputError(table.where(table.header_line, table.header[i]), "the column appears twice");
    }
    for (const char* required : {"name", "lower", "upper"})
        if (!columns.count(required))
            throw InputError(table.where(table.header_line),
                             std::string("the header has no '") + required + "' column (the header is: name,kind,lower,upper,log,target,group,min_change,value,values,ordered)");
    if (table.rows.empty()) throw InputError(source, "the file has a header but no parameters");

    std::vector<Parameter> parameters;
    std::map<std::string, int> first_line;
    for (const CsvTable::Row& row : table.rows) {
        const RowReader reader(table, columns, row);
        Parameter p;
        p.name = reader.text("name");
        if (p.name.empty()) reader.fail("name", "a parameter name must not be empty");
        if (const auto [it, inserted] = first_line.emplace(p.name, row.line); !inserted)
            reader.fail("name", "duplicate parameter name " + single_quoted(p.name) + " (first on line " + std::to_string(it->second) + ")");
        p.kind = reader.kind();
        if (p.kind != ParameterKind::Choice) {
            if (!reader.cell("values").empty())
                reader.fail("values", "only a choice parameter (kind choice) has values; this one is " + std::string(to_string(p.kind)));
            if (!reader.cell("ordered").empty())
                reader.fail("ordered", "only a choice parameter (kind choice) is ordered or not; this one is " +
                                           std::string(to_string(p.kind)));
        }
        if (p.kind == ParameterKind::Fixed) {
            read_fixed(p, reader);
        } else if (p.kind == ParameterKind::Choice) {
            read_choice(p, reader);
        } else {
            if (!reader.cell("value").empty())
                reader.fail("value", "only a fixed parameter (kind fixed) has a value; this one is " + std::string(to_string(p.kind)));
            p.lower = reader.number("lower");
            p.upper = reader.number("upper");
            p.target = reader.optional_number("target");
        }
        if (p.kind != ParameterKind::Choice) {
            p.log_scale = reader.flag("log");
            p.min_change = reader.min_change();
        }
        p.group = reader.text("group");
        check_parameter(p, reader);
        parameters.push_back(std::move(p));
    }
    SearchSpace space(std::move(parameters));
    if (auto error = space.validate()) throw InputError(source, *error);  // covered above; kept as a backstop
    return space;
}

namespace {

// Keeps an error's JSON path, and says which file it is in.
template <class Read>
auto with_source(const std::string& source, Read read) {
    try {
        return read();
    } catch (const InputError& e) {
        const std::string what = e.what();
        const std::string message = e.field().empty() ? what : what.substr(e.field().size() + 2);
        throw InputError(e.field().empty() ? source : source + " " + e.field(), message);
    }
}

}  // namespace

SearchSpace space_from_json_document_text(const std::string& text, const std::string& source) {
    return with_source(source, [&] { return space_from_json_text(text); });
}

SpaceFile read_space_file(const std::string& path) {
    const std::string text = read_text_file(path);
    const std::size_t bom = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    const std::size_t first = text.find_first_not_of(" \t\r\n", bom);
    if (first == std::string::npos || text[first] != '{') return {space_from_csv_text(text, path), std::nullopt};
    const std::string json = text.substr(bom);
    SpaceFile file{space_from_json_document_text(json, path), std::nullopt};
    file.outcomes = with_source(path, [&] { return outcomes_from_json_text(json); });
    return file;
}

SearchSpace load_space_file(const std::string& path) { return read_space_file(path).space; }

}  // namespace sebo
