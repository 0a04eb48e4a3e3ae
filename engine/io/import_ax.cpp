#include "io/import_ax.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/format.h"
#include "core/input_error.h"
#include "experiment/status_quo.h"
#include "io/ax_data.h"
#include "io/ax_json.h"
#include "io/ax_outcomes.h"
#include "io/ax_space.h"
#include "io/csv_table.h"
#include "io/experiment_file.h"
#include "io/file_io.h"
#include "io/json_document.h"
#include "io/python_json.h"

namespace sebo {

namespace {

using ax::Document;

[[noreturn]] void fail(const std::string& path, const std::string& message) { throw InputError(path, message); }

// Ax snapshots nest deeper than experiment files (generation strategies hold model settings);
// real ones need about 12 levels.
constexpr int kMaxSnapshotNesting = 128;

// One arm of a trial, with where it is in the file.
struct ArmEntry {
    const Document* arm;
    std::string path;
    std::string generator;
};

// "ax:Sobol", "ax:BoTorch", "ax:manual": what proposed an arm, as its generator run says (the
// model before the generation node, whose names such as "GenerationStep_1" say less).
std::string generator_of(const Document* run) {
    if (!run || !run->is_object()) return "ax";
    for (const char* key : {"generator_key", "model_key", "generation_node_name"})
        if (const Document* v = ax::optional(*run, key); v && v->is_string() && !v->get<std::string>().empty())
            return "ax:" + v->get<std::string>();
    if (const Document* type = ax::optional(*run, "generator_run_type")) {
        // "MANUAL" before Ax 1.x, {"__type": "GeneratorRunType", "name": "MANUAL"} after.
        std::string name;
        if (type->is_string()) name = type->get<std::string>();
        else if (const auto it = type->is_object() ? type->find("name") : type->end(); it != type->end() && it->is_string())
            name = it->get<std::string>();
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (!name.empty()) return "ax:" + name;
    }
    return "ax";
}

void add_arms_of(const Document& run, const std::string& path, std::vector<ArmEntry>& arms) {
    ax::expect_object(run, path);
    const std::string at = member_path(path, "arms");
    const Document& list = ax::expect_array(ax::required(run, path, "arms"), at);
    const std::string generator = generator_of(&run);
    for (std::size_t i = 0; i < list.size(); ++i) arms.push_back({&list[i], element_path(at, i), generator});
}

std::string arm_name(const Document& arm, const std::string& path) {
    ax::expect_object(arm, path);
    const Document* name = ax::optional(arm, "name");
    return name ? ax::string_value(*name, member_path(path, "name")) : "";
}

// The reason Ax gives for a trial's end: "status_reason" (Ax 1.3), or "failed_reason" /
// "abandoned_reason" before.
std::string reason_of(const Document& trial, const std::string& path) {
    for (const char* key : {"status_reason", "failed_reason", "abandoned_reason"})
        if (const Document* r = ax::optional(trial, key)) return ax::string_value(*r, member_path(path, key));
    return "";
}

struct StatusMapping {
    TrialStatus status = TrialStatus::Pending;
    std::string reason;  // for failed and abandoned trials without one of their own
};

StatusMapping map_status(const std::string& name, const std::string& path) {
    if (name == "COMPLETED") return {TrialStatus::Completed, ""};
    if (name == "FAILED") return {TrialStatus::Failed, "failed in Ax"};
    if (name == "ABANDONED") return {TrialStatus::Abandoned, "abandoned in Ax"};
    if (name == "EARLY_STOPPED") return {TrialStatus::Abandoned, "stopped early in Ax (its curves are partial, so its data are not used)"};
    if (name == "STALE") return {TrialStatus::Abandoned, "a stale candidate in Ax, never run"};
    if (name == "RUNNING" || name == "CANDIDATE" || name == "STAGED" || name == "DISPATCHED") return {TrialStatus::Pending, ""};
    fail(path, "unknown trial status " + shown_text(name) +
                   " (known: COMPLETED, FAILED, ABANDONED, EARLY_STOPPED, STALE, RUNNING, CANDIDATE, STAGED, DISPATCHED)");
}

// The trials in the order of their index: Ax writes {"0": {...}, "1": {...}} (or a list).
std::vector<std::pair<const Document*, std::string>> trials_in_order(const Document& experiment, const std::string& path) {
    std::vector<std::pair<const Document*, std::string>> out;
    const Document* trials = ax::optional(experiment, "trials");
    if (!trials) return out;
    const std::string at = member_path(path, "trials");
    if (trials->is_array()) {
        for (std::size_t i = 0; i < trials->size(); ++i) out.emplace_back(&(*trials)[i], element_path(at, i));
    } else {
        ax::expect_object(*trials, at);
        for (const auto& [key, t] : trials->items()) out.emplace_back(&t, member_path(at, key));
    }
    std::vector<std::pair<int, std::size_t>> order;
    for (std::size_t i = 0; i < out.size(); ++i) {
        ax::expect_object(*out[i].first, out[i].second);
        order.emplace_back(ax::integer_value(ax::required(*out[i].first, out[i].second, "index"), member_path(out[i].second, "index")), i);
    }
    std::sort(order.begin(), order.end());
    for (std::size_t i = 1; i < order.size(); ++i)
        if (order[i].first == order[i - 1].first)
            fail(member_path(out[order[i].second].second, "index"), "trial index " + std::to_string(order[i].first) + " appears twice");
    std::vector<std::pair<const Document*, std::string>> sorted;
    for (const auto& [index, i] : order) sorted.push_back(out[i]);
    return sorted;
}

std::string join(const std::vector<std::string>& items, std::size_t shown = 8) {
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i) text += (i ? ", " : "") + items[i];
    if (items.size() > shown) text += " and " + std::to_string(items.size() - shown) + " more";
    return text;
}

}  // namespace

