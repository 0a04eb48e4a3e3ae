// sebo problems — the built-in problems and their options.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "problems/problem_catalog.h"

namespace sebo::cli {

int command_problems(const Args& args) {
    Arguments parser("problems", "[--json]", "List the built-in problems and the options 'sebo run' accepts for them.",
                     {{"json", "", "machine-readable output"}});
    if (!parser.parse(args)) {
        std::fputs(parser.help().c_str(), stdout);
        return 0;
    }
    const auto problems = list_problems();
    if (parser.has("json")) {
        nlohmann::ordered_json out = nlohmann::ordered_json::array();
        for (const ProblemInfo& p : problems) {
            nlohmann::ordered_json options = nlohmann::ordered_json::array();
            for (const ProblemOptionInfo& o : p.options) options.push_back({{"name", o.name}, {"description", o.description}});
            out.push_back({{"name", p.name}, {"description", p.description}, {"options", options}});
        }
        std::printf("%s\n", out.dump(2).c_str());
        return 0;
    }
    for (const ProblemInfo& p : problems) {
        std::printf("%s\n    %s\n", p.name.c_str(), p.description.c_str());
        for (const ProblemOptionInfo& o : p.options) std::printf("    --%-14s %s\n", o.name.c_str(), o.description.c_str());
        std::printf("\n");
    }
    return 0;
}

}  // namespace sebo::cli
