#include "bench/bench_plan.h"

#include <cmath>
#include <exception>
#include <sstream>

#include "core/format.h"
#include "core/input_error.h"
#include "io/csv_table.h"
#include "problems/problem.h"
#include "problems/problem_catalog.h"

namespace sebo {

namespace {

struct Token {
    std::string name;
    std::vector<std::pair<std::string, std::string>> options;
};

Token split_token(const std::string& token, const std::string& field) {
    Token out;
    std::stringstream stream(token);
    std::string part;
    std::getline(stream, out.name, '/');
    if (out.name.empty()) throw InputError(field, "'" + token + "' has no name before its options");
    while (std::getline(stream, part, '/')) {
        const auto eq = part.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == part.size())
            throw InputError(field, "'" + token + "': '" + part + "' is not key=value");
        out.options.emplace_back(part.substr(0, eq), part.substr(eq + 1));
    }
    return out;
}

double number_option(const std::string& token, const std::string& key, const std::string& value, const std::string& field) {
    const auto v = parse_number(value);
    if (!v || !std::isfinite(*v)) throw InputError(field, "'" + token + "': " + key + "=" + value + " is not a number");
    return *v;
}

long long whole_option(const std::string& token, const std::string& key, const std::string& value,
                       const std::string& field, long long min, long long max) {
    const double v = number_option(token, key, value, field);
    if (v != std::floor(v) || v < static_cast<double>(min) || v > static_cast<double>(max))
        throw InputError(field, "'" + token + "': " + key + "=" + value + " is not a whole number in [" +
                                    std::to_string(min) + ", " + std::to_string(max) + "]");
    return static_cast<long long>(v);
}

BenchStrategy strategy(const char* token) { return parse_bench_strategy(token, "preset"); }
BenchProblem problem(const char* token) { return parse_bench_problem(token, "preset"); }

// The methods of the paper's comparisons (§6): λ = 0.01 for ER and 0.001 for IR, the values
// its figures show for the synthetic problems.
std::vector<BenchStrategy> paper_strategies() {
    return {strategy("sobol"),           strategy("gpei"),    strategy("saasbo"), strategy("ei-er/lambda=0.01"),
            strategy("ei-ir/lambda=0.001"), strategy("sebo-l0"), strategy("sebo-l1")};
}

// A preset of the paper's comparisons: the paper's method, without the dense start under noise.
BenchPlan paper_plan(BenchPlan plan) {
    plan.dense_start = false;
    plan.warp_check = false;
    return plan;
}

}  // namespace

MethodSettings BenchStrategy::method(int trials, int initial_trials, NutsMode nuts) const {
    MethodSettings m;
    m.strategy = kind;
    m.nuts = nuts;
    m.model = model;
    if (lambda) m.lambda = *lambda;
    m.penalty = penalty;
    if (fixed_a) m.fixed_a = *fixed_a;
    if (noisy) m.noisy_acquisition = *noisy;
    if (dense_steps) m.dense_steps = *dense_steps;
    if (dense_steps_max) m.dense_steps_max = *dense_steps_max;
    if (dense_thompson) m.dense_thompson = *dense_thompson;
    if (warp_check) m.warp_check = *warp_check;
    m.budget = trials;
    m.initial_trials = initial_trials;
    return m;
}

MethodSettings BenchPlan::method(const BenchStrategy& strategy) const {
    MethodSettings m = strategy.method(trials, initial_trials, nuts);
    m.status_quo_first = status_quo_first;
    if (!dense_start && !strategy.dense_steps) m.dense_steps = 0;
    if (!strategy.warp_check) m.warp_check = warp_check;
    return m;
}

