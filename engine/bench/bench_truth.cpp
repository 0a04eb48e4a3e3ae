#include "bench/bench_truth.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "core/format.h"
#include "experiment/status_quo.h"

namespace sebo {

namespace {

using Run = std::vector<const BenchRow*>;  // one seed's rows, by trial position

bool from_initial_design(const BenchRow& row) { return row.generator == "sobol" || row.generator == kStatusQuoGenerator; }

// Larger is better in this form.
double utility(bool minimize, double value) { return minimize ? -value : value; }

// The rows of one problem: strategy → seed → run.
std::map<std::string, std::map<int, Run>> runs_of(const std::vector<BenchRow>& rows, const std::string& problem) {
    std::map<std::string, std::map<int, Run>> out;
    for (const BenchRow& row : rows)
        if (row.problem == problem) out[row.strategy][row.seed].push_back(&row);
    for (auto& [strategy, runs] : out)
        for (auto& [seed, run] : runs)
            std::sort(run.begin(), run.end(), [](const BenchRow* a, const BenchRow* b) { return a->trial < b->trial; });
    return out;
}

// The longest run of leading Sobol/status-quo trials among the runs with model-based trials.
int initial_design_of(const std::map<std::string, std::map<int, Run>>& runs) {
    int design = 0;
    for (const auto& [strategy, seeds] : runs)
        for (const auto& [seed, run] : seeds) {
            const auto first_model =
                std::find_if(run.begin(), run.end(), [](const BenchRow* r) { return !from_initial_design(*r); });
            if (first_model != run.end()) design = std::max(design, static_cast<int>(first_model - run.begin()));
        }
    return design;
}

// The mean noise-free value of a run's search trials (see the header); unset without any.
std::optional<double> search_mean(const Run& run, int initial_design) {
    const bool model_based = std::any_of(run.begin(), run.end(), [](const BenchRow* r) { return !from_initial_design(*r); });
    double sum = 0.0;
    int count = 0;
    for (const BenchRow* row : run) {
        const bool search = model_based ? !from_initial_design(*row)
                                        : row->trial >= initial_design && row->generator != kStatusQuoGenerator;
        if (!search || !row->counts() || !row->noise_free()) continue;
        sum += *row->noise_free();
        ++count;
    }
    return count ? std::optional<double>(sum / count) : std::nullopt;
}

// The best noise-free value among a run's feasible rows with at most k active.
std::optional<double> best_evaluated(const Run& run, int k, bool minimize) {
    std::optional<double> best;
    for (const BenchRow* row : run)
        if (row->counts_feasible() && row->active <= k && row->noise_free())
            if (!best || utility(minimize, *row->noise_free()) > utility(minimize, *best)) best = row->noise_free();
    return best;
}

std::string cell(const std::optional<MeanSe>& v, int found, int runs) {
    std::string out = v ? format_short(v->mean, 4) + (v->n > 1 ? " ± " + format_short(2.0 * v->se, 2) : "") : "—";
    if (found < runs) out += " (" + std::to_string(found) + "/" + std::to_string(runs) + ")";
    return out;
}

}  // namespace

std::vector<ProblemTruth> summarize_truth(const std::vector<ProblemSummary>& summaries, const std::vector<BenchRow>& rows,
                                          const std::vector<BenchRecommendation>& recommendations) {
    // The first recommendation (best first) of each run at each k.
    std::map<std::tuple<std::string, std::string, int, int>, const BenchRecommendation*> recommended;
    for (const BenchRecommendation& r : recommendations) recommended.try_emplace({r.problem, r.strategy, r.seed, r.k}, &r);

    std::vector<ProblemTruth> out;
    for (const ProblemSummary& summary : summaries) {
        const auto runs = runs_of(rows, summary.problem);
        const bool noisy = std::any_of(rows.begin(), rows.end(), [&](const BenchRow& r) {
            return r.problem == summary.problem && r.noise_free().has_value();
        });
        if (!noisy) continue;
        ProblemTruth problem;
        problem.problem = summary.problem;
        problem.minimize = summary.minimize;
        problem.optimum = summary.optimum;
        problem.levels = summary.levels;
        problem.initial_design = initial_design_of(runs);
        std::set<int> seeds;
        for (const StrategySummary& s : summary.strategies) {
            StrategyTruth truth;
            truth.strategy = s.strategy;
            const std::map<int, Run>& own = runs.at(s.strategy);
            truth.runs = static_cast<int>(own.size());
            for (int k : problem.levels) {
                TruthLevel level;
                level.k = k;
                std::vector<double> picks, bests;
                for (const auto& [seed, run] : own) {
                    const auto r = recommended.find({problem.problem, s.strategy, seed, k});
                    if (r != recommended.end() && r->second->first_noise_free()) picks.push_back(*r->second->first_noise_free());
                    if (const auto best = best_evaluated(run, k, problem.minimize)) bests.push_back(*best);
                }
                level.recommended_found = static_cast<int>(picks.size());
                if (!picks.empty()) level.recommended = mean_and_se(picks);
                level.evaluated_found = static_cast<int>(bests.size());
                if (!bests.empty()) level.best_evaluated = mean_and_se(bests);
                truth.levels.push_back(level);
            }
            std::vector<double> means;
            for (const auto& [seed, run] : own) {
                seeds.insert(seed);
                const auto mean = search_mean(run, problem.initial_design);
                if (!mean) continue;
                truth.search_by_seed[seed] = *mean;
                means.push_back(*mean);
                if (!truth.search_worst || utility(problem.minimize, *mean) < utility(problem.minimize, *truth.search_worst))
                    truth.search_worst = mean;
            }
            if (!means.empty()) truth.search = mean_and_se(means);
            problem.strategies.push_back(std::move(truth));
        }
        problem.seeds.assign(seeds.begin(), seeds.end());
        out.push_back(std::move(problem));
    }
    return out;
}

std::string truth_markdown(const std::vector<ProblemTruth>& problems) {
    if (problems.empty()) return "";
    std::string out =
        "\n## What a user gets (noise-free values)\n\n"
        "These problems were measured with noise; every trial also recorded its noise-free (true) value,\n"
        "which no method saw. \"Recommended, ≤ k\": the true value of the configuration the run's model\n"
        "recommends at the end among those it measured with at most k changes (the best posterior mean;\n"
        "recommendations.csv); \"best evaluated, ≤ k\": the best true value among the configurations it\n"
        "measured with at most k changes. \"Model-based trials\": per run the mean true value of the trials\n"
        "its model proposed (Sobol: its trials after the initial design), mean ± 2 SE over seeds and the\n"
        "worst seed's. Means over seeds ± 2 standard errors, \"r/n\" when only r of n runs had one.\n";
    for (const ProblemTruth& p : problems) {
        out += "\n### " + p.problem + "\n\n" + (p.minimize ? "Minimized (lower is better)" : "Maximized (higher is better)");
        if (p.optimum) out += ", optimum " + format_short(*p.optimum, 6);
        out += "; initial design " + std::to_string(p.initial_design) + " trials.\n\n| strategy | runs |";
        for (int k : p.levels)
            out += " recommended, ≤ " + std::to_string(k) + " | best evaluated, ≤ " + std::to_string(k) + " |";
        out += " model-based trials | worst seed |\n|---|---:|";
        for (std::size_t i = 0; i < 2 * p.levels.size() + 2; ++i) out += "---:|";
        out += "\n";
        for (const StrategyTruth& s : p.strategies) {
            out += "| " + s.strategy + " | " + std::to_string(s.runs) + " |";
            for (const TruthLevel& level : s.levels)
                out += " " + cell(level.recommended, level.recommended_found, s.runs) + " | " +
                       cell(level.best_evaluated, level.evaluated_found, s.runs) + " |";
            out += " " + cell(s.search, static_cast<int>(s.search_by_seed.size()), s.runs) + " | " +
                   (s.search_worst ? format_short(*s.search_worst, 4) : std::string("—")) + " |\n";
        }

        const auto sobol = std::find_if(p.strategies.begin(), p.strategies.end(),
                                        [](const StrategyTruth& s) { return s.strategy == "sobol"; });
        out += "\nMean true value of the model-based trials per seed (Sobol: its trials after the initial design)";
        out += sobol != p.strategies.end() ? "; \"worse than sobol\": in how many seeds it is worse than Sobol's.\n\n"
                                           : ".\n\n";
        out += "| strategy |";
        for (int seed : p.seeds) out += " seed " + std::to_string(seed) + " |";
        if (sobol != p.strategies.end()) out += " worse than sobol |";
        out += "\n|---|";
        for (std::size_t i = 0; i < p.seeds.size() + (sobol != p.strategies.end() ? 1 : 0); ++i) out += "---:|";
        out += "\n";
        for (const StrategyTruth& s : p.strategies) {
            out += "| " + s.strategy + " |";
            int worse = 0, compared = 0;
            for (int seed : p.seeds) {
                const auto v = s.search_by_seed.find(seed);
                out += " " + (v == s.search_by_seed.end() ? std::string("—") : format_short(v->second, 4)) + " |";
                if (sobol == p.strategies.end() || v == s.search_by_seed.end()) continue;
                const auto reference = sobol->search_by_seed.find(seed);
                if (reference == sobol->search_by_seed.end()) continue;
                ++compared;
                worse += utility(p.minimize, v->second) < utility(p.minimize, reference->second);
            }
            if (sobol != p.strategies.end())
                out += " " + (&s == &*sobol ? std::string("—") : std::to_string(worse) + "/" + std::to_string(compared)) + " |";
            out += "\n";
        }
    }
    return out;
}

}  // namespace sebo
