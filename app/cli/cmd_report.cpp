// sebo info / frontier / export — read-only views of an experiment file.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/recommendation_output.h"
#include "cli/sampler_options.h"
#include "cli/trial_exclusion_cli.h"
#include "core/format.h"
#include "core/input_error.h"
#include "evaluators/command_evaluator.h"
#include "core/thread_pool.h"
#include "experiment/analytics.h"
#include "experiment/recommendations.h"
#include "experiment/replicates.h"
#include "io/choice_json.h"
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

// The feasible trial with the best first objective.
const Trial* best_trial(const Experiment& e) {
    const Trial* best = nullptr;
    for (const Trial& t : e.trials)
        if (auto u = e.utility(t); u && e.feasible(t) && (!best || *u > *e.utility(*best))) best = &t;
    return best;
}

// {"throughput": {"mean": 1234.5, "sem": 4.2}, ...}: the trial's recorded metrics.
Json metrics_json(const Experiment& e, const Trial& t) {
    Json out = Json::object();
    for (const std::string& metric : e.outcomes.metrics)
        if (const Measurement* m = t.measurement(metric)) {
            Json value = Json{{"mean", m->mean}};
            if (m->sem) value["sem"] = *m->sem;
            out[metric] = std::move(value);
        }
    return out;
}

// One trial of a frontier: its index, active count and metrics (and "objective", the first
// objective's value, as before several objectives existed).
// A configuration measured more than once is shown with its merged measurements
// (experiment/replicates.h), "replicates" listing its trials.
Json frontier_trial_json(const Experiment& e, const Trial& t) {
    std::vector<int> replicates;
    if (e.analyzed(t))
        for (const Trial& other : e.trials)
            if (e.analyzed(other) && other.parameters == t.parameters) replicates.push_back(other.index);
    const Trial shown = replicates.size() > 1 ? merged_trial(e, replicates) : t;
    Json out = Json{{"trial", t.index}};
    if (e.outcomes.objectives.size() == 1) out["objective"] = *e.objective_value(shown);
    out["active"] = e.sparsity(shown);
    out["metrics"] = metrics_json(e, shown);
    if (replicates.size() > 1) out["replicates"] = replicates;
    return out;
}

void put_outcomes(Json& out, const Experiment& e) {
    if (e.outcomes.objectives.size() == 1)
        out["objective"] = {{"name", e.primary_objective().metric}, {"minimize", e.primary_objective().minimize}};
    out["metrics"] = e.outcomes.metrics;
    out["objectives"] = Json::array();
    for (const Objective& o : e.outcomes.objectives)
        out["objectives"].push_back({{"metric", o.metric},
                                     {"minimize", o.minimize},
                                     {"threshold", o.threshold ? Json(*o.threshold) : Json(nullptr)}});
    out["constraints"] = Json::array();
    for (const OutcomeConstraint& c : e.outcomes.constraints)
        out["constraints"].push_back({{"metric", c.metric}, {"op", to_string(c.sense)}, {"bound", c.bound}});
}

// "throughput (max), p99_ms (min, threshold 80)".
std::string describe_objectives(const Experiment& e) {
    std::string text;
    for (const Objective& o : e.outcomes.objectives) {
        text += (text.empty() ? "" : ", ") + o.metric + " (" + (o.minimize ? "minimize" : "maximize");
        if (o.threshold) text += ", threshold " + format_short(*o.threshold);
        text += ")";
    }
    return text;
}

