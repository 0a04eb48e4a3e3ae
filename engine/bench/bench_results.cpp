#include "bench/bench_results.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/format.h"
#include "core/input_error.h"
#include "experiment/analytics.h"
#include "io/csv_cell.h"
#include "io/csv_table.h"
#include "pareto/hypervolume_nd.h"

namespace sebo {

namespace {

const char* const kColumns[] = {
    "problem",   "dimension",         "minimize",   "optimum",        "effective_parameters",
    "hypervolume_reference", "strategy", "seed",    "trial",          "generator",
    "status",    "objective",         "active",     "active_parameters", "hypervolume",
    "best_objective", "generation_seconds", "evaluation_seconds", "elapsed_seconds",
    // Since several objectives and constraints (optional when reading).
    "objectives", "hypervolume_references", "constraints", "objective_values", "feasible",
    // Since noisy measurements (optional when reading).
    "noise_free", "noise_free_values"};
constexpr std::size_t kColumnCount = sizeof(kColumns) / sizeof(kColumns[0]);
// The columns of the first version, which every results.csv has.
constexpr std::size_t kFirstColumnCount = 19;
// The columns that were added together, each group optional when reading: [begin, end).
struct ColumnGroup {
    std::size_t begin = 0, end = 0;
    const char* description;
};
constexpr ColumnGroup kLaterGroups[] = {
    {19, 24, "the columns objectives, hypervolume_references, constraints, objective_values and feasible go together"},
    {24, 26, "the columns noise_free and noise_free_values go together"}};

std::string join_indices(const std::vector<int>& indices) {
    std::string out;
    for (std::size_t i = 0; i < indices.size(); ++i) out += (i ? ";" : "") + std::to_string(indices[i]);
    return out;
}

std::string optional_number(const std::optional<double>& value) { return value ? format_number(*value) : ""; }

std::string join_numbers(const std::vector<double>& values) {
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ";" : "") + format_number(values[i]);
    return out;
}

std::string join_texts(const std::vector<std::string>& texts) {
    std::string out;
    for (std::size_t i = 0; i < texts.size(); ++i) out += (i ? ";" : "") + texts[i];
    return out;
}

std::string objectives_text(const std::vector<BenchObjective>& objectives) {
    std::string out;
    for (std::size_t i = 0; i < objectives.size(); ++i)
        out += (i ? ";" : "") + objectives[i].metric + (objectives[i].minimize ? ":min" : ":max");
    return out;
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    if (text.empty()) return out;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ';')) out.push_back(item);
    if (text.back() == ';') out.emplace_back();
    return out;
}

class RowReader {
public:
    RowReader(const CsvTable& table, const CsvTable::Row& row, const std::vector<std::size_t>& columns)
        : table_(table), row_(row), columns_(columns) {}

    const std::string& text(std::size_t c) const { return row_.cells[columns_[c]]; }