ImportedExperiment import_ax_snapshot_text(const std::string& text) {
    const Document root = parse_python_json(text, kMaxSnapshotNesting);
    if (!root.is_object()) fail("", "an Ax snapshot is a JSON object, got " + describe_value(root));
    if (const Document* format = ax::optional(root, "format"); format && *format == kExperimentFormat)
        fail("format", "this is a SEBO experiment file already: open it as it is (File › Open; sebo commands take it as FILE)");
    ImportedExperiment imported;
    Experiment& e = imported.experiment;
    std::string path = "experiment";
    const Document* experiment = nullptr;
    if (const Document* type = ax::optional(root, "_type")) {
        const std::string kind = ax::string_value(*type, "_type");
        if (kind != "AxClient" && kind != "Client")
            fail("_type", shown_text(kind) + " is not an Ax snapshot (expected \"AxClient\" or \"Client\")");
        imported.source = kind == "Client" ? "Ax Client snapshot (Ax 1.x)" : "Ax AxClient snapshot";
        experiment = &ax::expect_object(ax::required(root, "", "experiment"), path);
    } else if (ax::type_of(root) == "Experiment" || ax::type_of(root) == "MultiTypeExperiment") {
        path = "";
        experiment = &root;
        imported.source = "Ax experiment";
    } else {
        fail("_type", "not an Ax snapshot: the object has neither \"_type\": \"AxClient\" or \"Client\" nor \"__type\": \"Experiment\"");
    }
    if (ax::type_of(*experiment) != "Experiment")
        fail(member_path(path, "__type"), "a " + shown_text(ax::type_of(*experiment)) +
                                              " cannot be imported (several trial types with their own metrics); expected Experiment");
    if (const Document* name = ax::optional(*experiment, "name")) e.name = ax::string_value(*name, member_path(path, "name"));
    if (const Document* d = ax::optional(*experiment, "description")) e.description = ax::string_value(*d, member_path(path, "description"));
    imported.source += e.name.empty() ? "" : ", experiment '" + e.name + "'";

    std::vector<std::string>& warnings = imported.warnings;
    const ax::AxSpace space = ax::read_search_space(ax::required(*experiment, path, "search_space"), member_path(path, "search_space"), warnings);
    e.space = space.space;
    ax::AxOutcomes outcomes = ax::read_outcomes(*experiment, path);
    const ax::TrialData data = ax::read_trial_data(*experiment, path, warnings);

    // The status quo: the experiment's own arm, or Ax 1.3's pruning target (what BONSAI prunes
    // towards: the same meaning).
    std::string status_quo_arm;
    const auto take_status_quo = [&](const Document& arm, const std::string& at, const std::string& what) {
        status_quo_arm = arm_name(arm, at);
        const ax::ArmConfiguration sq = ax::read_arm(space, arm, at);
        if (!sq.problem.empty()) {
            warnings.push_back(what + " is not a configuration of the search space (" + sq.problem + "), so it cannot be the target");
            return;
        }
        imported.status_quo = SourceConfiguration{what, sq.values};
    };
    if (const Document* sq = ax::optional(*experiment, "status_quo")) {
        take_status_quo(*sq, member_path(path, "status_quo"), "the status-quo arm '" + arm_name(*sq, member_path(path, "status_quo")) + "'");
    } else if (const Document* config = ax::optional(*experiment, "optimization_config")) {
        if (const Document* target = config->is_object() ? ax::optional(*config, "pruning_target_parameterization") : nullptr)
            take_status_quo(*target, member_path(path, "optimization_config.pruning_target_parameterization"), "Ax's pruning target");
    }

    // Trials, one per arm.
    const auto trials = trials_in_order(*experiment, path);
    bool batches = false;
    for (const auto& [t, at] : trials) batches = batches || ax::type_of(*t) == "BatchTrial";
    std::vector<std::string> out_of_design, without_objective;
    std::set<std::string> unknown_metrics;
    int next_index = 0;
    for (const auto& [t, at] : trials) {
        const std::string type = ax::type_of(*t);
        const int ax_index = ax::integer_value(ax::required(*t, at, "index"), member_path(at, "index"));
        std::vector<ArmEntry> arms;
        std::map<std::string, std::string> abandoned_arms;
        if (type == "Trial") {
            if (const Document* run = ax::optional(*t, "generator_run")) add_arms_of(*run, member_path(at, "generator_run"), arms);
        } else if (type == "BatchTrial") {
            if (const Document* runs = ax::optional(*t, "generator_runs")) {
                const std::string r_at = member_path(at, "generator_runs");
                ax::expect_array(*runs, r_at);
                for (std::size_t i = 0; i < runs->size(); ++i) add_arms_of((*runs)[i], element_path(r_at, i), arms);
            }
            // Before Ax 1.x a batch's status-quo arm was not in its generator runs.
            if (const Document* sq = ax::optional(*t, "status_quo")) {
                const std::string name = arm_name(*sq, member_path(at, "status_quo"));
                if (std::none_of(arms.begin(), arms.end(), [&](const ArmEntry& a) { return arm_name(*a.arm, a.path) == name; }))
                    arms.push_back({sq, member_path(at, "status_quo"), "ax"});
            }
            if (const Document* list = ax::optional(*t, "abandoned_arms_metadata")) {
                const std::string a_at = member_path(at, "abandoned_arms_metadata");
                ax::expect_array(*list, a_at);
                for (std::size_t i = 0; i < list->size(); ++i) {
                    const Document& a = ax::expect_object((*list)[i], element_path(a_at, i));
                    const std::string name = ax::string_value(ax::required(a, element_path(a_at, i), "name"), element_path(a_at, i) + ".name");
                    const Document* reason = ax::optional(a, "reason");
                    abandoned_arms[name] = reason && reason->is_string() ? reason->get<std::string>() : "";
                }
            }
        } else {
            fail(member_path(at, "__type"), "unknown trial type " + shown_text(type) + " (known: Trial, BatchTrial)");
        }
        const StatusMapping mapped = map_status(ax::enum_name(ax::required(*t, at, "status"), member_path(at, "status")), member_path(at, "status"));
        const std::string reason = reason_of(*t, at);
        const auto started = ax::datetime_seconds(ax::optional(*t, "time_run_started"), member_path(at, "time_run_started"));
        const auto completed = ax::datetime_seconds(ax::optional(*t, "time_completed"), member_path(at, "time_completed"));
        if (arms.empty()) {
            warnings.push_back("Ax trial " + std::to_string(ax_index) + " has no arm: nothing to import");
            continue;
        }
        const auto observations = data.find(ax_index);
        for (const ArmEntry& entry : arms) {
            const std::string name = arm_name(*entry.arm, entry.path);
            const std::string label = "Ax trial " + std::to_string(ax_index) + (arms.size() > 1 || batches ? ", arm " + name : "");
            const ax::ArmConfiguration config = ax::read_arm(space, *entry.arm, entry.path);
            if (!config.problem.empty()) {
                out_of_design.push_back(label + " (" + config.problem + ")");
                continue;
            }
            Trial trial;
            trial.index = batches ? next_index++ : ax_index;
            trial.parameters = config.values;
            trial.generator = !status_quo_arm.empty() && name == status_quo_arm ? kStatusQuoGenerator : entry.generator;
            trial.status = mapped.status;
            if (started && completed && *completed >= *started) trial.evaluation_seconds = *completed - *started;
            if (const auto a = abandoned_arms.find(name); a != abandoned_arms.end()) {
                trial.status = TrialStatus::Abandoned;
                trial.error = a->second.empty() ? "arm abandoned in Ax" : a->second;
            } else if (trial.status == TrialStatus::Failed || trial.status == TrialStatus::Abandoned) {
                trial.error = reason.empty() ? mapped.reason : reason;
            }
            if (trial.status == TrialStatus::Completed) {
                if (observations != data.end())
                    for (const auto& [key, o] : observations->second) {
                        if (key.first != name) continue;
                        if (!outcomes.outcomes.has_metric(key.second)) {
                            unknown_metrics.insert(key.second);
                            continue;
                        }
                        if (!std::isfinite(o.mean)) continue;
                        trial.values[key.second] = Measurement{o.mean, o.sem};
                    }
                for (const Objective& objective : outcomes.outcomes.objectives)
                    if (!trial.measurement(objective.metric)) {
                        trial.status = TrialStatus::Failed;
                        trial.values.clear();
                        trial.error = "completed in Ax, but no finite value of objective '" + objective.metric + "' was recorded";
                        without_objective.push_back(label);
                        break;
                    }
            }
            e.trials.push_back(std::move(trial));
            imported.origins.push_back({ax_index, name, label});
        }
    }
    if (!out_of_design.empty())
        warnings.push_back(std::to_string(out_of_design.size()) + " arm(s) outside the search space are not imported (Ax keeps "
                           "out-of-design arms, SEBO cannot): " + join(out_of_design, 4));
    if (!without_objective.empty())
        warnings.push_back(std::to_string(without_objective.size()) + " completed trial(s) without a finite value of every objective "
                           "are imported as failed: " + join(without_objective));
    if (!unknown_metrics.empty())
        warnings.push_back("data of metrics that are neither objectives, constraints nor tracking metrics are left out: " +
                           join(std::vector<std::string>(unknown_metrics.begin(), unknown_metrics.end())));

    // Bounds relative to the status quo become absolute with its measured mean (Ax relativizes
    // as (value − sq) / |sq| in percent).
    for (const ax::RelativeBound& r : outcomes.relative) {
        Outcomes& o = outcomes.outcomes;
        const std::string& metric = r.threshold ? o.objectives[r.index].metric : o.constraints[r.index].metric;
        double sum = 0;
        int count = 0;
        if (!status_quo_arm.empty())
            for (const Trial& t : e.trials)
                if (t.generator == kStatusQuoGenerator && t.status == TrialStatus::Completed)
                    if (const Measurement* m = t.measurement(metric)) {
                        sum += m->mean;
                        ++count;
                    }
        const std::string what = std::string(r.threshold ? "the threshold" : "the constraint") + " on '" + metric + "' (" +
                                 format_number(r.percent) + " % relative to the status quo)";
        if (count == 0)
            fail(r.path, what + " cannot be made absolute: no completed trial measured the status quo's " + metric);
        const double sq = sum / count;
        const double bound = sq + r.percent / 100.0 * std::abs(sq);
        if (r.threshold) o.objectives[r.index].threshold = bound;
        else o.constraints[r.index].bound = bound;
        warnings.push_back(what + " is kept as the absolute value " + format_number(bound) + ", from the status quo's mean " +
                           format_number(sq) + " over " + std::to_string(count) + " trial(s)");
    }
    e.outcomes = std::move(outcomes.outcomes);
    if (const auto error = e.outcomes.validate()) fail(member_path(path, "optimization_config"), *error);
    finish_imported_experiment(imported);
    return imported;
}

ImportedExperiment import_ax_snapshot(const std::string& path) {
    ImportedExperiment imported = import_ax_snapshot_text(read_text_file(path, kMaxExperimentFileBytes));
    if (imported.experiment.name.empty()) imported.experiment.name = path;
    return imported;
}

}  // namespace sebo