BenchProblem parse_bench_problem(const std::string& token, const std::string& field) {
    const Token t = split_token(token, field);
    BenchProblem out;
    out.label = token;
    out.spec.name = t.name;
    for (const auto& [key, value] : t.options) {
        if (key == "dim") {
            out.spec.dimension = static_cast<int>(whole_option(token, key, value, field, 1, 3000));
        } else if (key == "effective") {
            std::stringstream stream(value);
            std::string item;
            while (std::getline(stream, item, ';'))
                out.spec.effective.push_back(static_cast<int>(whole_option(token, key, item, field, 0, 2999)));
        } else if (key == "target") {
            out.spec.target = number_option(token, key, value, field);
        } else if (key == "repetitions") {
            out.spec.repetitions = static_cast<int>(whole_option(token, key, value, field, 1, 10'000'000));
        } else if (key == "world-seed") {
            out.spec.world_seed = static_cast<std::uint64_t>(whole_option(token, key, value, field, 0, 1LL << 52));
        } else if (key == "noise") {
            const double sd = number_option(token, key, value, field);
            if (!(sd > 0.0)) throw InputError(field, "'" + token + "': noise " + value + " is not a positive standard deviation");
            out.spec.noise["*"] = sd;
        } else {
            throw InputError(field, "'" + token + "': unknown option '" + key +
                                        "' (known: dim, effective, target, repetitions, world-seed, noise)");
        }
    }
    return out;
}

std::vector<std::string> bench_parameter_names(const std::string& label) {
    std::vector<std::string> names;
    try {
        const std::shared_ptr<const Problem> problem = make_problem(parse_bench_problem(label, "problem").spec);
        for (const Parameter& p : problem->space().parameters()) names.push_back(p.name);
    } catch (const std::exception&) {  // InputError, or a problem that cannot be made here
        names.clear();
    }
    return names;
}

BenchStrategy parse_bench_strategy(const std::string& token, const std::string& field) {
    const Token t = split_token(token, field);
    BenchStrategy out;
    out.label = token;
    const auto kind = strategy_kind_from_string(t.name);
    if (!kind) {
        std::string known;
        for (StrategyKind k : all_strategy_kinds()) known += std::string(known.empty() ? "" : ", ") + to_string(k);
        throw InputError(field, "'" + token + "': unknown strategy '" + t.name + "' (known: " + known + ")");
    }
    out.kind = *kind;
    for (const auto& [key, value] : t.options) {
        if (key == "model") {
            out.model = model_kind_from_string(value);
            if (!out.model) throw InputError(field, "'" + token + "': unknown model '" + value + "' (known: gp, saas, saas-map)");
        } else if (key == "lambda") {
            out.lambda = number_option(token, key, value, field);
        } else if (key == "penalty") {
            out.penalty = penalty_kind_from_string(value);
            if (!out.penalty)
                throw InputError(field, "'" + token + "': unknown penalty '" + value + "' (known: l0, l1, group-lasso)");
        } else if (key == "a") {
            out.fixed_a = number_option(token, key, value, field);
        } else if (key == "noisy") {
            out.noisy = noisy_acquisition_from_string(value);
            if (!out.noisy)
                throw InputError(field, "'" + token + "': unknown noisy-acquisition setting '" + value + "' (known: auto, on, off)");
        } else if (key == "dense") {
            out.dense_steps = static_cast<int>(whole_option(token, key, value, field, 0, 1'000'000));
        } else if (key == "densemax") {
            out.dense_steps_max = static_cast<int>(whole_option(token, key, value, field, 0, 1'000'000));
        } else if (key == "thompson") {
            out.dense_thompson = whole_option(token, key, value, field, 0, 1) == 1;
        } else if (key == "warpcheck") {
            out.warp_check = whole_option(token, key, value, field, 0, 1) == 1;
        } else {
            throw InputError(field, "'" + token + "': unknown option '" + key +
                                        "' (known: model, lambda, penalty, a, noisy, dense, densemax, thompson, warpcheck)");
        }
    }
    if (auto error = out.method(50, 8).validate()) throw InputError(field, "'" + token + "': " + *error);
    return out;
}

