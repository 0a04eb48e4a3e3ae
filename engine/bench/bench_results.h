#pragma once
// The results table of a benchmark comparison (`sebo bench`): one row per trial of every run
// (problem × strategy × seed), written as `results.csv`. The table is self-contained: each row
// carries what the summary and the plots need about its problem (dimension, direction, known
// optimum, effective parameters), so both can be rebuilt from `results.csv` alone.
//
// Columns, in this order (the header names are the field names below):
//   problem, dimension, minimize (0|1), optimum (empty when unknown), effective_parameters
//   (0-based indices separated by ';', empty when unknown), hypervolume_reference, strategy,
//   seed, trial, generator, status (completed|excluded|failed|abandoned; excluded: completed but
//   excluded from analysis), objective (user sign; empty unless completed or excluded), active (parameters changed away from their targets), active_parameters
//   (0-based indices separated by ';'), hypervolume (after this trial), best_objective (best
//   objective so far among trials that count, user sign; empty before the first), generation_seconds,
//   evaluation_seconds, elapsed_seconds (running sum of the two);
// then, for several objectives and outcome constraints (issue 13; every row carries them, with
// one objective too):
//   objectives (the problem's objectives as METRIC:min|max separated by ';', first objective
//   first — the one of `minimize`, `objective` and `best_objective`), hypervolume_references (per
//   objective its side of the reference point, user sign, separated by ';'), constraints (the
//   outcome constraints as "METRIC <= V" separated by ';', empty without), objective_values (per
//   objective its value, user sign, separated by ';'; empty unless completed or excluded),
//   feasible (0|1: every constraint holds on the trial's values; empty unless completed or
//   excluded).
// then, for noisy measurements (issue 30; every row carries them):
//   noise_free (the first objective's noise-free value, user sign: Trial::noise_free, which a
//   built-in problem measured with noise records; empty when the trial has none), noise_free_values
//   (per objective, separated by ';', like objective_values; empty with noise_free).
// Text cells (problem, strategy, generator, status, objectives, constraints) are written with
// csv_text_cell: one that a spreadsheet would run as a formula starts with ' (io/csv_cell.h),
// which parse_bench_results removes again.
// A results.csv of an earlier version, without those five columns, still loads: its rows have the
// one objective "objective" (direction `minimize`, reference `hypervolume_reference`), no
// constraints, and are feasible. One without the two noise-free columns loads with no noise-free
// values. Metric names of the built-in problems hold no ':' or ';'.

#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"

namespace sebo {

// One objective of the problem, in the user's sign.
struct BenchObjective {
    std::string metric;
    bool minimize = true;
    double reference = 0.0;  // its side of the hypervolume reference point

    double to_utility(double value) const { return minimize ? -value : value; }
    friend bool operator==(const BenchObjective&, const BenchObjective&) = default;
};

struct BenchRow {
    std::string problem;  // the problem's label in the comparison, e.g. "branin"
    int dimension = 0;
    bool minimize = true;
    std::optional<double> optimum;
    std::vector<int> effective_parameters;
    double hypervolume_reference = 0.0;  // objective side of the reference point, user sign
    std::string strategy;  // the method's label, e.g. "sebo-l0" or "ei-ir/lambda=0.001"
    int seed = 0;
    int trial = 0;  // position of the trial in its run, 0-based
    std::string generator;
    std::string status;
    std::optional<double> objective;
    // Completed and not excluded from analysis: the rows the summary counts.
    bool counts() const { return status == "completed"; }
    int active = 0;
    std::vector<int> active_parameters;
    double hypervolume = 0.0;
    std::optional<double> best_objective;
    double generation_seconds = 0.0;
    double evaluation_seconds = 0.0;
    double elapsed_seconds = 0.0;
    // The problem's objectives (the first is the one of `minimize` and `hypervolume_reference`)
    // and outcome constraints ("sum <= 1.5").
    std::vector<BenchObjective> objectives;
    std::vector<std::string> constraints;
    // Per objective, when completed or excluded (objective_values.front() == *objective).
    std::vector<double> objective_values;
    // Every constraint holds; meaningful when completed or excluded.
    bool feasible = true;
    // Counts and satisfies every constraint: the rows a frontier is made of.
    bool counts_feasible() const { return counts() && feasible; }
    // Per objective, the noise-free value (user sign) when the trial recorded one for every
    // objective (a built-in problem measured with noise); empty otherwise.
    std::vector<double> noise_free_values;
    std::optional<double> noise_free() const {
        return noise_free_values.empty() ? std::nullopt : std::optional<double>(noise_free_values.front());
    }
};

struct BenchRunInfo {
    std::string problem;
    std::string strategy;
    int seed = 0;
    std::optional<double> optimum;              // the problem's, when known
    std::vector<int> effective_parameters;      // the problem's, when known
};

// The rows of one finished (or partial) run: every non-pending trial of the experiment, in
// order, with the frontier analytics of experiment/analytics.h.
std::vector<BenchRow> bench_rows(const Experiment& experiment, const BenchRunInfo& info);

// CSV text of rows (header first); numbers at full precision.
std::string format_bench_results(const std::vector<BenchRow>& rows);
// Parses results.csv text; throws InputError naming the source, line and column of a bad cell
// ("results.csv line 7, column objective: 'abc' is not a number").
std::vector<BenchRow> parse_bench_results(const std::string& text, const std::string& source);
// Reads and parses a file (InputError when it cannot be read).
std::vector<BenchRow> read_bench_results(const std::string& path);

}  // namespace sebo
