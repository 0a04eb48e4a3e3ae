// sebo suggest / sebo observe — ask/tell for scripts and lab workflows: propose the next trials
// (saved as pending), then record what was measured, by hand or from a CSV sheet.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/method_options.h"
#include "cli/sampler_options.h"
#include "cli/trial_exclusion_cli.h"
#include "core/format.h"
#include "core/input_error.h"
#include "core/thread_pool.h"
#include "core/timestamp.h"
#include "experiment/runner.h"
#include "io/csv_export.h"
#include "io/csv_table.h"
#include "io/experiment_file.h"
#include "io/outcome_text.h"
#include "io/results_import.h"
#include "io/shared_experiment_file.h"
#include "cli/shared_file.h"

namespace sebo::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string pad(const std::string& text, std::size_t width) {
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// Parameters down, trials across: readable for many parameters and a few trials.
void print_table(const Experiment& e, const std::vector<int>& indices) {
    const SearchSpace& space = e.space;
    std::size_t name_width = std::string("parameter").size();
    for (const Parameter& p : space.parameters()) name_width = std::max(name_width, p.name.size());
    std::vector<std::vector<std::string>> columns;  // target, then one per trial
    std::vector<std::string> target{"target"};
    // A choice shows its value's text; a number, its short form.
    const auto shown = [&](int i, double v) {
        return space.parameter(i).kind == ParameterKind::Choice ? value_text(space.parameter(i), v) : format_short(v);
    };
    const std::vector<double> targets = space.target();
    for (int i = 0; i < space.dimension(); ++i) target.push_back(shown(i, targets[static_cast<std::size_t>(i)]));
    columns.push_back(target);
    for (int index : indices) {
        const Trial& t = *e.find_trial(index);
        std::vector<std::string> column{"trial " + std::to_string(index)};
        for (int i = 0; i < space.dimension(); ++i) column.push_back(shown(i, t.parameters[static_cast<std::size_t>(i)]));
        column.push_back(std::to_string(e.sparsity(t)));
        columns.push_back(column);
    }
    columns.front().push_back("");
    std::vector<std::size_t> widths;
    for (const auto& column : columns) {
        std::size_t w = 0;
        for (const auto& cell : column) w = std::max(w, cell.size());
        widths.push_back(w + 2);
    }
    const auto row = [&](const std::string& label, std::size_t r) {
        std::string line = pad(label, name_width + 2);
        for (std::size_t c = 0; c < columns.size(); ++c) line += pad(columns[c][r], widths[c]);
        while (!line.empty() && line.back() == ' ') line.pop_back();
        std::printf("%s\n", line.c_str());
    };
    row("parameter", 0);
    for (int i = 0; i < space.dimension(); ++i) row(space.parameter(i).name, static_cast<std::size_t>(i) + 1);
    row(e.max_sparsity() == space.dimension() ? "active" : "active groups", static_cast<std::size_t>(space.dimension()) + 1);
}

// A sheet to fill in and give back to 'sebo observe --csv': trial, the parameters (exact
// values), and an empty column per metric.
std::string results_sheet(const Experiment& e, const std::vector<int>& indices) {
    std::string text = "trial";
    for (const Parameter& p : e.space.parameters()) text += "," + csv_text_cell(p.name);
    for (const std::string& metric : e.outcomes.metrics) text += "," + csv_text_cell(metric);
    text += "\n";
    for (int index : indices) {
        text += std::to_string(index);
        const std::vector<double>& values = e.find_trial(index)->parameters;
        for (int i = 0; i < e.space.dimension(); ++i)
            text += "," + csv_text_cell(value_text(e.space.parameter(i), values[static_cast<std::size_t>(i)]));
        text += std::string(e.outcomes.metrics.size(), ',') + "\n";
    }
    return text;
}

// "throughput = 1234.5 ± 4.2, p99_ms = 41.2 (feasible)".
std::string describe_values(const Experiment& e, const MetricValues& values) {
    std::string text;
    for (const std::string& metric : e.outcomes.metrics) {
        const auto it = values.find(metric);
        if (it == values.end()) continue;
        text += (text.empty() ? "" : ", ") + metric + " = " + format_number(it->second.mean) +
                (it->second.sem ? " ± " + format_number(*it->second.sem) : "");
    }
    return text;
}

// A sheet with no values yet: nothing is written.
struct NothingToRecord {};

std::string describe_trial_result(const Experiment& e, const Trial& t) {
    if (t.status == TrialStatus::Completed)
        return describe_values(e, t.values) +
               (e.outcomes.constraints.empty() ? "" : std::string(" (") + to_string(e.feasibility(t)) + ")");
    if (t.status == TrialStatus::Pending) return "pending";
    return std::string(to_string(t.status)) + (t.error.empty() ? "" : ": " + t.error);
}

// --value V / --value NAME=V (repeatable) and --sem S / --sem NAME=S: one measurement per named
// metric. The plain forms name the experiment's only metric.
MetricValues values_from_flags(const Experiment& e, const Arguments& parser) {
    const std::vector<std::string>& metrics = e.outcomes.metrics;
    const auto named = [&](const char* flag, const std::string& text) -> std::pair<std::string, double> {
        const std::string field = std::string("--") + flag;
        if (text.find('=') == std::string::npos) {
            const auto value = parse_number(text);
            if (!value || !std::isfinite(*value)) throw UsageError(field + ": '" + text + "' is not a finite number");
            if (metrics.size() != 1)
                throw UsageError(field + ": '" + text + "' names no metric; this experiment has " +
                                 std::to_string(metrics.size()) + " (" + e.outcomes.metric_list() + "): give " + flag +
                                 " NAME=V for each");
            return {metrics.front(), *value};
        }
        try {
            auto pair = parse_named_number(text, field);
            if (!e.outcomes.has_metric(pair.first))
                throw UsageError(field + ": '" + text + "' names the unknown metric '" + pair.first + "'; the metrics are " +
                                 e.outcomes.metric_list());
            return pair;
        } catch (const InputError& error) {
            throw UsageError(error.what());
        }
    };
    MetricValues values;
    for (const std::string& text : parser.values("value")) {
        const auto [metric, value] = named("value", text);
        if (!values.emplace(metric, Measurement{value, std::nullopt}).second)
            throw UsageError("--value: '" + metric + "' is given twice");
    }
    std::vector<std::string> with_sem;
    for (const std::string& text : parser.values("sem")) {
        const auto [metric, sem] = named("sem", text);
        if (sem < 0) throw UsageError("--sem: " + format_number(sem) + " (of " + metric + ") is negative");
        const auto it = values.find(metric);
        if (it == values.end()) throw UsageError("--sem: '" + metric + "' has no --value");
        if (it->second.sem) throw UsageError("--sem: '" + metric + "' is given twice");
        it->second.sem = sem;
    }
    return values;
}

}  // namespace

