// sebo info / frontier / export — read-only views of an experiment file.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/format.h"
#include "core/input_error.h"
#include "evaluators/command_evaluator.h"
#include "experiment/analytics.h"
#include "io/csv_export.h"
#include "io/experiment_file.h"
#include "io/file_lock.h"
#include "io/shared_experiment_file.h"

namespace sebo::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string join(const std::vector<int>& v) {
    std::string out;
    for (int x : v) out += (out.empty() ? "" : ",") + std::to_string(x);
    return out;
}

Json optional_number(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

const Trial* best_trial(const Experiment& e) {
    const Trial* best = nullptr;
    for (const Trial& t : e.trials)
        if (auto u = e.utility(t); u && (!best || *u > *e.utility(*best))) best = &t;
    return best;
}

std::string describe_evaluator(const Experiment& e) {
    const EvaluatorSpec& ev = e.evaluator;
    switch (ev.kind) {
    case EvaluatorSpec::Kind::Problem: {
        std::string text = ev.problem.name + " (dimension " + std::to_string(ev.problem.dimension);
        if (!ev.problem.effective.empty()) text += ", effective " + join(ev.problem.effective);
        if (ev.problem.target) text += ", target " + format_number(*ev.problem.target);
        return text + ")";
    }
    case EvaluatorSpec::Kind::Command:
        // Quoted so that an argument cannot pass for several, or for another line.
        return "command: " + shell_quoted_command_line(ev.command);
    case EvaluatorSpec::Kind::Manual: return "manual (results are entered by a person)";
    }
    return "";
}

// "2 excluded from analysis (trials 4, 9)".
std::string describe_excluded(const Experiment& e) {
    std::vector<int> excluded;
    for (const Trial& t : e.trials)
        if (t.exclusion) excluded.push_back(t.index);
    return std::to_string(excluded.size()) + " excluded from analysis (trial" + (excluded.size() > 1 ? "s " : " ") +
           join(excluded) + ")";
}

// Loads the single FILE positional of a read-only command.
Experiment load_positional(const Arguments& parser) {
    if (parser.positionals().empty()) throw UsageError("an experiment FILE is required");
    return load_experiment(parser.positionals().front());
}

}  // namespace

