// sebo problems — the built-in problems, their metrics, objectives and constraints, known
// optima and options.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "core/format.h"
#include "problems/problem_catalog.h"

namespace sebo::cli {

namespace {

nlohmann::ordered_json outcomes_json(const Outcomes& outcomes) {
    nlohmann::ordered_json objectives = nlohmann::ordered_json::array();
    for (const Objective& o : outcomes.objectives) {
        nlohmann::ordered_json objective = {{"metric", o.metric}, {"minimize", o.minimize}};
        objective["threshold"] = o.threshold ? nlohmann::ordered_json(*o.threshold) : nlohmann::ordered_json();
        objectives.push_back(objective);
    }
    nlohmann::ordered_json constraints = nlohmann::ordered_json::array();
    for (const OutcomeConstraint& c : outcomes.constraints)
        constraints.push_back({{"metric", c.metric}, {"sense", to_string(c.sense)}, {"bound", c.bound}});
    return {{"metrics", outcomes.metrics}, {"objectives", objectives}, {"constraints", constraints}};
}

}  // namespace

int command_problems(const Args& args) {
    Arguments parser("problems", "[--json]",
                     "List the built-in problems: their metrics, default objectives (with the thresholds that serve as\n"
                     "hypervolume reference) and outcome constraints, the known optimum, and the options 'sebo run'\n"
                     "accepts for them. 'sebo run --objective/--constraint' may choose others among the same metrics.",
                     {{"json", "", "machine-readable output"}});
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    const auto problems = list_problems();
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const ProblemInfo& p : problems) {
        // The problem with its default options: its outcomes and optimum.
        ProblemSpec spec;
        spec.name = p.name;
        const auto problem = make_problem(spec);
        const Outcomes outcomes = problem->outcomes();
        const std::optional<double> optimum = problem->optimum();
        if (parser.has("json")) {
            nlohmann::ordered_json options = nlohmann::ordered_json::array();
            for (const ProblemOptionInfo& o : p.options) options.push_back({{"name", o.name}, {"description", o.description}});
            nlohmann::ordered_json entry = {{"name", p.name}, {"description", p.description}};
            entry.update(outcomes_json(outcomes));
            entry["optimum"] = optimum ? nlohmann::ordered_json(*optimum) : nlohmann::ordered_json();
            entry["optimum_description"] = p.optimum;
            entry["options"] = options;
            out.push_back(entry);
            continue;
        }
        std::printf("%s\n    %s\n", p.name.c_str(), p.description.c_str());
        std::string metrics;
        for (const std::string& m : outcomes.metrics) metrics += (metrics.empty() ? "" : ", ") + m;
        std::printf("    metrics: %s\n    default: %s\n", metrics.c_str(), outcomes.summary().c_str());
        std::printf("    optimum: %s\n", p.optimum.empty() ? "unknown" : p.optimum.c_str());
        for (const ProblemOptionInfo& o : p.options) std::printf("    --%-14s %s\n", o.name.c_str(), o.description.c_str());
        std::printf("\n");
    }
    if (parser.has("json")) std::printf("%s\n", out.dump(2).c_str());
    return 0;
}

}  // namespace sebo::cli
