// sebo simplify FILE --trial I [--tolerance T] [--json]: the model's predicted path from a trial's
// configuration to the target, one reset per step (engine/experiment/simplify.h).
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/sampler_options.h"
#include "core/format.h"
#include "core/input_error.h"
#include "core/thread_pool.h"
#include "experiment/simplify.h"
#include "io/choice_json.h"
#include "io/experiment_file.h"

namespace sebo::cli {

namespace {

using Json = nlohmann::ordered_json;

std::string changed_names(const SearchSpace& space, const std::vector<int>& changed) {
    std::string text;
    for (int i : changed) text += (text.empty() ? "" : ", ") + space.parameter(i).name;
    return text.empty() ? "(none: the target)" : text;
}

Json path_to_json(const Experiment& e, const SimplifyPath& path) {
    const SearchSpace& space = e.space;
    Json out;
    out["trial"] = path.trial;
    out["objective"] = e.primary_objective().metric;
    out["minimize"] = e.primary_objective().minimize;
    out["measured"] = path.measured ? Json(*path.measured) : Json(nullptr);
    out["tolerance"] = path.tolerance;
    out["model"] = to_string(e.method.resolved_model());
    out["steps"] = Json::array();
    for (const SimplifyStep& s : path.steps) {
        Json step;
        step["changed_count"] = static_cast<int>(s.changed.size());
        step["reset"] = s.reset >= 0 ? Json(space.parameter(s.reset).name) : Json(nullptr);
        step["changed"] = Json::array();
        for (int i : s.changed) step["changed"].push_back(space.parameter(i).name);
        step["predicted_mean"] = s.predicted.mean;
        step["predicted_sd"] = s.predicted.sd;
        step["within_tolerance"] = s.within_tolerance;
        // Several objectives: each one's prediction; constraints: the probability of feasibility.
        if (!s.objectives.empty()) {
            step["objectives"] = Json::array();
            for (std::size_t d = 0; d < s.objectives.size(); ++d)
                step["objectives"].push_back({{"metric", e.outcomes.objectives[d].metric},
                                              {"predicted_mean", s.objectives[d].mean},
                                              {"predicted_sd", s.objectives[d].sd}});
        }
        if (s.feasibility) step["feasibility"] = *s.feasibility;
        Json parameters = Json::object();
        for (int i = 0; i < space.dimension(); ++i) {
            const Parameter& p = space.parameter(i);
            const double v = s.parameters[static_cast<std::size_t>(i)];
            parameters[p.name] = p.kind == ParameterKind::Choice ? choice_value_json(p, v) : Json(v);
        }
        step["parameters"] = std::move(parameters);
        out["steps"].push_back(std::move(step));
    }
    return out;
}

void print_path(const Experiment& e, const SimplifyPath& path) {
    const SearchSpace& space = e.space;
    std::printf("trial %d: measured %s = %s; model %s\n", path.trial, e.primary_objective().metric.c_str(),
                path.measured ? format_short(*path.measured).c_str() : "-", to_string(e.method.resolved_model()));
    // Several objectives: a prediction column per objective (the first drives the path);
    // constraints: the probability that all of them hold.
    const auto& objectives = e.outcomes.objectives;
    const bool several = objectives.size() > 1;
    const bool constrained = !e.outcomes.constraints.empty();
    std::string header = several ? std::string() : "predicted (mean +- sd)";
    for (std::size_t d = 0; several && d < objectives.size(); ++d) {
        char column[64];
        std::snprintf(column, sizeof column, "%-24s ", objectives[d].metric.c_str());
        header += column;
    }
    std::printf("%-8s %-10s %-24s %s%-8s %s\n", "changed", "within", header.c_str(), constrained ? "P(feasible) " : "",
                "reset", "changed parameters");
    for (const SimplifyStep& s : path.steps) {
        std::string predicted;
        const std::vector<Prediction> shown = several ? s.objectives : std::vector<Prediction>{s.predicted};
        for (const Prediction& p : shown) {
            char column[64];
            std::snprintf(column, sizeof column, several ? "%-24s " : "%s",
                          (format_short(p.mean) + " +- " + format_short(p.sd, 3)).c_str());
            predicted += column;
        }
        const std::string feasibility = s.feasibility ? format_short(*s.feasibility, 3) : "";
        char pof[32] = "";
        if (constrained) std::snprintf(pof, sizeof pof, "%-11s ", feasibility.c_str());
        std::printf("%-8d %-10s %-24s %s%-8s %s\n", static_cast<int>(s.changed.size()), s.within_tolerance ? "yes" : "no",
                    predicted.c_str(), pof, s.reset >= 0 ? space.parameter(s.reset).name.c_str() : "-",
                    changed_names(space, s.changed).c_str());
    }
    std::printf("within: the predicted %s is at most %s of the start's magnitude %s than the trial's prediction\n",
                e.primary_objective().metric.c_str(), format_short(path.tolerance).c_str(), e.primary_objective().minimize ? "higher" : "lower");
}

}  // namespace

int command_simplify(const Args& args) {
    Arguments parser(
        "simplify", "FILE --trial I [--tolerance T] [--json]",
        "The model's predicted path from a trial's configuration to the target: fit the experiment's\n"
        "model to every completed trial in the analysis, then reset one changed parameter per step -\n"
        "the one whose reset costs the least predicted objective - down to none. Each step shows the\n"
        "changed parameters and the predicted objective (mean +- sd, the objective's units); steps\n"
        "whose prediction is within the tolerance of the trial's (relative to its magnitude) are\n"
        "marked. With several objectives the path follows the first and every objective's prediction\n"
        "is shown; with outcome constraints, the probability that all of them hold. The file is not\n"
        "changed.",
        {{"trial", "I", "the completed trial to start from"},
         {"tolerance", "T", "relative loss of predicted objective still marked as within, in (0, 1] (default 0.2)"},
         threads_option(),
         {"json", "", "machine-readable output"}},
        1, "FILE");
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    if (parser.positionals().empty()) throw UsageError("an experiment FILE is required");
    const auto trial = parser.integer("trial", 0, 1'000'000'000);
    if (!trial) throw UsageError("--trial I is required");
    SimplifyOptions options;
    if (const auto t = parser.number("tolerance")) options.tolerance = *t;
    if (options.validate())
        throw UsageError("--tolerance: " + format_number(options.tolerance) + " is not in (0, 1]");
    const Experiment e = load_experiment(parser.positionals().front());
    const int index = static_cast<int>(*trial);
    if (const auto why = simplify_unavailable(e, index)) throw UsageError("--trial " + std::to_string(index) + ": " + *why);

    ThreadPool pool(threads_from(parser));
    StepControl control;
    control.pool = &pool;
    const SimplifyModelFit fit = fit_simplify_model(e, control);
    if (fit.status != SimplifyModelFit::Status::Ok) {
        std::fprintf(stderr, "sebo simplify: %s\n", fit.message.c_str());
        return 1;
    }
    const SimplifyPath path = simplify_path(e, *fit.model, index, options);
    if (parser.has("json"))
        std::printf("%s\n", path_to_json(e, path).dump(2).c_str());
    else
        print_path(e, path);
    return 0;
}

}  // namespace sebo::cli