int command_suggest(const Args& args) {
    Arguments parser(
        "suggest", "FILE [--count Q] [--json] [--csv SHEET]",
        "Propose the next Q trials with the experiment's strategy (the model treats pending trials,\n"
        "and earlier members of the batch, as if their predicted values had been observed, so a\n"
        "batch is diverse), add them to FILE as pending trials (saved atomically) and print them.\n"
        "Record results with 'sebo observe'.",
        {{"count", "Q", "number of trials to propose (default 1)"},
         {"json", "", "machine-readable output on stdout"},
         {"csv", "SHEET", "also write a sheet (trial, parameters, empty objective) for 'sebo observe --csv'"},
         {"force", "", "overwrite SHEET if it exists"},
         {"trials", "N", "raise the experiment's budget to N trials first"},
         method_option_specs({MethodFlag::Model}).front(),
         method_option_specs({MethodFlag::Nuts}).front(),
         threads_option(),
         wait_option()},
        1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    if (parser.positionals().empty()) throw UsageError("an experiment FILE is required");
    const std::string& path = parser.positionals().front();
    const int count = static_cast<int>(parser.integer("count", 1, 10'000).value_or(1));
    const auto sheet = parser.value("csv");
    if (sheet && std::filesystem::exists(*sheet) && !parser.has("force"))
        throw UsageError("--csv: " + *sheet + " already exists (it may hold results); use --force to overwrite it");

    const double wait = wait_seconds(parser);
    // The proposal is made without a lock (a model fit may take minutes); the save merges what
    // other processes recorded meanwhile, and gives the new trials the next free indices.
    SharedExperimentFile file(path, lock_options("sebo suggest", wait, false),
                              [](const std::string& note) { print_note("sebo suggest", note); });
    Experiment e = file.load();
    if (const auto budget = parser.integer("trials", 1, 1'000'000)) e.method.budget = static_cast<int>(*budget);
    // For this and the later steps: the file keeps them.
    apply_method_options(parser, e.method, {MethodFlag::Model, MethodFlag::Nuts});
    if (auto error = e.method.validate()) throw InputError("method", *error);
    auto strategy = make_strategy(e.method);

    ThreadPool pool(threads_from(parser));
    StepControl control;
    control.pool = &pool;
    // On a terminal, show the phase of a (possibly long) model fit on one self-overwriting line.
    const bool live = isatty(STDERR_FILENO);
    auto last = std::chrono::steady_clock::now();
    if (live)
        control.progress = [&](const StepProgress& p) {
            const auto now = std::chrono::steady_clock::now();
            if (now - last < std::chrono::milliseconds(100)) return;
            last = now;
            std::string line = "  " + p.phase;
            if (p.total > 0) line += " " + std::to_string(p.current) + "/" + std::to_string(p.total);
            std::fprintf(stderr, "\r%-78.78s", line.c_str());
        };
    const StepResult step = run_step(e, *strategy, nullptr, control, count);
    if (live) std::fprintf(stderr, "\r%78s\r", "");
    if (step.status == StepResult::Status::BudgetReached)
        throw UsageError(path + ": " + step.message + "; raise it with --trials N");
    if (step.status != StepResult::Status::Completed) {
        std::fprintf(stderr, "sebo suggest: the strategy could not propose: %s\n", step.message.c_str());
        return 1;
    }
    const MergeReport merged = file.save(e);
    print_merge("sebo suggest", merged);
    std::vector<int> new_trials;
    for (int index : step.new_trials) new_trials.push_back(merged.new_index(index));
    if (sheet) write_file_atomic(*sheet, results_sheet(e, new_trials));
    if (const Trial* t = e.find_trial(new_trials.front()); t && t->fit && !t->fit->warning().empty())
        std::fprintf(stderr, "warning: the model behind these trials: %s\n", t->fit->warning().c_str());

    if (parser.has("json")) {
        Json out = Json::object();
        out["file"] = path;
        out["trials"] = Json::array();
        for (int index : new_trials) {
            Json trial = Json::parse(configuration_to_json(e, index, false));
            trial.erase("objective");
            trial.erase("metrics");
            trial.erase("feasible");
            trial["generator"] = e.find_trial(index)->generator;
            out["trials"].push_back(std::move(trial));
        }
        std::printf("%s\n", out.dump(2, ' ', false, Json::error_handler_t::replace).c_str());
        return 0;
    }
    const Trial& first = *e.find_trial(new_trials.front());
    std::printf("%zu new pending trial(s) from %s, saved in %s%s\n\n", new_trials.size(), first.generator.c_str(),
                path.c_str(), static_cast<int>(new_trials.size()) < count ? " (the budget allows no more)" : "");
    print_table(e, new_trials);
    std::printf("\nrecord results:  sebo observe %s --trial %d --value %s\n", path.c_str(), first.index,
                e.outcomes.metrics.size() == 1 ? "V" : "NAME=V --value NAME=V ...");
    if (sheet) std::printf("or fill in %s, then:  sebo observe %s --csv %s\n", sheet->c_str(), path.c_str(), sheet->c_str());
    return 0;
}

int command_observe(const Args& args) {
    Arguments parser(
        "observe",
        "FILE (--trial I (--value [NAME=]V ... [--sem [NAME=]S ...] | --failed REASON | --exclude REASON | --include) | "
        "--csv RESULTS [--partial]) [--overwrite]",
        "Record measured results on pending trials. One trial: --trial I with --value NAME=V for each\n"
        "objective and constrained metric (and any tracked one that was measured), each with an\n"
        "optional standard error --sem NAME=S (with one metric: --value V --sem S), or --failed\n"
        "REASON. A sheet: --csv RESULTS, whose rows name their trial in a 'trial' column, or else give\n"
        "every parameter's value (matched exactly against the pending trials); each metric's value\n"
        "goes in a column named after it (with one metric also 'objective'), its standard error in\n"
        "'<metric>_sem' (or 'sem'); 'status' (completed, failed, abandoned, pending) and 'error'\n"
        "columns are optional and rows with no value yet are skipped, as are rows repeating the result\n"
        "their trial has (sebo export FILE --all, filled in and read back). Each row is reported; if any\n"
        "row is invalid or matches no trial, nothing is recorded unless --partial. A trial that already\n"
        "has a result is only changed with --overwrite (a new value also ends an exclusion).\n"
        "--exclude REASON leaves a completed trial out of the analysis (the model, the frontier, the\n"
        "hypervolume, the activation frequencies) and keeps its value in the file; --include counts it\n"
        "again. A new value far outside the others' (more than 1e3 interquartile ranges from their\n"
        "median) gets a warning.",
        {{"trial", "I", "the trial to record a result for"},
         {"value", "[NAME=]V", "a measured value (NAME=V for each metric; V alone with one metric); repeatable", false, true},
         {"sem", "[NAME=]S", "standard error of a value (optional); repeatable", false, true},
         {"failed", "REASON", "the trial failed (no value)"},
         {"csv", "RESULTS", "a CSV sheet of results"},
         {"partial", "", "with --csv: record the matched rows even if others are invalid or unmatched"},
         {"overwrite", "", "replace the result of a trial that already has one"},
         {"exclude", "REASON", "leave completed trial I out of the analysis (its value stays in FILE)"},
         {"include", "", "count excluded trial I in the analysis again"},
         wait_option(),
         {"quiet", "", "print nothing but errors"}},
        1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    if (parser.positionals().empty()) throw UsageError("an experiment FILE is required");
    const std::string& path = parser.positionals().front();
    const bool quiet = parser.has("quiet");
    const bool overwrite = parser.has("overwrite");
    const bool by_sheet = parser.has("csv");
    if (parser.has("exclude") || parser.has("include")) return observe_exclusion(parser, path, quiet);
    if (by_sheet == parser.has("trial")) throw UsageError("give either --trial I or --csv RESULTS");
    // Flags and the sheet are checked before the file is locked.
    ObservedResult single;
    std::optional<CsvTable> table;
    if (!by_sheet) {
        if (parser.has("partial")) throw UsageError("--partial goes with --csv");
        single.trial = static_cast<int>(*parser.integer("trial", 0, 2'147'483'647));
        if (parser.has("value") == parser.has("failed")) throw UsageError("--trial needs either --value V or --failed REASON");
        if (parser.has("value")) {
            // The values are checked against the file's metrics once it is locked.
        } else {
            if (parser.has("sem")) throw UsageError("--sem goes with --value");
            single.status = TrialStatus::Failed;
            single.error = *parser.value("failed");
            if (single.error.empty()) single.error = "reported failed";
        }
    } else {
        for (const char* flag : {"value", "sem", "failed"})
            if (parser.has(flag)) throw UsageError(std::string("--") + flag + " goes with --trial, not --csv");
        const std::string sheet = *parser.value("csv");
        table = parse_csv_table(read_text_file(sheet), sheet);
    }
    SharedExperimentFile file(path, lock_options("sebo observe", wait_seconds(parser), quiet),
                              [](const std::string& note) { print_note("sebo observe", note); });

    // The whole read-check-record-write holds the write lock: the trial is checked against the
    // file as it is now, and no other writer's result can be lost in between.
    std::vector<ObservedResult> results;
    const auto record = [&](Experiment& e) {
        if (!by_sheet) {
            if (single.status == TrialStatus::Completed) single.values = values_from_flags(e, parser);
            if (const auto problem = check_result(e, single, overwrite))
                throw InputError("--trial " + std::to_string(single.trial),
                                 *problem + (e.find_trial(single.trial) && !overwrite ? "; --overwrite replaces it" : ""));
            results.push_back(single);
        } else {
            const ResultsMatch match = match_results(e, *table, {.overwrite = overwrite});
            for (const ResultRow& row : match.rows) {
                if (quiet && (row.status == ResultRow::Status::Matched || row.status == ResultRow::Status::Recorded)) continue;
                std::string line = "line " + std::to_string(row.line) + ": " + to_string(row.status);
                if (row.status == ResultRow::Status::Matched) {
                    const auto it = std::find_if(match.results.begin(), match.results.end(),
                                                 [&](const ObservedResult& r) { return r.trial == row.trial; });
                    line += " -> trial " + std::to_string(row.trial) + " (" +
                            (it->status == TrialStatus::Completed ? describe_values(e, it->values) : to_string(it->status)) + ")";
                } else {
                    line += ": " + row.message;
                }
                std::fprintf(stderr, "%s\n", line.c_str());
            }
            const int matched = match.count(ResultRow::Status::Matched);
            const int problems = match.count(ResultRow::Status::Unmatched) + match.count(ResultRow::Status::Invalid);
            if (problems > 0 && !parser.has("partial")) {
                std::string message = "nothing recorded: " + std::to_string(match.count(ResultRow::Status::Unmatched)) +
                                      " row(s) not matched, " + std::to_string(match.count(ResultRow::Status::Invalid)) +
                                      " invalid";
                if (matched > 0) message += " (--partial records the " + std::to_string(matched) + " matched row(s))";
                throw InputError(*parser.value("csv"), message);
            }
            results = match.results;
        }
        if (results.empty()) throw NothingToRecord();
        record_results(e, results, utc_timestamp());
    };
    Experiment e;
    try {
        e = file.edit(record);
    } catch (const NothingToRecord&) {
        if (!quiet) std::fprintf(stderr, "nothing to record\n");
        return 0;
    }
    if (!quiet) {
        for (const ObservedResult& r : results)
            if (!by_sheet)
                std::fprintf(stderr, "trial %d: %s\n", r.trial, describe_trial_result(e, *e.find_trial(r.trial)).c_str());
        std::fprintf(stderr, "recorded %zu result(s) in %s; %d trial(s) still pending\n", results.size(), path.c_str(),
                     e.count(TrialStatus::Pending));
        std::vector<int> recorded;
        for (const ObservedResult& r : results) recorded.push_back(r.trial);
        warn_extreme_values(e, recorded, path);
        warn_partial_standard_errors(e);
    }
    return 0;
}

}  // namespace sebo::cli
