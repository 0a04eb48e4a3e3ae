#include "cli/bonsai_options.h"

#include <string>

#include "core/format.h"

namespace sebo::cli {

OptionSpec bonsai_tolerance_option() {
    return {"bonsai-tolerance", "T",
            "bonsai: stop pruning before a reset loses more than this share of the candidate's expected improvement, "
            "in (0, 1] (default 0.2)"};
}

void apply_bonsai_tolerance_flag(const Arguments& parser, MethodSettings& method) {
    const auto tolerance = parser.number("bonsai-tolerance");
    if (!tolerance) return;
    if (!(*tolerance > 0.0 && *tolerance <= 1.0))
        throw UsageError("--bonsai-tolerance: " + format_number(*tolerance) + " is not in (0, 1]");
    method.bonsai_tolerance = *tolerance;
}

}  // namespace sebo::cli