// "1000, 45" — the objectives of a trial.
std::string objective_values(const Experiment& e, const Trial& t) {
    std::string text;
    for (std::size_t i = 0; i < e.outcomes.objectives.size(); ++i)
        text += (i ? ", " : "") + format_short(*e.objective_value(t, i));
    return text;
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
    int integers = 0, logs = 0, choices = 0;
    for (const Parameter& p : e.space.parameters()) {
        integers += p.kind == ParameterKind::Integer;
        choices += p.kind == ParameterKind::Choice;
        logs += p.log_scale;
    }
    if (parser.has("json")) {
        Json out;
        out["name"] = e.name;
        out["evaluator"] = describe_evaluator(e);
        put_outcomes(out, e);
        out["strategy"] = to_string(e.method.strategy);
        out["initial_trials"] = e.method.initial_trials;
        out["budget"] = e.method.budget;
        out["seed"] = e.seed;
        out["parameters"] = e.space.dimension();
        out["groups"] = e.space.has_groups() ? e.space.group_count() : 0;
        out["fixed_parameters"] = Json::object();
        for (const Parameter& p : e.space.fixed_parameters()) out["fixed_parameters"][p.name] = p.resolved_target();
        out["choice_parameters"] = Json::object();
        for (const Parameter& p : e.space.parameters())
            if (p.kind == ParameterKind::Choice) {
                Json choice = Json::object();
                put_choice_parameter(choice, p);
                choice["target"] = choice_value_json(p, p.resolved_target());
                out["choice_parameters"][p.name] = std::move(choice);
            }
        out["parameter_constraints"] = Json::array();
        for (int k = 0; k < static_cast<int>(e.space.constraints().size()); ++k)
            out["parameter_constraints"].push_back(e.space.constraint_text(k));
        out["trials"] = {{"total", e.trials.size()},
                         {"completed", e.count(TrialStatus::Completed)},
                         {"failed", e.count(TrialStatus::Failed)},
                         {"pending", e.count(TrialStatus::Pending)},
                         {"abandoned", e.count(TrialStatus::Abandoned)},
                         {"excluded", e.excluded_count()},
                         {"feasible", report.feasible_trials}};
        // The feasible trial with the best first objective.
        out["best"] = best ? Json{{"trial", best->index},
                                  {"objective", *e.objective_value(*best)},
                                  {"active", e.sparsity(*best)},
                                  {"metrics", metrics_json(e, *best)}}
                           : Json(nullptr);
        out["pareto_trials"] = report.pareto_trials.size();
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
    std::printf("%s %s\n", e.outcomes.objectives.size() == 1 ? "objective   " : "objectives  ", describe_objectives(e).c_str());
    std::string constraints, tracked;
    for (const OutcomeConstraint& c : e.outcomes.constraints) constraints += (constraints.empty() ? "" : ", ") + c.text();
    for (const std::string& metric : e.outcomes.metrics)
        if (e.outcomes.is_tracked(metric)) tracked += (tracked.empty() ? "" : ", ") + metric;
    if (!constraints.empty()) std::printf("constraints  %s\n", constraints.c_str());
    if (!tracked.empty()) std::printf("tracked      %s\n", tracked.c_str());
    // The status quo, when measured first, is one of the initial trials (experiment/status_quo.h).
    std::printf("method       %s, %d initial trials (%s), budget %d, seed %llu\n", to_string(e.method.strategy),
                e.method.initial_trials, e.method.status_quo_first ? "the status quo, then Sobol" : "Sobol",
                e.method.budget, static_cast<unsigned long long>(e.seed));
    std::printf("parameters   %d (%d integer, %s%d log scale)", e.space.dimension(), integers,
                choices ? (std::to_string(choices) + " choice, ").c_str() : "", logs);
    if (e.space.has_groups()) std::printf(", %d groups", e.space.group_count());
    if (!e.space.fixed_parameters().empty()) {
        std::string fixed;
        for (const Parameter& p : e.space.fixed_parameters())
            fixed += (fixed.empty() ? "" : ", ") + p.name + " = " + format_number(p.resolved_target());
        std::printf("\nfixed        %s", fixed.c_str());
    }
    bool first_choice = true;
    for (const Parameter& p : e.space.parameters()) {
        if (p.kind != ParameterKind::Choice) continue;
        std::string values;
        for (const ChoiceValue& v : p.values) values += (values.empty() ? "" : "|") + v.text;
        std::printf("\n%s %s: %s%s, target %s", first_choice ? "choices     " : "            ", p.name.c_str(), values.c_str(),
                    p.ordered ? " (ordered)" : "", value_text(p, p.resolved_target()).c_str());
        first_choice = false;
    }
    for (int k = 0; k < static_cast<int>(e.space.constraints().size()); ++k)
        std::printf("\n%s %s", k == 0 ? "subject to  " : "            ", e.space.constraint_text(k).c_str());
    std::printf("\ntrials       %zu: %d completed, %d failed, %d pending, %d abandoned", e.trials.size(),
                e.count(TrialStatus::Completed), e.count(TrialStatus::Failed), e.count(TrialStatus::Pending),
                e.count(TrialStatus::Abandoned));
    if (e.excluded_count() > 0) std::printf("; %s", describe_excluded(e).c_str());
    if (!e.outcomes.constraints.empty())
        std::printf("; %d feasible (of the completed%s)", report.feasible_trials, e.excluded_count() > 0 ? " ones that count" : "");
    std::printf("\n");
    const char* best_label = e.outcomes.objectives.size() == 1 ? "best        " : "best first  ";
    if (best)
        std::printf("%s %s = %s at trial %d (%d active)\n", best_label, e.primary_objective().metric.c_str(),
                    format_short(*e.objective_value(*best)).c_str(), best->index, e.sparsity(*best));
    else
        std::printf("%s %s\n", best_label, e.outcomes.constraints.empty() ? "none yet" : "no feasible trial yet");
    if (e.outcomes.objectives.size() > 1)
        std::printf("pareto       %zu non-dominated feasible trial(s) (sebo frontier)\n", report.pareto_trials.size());
    std::printf("hypervolume  %s\n", format_short(report.hypervolume).c_str());
    std::printf("chosen       %zu configuration(s)\n", e.chosen.size());
    if (runner) std::printf("in use       %s\n", describe_holder(path, *runner).c_str());
    return 0;
}

int command_frontier(const Args& args) {
    Arguments parser("frontier", "FILE [--json]",
                     "The objectives vs number-of-active-parameters trade-off: for each k the non-dominated feasible\n"
                     "trials with at most k active parameters (with one objective: the best one), the trials that are\n"
                     "non-dominated in objectives and sparsity, the hypervolume (with its reference point) and, per\n"
                     "parameter, how often it is active among those trials. Infeasible trials (an outcome constraint\n"
                     "does not hold, or a constrained metric was not measured) are on no frontier.\n"
                     "Then the model's estimates: per k the recommended configuration (the best posterior mean among\n"
                     "the measured configurations with at most k changes), its 95 % credible interval and the\n"
                     "probability that it beats the status quo (docs/method.md, \"Noisy measurements\").",
                     {{"json", "", "machine-readable output (every level with its trials and all their metrics)"},
                      {"raw", "", "the measurements only: no model fit, no recommendations"},
                      threads_option()},
                     1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    const Experiment e = load_positional(parser);
    const FrontierReport r = analyze_frontier(e);
    const std::vector<Objective>& objectives = e.outcomes.objectives;
    // The model's estimates, unless --raw or the model has too little to go on.
    std::optional<RecommendationReport> recommendations;
    if (!parser.has("raw")) {
        ThreadPool pool(threads_from(parser));
        StepControl control;
        control.pool = &pool;
        RecommendationReport report = recommend_configurations(e, control);
        if (report.status == RecommendationReport::Status::Ok) recommendations = std::move(report);
    }
    std::vector<int> order(static_cast<std::size_t>(e.space.dimension()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return r.activation_frequency[static_cast<std::size_t>(a)] > r.activation_frequency[static_cast<std::size_t>(b)];
    });
    if (parser.has("json")) {
        Json out;
        put_outcomes(out, e);
        Json reference = Json::object();
        if (objectives.size() == 1) reference["objective"] = e.from_utility(r.reference_utilities.front());
        reference["objectives"] = Json::object();
        for (std::size_t i = 0; i < objectives.size(); ++i)
            reference["objectives"][objectives[i].metric] = objectives[i].from_utility(r.reference_utilities[i]);
        reference["active"] = r.reference_sparsity;
        out["reference"] = std::move(reference);
        out["hypervolume"] = r.hypervolume;
        out["feasible_trials"] = r.feasible_trials;
        out["levels"] = Json::array();
        for (const auto& level : r.levels) {
            Json front = Json::array();
            for (int index : level.front) front.push_back(frontier_trial_json(e, *e.find_trial(index)));
            out["levels"].push_back({{"k", level.k},
                                     {"best_objective", optional_number(level.best_objective)},
                                     {"trial", level.trial ? Json(*level.trial) : Json(nullptr)},
                                     {"trials", std::move(front)}});
            if (recommendations) out["levels"].back()["recommended"] = recommended_json(e, *recommendations, level.k);
        }
        out["pareto_trials"] = Json::array();
        for (int index : r.pareto_trials) out["pareto_trials"].push_back(frontier_trial_json(e, *e.find_trial(index)));
        out["hypervolume_trace"] = r.hypervolume_trace;
        if (recommendations) {
            out["noisy_metrics"] = recommendations->noisy_metrics;
            out["status_quo_trial"] = recommendations->status_quo
                                          ? Json(recommendations->configurations[*recommendations->status_quo].trial())
                                          : Json(nullptr);
        }
        out["excluded_trials"] = Json::array();
        for (const Trial& t : e.trials)
            if (t.exclusion) {
                Json excluded = frontier_trial_json(e, t);
                excluded["reason"] = t.exclusion->reason;
                out["excluded_trials"].push_back(std::move(excluded));
            }
        out["infeasible_trials"] = Json::array();
        for (const Trial& t : e.trials)
            if (e.analyzed(t) && !e.feasible(t)) {
                Json infeasible = frontier_trial_json(e, t);
                infeasible["feasibility"] = to_string(e.feasibility(t));
                out["infeasible_trials"].push_back(std::move(infeasible));
            }
        out["activation_frequency"] = Json::array();
        for (int i : order)
            out["activation_frequency"].push_back(
                {{"parameter", e.space.parameter(i).name}, {"frequency", r.activation_frequency[static_cast<std::size_t>(i)]}});
        std::printf("%s\n", out.dump(2).c_str());
        return 0;
    }
    std::printf("%s, %d completed trials", describe_objectives(e).c_str(), e.count(TrialStatus::Completed));
    if (e.excluded_count() > 0) std::printf(", %s", describe_excluded(e).c_str());
    if (!e.outcomes.constraints.empty()) {
        std::string constraints;
        for (const OutcomeConstraint& c : e.outcomes.constraints) constraints += (constraints.empty() ? "" : ", ") + c.text();
        std::printf("; %d feasible (%s)", r.feasible_trials, constraints.c_str());
    }
    std::printf("\n\n");
    bool any = false;
    if (objectives.size() == 1) {
        std::printf("  at most k active   best %-14s trial\n", objectives.front().metric.c_str());
        std::optional<int> previous;
        for (const auto& level : r.levels) {
            if (!level.trial || level.trial == previous) continue;  // print the steps of the frontier only
            previous = level.trial;
            any = true;
            const Json shown = frontier_trial_json(e, *e.find_trial(*level.trial));
            const std::string count =
                shown.contains("replicates") ? " (mean of " + std::to_string(shown["replicates"].size()) + ")" : "";
            std::printf("  %-18d %-19s %d%s\n", level.k, format_short(*level.best_objective).c_str(), *level.trial, count.c_str());
        }
    } else {
        std::string names;
        for (const Objective& o : objectives) names += (names.empty() ? "" : ", ") + o.metric;
        std::printf("  at most k active   non-dominated trials: trial (%s)\n", names.c_str());
        const std::vector<int>* previous = nullptr;
        for (const auto& level : r.levels) {
            if (level.front.empty() || (previous && *previous == level.front)) continue;  // the levels where it changes
            previous = &level.front;
            any = true;
            std::string trials;
            for (int index : level.front)
                trials += (trials.empty() ? "" : "; ") + std::to_string(index) + " (" + objective_values(e, *e.find_trial(index)) + ")";
            std::printf("  %-18d %s\n", level.k, trials.c_str());
        }
    }
    if (!any)
        std::printf("  (no %s trials yet)\n", e.outcomes.constraints.empty() ? "completed" : "feasible completed");
    std::printf("\nnon-dominated trials: %s\n", join(r.pareto_trials).c_str());
    std::string reference;
    for (std::size_t i = 0; i < objectives.size(); ++i)
        reference += objectives[i].metric + " = " + format_short(objectives[i].from_utility(r.reference_utilities[i])) + ", ";
    std::printf("hypervolume: %s (reference: %s%d active)\n", format_short(r.hypervolume).c_str(), reference.c_str(),
                r.reference_sparsity);
    if (!r.pareto_trials.empty()) {
        std::printf("\nactivation frequency among non-dominated trials (top %d):\n", std::min(10, e.space.dimension()));
        for (std::size_t j = 0; j < order.size() && j < 10; ++j) {
            const int i = order[j];
            std::printf("  %-20s %.2f\n", e.space.parameter(i).name.c_str(), r.activation_frequency[static_cast<std::size_t>(i)]);
        }
    }
    if (recommendations) std::printf("\n%s", recommendations_text(e, *recommendations).c_str());
    warn_partial_standard_errors(e);
    return 0;
}

int command_export(const Args& args) {
    Arguments parser("export", "FILE (--trial I [--format json|csv] [--changed-only] | --all) [--out PATH]",
                     "Write one configuration in user units, as JSON (with every metric it measured) or CSV (its\n"
                     "parameters), or every trial as CSV (--all: a row per trial with every metric and its standard\n"
                     "error, the active count, feasibility when there are outcome constraints, the parameters), to a\n"
                     "file or standard output.",
                     {{"trial", "I", "index of the trial to export"},
                      {"all", "", "every trial, as CSV"},
                      {"format", "FORMAT", "json (default) or csv"},
                      {"changed-only", "", "only the parameters that differ from their targets"},
                      {"out", "PATH", "write to PATH (atomically) instead of standard output"}},
                     1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    const auto trial = parser.integer("trial", 0, 1'000'000'000);
    const bool all = parser.has("all");
    if (trial && all) throw UsageError("give either --trial I or --all");
    if (!trial && !all) throw UsageError("--trial I (or --all) is required");
    if (all)
        for (const char* flag : {"format", "changed-only"})
            if (parser.has(flag)) throw UsageError(std::string("--") + flag + " goes with --trial, not --all");
    const std::string format = parser.value("format").value_or("json");
    if (format != "json" && format != "csv") throw UsageError("--format: '" + format + "' is not one of json, csv");
    const Experiment e = load_positional(parser);
    if (trial && !e.find_trial(static_cast<int>(*trial)))
        throw UsageError("--trial: the experiment has no trial " + std::to_string(*trial));
    const bool changed_only = parser.has("changed-only");
    std::string text = all               ? trials_to_csv(e)
                       : format == "json" ? configuration_to_json(e, static_cast<int>(*trial), changed_only)
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