    std::optional<double> optional_number(std::size_t c) const {
        if (text(c).empty()) return std::nullopt;
        return number(c);
    }
    double number(std::size_t c) const {
        const auto v = parse_number(text(c));
        if (!v || !std::isfinite(*v)) fail(c, "'" + text(c) + "' is not a finite number");
        return *v;
    }
    int integer(std::size_t c, long long min) const {
        const std::string& s = text(c);
        errno = 0;
        char* end = nullptr;
        const long long v = std::strtoll(s.c_str(), &end, 10);
        if (s.empty() || *end != '\0' || errno == ERANGE || v < min || v > 1'000'000'000)
            fail(c, "'" + s + "' is not a whole number of at least " + std::to_string(min));
        return static_cast<int>(v);
    }
    bool flag(std::size_t c) const {
        if (text(c) == "1") return true;
        if (text(c) == "0") return false;
        fail(c, "'" + text(c) + "' is neither 0 nor 1");
    }
    std::vector<int> indices(std::size_t c, int dimension) const {
        std::vector<int> out;
        std::stringstream stream(text(c));
        std::string item;
        while (std::getline(stream, item, ';')) {
            char* end = nullptr;
            errno = 0;
            const long v = std::strtol(item.c_str(), &end, 10);
            if (item.empty() || *end != '\0' || errno == ERANGE || v < 0 || v >= dimension)
                fail(c, "'" + item + "' is not a parameter index in [0, " + std::to_string(dimension) + ")");
            out.push_back(static_cast<int>(v));
        }
        return out;
    }
    std::vector<double> numbers(std::size_t c) const {
        std::vector<double> out;
        for (const std::string& item : split_list(text(c))) {
            const auto v = parse_number(item);
            if (!v || !std::isfinite(*v)) fail(c, "'" + item + "' is not a finite number");
            out.push_back(*v);
        }
        return out;
    }
    std::vector<BenchObjective> objectives(std::size_t c) const {
        std::vector<BenchObjective> out;
        for (const std::string& item : split_list(text(c))) {
            const auto colon = item.rfind(':');
            const std::string direction = colon == std::string::npos ? "" : item.substr(colon + 1);
            if (colon == 0 || colon == std::string::npos || (direction != "min" && direction != "max"))
                fail(c, "'" + item + "' is not METRIC:min or METRIC:max");
            out.push_back({item.substr(0, colon), direction == "min", 0.0});
        }
        if (out.empty()) fail(c, "no objective is given");
        if (out.size() > static_cast<std::size_t>(kMaxHypervolumeObjectives))
            fail(c, std::to_string(out.size()) + " objectives; at most " + std::to_string(kMaxHypervolumeObjectives) +
                        " are possible");
        return out;
    }
    [[noreturn]] void fail(std::size_t c, const std::string& message) const {
        throw InputError(table_.where(row_.line, kColumns[c]), message);
    }

private:
    const CsvTable& table_;
    const CsvTable::Row& row_;
    const std::vector<std::size_t>& columns_;
};

}  // namespace