int command_info(const Args& args) {
    Arguments parser("info", "FILE [--json]", "Summarize an experiment: problem, method, trial counts, best objective.",
                     {{"json", "", "machine-readable output"}}, 1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    const Experiment e = load_positional(parser);
    const FrontierReport report = analyze_frontier(e);
    const Trial* best = best_trial(e);
    // Who runs the file now, as its run lock's sidecar says (read, never locked).
    const std::string& path = parser.positionals().front();
    const std::optional<LockHolder> runner = FileLock::current_holder(run_lock_path(path));
    int integers = 0, logs = 0;
    for (const Parameter& p : e.space.parameters()) {
        integers += p.kind == ParameterKind::Integer;
        logs += p.log_scale;
    }
    if (parser.has("json")) {
        Json out;
        out["name"] = e.name;
        out["evaluator"] = describe_evaluator(e);
        out["objective"] = {{"name", e.objective.name}, {"minimize", e.objective.minimize}};
        out["strategy"] = to_string(e.method.strategy);
        out["initial_trials"] = e.method.initial_trials;
        out["budget"] = e.method.budget;
        out["seed"] = e.seed;
        out["parameters"] = e.space.dimension();
        out["groups"] = e.space.has_groups() ? e.space.group_count() : 0;
        out["trials"] = {{"total", e.trials.size()},
                         {"completed", e.count(TrialStatus::Completed)},
                         {"failed", e.count(TrialStatus::Failed)},
                         {"pending", e.count(TrialStatus::Pending)},
                         {"abandoned", e.count(TrialStatus::Abandoned)},
                         {"excluded", e.excluded_count()}};
        out["best"] = best ? Json{{"trial", best->index}, {"objective", *best->objective}, {"active", e.sparsity(*best)}}
                           : Json(nullptr);
        out["hypervolume"] = report.hypervolume;
        out["chosen"] = Json::array();
        for (const auto& c : e.chosen) out["chosen"].push_back({{"trial", c.trial}, {"note", c.note}});
        out["in_use"] = runner ? Json{{"program", runner->program}, {"activity", runner->activity}, {"pid", runner->pid},
                                      {"host", runner->host}, {"started_at", runner->started_at}}
                               : Json(nullptr);
        std::printf("%s\n", out.dump(2).c_str());
        return 0;
    }
    std::printf("experiment   %s\n", e.name.empty() ? "(unnamed)" : e.name.c_str());
    std::printf("evaluator    %s\n", describe_evaluator(e).c_str());
    std::printf("objective    %s (%s)\n", e.objective.name.c_str(), e.objective.minimize ? "minimize" : "maximize");
    std::printf("method       %s, %d initial Sobol trials, budget %d, seed %llu\n", to_string(e.method.strategy),
                e.method.initial_trials, e.method.budget, static_cast<unsigned long long>(e.seed));
    std::printf("parameters   %d (%d integer, %d log scale)", e.space.dimension(), integers, logs);
    if (e.space.has_groups()) std::printf(", %d groups", e.space.group_count());
    std::printf("\ntrials       %zu: %d completed, %d failed, %d pending, %d abandoned", e.trials.size(),
                e.count(TrialStatus::Completed), e.count(TrialStatus::Failed), e.count(TrialStatus::Pending),
                e.count(TrialStatus::Abandoned));
    if (e.excluded_count() > 0) std::printf("; %s", describe_excluded(e).c_str());
    std::printf("\n");
    if (best)
        std::printf("best         %s = %s at trial %d (%d active)\n", e.objective.name.c_str(),
                    format_short(*best->objective).c_str(), best->index, e.sparsity(*best));
    else
        std::printf("best         none yet\n");
    std::printf("hypervolume  %s\n", format_short(report.hypervolume).c_str());
    std::printf("chosen       %zu configuration(s)\n", e.chosen.size());
    if (runner) std::printf("in use       %s\n", describe_holder(path, *runner).c_str());
    return 0;
}

int command_frontier(const Args& args) {
    Arguments parser("frontier", "FILE [--json]",
                     "The objective vs number-of-active-parameters trade-off: for each k the best objective with at\n"
                     "most k active parameters, the non-dominated trials, the hypervolume (with its reference point)\n"
                     "and, per parameter, how often it is active among the non-dominated trials.",
                     {{"json", "", "machine-readable output (every level and every parameter)"}}, 1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    const Experiment e = load_positional(parser);
    const FrontierReport r = analyze_frontier(e);
    std::vector<int> order(static_cast<std::size_t>(e.space.dimension()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return r.activation_frequency[static_cast<std::size_t>(a)] > r.activation_frequency[static_cast<std::size_t>(b)];
    });
    if (parser.has("json")) {
        Json out;
        out["objective"] = {{"name", e.objective.name}, {"minimize", e.objective.minimize}};
        out["reference"] = {{"objective", e.from_utility(r.reference_utility)}, {"active", r.reference_sparsity}};
        out["hypervolume"] = r.hypervolume;
        out["levels"] = Json::array();
        for (const auto& level : r.levels)
            out["levels"].push_back({{"k", level.k},
                                     {"best_objective", optional_number(level.best_objective)},
                                     {"trial", level.trial ? Json(*level.trial) : Json(nullptr)}});
        out["pareto_trials"] = Json::array();
        for (int index : r.pareto_trials) {
            const Trial& t = *e.find_trial(index);
            out["pareto_trials"].push_back({{"trial", index}, {"objective", *t.objective}, {"active", e.sparsity(t)}});
        }
        out["hypervolume_trace"] = r.hypervolume_trace;
        out["excluded_trials"] = Json::array();
        for (const Trial& t : e.trials)
            if (t.exclusion)
                out["excluded_trials"].push_back(
                    {{"trial", t.index}, {"objective", *t.objective}, {"reason", t.exclusion->reason}});
        out["activation_frequency"] = Json::array();
        for (int i : order)
            out["activation_frequency"].push_back(
                {{"parameter", e.space.parameter(i).name}, {"frequency", r.activation_frequency[static_cast<std::size_t>(i)]}});
        std::printf("%s\n", out.dump(2).c_str());
        return 0;
    }
    std::printf("%s (%s), %d completed trials", e.objective.name.c_str(), e.objective.minimize ? "minimize" : "maximize",
                e.count(TrialStatus::Completed));
    if (e.excluded_count() > 0) std::printf(", %s", describe_excluded(e).c_str());
    std::printf("\n\n");
    std::printf("  at most k active   best %-14s trial\n", e.objective.name.c_str());
    std::optional<int> previous;
    for (const auto& level : r.levels) {
        if (!level.trial || level.trial == previous) continue;  // print the steps of the frontier only
        previous = level.trial;
        std::printf("  %-18d %-19s %d\n", level.k, format_short(*level.best_objective).c_str(), *level.trial);
    }
    if (!previous) std::printf("  (no completed trials yet)\n");
    std::printf("\nnon-dominated trials: %s\n", join(r.pareto_trials).c_str());
    std::printf("hypervolume: %s (reference: %s = %s, %d active)\n", format_short(r.hypervolume).c_str(),
                e.objective.name.c_str(), format_short(e.from_utility(r.reference_utility)).c_str(), r.reference_sparsity);
    if (!r.pareto_trials.empty()) {
        std::printf("\nactivation frequency among non-dominated trials (top %d):\n", std::min(10, e.space.dimension()));
        for (std::size_t j = 0; j < order.size() && j < 10; ++j) {
            const int i = order[j];
            std::printf("  %-20s %.2f\n", e.space.parameter(i).name.c_str(), r.activation_frequency[static_cast<std::size_t>(i)]);
        }
    }
    return 0;
}

int command_export(const Args& args) {
    Arguments parser("export", "FILE --trial I [--format json|csv] [--changed-only] [--out PATH]",
                     "Write one configuration in user units, as JSON or CSV, to a file or standard output.",
                     {{"trial", "I", "index of the trial to export"},
                      {"format", "FORMAT", "json (default) or csv"},
                      {"changed-only", "", "only the parameters that differ from their targets"},
                      {"out", "PATH", "write to PATH (atomically) instead of standard output"}},
                     1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    const auto trial = parser.integer("trial", 0, 1'000'000'000);
    if (!trial) throw UsageError("--trial I is required");
    const std::string format = parser.value("format").value_or("json");
    if (format != "json" && format != "csv") throw UsageError("--format: '" + format + "' is not one of json, csv");
    const Experiment e = load_positional(parser);
    if (!e.find_trial(static_cast<int>(*trial)))
        throw UsageError("--trial: the experiment has no trial " + std::to_string(*trial));
    const bool changed_only = parser.has("changed-only");
    std::string text = format == "json" ? configuration_to_json(e, static_cast<int>(*trial), changed_only)
                                        : configuration_to_csv(e, static_cast<int>(*trial), changed_only);
    if (text.empty() || text.back() != '\n') text += '\n';
    if (const auto out = parser.value("out")) {
        write_file_atomic(*out, text);
    } else {
        std::fputs(text.c_str(), stdout);
    }
    return 0;
}

}  // namespace sebo::cli
