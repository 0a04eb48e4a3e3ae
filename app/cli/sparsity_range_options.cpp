#include "cli/sparsity_range_options.h"

#include <string>

namespace sebo::cli {

OptionSpec max_active_option() {
    return {"max-active", "M",
            "configurations with more than M changed parameters add no hypervolume (default: none; L0 strategies)"};
}

OptionSpec min_active_option() {
    return {"min-active", "N", "fewer than N changed parameters are no better than N (default: none; L0 strategies)"};
}

void apply_sparsity_range_flags(const Arguments& parser, Experiment& experiment) {
    MethodSettings& method = experiment.method;
    if (const auto m = parser.integer("max-active", 1, 1'000'000)) method.max_active = static_cast<int>(*m);
    if (const auto n = parser.integer("min-active", 1, 1'000'000)) method.min_active = static_cast<int>(*n);
    if (!parser.has("max-active") && !parser.has("min-active")) return;
    // The engine's messages name the file fields (method.max_active); say them as the flags.
    auto error = experiment.validate();
    if (!error) return;
    for (const auto& [field, flag] : {std::pair{"method.max_active: ", "--max-active: "},
                                      std::pair{"method.min_active: ", "--min-active: "}})
        if (error->rfind(field, 0) == 0) throw UsageError(flag + error->substr(std::string(field).size()));
}

}  // namespace sebo::cli