std::vector<BenchRow> bench_rows(const Experiment& experiment, const BenchRunInfo& info) {
    const FrontierReport report = analyze_frontier(experiment);
    std::vector<BenchObjective> objectives;
    for (std::size_t o = 0; o < experiment.outcomes.objectives.size(); ++o) {
        const Objective& objective = experiment.outcomes.objectives[o];
        objectives.push_back({objective.metric, objective.minimize, objective.from_utility(report.reference_utilities[o])});
    }
    std::vector<std::string> constraints;
    for (const OutcomeConstraint& c : experiment.outcomes.constraints) constraints.push_back(c.text());
    std::vector<BenchRow> rows;
    std::optional<double> best_utility;
    double elapsed = 0.0;
    for (std::size_t i = 0; i < experiment.trials.size(); ++i) {
        const Trial& trial = experiment.trials[i];
        if (trial.status == TrialStatus::Pending) continue;
        BenchRow row;
        row.problem = info.problem;
        row.dimension = experiment.max_sparsity();
        row.minimize = experiment.primary_objective().minimize;
        row.optimum = info.optimum;
        row.effective_parameters = info.effective_parameters;
        row.hypervolume_reference = experiment.from_utility(report.reference_utilities.front());
        row.strategy = info.strategy;
        row.seed = info.seed;
        row.trial = static_cast<int>(rows.size());
        row.generator = trial.generator;
        // An excluded trial keeps its value but counts nowhere, here as everywhere else.
        row.status = trial.exclusion ? "excluded" : to_string(trial.status);
        row.objective = trial.status == TrialStatus::Completed ? experiment.objective_value(trial) : std::nullopt;
        row.objectives = objectives;
        row.constraints = constraints;
        if (row.objective) {
            for (std::size_t o = 0; o < objectives.size(); ++o) {
                const auto value = experiment.objective_value(trial, o);
                // A completed trial has every objective's value (Experiment::validate).
                row.objective_values.push_back(value.value_or(0.0));
            }
            row.feasible = experiment.feasibility(trial) == Feasibility::Feasible;
            for (const BenchObjective& o : objectives) {
                const auto value = trial.noise_free.find(o.metric);
                if (value == trial.noise_free.end()) {
                    row.noise_free_values.clear();
                    break;
                }
                row.noise_free_values.push_back(value->second);
            }
        }
        row.active = experiment.sparsity(trial);
        const std::vector<bool> mask = experiment.space.active_mask(trial.parameters);
        for (std::size_t d = 0; d < mask.size(); ++d)
            if (mask[d]) row.active_parameters.push_back(static_cast<int>(d));
        row.hypervolume = report.hypervolume_trace[i];
        if (const auto u = experiment.utility(trial);
            u && experiment.feasible(trial) && (!best_utility || *u > *best_utility))
            best_utility = u;
        if (best_utility) row.best_objective = experiment.from_utility(*best_utility);
        row.generation_seconds = trial.generation_seconds;
        row.evaluation_seconds = trial.evaluation_seconds;
        elapsed += trial.generation_seconds + trial.evaluation_seconds;
        row.elapsed_seconds = elapsed;
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string format_bench_results(const std::vector<BenchRow>& rows) {
    std::string out;
    for (std::size_t c = 0; c < kColumnCount; ++c) out += std::string(c ? "," : "") + kColumns[c];
    out += '\n';
    for (const BenchRow& r : rows) {
        const std::string cells[] = {csv_text_cell(r.problem),
                                     std::to_string(r.dimension),
                                     r.minimize ? "1" : "0",
                                     optional_number(r.optimum),
                                     join_indices(r.effective_parameters),
                                     format_number(r.hypervolume_reference),
                                     csv_text_cell(r.strategy),
                                     std::to_string(r.seed),
                                     std::to_string(r.trial),
                                     csv_text_cell(r.generator),
                                     csv_text_cell(r.status),
                                     optional_number(r.objective),
                                     std::to_string(r.active),
                                     join_indices(r.active_parameters),
                                     format_number(r.hypervolume),
                                     optional_number(r.best_objective),
                                     format_number(r.generation_seconds),
                                     format_number(r.evaluation_seconds),
                                     format_number(r.elapsed_seconds),
                                     csv_text_cell(objectives_text(r.objectives)),
                                     join_numbers([&] {
                                         std::vector<double> references;
                                         for (const BenchObjective& o : r.objectives) references.push_back(o.reference);
                                         return references;
                                     }()),
                                     csv_text_cell(join_texts(r.constraints)),
                                     join_numbers(r.objective_values),
                                     r.objective ? (r.feasible ? "1" : "0") : "",
                                     optional_number(r.noise_free()),
                                     join_numbers(r.noise_free_values)};
        for (std::size_t c = 0; c < kColumnCount; ++c) out += (c ? "," : "") + cells[c];
        out += '\n';
    }
    return out;
}

std::vector<BenchRow> parse_bench_results(const std::string& text, const std::string& source) {
    const CsvTable table = parse_csv_table(text, source);
    // The first 19 columns are required; each later group (several objectives, noise-free
    // values) comes all together or not at all (a results.csv of an earlier version).
    std::vector<std::size_t> columns;
    std::vector<bool> present;
    for (std::size_t i = 0; i < kColumnCount; ++i) {
        const auto c = table.column(kColumns[i]);
        if (!c && i < kFirstColumnCount)
            throw InputError(source, std::string("the column '") + kColumns[i] +
                                         "' is missing (a results.csv of 'sebo bench' has " + std::to_string(kColumnCount) +
                                         " columns, or the first " + std::to_string(kFirstColumnCount) +
                                         " when written before several objectives)");
        present.push_back(c.has_value());
        columns.push_back(c.value_or(0));
    }
    std::vector<bool> group_present;
    for (const ColumnGroup& group : kLaterGroups) {
        const auto first = present.begin() + static_cast<std::ptrdiff_t>(group.begin);
        const auto last = present.begin() + static_cast<std::ptrdiff_t>(group.end);
        const auto found = std::count(first, last, true);
        if (found > 0 && found < static_cast<std::ptrdiff_t>(group.end - group.begin))
            throw InputError(source, std::string("the column '") + kColumns[std::find(first, last, false) - present.begin()] +
                                         "' is missing (" + group.description + ")");
        group_present.push_back(found > 0);
    }
    const bool several_objectives = group_present[0];
    const bool noise_free = group_present[1];
    enum : std::size_t { Problem, Dimension, Minimize, Optimum, Effective, Reference, Strategy, Seed, TrialCol,
                         Generator, Status, Objective, Active, ActiveParameters, Hypervolume, Best,
                         Generation, Evaluation, Elapsed, Objectives, References, Constraints, Values, Feasible,
                         NoiseFree, NoiseFreeValues };
    std::vector<BenchRow> rows;
    rows.reserve(table.rows.size());
    for (const CsvTable::Row& cells : table.rows) {
        const RowReader in(table, cells, columns);
        BenchRow r;
        r.problem = in.text(Problem);
        if (r.problem.empty()) in.fail(Problem, "the problem's label is empty");
        r.dimension = in.integer(Dimension, 1);
        r.minimize = in.flag(Minimize);
        r.optimum = in.optional_number(Optimum);
        r.effective_parameters = in.indices(Effective, r.dimension);
        r.hypervolume_reference = in.number(Reference);
        r.strategy = in.text(Strategy);
        if (r.strategy.empty()) in.fail(Strategy, "the strategy's label is empty");
        r.seed = in.integer(Seed, 0);
        r.trial = in.integer(TrialCol, 0);
        r.generator = in.text(Generator);
        r.status = in.text(Status);
        if (r.status != "completed" && r.status != "excluded" && r.status != "failed" && r.status != "abandoned")
            in.fail(Status, "'" + r.status + "' is not completed, excluded, failed or abandoned");
        r.objective = in.optional_number(Objective);
        if ((r.status == "completed" || r.status == "excluded") != r.objective.has_value())
            in.fail(Objective, r.objective ? "a " + r.status + " trial has no objective"
                                           : "a " + r.status + " trial needs an objective");
        r.active = in.integer(Active, 0);
        if (r.active > r.dimension)
            in.fail(Active, std::to_string(r.active) + " is above the dimension " + std::to_string(r.dimension));
        r.active_parameters = in.indices(ActiveParameters, r.dimension);
        r.hypervolume = in.number(Hypervolume);
        r.best_objective = in.optional_number(Best);
        r.generation_seconds = in.number(Generation);
        r.evaluation_seconds = in.number(Evaluation);
        r.elapsed_seconds = in.number(Elapsed);
        if (several_objectives) {
            r.objectives = in.objectives(Objectives);
            const std::vector<double> references = in.numbers(References);
            if (references.size() != r.objectives.size())
                in.fail(References, std::to_string(references.size()) + " references for " +
                                        std::to_string(r.objectives.size()) + " objectives");
            for (std::size_t o = 0; o < references.size(); ++o) r.objectives[o].reference = references[o];
            if (r.objectives.front().minimize != r.minimize)
                in.fail(Objectives, "the first objective's direction differs from the column minimize");
            r.constraints = split_list(in.text(Constraints));
            for (const std::string& c : r.constraints)
                if (c.empty()) in.fail(Constraints, "'" + in.text(Constraints) + "' has an empty constraint");
            r.objective_values = in.numbers(Values);
            if (r.objective && (r.objective_values.size() != r.objectives.size() || r.objective_values.front() != *r.objective))
                in.fail(Values, "'" + in.text(Values) + "' is not one value per objective, the first equal to the column "
                                                        "objective");
            if (!r.objective && !r.objective_values.empty())
                in.fail(Values, "a " + r.status + " trial has no objective values");
            if (r.objective) {
                r.feasible = in.flag(Feasible);
            } else if (!in.text(Feasible).empty()) {
                in.fail(Feasible, "a " + r.status + " trial has no feasibility");
            }
        } else {
            r.objectives = {BenchObjective{"objective", r.minimize, r.hypervolume_reference}};
            if (r.objective) r.objective_values = {*r.objective};
        }
        if (noise_free) {
            const std::optional<double> first = in.optional_number(NoiseFree);
            r.noise_free_values = in.numbers(NoiseFreeValues);
            if (first && (r.noise_free_values.size() != r.objectives.size() || r.noise_free_values.front() != *first))
                in.fail(NoiseFreeValues, "'" + in.text(NoiseFreeValues) +
                                             "' is not one value per objective, the first equal to the column noise_free");
            if (!first && !r.noise_free_values.empty())
                in.fail(NoiseFreeValues, "'" + in.text(NoiseFreeValues) + "' is given without a noise_free value");
            if (first && !r.objective) in.fail(NoiseFree, "a " + r.status + " trial has no noise-free value");
        }
        rows.push_back(std::move(r));
    }
    return rows;
}

std::vector<BenchRow> read_bench_results(const std::string& path) {
    return parse_bench_results(read_text_file(path, std::uint64_t{1} << 30), path);
}

}  // namespace sebo
