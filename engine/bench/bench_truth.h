#pragma once
// What a user gets (issue 30 item 7; SPEC §11: methods are judged by the true value of what they
// recommend, not by their luckiest observation). On a built-in problem measured with noise every
// trial records its noise-free value (results.csv's noise_free), which no method sees; this
// aggregates, per problem and strategy across seeds, with the conventions of bench_summary.h
// (means ± 2 standard errors over runs, runs that found nothing counted apart):
//  - per level of interest k (ProblemSummary::levels):
//    · recommended: the noise-free value of the configuration the run's model recommends at the
//      end among the measured ones with at most k changes (bench_recommendations.h; the first
//      objective of the first recommendation at k) — what a user would take away;
//    · best evaluated: the best noise-free value among the configurations the run measured with
//      at most k changes (feasible ones, as measured) — what it could have recommended;
//  - search: per run the mean noise-free value of its model-based trials (generator other than
//    "sobol" and "status-quo"); for a run without any (Sobol) of its trials after the initial
//    design instead, the initial design being, per problem, the longest run of leading
//    Sobol/status-quo trials in any run that has model-based trials (0 when none has). Over runs:
//    the mean ± 2 SE, the worst run's value (the largest when minimizing) and every seed's value.
// Values are in the first objective's user sign: lower is better when it is minimized.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_recommendations.h"
#include "bench/bench_results.h"
#include "bench/bench_summary.h"

namespace sebo {

struct TruthLevel {
    int k = 0;
    std::optional<MeanSe> recommended;  // over the runs with a recommendation at k that has a noise-free value
    int recommended_found = 0;
    std::optional<MeanSe> best_evaluated;  // over the runs that measured such a configuration
    int evaluated_found = 0;
};

struct StrategyTruth {
    std::string strategy;
    int runs = 0;  // the strategy's runs in the results
    std::vector<TruthLevel> levels;  // per ProblemTruth::levels
    std::map<int, double> search_by_seed;  // per seed: the mean noise-free value of its search trials
    std::optional<MeanSe> search;          // over those seeds
    std::optional<double> search_worst;    // the worst seed's
};

struct ProblemTruth {
    std::string problem;
    bool minimize = true;
    std::optional<double> optimum;
    std::vector<int> levels;  // the ProblemSummary's levels of interest
    int initial_design = 0;   // trials, as inferred from the rows (see above)
    std::vector<int> seeds;   // every seed of any strategy, ascending
    std::vector<StrategyTruth> strategies;  // in the order of the ProblemSummary
};

// The problems of `summaries` (summarize_bench(rows)) whose rows carry noise-free values, in
// their order; recommendations of other problems or strategies are ignored.
std::vector<ProblemTruth> summarize_truth(const std::vector<ProblemSummary>& summaries, const std::vector<BenchRow>& rows,
                                          const std::vector<BenchRecommendation>& recommendations);

// The section "What a user gets (noise-free values)" of summary.md: per problem a table with a
// row per strategy (recommended and best evaluated at each level, the search's mean and worst
// seed) and a table of the search's mean per seed, with per strategy the number of seeds in which
// it is worse than the strategy "sobol" (when the comparison has one). Empty without problems.
std::string truth_markdown(const std::vector<ProblemTruth>& problems);

}  // namespace sebo
