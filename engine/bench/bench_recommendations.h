#pragma once
// What a user of each method would take away at the end of a benchmark run (issue 30 item 7):
// the model's recommendations (experiment/recommendations.h) of every run of a comparison. Each
// run's experiment fits its own model — SAAS sampled with NUTS unless the strategy says
// otherwise, and a Sobol run too, so that every method's measurements are judged by the same
// rule — and recommends per k the measured configuration(s) with at most k changes whose
// posterior mean is best. On a built-in problem measured with noise each recommendation carries
// the noise-free value its trial recorded (Trial::noise_free), which is what the comparison judges
// (bench/bench_truth.h).
//
// recommendations.csv: one row per recommended configuration per level k (with several
// objectives a row per non-dominated configuration, best first):
//   problem, strategy, seed, trials (the run's trials that are not pending), k, trial (the
//   configuration's first trial: its index in the run file, which is its trial position in
//   results.csv), active, mean, lower, upper (per objective in user units and sign, separated by
//   ';': the posterior mean and 95 % credible interval of the noise-free value),
//   p_better_than_status_quo (per objective; empty when the status quo was not measured or is the
//   recommended configuration), noise_free (per objective; empty when the trial has none).
// problem and strategy are text cells (csv_text_cell, io/csv_cell.h).
//
// A fit of a 50-dimensional SAAS model takes a while, so each run's rows are kept next to its file
// (runs/PROBLEM/STRATEGY/seed-S.recommendations.json) with the fingerprint of the run file's text
// and its number of trials: reporting a finished comparison again reads them instead of fitting,
// and a run that grew (or changed in any way) is fitted again. The cache is this program's own
// file: one that cannot be read, or was made from other data, is rebuilt, never trusted.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_results.h"
#include "experiment/experiment.h"
#include "experiment/recommendations.h"
#include "experiment/step_control.h"

namespace sebo {

struct BenchRecommendation {
    std::string problem;
    std::string strategy;
    int seed = 0;
    int trials = 0;  // the run's trials that are not pending
    int k = 0;       // at most k changes
    int trial = 0;   // the recommended configuration's first trial
    int active = 0;  // its changes (Experiment::sparsity)
    // Per objective, in the order of the experiment's objectives (user units and sign).
    std::vector<double> mean, lower, upper;
    std::vector<double> p_better_than_status_quo;  // empty: no status quo, or it is the status quo
    std::vector<double> noise_free;                // empty: the trial recorded none

    std::optional<double> first_noise_free() const {
        return noise_free.empty() ? std::nullopt : std::optional<double>(noise_free.front());
    }
    friend bool operator==(const BenchRecommendation&, const BenchRecommendation&) = default;
};

// The rows of a run's recommendations (report.status must be Ok), in the order of the levels.
std::vector<BenchRecommendation> bench_recommendations(const Experiment& experiment, const RecommendationReport& report,
                                                       const BenchRunInfo& info);

// recommendations.csv: the header and one line per row; numbers at full precision.
std::string format_bench_recommendations(const std::vector<BenchRecommendation>& rows);

// 64-bit FNV-1a of a run file's text: the cache's key.
std::uint64_t run_text_fingerprint(const std::string& text);

// The cache file of a run file: "DIR/seed-1.sebo.json" → "DIR/seed-1.recommendations.json".
std::string recommendations_cache_path(const std::string& run_path);

struct RunRecommendations {
    enum class Source {
        Cache,      // read from the cache: the run is as it was when the cache was written
        Fitted,     // the model was fitted now, and the cache written
        Failed,     // the model could not be fitted (`message` says why; cached too, as it is repeatable)
        Cancelled,  // stopped through the control; nothing cached
    };
    Source source = Source::Failed;
    std::string message;
    std::vector<BenchRecommendation> rows;  // labelled with the run's info
};

// The recommendations of the run saved at `run_path`, whose text is `run_text` and which is
// `experiment` (as parsed from that text): from its cache when that was made from the same text
// and number of trials, otherwise from recommend_configurations(experiment, control), written to
// the cache (atomically; std::runtime_error when it cannot be written).
RunRecommendations run_recommendations(const std::string& run_path, const std::string& run_text,
                                       const Experiment& experiment, const BenchRunInfo& info,
                                       const StepControl& control = {});

}  // namespace sebo
