#include "cli/noise_options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <tuple>

#include "core/input_error.h"
#include "io/outcome_text.h"

namespace sebo::cli {

OptionSpec noise_option() {
    return {"noise", "SD|METRIC=SD",
            "measure a built-in problem with Gaussian noise of standard deviation SD (in each metric's units; "
            "METRIC=SD for one metric); repeatable",
            false, true};
}

std::map<std::string, double> noise_from_options(const Arguments& parser) {
    std::map<std::string, double> noise;
    for (const std::string& text : parser.values("noise")) {
        std::string metric = "*";
        double sd = 0.0;
        if (text.find('=') == std::string::npos) {
            errno = 0;
            char* end = nullptr;
            sd = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !std::isfinite(sd) || errno == ERANGE)
                throw UsageError("--noise: '" + text + "' is neither a standard deviation nor METRIC=SD");
        } else {
            try {
                std::tie(metric, sd) = parse_named_number(text, "--noise");
            } catch (const InputError& e) {
                throw UsageError(e.what());
            }
        }
        if (!(sd > 0.0)) throw UsageError("--noise: '" + text + "': the standard deviation must be positive");
        if (!noise.emplace(metric, sd).second)
            throw UsageError("--noise: " + (metric == "*" ? std::string("a plain SD") : "'" + metric + "'") +
                             " is given twice");
    }
    return noise;
}

}  // namespace sebo::cli
