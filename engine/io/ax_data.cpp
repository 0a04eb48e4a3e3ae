#include "io/ax_data.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "core/format.h"
#include "core/input_error.h"
#include "io/json_document.h"
#include "io/python_json.h"

namespace sebo::ax {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) { throw InputError(path, message); }

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// Row labels are pandas' index ("0", "1", ..., "10"): in their numeric order when they are
// numbers, so that a later row of one frame follows an earlier one.
bool label_before(const DataFrameRow& a, const DataFrameRow& b) {
    const auto numeric = [](const std::string& s) {
        return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (numeric(a.index) && numeric(b.index))
        return a.index.size() != b.index.size() ? a.index.size() < b.index.size() : a.index < b.index;
    return a.index < b.index;
}

// A cell that is a number or missing (null, NaN): NaN for missing; other values fail.
double number_cell(const DataFrameRow& row, const char* column, const std::string& path) {
    const Document* cell = row.cell(column);
    if (!cell) return kNone;
    const auto x = python_float(*cell);
    if (!x) fail(path, "row " + row.index + ", column " + column + ": expected a number, got " + describe_value(*cell));
    return *x;
}

std::string text_cell(const DataFrameRow& row, const char* column, const std::string& path) {
    const Document* cell = row.cell(column);
    if (!cell) fail(path, "row " + row.index + " has no " + column);
    if (cell->is_string()) return cell->get<std::string>();
    // pandas writes an arm named "0" as a string; a number here is a frame read with dtype inference.
    if (cell->is_number()) return describe_value(*cell);
    fail(path, "row " + row.index + ", column " + column + ": expected a name, got " + describe_value(*cell));
}

// The Data objects of one trial's entry, oldest fetch first: an OrderedDict [[time, Data], ...]
// or a plain object {time: Data}.
std::vector<std::pair<const Document*, std::string>> fetches(const Document& entry, const std::string& path) {
    std::vector<std::pair<const Document*, std::string>> out;
    if (type_of(entry) == "OrderedDict") {
        const std::string at = member_path(path, "value");
        const Document& pairs = expect_array(required(entry, path, "value"), at);
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const std::string p_at = element_path(at, i);
            const Document& pair = expect_array(pairs[i], p_at);
            if (pair.size() != 2) fail(p_at, "expected [time, data], got an array of " + std::to_string(pair.size()));
            out.emplace_back(&pair[1], element_path(p_at, 1));
        }
        return out;
    }
    expect_object(entry, path);
    for (const auto& [key, data] : entry.items()) out.emplace_back(&data, member_path(path, key));
    return out;
}

// The column of progression steps: "step", or MapData's first map key.
std::string step_column(const Document& data, const std::string& path) {
    if (const Document* infos = optional(data, "map_key_infos")) {
        const std::string at = member_path(path, "map_key_infos");
        expect_array(*infos, at);
        if (!infos->empty()) {
            const Document& first = expect_object(infos->front(), element_path(at, 0));
            return string_value(required(first, element_path(at, 0), "key"), member_path(element_path(at, 0), "key"));
        }
    }
    return "step";
}

// A trial index written as an object key ("12"): JSON keys are strings.
int trial_key(const std::string& key, const std::string& path) {
    if (key.empty() || key.size() > 9 || key.find_first_not_of("0123456789") != std::string::npos)
        fail(path, "the key " + shown_text(key) + " is not a trial index");
    return std::stoi(key);
}

}  // namespace

TrialData read_trial_data(const Document& experiment, const std::string& path, std::vector<std::string>& warnings) {
    TrialData out;
    const Document* by_trial = optional(experiment, "data_by_trial");
    if (!by_trial) return out;
    const std::string at = member_path(path, "data_by_trial");
    expect_object(*by_trial, at);
    std::set<std::string> stepped;
    for (const auto& [key, entry] : by_trial->items()) {
        const std::string t_at = member_path(at, key);
        const int trial = trial_key(key, t_at);
        auto& observations = out[trial];
        for (const auto& [data, d_at] : fetches(entry, t_at)) {
            const std::string data_type = type_of(*data);
            if (data_type != "Data" && data_type != "MapData")
                fail(d_at, "expected a Data object, got " + describe_value(*data));
            const std::string df_at = member_path(d_at, "df");
            std::vector<DataFrameRow> rows = read_data_frame(required(*data, d_at, "df"), df_at);
            std::stable_sort(rows.begin(), rows.end(), label_before);
            const std::string frame = member_path(df_at, "value");
            const std::string step_key = step_column(*data, d_at);
            for (const DataFrameRow& row : rows) {
                Observation o;
                o.path = frame;
                o.mean = number_cell(row, "mean", frame);
                const double sem = number_cell(row, "sem", frame);
                if (std::isinf(sem) || sem < 0)
                    fail(frame, "row " + row.index + ", column sem: " + format_number(sem) + " is not a standard error (>= 0, finite)");
                if (!std::isnan(sem)) o.sem = sem;
                if (const double step = number_cell(row, step_key.c_str(), frame); !std::isnan(step)) o.step = step;
                const ArmMetric key_of{text_cell(row, "arm_name", frame), text_cell(row, "metric_name", frame)};
                if (o.step) stepped.insert(key_of.second);
                auto [it, added] = observations.try_emplace(key_of, o);
                // A later fetch replaces an earlier one; of progression data the last step stays.
                if (!added && (!o.step || !it->second.step || *o.step >= *it->second.step)) it->second = o;
            }
        }
    }
    if (!stepped.empty()) {
        std::string names;
        for (const std::string& m : stepped) names += (names.empty() ? "'" : ", '") + m + "'";
        warnings.push_back("metrics " + names +
                           " have progression data (values per step): each arm's value at its last step is imported");
    }
    return out;
}

}  // namespace sebo::ax
