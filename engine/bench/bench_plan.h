#pragma once
// What a benchmark comparison (`sebo bench`) runs: problems × strategies × seeds, each run a
// separate experiment file, and the paper's settings as named presets (§6 and appendix E).
//
// Problems and strategies are written as tokens NAME[/key=value]...:
//   problem  keys: dim, effective (indices separated by ';'), target, repetitions, world-seed, noise (the sd
//            of Gaussian noise added to every metric)
//            e.g. "branin/dim=50", "sourcing"
//   strategy keys: model (gp|saas|saas-map), lambda, penalty (l0|l1|group-lasso), a (the fixed a
//            of sebo-l0-fixed-a), noisy (auto|on|off: MethodSettings::noisy_acquisition), dense
//            (MethodSettings::dense_steps), densemax (MethodSettings::dense_steps_max), thompson
//            (0|1: MethodSettings::dense_thompson), warpcheck (0|1: MethodSettings::warp_check),
//            e.g. "ei-ir/lambda=0.001", "sebo-l0-fixed-a/a=0.1", "sebo-l0/noisy=off", "sebo-l0/dense=0"
// The token is the label of the problem or strategy in results and plots.

#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"

namespace sebo {

struct BenchProblem {
    std::string label;
    ProblemSpec spec;
};

struct BenchStrategy {
    std::string label;
    StrategyKind kind = StrategyKind::Sobol;
    std::optional<ModelKind> model;
    std::optional<double> lambda;
    std::optional<PenaltyKind> penalty;
    std::optional<double> fixed_a;
    std::optional<NoisyAcquisition> noisy;  // unset: the default (auto)
    std::optional<int> dense_steps;         // unset: the default (15)
    std::optional<int> dense_steps_max;     // unset: the default (30)
    std::optional<bool> dense_thompson;     // unset: the default (true)
    std::optional<bool> warp_check;         // unset: the plan's (BenchPlan::warp_check)

    // The method of a run: defaults, then this strategy's settings, budget, initial trials and
    // NUTS mode.
    MethodSettings method(int trials, int initial_trials, NutsMode nuts = NutsMode::Fast) const;
};

struct BenchPlan {
    std::vector<BenchProblem> problems;
    std::vector<BenchStrategy> strategies;
    int seeds = 5;  // seeds 1..seeds
    int trials = 50;
    int initial_trials = 8;
    // How the SAAS model is sampled in every run: the paper-* presets use the paper's settings.
    NutsMode nuts = NutsMode::Fast;
    // Every run's first trial is the status quo (MethodSettings::status_quo_first), one of its
    // initial trials; off for the paper's presets, which start from Sobol as the paper did.
    bool status_quo_first = false;
    // The paper's presets run the paper's method: no dense start under noise
    // (MethodSettings::dense_steps 0) unless a strategy sets one.
    bool dense_start = true;
    // The paper's presets warp as they did when their results were recorded: always
    // (MethodSettings::warp_check false) unless a strategy sets it.
    bool warp_check = true;

    // The method of one run of `strategy`: its settings with this plan's budget, initial trials,
    // NUTS mode and status quo.
    MethodSettings method(const BenchStrategy& strategy) const;
};

struct BenchPreset {
    std::string name;
    std::string description;
    BenchPlan plan;
};

// Throw InputError with field `field` (the flag) naming the token and the bad part.
BenchProblem parse_bench_problem(const std::string& token, const std::string& field);
BenchStrategy parse_bench_strategy(const std::string& token, const std::string& field);

// The names of the varying parameters of the problem a comparison's label describes (a token of
// parse_bench_problem, as results.csv records it), in the order of the parameter indices of
// results.csv; empty when the label describes no problem this program knows (results of another
// version, say), so that a plot falls back to the indices.
std::vector<std::string> bench_parameter_names(const std::string& label);

// paper-branin, paper-hartmann6, paper-sourcing, paper-ablation, sebo-vs-bonsai,
// moo-branin-currin, constrained, mixed, noisy, quick.
std::vector<BenchPreset> bench_presets();
std::optional<BenchPreset> find_bench_preset(const std::string& name);

// A label as a file or folder name: characters outside [A-Za-z0-9._-] become '_'.
std::string file_safe_label(const std::string& label);

}  // namespace sebo
