#include "bench/bench_summary.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/format.h"
#include "core/input_error.h"
#include "experiment/status_quo.h"
#include "pareto/dominance.h"
#include "pareto/hypervolume_nd.h"

namespace sebo {

namespace {

using Run = std::vector<const BenchRow*>;  // one seed's rows, by trial position

struct StrategyRuns {
    std::string strategy;
    std::map<int, Run> runs;  // by seed
};

struct ProblemRuns {
    const BenchRow* first = nullptr;
    std::vector<StrategyRuns> strategies;
};

std::string run_name(const BenchRow& row) {
    return row.problem + " / " + row.strategy + " / seed " + std::to_string(row.seed);
}

void check_same_problem(const BenchRow& first, const BenchRow& row) {
    const auto differs = [&](const char* what, const std::string& a, const std::string& b) {
        if (a != b)
            throw InputError(run_name(row) + " trial " + std::to_string(row.trial),
                             std::string("its ") + what + " " + b + " differs from the problem's first row (" + a + ")");
    };
    const auto text = [](const std::optional<double>& v) { return v ? format_number(*v) : std::string("unknown"); };
    // Names and directions: a reference set by the default rule (no threshold) depends on the
    // run's own values.
    const auto objectives = [](const BenchRow& r) {
        std::string out;
        for (const BenchObjective& o : r.objectives) out += (out.empty() ? "" : ", ") + o.metric + (o.minimize ? ":min" : ":max");
        return out;
    };
    const auto constraints = [](const BenchRow& r) {
        std::string out;
        for (const std::string& c : r.constraints) out += (out.empty() ? "" : "; ") + c;
        return out.empty() ? std::string("none") : out;
    };
    differs("dimension", std::to_string(first.dimension), std::to_string(row.dimension));
    differs("direction", first.minimize ? "minimize" : "maximize", row.minimize ? "minimize" : "maximize");
    differs("optimum", text(first.optimum), text(row.optimum));
    differs("objectives", objectives(first), objectives(row));
    differs("constraints", constraints(first), constraints(row));
}

std::vector<ProblemRuns> group_runs(const std::vector<BenchRow>& rows) {
    std::vector<ProblemRuns> problems;
    std::map<std::string, std::size_t> problem_position;
    for (const BenchRow& row : rows) {
        auto [it, added] = problem_position.try_emplace(row.problem, problems.size());
        if (added) problems.push_back(ProblemRuns{&row, {}});
        ProblemRuns& problem = problems[it->second];
        check_same_problem(*problem.first, row);
        auto strategy = std::find_if(problem.strategies.begin(), problem.strategies.end(),
                                     [&](const StrategyRuns& s) { return s.strategy == row.strategy; });
        if (strategy == problem.strategies.end()) {
            problem.strategies.push_back(StrategyRuns{row.strategy, {}});
            strategy = std::prev(problem.strategies.end());
        }
        strategy->runs[row.seed].push_back(&row);
    }
    for (ProblemRuns& problem : problems)
        for (StrategyRuns& strategy : problem.strategies)
            for (auto& [seed, run] : strategy.runs) {
                std::sort(run.begin(), run.end(), [](const BenchRow* a, const BenchRow* b) { return a->trial < b->trial; });
                for (std::size_t i = 1; i < run.size(); ++i)
                    if (run[i]->trial == run[i - 1]->trial)
                        throw InputError(run_name(*run[i]), "trial " + std::to_string(run[i]->trial) + " appears twice");
            }
    return problems;
}

std::vector<int> levels_of_interest(int dimension, const std::vector<int>& effective) {
    std::vector<int> levels;
    const int e = static_cast<int>(effective.size());
    if (e > 0)
        levels = {(e + 1) / 2, e, 2 * e};
    else
        levels = {1, 2, 4, 8};
    std::erase_if(levels, [&](int k) { return k > dimension; });
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    return levels;
}

// Larger is better in this form.
double utility(const BenchRow& row) { return row.minimize ? -*row.objective : *row.objective; }

// Every objective in maximization form.
std::vector<double> utilities(const BenchRow& row) {
    std::vector<double> out;
    for (std::size_t o = 0; o < row.objectives.size(); ++o) out.push_back(row.objectives[o].to_utility(row.objective_values[o]));
    return out;
}

// Best objective (user sign) among the first `count` rows that count and are feasible, with at
// most k active.
std::optional<double> best_with_at_most(const Run& run, std::size_t count, int k) {
    std::optional<double> best;
    const BenchRow* best_row = nullptr;
    for (std::size_t i = 0; i < std::min(count, run.size()); ++i) {
        const BenchRow& row = *run[i];
        if (!row.counts_feasible() || row.active > k) continue;
        if (!best_row || utility(row) > utility(*best_row)) best_row = &row;
    }
    if (best_row) best = best_row->objective;
    return best;
}

// The objectives (maximization form) of a run's feasible rows with at most k active.
std::vector<std::vector<double>> feasible_utilities_at_most(const Run& run, int k) {
    std::vector<std::vector<double>> points;
    for (const BenchRow* row : run)
        if (row->counts_feasible() && row->active <= k) points.push_back(utilities(*row));
    return points;
}

// The hypervolume of the objectives alone of a run's feasible rows with at most k active.
double objectives_hypervolume_at_most(const Run& run, int k) {
    std::vector<double> reference;
    for (const BenchObjective& o : run.front()->objectives) reference.push_back(o.to_utility(o.reference));
    return hypervolume_nd(feasible_utilities_at_most(run, k), reference);
}

// The non-dominated objective vectors (user sign) of a run's feasible rows with at most k active,
// sorted by the first objective; equal vectors once.
std::vector<std::vector<double>> objectives_front_at_most(const Run& run, int k) {
    const std::vector<std::vector<double>> points = feasible_utilities_at_most(run, k);
    const std::vector<BenchObjective>& objectives = run.front()->objectives;
    std::vector<std::vector<double>> front;
    for (std::size_t i : non_dominated_positions(points)) {
        std::vector<double> values = points[i];
        for (std::size_t o = 0; o < values.size(); ++o)
            if (objectives[o].minimize) values[o] = -values[o];
        front.push_back(std::move(values));
    }
    std::sort(front.begin(), front.end());
    front.erase(std::unique(front.begin(), front.end()), front.end());
    return front;
}

// Several objectives: the number of effective parameters when known, otherwise the middle level
// of interest; then the dimension.
std::vector<int> front_levels_of(const ProblemSummary& problem) {
    if (problem.objectives.size() < 2) return {};
    int k = problem.effective_parameters.empty()
                ? (problem.levels.empty() ? problem.dimension : problem.levels[problem.levels.size() / 2])
                : static_cast<int>(problem.effective_parameters.size());
    k = std::min(k, problem.dimension);
    if (k == problem.dimension) return {k};
    return {k, problem.dimension};
}

std::vector<double> activation_shares(const Run& run, int dimension) {
    std::vector<ObjectivePoint> points;
    for (std::size_t i = 0; i < run.size(); ++i)
        if (run[i]->counts_feasible()) points.push_back({utilities(*run[i]), run[i]->active, static_cast<int>(i)});
    std::vector<double> shares(static_cast<std::size_t>(dimension), 0.0);
    const std::vector<int> frontier = non_dominated(points);
    if (frontier.empty()) return shares;
    for (int i : frontier)
        for (int d : run[static_cast<std::size_t>(i)]->active_parameters) shares[static_cast<std::size_t>(d)] += 1.0;
    for (double& s : shares) s /= static_cast<double>(frontier.size());
    return shares;
}

StrategySummary summarize_strategy(const StrategyRuns& runs, const ProblemSummary& problem) {
    StrategySummary out;
    out.strategy = runs.strategy;
    out.runs = static_cast<int>(runs.runs.size());
    for (const auto& [seed, run] : runs.runs) out.trials = std::max(out.trials, static_cast<int>(run.size()));

    std::vector<double> finals;
    for (const auto& [seed, run] : runs.runs) finals.push_back(run.back()->hypervolume);
    out.final_hypervolume = mean_and_se(finals);

    for (int k = 0; k <= problem.dimension; ++k) {
        LevelBest level;
        level.k = k;
        std::vector<double> bests;
        for (const auto& [seed, run] : runs.runs)
            if (const auto best = best_with_at_most(run, run.size(), k)) bests.push_back(*best);
        level.found = static_cast<int>(bests.size());
        if (!bests.empty()) level.best = mean_and_se(bests);
        out.frontier.push_back(level);
    }

    for (int p = 0; p < out.trials; ++p) {
        std::vector<double> values;
        for (const auto& [seed, run] : runs.runs)
            if (p < static_cast<int>(run.size())) values.push_back(run[static_cast<std::size_t>(p)]->hypervolume);
        out.hypervolume_trace.push_back(mean_and_se(values));
    }

    if (problem.optimum) {
        for (int k : problem.levels) {
            std::vector<std::optional<MeanSe>> trace;
            for (int p = 0; p < out.trials; ++p) {
                std::vector<double> regrets;
                for (const auto& [seed, run] : runs.runs) {
                    if (p >= static_cast<int>(run.size())) continue;
                    if (const auto best = best_with_at_most(run, static_cast<std::size_t>(p) + 1, k))
                        regrets.push_back(problem.minimize ? *best - *problem.optimum : *problem.optimum - *best);
                }
                trace.push_back(regrets.empty() ? std::nullopt : std::optional<MeanSe>(mean_and_se(regrets)));
            }
            out.regret_traces.push_back(std::move(trace));
        }
    }

    out.activation_frequency.assign(static_cast<std::size_t>(problem.dimension), 0.0);
    for (const auto& [seed, run] : runs.runs) {
        const std::vector<double> shares = activation_shares(run, problem.dimension);
        for (std::size_t d = 0; d < shares.size(); ++d) out.activation_frequency[d] += shares[d] / out.runs;
    }

    std::vector<double> rates;
    for (const auto& [seed, run] : runs.runs) {
        int counted = 0, feasible = 0;
        for (const BenchRow* row : run) {
            counted += row->counts();
            feasible += row->counts_feasible();
        }
        if (counted > 0) rates.push_back(static_cast<double>(feasible) / counted);
    }
    out.feasibility_rate = mean_and_se(rates);

    for (int k : problem.levels) {
        std::vector<double> volumes;
        for (const auto& [seed, run] : runs.runs) volumes.push_back(objectives_hypervolume_at_most(run, k));
        out.objectives_hypervolume.push_back(mean_and_se(volumes));
    }
    if (problem.objectives.size() > 1) {
        for (int k = 0; k <= problem.dimension; ++k) {
            std::vector<double> volumes;
            for (const auto& [seed, run] : runs.runs) volumes.push_back(objectives_hypervolume_at_most(run, k));
            out.objectives_hypervolume_by_k.push_back(mean_and_se(volumes));
        }
        for (int k : problem.front_levels) {
            std::vector<RunFront> level;
            for (const auto& [seed, run] : runs.runs) level.push_back({seed, objectives_front_at_most(run, k)});
            out.fronts.push_back(std::move(level));
        }
    }

    std::vector<double> seconds;
    for (const auto& [seed, run] : runs.runs)
        for (const BenchRow* row : run)
            if (row->generator != "sobol" && row->generator != kStatusQuoGenerator)
                seconds.push_back(row->generation_seconds);
    if (!seconds.empty()) out.seconds_per_iteration = mean_and_se(seconds).mean;
    return out;
}

std::string plus_minus(const MeanSe& v) {
    return format_short(v.mean, 4) + (v.n > 1 ? " ± " + format_short(2.0 * v.se, 2) : "");
}

}  // namespace

MeanSe mean_and_se(const std::vector<double>& values) {
    MeanSe out;
    out.n = static_cast<int>(values.size());
    if (values.empty()) return out;
    double sum = 0.0;
    for (double v : values) sum += v;
    out.mean = sum / out.n;
    if (out.n > 1) {
        double squares = 0.0;
        for (double v : values) squares += (v - out.mean) * (v - out.mean);
        out.se = std::sqrt(squares / (out.n - 1)) / std::sqrt(static_cast<double>(out.n));
    }
    return out;
}

std::vector<ProblemSummary> summarize_bench(const std::vector<BenchRow>& rows) {
    std::vector<ProblemSummary> out;
    for (const ProblemRuns& runs : group_runs(rows)) {
        ProblemSummary problem;
        problem.problem = runs.first->problem;
        problem.dimension = runs.first->dimension;
        problem.minimize = runs.first->minimize;
        problem.optimum = runs.first->optimum;
        problem.effective_parameters = runs.first->effective_parameters;
        problem.objectives = runs.first->objectives;
        problem.constraints = runs.first->constraints;
        problem.levels = levels_of_interest(problem.dimension, problem.effective_parameters);
        problem.front_levels = front_levels_of(problem);
        for (const StrategyRuns& strategy : runs.strategies) problem.strategies.push_back(summarize_strategy(strategy, problem));
        out.push_back(std::move(problem));
    }
    return out;
}

std::string summary_markdown(const std::vector<ProblemSummary>& problems) {
    std::string out = "# Benchmark summary\n\n"
                      "Means over seeds ± 2 standard errors. \"Best, ≤ k active\": the best objective among the\n"
                      "trials with at most k parameters changed from their targets, averaged over the runs that\n"
                      "found one (\"r/n\" when only r of the n runs did). Seconds per iteration: mean time to\n"
                      "propose one model-based trial.\n";
    const bool constrained = std::any_of(problems.begin(), problems.end(),
                                         [](const ProblemSummary& p) { return !p.constraints.empty(); });
    const bool several = std::any_of(problems.begin(), problems.end(),
                                     [](const ProblemSummary& p) { return p.objectives.size() > 1; });
    if (constrained)
        out += "With outcome constraints only the feasible trials (every constraint holds) count: \"best\" is\n"
               "the best feasible, the hypervolume and the frontier are of feasible trials, and \"feasible\" is\n"
               "the share of a run's trials that were feasible.\n";
    if (several)
        out += "With several objectives the final hypervolume is over the objectives and the number of active\n"
               "parameters, and \"HV, ≤ k active\" is the hypervolume of the objectives alone of the feasible\n"
               "trials with at most k parameters changed (every run counts, with 0 when it found none), both\n"
               "against the problem's reference point.\n";
    for (const ProblemSummary& p : problems) {
        const bool several_objectives = p.objectives.size() > 1;
        out += "\n## " + p.problem + "\n\n";
        out += "D = " + std::to_string(p.dimension) + ", ";
        if (several_objectives) {
            std::string names, reference;
            for (const BenchObjective& o : p.objectives) {
                names += (names.empty() ? "" : ", ") + o.metric + (o.minimize ? " (min)" : " (max)");
                reference += (reference.empty() ? "" : ", ") + format_short(o.reference, 6);
            }
            out += "objectives " + names + ", reference (" + reference + ")";
        } else {
            out += p.minimize ? "minimized" : "maximized";
        }
        if (p.optimum) out += ", optimum " + format_short(*p.optimum, 6);
        if (!p.effective_parameters.empty()) out += ", " + std::to_string(p.effective_parameters.size()) + " effective parameters";
        if (!p.constraints.empty()) {
            out += "; subject to ";
            for (std::size_t i = 0; i < p.constraints.size(); ++i) out += (i ? ", " : "") + p.constraints[i];
        }
        out += ".\n\n| strategy | runs | trials | final hypervolume |";
        for (int k : p.levels) out += (several_objectives ? " HV, ≤ " : " best, ≤ ") + std::to_string(k) + " active |";
        if (!p.constraints.empty()) out += " feasible |";
        out += " s / iteration |\n|---|---:|---:|---:|";
        for (std::size_t i = 0; i < p.levels.size() + (p.constraints.empty() ? 0 : 1); ++i) out += "---:|";
        out += "---:|\n";
        for (const StrategySummary& s : p.strategies) {
            out += "| " + s.strategy + " | " + std::to_string(s.runs) + " | " + std::to_string(s.trials) + " | " +
                   plus_minus(s.final_hypervolume) + " |";
            for (std::size_t l = 0; l < p.levels.size(); ++l) {
                if (several_objectives) {
                    out += " " + plus_minus(s.objectives_hypervolume[l]) + " |";
                    continue;
                }
                const LevelBest& level = s.frontier[static_cast<std::size_t>(p.levels[l])];
                std::string cell = level.best ? plus_minus(*level.best) : "—";
                if (level.found < s.runs) cell += " (" + std::to_string(level.found) + "/" + std::to_string(s.runs) + ")";
                out += " " + cell + " |";
            }
            if (!p.constraints.empty()) {
                const MeanSe& rate = s.feasibility_rate;
                out += " " + (rate.n == 0 ? std::string("—")
                                          : format_short(100.0 * rate.mean, 3) + "%" +
                                                (rate.n > 1 ? " ± " + format_short(200.0 * rate.se, 2) : "")) +
                       " |";
            }
            out += " " + (s.seconds_per_iteration ? format_short(*s.seconds_per_iteration, 3) : std::string("—")) + " |\n";
        }
    }
    return out;
}

}  // namespace sebo
