#pragma once
// Aggregates of a benchmark comparison (`sebo bench`), computed from results rows alone
// (bench/bench_results.h): per problem and strategy, across seeds, the statistics the summary
// table and the plots show, as in the paper (§6 "Evaluation plots"): means with error bars of
// two standard errors.
//
// Conventions:
// - A run is the rows of one (problem, strategy, seed), ordered by trial.
// - The standard error is the sample standard deviation (n − 1) over √n; 0 with one run.
// - "Best with at most k active" per run is the best completed objective among its trials with
//   active ≤ k (user sign); runs that found none at a level are counted apart (`found`) and left
//   out of the mean, rather than imputed.
// - Traces (hypervolume, simple regret) are indexed by trial position; a run shorter than the
//   longest one contributes to the positions it reached only.
// - Seconds per iteration: mean generation_seconds over the trials not from the initial design
//   (generator other than "sobol" and "status-quo").
// - Activation frequency (paper Fig. 5 right): per run, the share of its final non-dominated
//   configurations (objectives vs active count, feasible ones only) in which each parameter is
//   active; averaged over runs.
// - Outcome constraints: only feasible trials count for "best with at most k active", regret,
//   activation and the objectives' hypervolume (the rows' hypervolume already leaves the others
//   out). The feasibility rate of a run is the share of its trials that count (completed, not
//   excluded) that are feasible; averaged over runs.
// - Several objectives: "best with at most k active" and regret are of the first objective; the
//   summary adds per level of interest the hypervolume of the objectives alone (against the
//   problem's reference, bench_results.h) of the feasible trials with at most k active — every
//   run counts, one that found none with 0.

#include <optional>
#include <string>
#include <vector>

#include "bench/bench_results.h"

namespace sebo {

struct MeanSe {
    double mean = 0.0;
    double se = 0.0;  // standard error of the mean
    int n = 0;        // number of values
};
// Mean and standard error of values (n = 0 gives mean 0, se 0).
MeanSe mean_and_se(const std::vector<double>& values);

struct LevelBest {
    int k = 0;            // at most k active
    std::optional<MeanSe> best;  // over the runs that found a configuration (unset when none did)
    int found = 0;        // runs with a completed trial with at most k active
};

// One run's final front of the objectives (several objectives).
struct RunFront {
    int seed = 0;
    std::vector<std::vector<double>> points;  // each the objectives' values, user sign
};

struct StrategySummary {
    std::string strategy;
    int runs = 0;
    int trials = 0;  // the longest run's number of trials
    MeanSe final_hypervolume;
    // k = 0..dimension: the final "best with at most k active" (the frontier, Fig. 3 right / 4).
    std::vector<LevelBest> frontier;
    // Per trial position: hypervolume so far (Fig. 7).
    std::vector<MeanSe> hypervolume_trace;
    // Per level of interest (ProblemSummary::levels), per trial position: simple regret
    // optimum − best objective so far with at most k active, in maximization form (never negative
    // for a true optimum); unset at a position where no run has found one yet. Empty when the
    // optimum is unknown (Fig. 3 left / middle).
    std::vector<std::vector<std::optional<MeanSe>>> regret_traces;
    // Per parameter (dimension entries): mean activation frequency on the final frontier.
    std::vector<double> activation_frequency;
    std::optional<double> seconds_per_iteration;  // unset without model-based trials
    // Per run: feasible share of the trials that count; over runs (n = runs with such trials).
    MeanSe feasibility_rate;
    // Per level of interest (ProblemSummary::levels): the final hypervolume of the objectives
    // (without sparsity) of the feasible trials with at most k active, over runs.
    std::vector<MeanSe> objectives_hypervolume;
    // Several objectives only (empty otherwise): for k = 0..dimension, the same over runs — the
    // multi-objective counterpart of `frontier`, drawn by the frontier plot.
    std::vector<MeanSe> objectives_hypervolume_by_k;
    // Several objectives only: per front level (ProblemSummary::front_levels), per run in seed
    // order, the non-dominated objective vectors (user sign, sorted by the first objective) of the
    // run's feasible trials with at most that many active.
    std::vector<std::vector<RunFront>> fronts;
};

struct ProblemSummary {
    std::string problem;
    int dimension = 0;
    bool minimize = true;
    std::optional<double> optimum;  // of the first objective
    std::vector<int> effective_parameters;
    std::vector<BenchObjective> objectives;  // first objective first; its direction is `minimize`
    std::vector<std::string> constraints;    // "sum <= 1.5"
    // The sparsity levels of interest: the number of effective parameters when known (Branin 2,
    // Hartmann6 6) with half and twice that; otherwise 1, 2, 4, 8; never above the dimension.
    std::vector<int> levels;
    // Several objectives only: the levels whose fronts are kept (StrategySummary::fronts) — the
    // number of effective parameters when known (otherwise the middle level of interest), then the
    // dimension (any number of changes).
    std::vector<int> front_levels;
    std::vector<StrategySummary> strategies;  // in order of first appearance in the rows
};

// Groups the rows by problem (in order of first appearance) and strategy; throws InputError
// when rows of one problem disagree on its dimension, direction, optimum, objectives or
// constraints, or a run repeats a trial position.
std::vector<ProblemSummary> summarize_bench(const std::vector<BenchRow>& rows);

// The summary as Markdown (summary.md): per problem, a table with one row per strategy — runs,
// final hypervolume (mean ± 2 SE), best objective at each level of interest (mean ± 2 SE, with
// "(found in r/n)" when not every run found one) — with several objectives instead the
// objectives' hypervolume at each level —, the feasibility rate when the problem has
// constraints, mean seconds per iteration. Problems with one objective and no constraints are
// written as before several objectives existed.
std::string summary_markdown(const std::vector<ProblemSummary>& problems);

}  // namespace sebo