std::vector<BenchPreset> bench_presets() {
    std::vector<BenchPreset> presets;
    presets.push_back({"paper-branin", "Branin embedded in 50 dimensions, 8 Sobol + 42 trials, the paper's methods",
                       paper_plan({{problem("branin/dim=50")}, paper_strategies(), 5, 50, 8, NutsMode::Paper})});
    presets.push_back({"paper-hartmann6", "Hartmann6 embedded in 50 dimensions, 20 Sobol + 80 trials, the paper's methods",
                       paper_plan({{problem("hartmann6/dim=50")}, paper_strategies(), 5, 100, 20, NutsMode::Paper})});
    presets.push_back({"paper-sourcing", "the sourcing simulation (25 dimensions), 8 Sobol + 92 trials, the paper's methods",
                       paper_plan({{problem("sourcing")}, paper_strategies(), 3, 100, 8, NutsMode::Paper})});
    presets.push_back({"paper-ablation",
                       "SEBO-L0 with homotopy vs SEBO-L1 and a fixed a in {0.001, 0.1, 1} (paper Fig. 5 left), Hartmann6 "
                       "embedded in 50 dimensions, 20 Sobol + 80 trials",
                       paper_plan({{problem("hartmann6/dim=50")},
                                   {strategy("sebo-l0"), strategy("sebo-l1"), strategy("sebo-l0-fixed-a/a=0.001"),
                                    strategy("sebo-l0-fixed-a/a=0.1"), strategy("sebo-l0-fixed-a/a=1")},
                                   5, 100, 20, NutsMode::Paper})});
    // Issue 16: SEBO or BONSAI? Every method on the SAAS model with the default (fast) sampler; one
    // budget for all three problems (Hartmann6's of the paper, the largest of the three).
    presets.push_back({"sebo-vs-bonsai",
                       "SEBO or BONSAI? Branin and Hartmann6 embedded in 50 dimensions and the sourcing simulation, "
                       "20 Sobol + 80 trials: Sobol, SAASBO, BONSAI and SEBO-L0 on the SAAS model",
                       BenchPlan{{problem("branin/dim=50"), problem("hartmann6/dim=50"), problem("sourcing")},
                                 {strategy("sobol"), strategy("saasbo"), strategy("bonsai"), strategy("sebo-l0")},
                                 5, 100, 20, NutsMode::Fast}});
    // Issue 13: several objectives and outcome constraints, on the SAAS model with the fast sampler.
    // 10 Sobol + 40 trials, so that a preset takes about an hour on 2 cores: these runs fit two
    // models (two objectives; an objective and a constrained metric) on at most 49 points, and a
    // step with several models costs several one-model steps (docs/performance.md), so each
    // model-based run should take a few minutes; the 10 of a preset (SAASBO and SEBO-L0, 5 seeds
    // each; Sobol's are instant) about an hour (docs/results.md).
    const std::vector<BenchStrategy> outcome_strategies = {strategy("sobol"), strategy("saasbo"), strategy("sebo-l0")};
    presets.push_back({"moo-branin-currin",
                       "two objectives: Branin-Currin embedded in 50 dimensions, 10 Sobol + 40 trials: Sobol, SAASBO "
                       "(EHVI without sparsity) and SEBO-L0",
                       BenchPlan{{problem("branin-currin/dim=50")}, outcome_strategies, 5, 50, 10, NutsMode::Fast}});
    presets.push_back({"constrained",
                       "an outcome constraint: Hartmann6 embedded in 50 dimensions subject to sum <= 1.5, 10 Sobol + 40 "
                       "trials: Sobol, SAASBO (EI x probability of feasibility) and SEBO-L0",
                       BenchPlan{{problem("hartmann6-constrained/dim=50")}, outcome_strategies, 5, 50, 10, NutsMode::Fast}});
    // Issue 14: a mixed space (continuous, integer, choice and fixed parameters, a linear parameter
    // constraint binding at the optimum) with a known sparse optimum. Every run measures the status
    // quo first, as a new experiment does: the realistic start, and it makes the k = 0 point of the
    // frontier a measurement for every method. 10 initial trials (the status quo and 9 Sobol) + 60:
    // a SAASBO and a SEBO-L0 run of seed 1 side by side took 139 s on the 2-core machine at load 9
    // (a build beside them), so the 10 model-based runs take about 12 minutes there with --jobs 2,
    // and up to about 30 at nice 19 beside heavier work.
    BenchPlan mixed{{problem("mixed")}, outcome_strategies, 5, 70, 10, NutsMode::Fast};
    mixed.status_quo_first = true;
    presets.push_back({"mixed",
                       "a mixed space: fractions with fa + fb + fc <= 1, an integer, two choices, a fixed parameter and 13 "
                       "nuisance parameters (19 varying), status quo + 9 Sobol + 60 trials: Sobol, SAASBO and SEBO-L0",
                       mixed});
    // Issue 30: what a user gets under noise. Branin and Hartmann6 embedded in 50 dimensions, each
    // at two noise levels, about 3 % and 10 % of the objective's range over the unit cube: Branin
    // spans [0.397887, 308.129] on its domain (range 307.73; 3 % = 9.23, 10 % = 30.77), so sd 9.2
    // and 30.8; Hartmann6 spans [-3.32237, 0] (3 % = 0.0997, 10 % = 0.332), so sd 0.1 (the
    // example of the issue) and 0.33. Every run measures the status quo first, as a new
    // experiment does, then 9 Sobol trials and 40 model-based ones. The four methods of issue 16
    // and SEBO-L0 with today's acquisition over the measured values (noisy=off) as the ablation
    // of the noisy acquisitions, sparse from the start (dense=0) as the ablation of the dense start,
    // the dense start by the noisy EI throughout (thompson=0) as the ablation of its turn to
    // Thompson sampling, the warp whenever it is on (warpcheck=0) as the ablation of its check,
    // and the dense start ended after its 15 trials (densemax=15) as the ablation of its going on
    // while the model knows no parameter to matter (docs/method.md §13). Judged by the
    // noise-free values of what each method recommends (bench/bench_truth.h).
    BenchPlan noisy{{problem("branin/dim=50/noise=9.2"), problem("branin/dim=50/noise=30.8"),
                     problem("hartmann6/dim=50/noise=0.1"), problem("hartmann6/dim=50/noise=0.33")},
                    {strategy("sobol"), strategy("saasbo"), strategy("bonsai"), strategy("sebo-l0"),
                     strategy("sebo-l0/noisy=off"), strategy("sebo-l0/dense=0"), strategy("sebo-l0/thompson=0"),
                     strategy("sebo-l0/warpcheck=0"), strategy("sebo-l0/densemax=15")},
                    5, 50, 10, NutsMode::Fast};
    noisy.status_quo_first = true;
    presets.push_back({"noisy",
                       "noisy measurements: Branin embedded in 50 dimensions with Gaussian noise of sd 9.2 and 30.8 (3 % "
                       "and 10 % of its range 307.7) and Hartmann6 in 50 dimensions with sd 0.1 and 0.33 (3 % and 10 % "
                       "of 3.32), status quo + 9 Sobol + 40 trials: Sobol, SAASBO, BONSAI, SEBO-L0 and SEBO-L0 with the "
                       "acquisition over the measured values (noisy=off), sparse from the start (dense=0), with the "
                       "noisy EI throughout its dense start (thompson=0), with the warp unchecked (warpcheck=0) and with the "
                       "dense start ended after 15 trials (densemax=15), judged by the true value of what each recommends",
                       noisy});
    // Issue 34: quality and the time per step as n grows to 500. Branin and Hartmann6 embedded in 50
    // dimensions, 20 Sobol + 480 trials, 3 seeds, SEBO-L0 with the fast sampler beside Sobol. The
    // bench's results.csv records every trial's generation seconds, so the summary's seconds per
    // iteration and the per-trial rows give the time per step at each n. Long: a SEBO-L0 step takes
    // about 0.8 s at n = 100 and 23 s at n = 500 on the 2-core machine (docs/performance.md), so a
    // run takes about 2 hours and the preset's 6 model-based runs 12 hours there.
    presets.push_back({"large",
                       "many trials: Branin and Hartmann6 embedded in 50 dimensions, 20 Sobol + 480 trials, 3 seeds: "
                       "Sobol and SEBO-L0, the time per step as n grows to 500",
                       BenchPlan{{problem("branin/dim=50"), problem("hartmann6/dim=50")},
                                 {strategy("sobol"), strategy("sebo-l0")},
                                 3, 500, 20, NutsMode::Fast}});
    presets.push_back({"quick", "a few minutes on 2 cores: Branin in 20 dimensions, 8 Sobol + 22 trials, Sobol, GPEI and SEBO-L0",
                       BenchPlan{{problem("branin/dim=20")}, {strategy("sobol"), strategy("gpei"), strategy("sebo-l0")}, 3, 30, 8}});
    return presets;
}

std::optional<BenchPreset> find_bench_preset(const std::string& name) {
    for (BenchPreset& p : bench_presets())
        if (p.name == name) return p;
    return std::nullopt;
}

std::string file_safe_label(const std::string& label) {
    std::string out = label;
    for (char& c : out) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
                        c == '_' || c == '-';
        if (!ok) c = '_';
    }
    return out;
}

}  // namespace sebo
