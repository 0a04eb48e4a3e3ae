#include "cli/trial_exclusion_cli.h"

#include <cstdio>

#include "cli/shared_file.h"
#include "core/format.h"
#include "core/input_error.h"
#include "core/timestamp.h"
#include "evaluators/shell_quoting.h"
#include "experiment/analytics.h"
#include "experiment/extreme_values.h"
#include "experiment/runner.h"
#include "experiment/standard_errors.h"
#include "experiment/trial_exclusion.h"
#include "io/shared_experiment_file.h"

namespace sebo::cli {

int observe_exclusion(const Arguments& parser, const std::string& path, bool quiet) {
    const bool exclude = parser.has("exclude");
    if (exclude && parser.has("include")) throw UsageError("give either --exclude REASON or --include, not both");
    if (!parser.has("trial")) throw UsageError(std::string("--") + (exclude ? "exclude" : "include") + " needs --trial I");
    for (const char* flag : {"value", "sem", "failed", "csv", "partial", "overwrite"})
        if (parser.has(flag))
            throw UsageError(std::string("--") + flag + " does not go with --" + (exclude ? "exclude" : "include"));
    const int index = static_cast<int>(*parser.integer("trial", 0, 2'147'483'647));
    // Read, change and write under the file's write lock, like any short writer
    // (docs/file-format.md, "Several writers").
    SharedExperimentFile file(path, lock_options("sebo observe", wait_seconds(parser), quiet),
                              [](const std::string& note) { print_note("sebo observe", note); });
    struct NothingChanged {};
    bool was_excluded = false;
    double hypervolume_before = 0.0;
    Experiment e;
    try {
        e = file.edit([&](Experiment& current) {
            const Trial* before = current.find_trial(index);
            was_excluded = before && before->exclusion;
            hypervolume_before = analyze_frontier(current).hypervolume;
            if (exclude) {
                if (const auto problem = exclude_trial(current, index, *parser.value("exclude"), utc_timestamp()))
                    throw InputError("--trial " + std::to_string(index), *problem);
            } else {
                if (const auto problem = include_trial(current, index))
                    throw InputError("--trial " + std::to_string(index), *problem);
                if (!was_excluded) throw NothingChanged{};
            }
        });
    } catch (const NothingChanged&) {
        if (!quiet) std::fprintf(stderr, "trial %d is not excluded; nothing changed\n", index);
        return 0;
    }
    if (quiet) return 0;
    const Trial& t = *e.find_trial(index);
    const double hypervolume_after = analyze_frontier(e).hypervolume;
    std::string value;
    for (const std::string& metric : e.outcomes.metrics)
        if (const auto v = t.value(metric)) value += (value.empty() ? "" : ", ") + metric + " = " + format_number(*v);
    if (exclude)
        std::fprintf(stderr, "trial %d (%s) %s from analysis: %s\n", index, value.c_str(),
                     was_excluded ? "stays excluded, with the new reason" : "excluded", t.exclusion->reason.c_str());
    else
        std::fprintf(stderr, "trial %d (%s) counts in the analysis again\n", index, value.c_str());
    std::fprintf(stderr, "hypervolume %s (was %s); saved in %s\n", format_short(hypervolume_after).c_str(),
                 format_short(hypervolume_before).c_str(), path.c_str());
    if (exclude)
        std::fprintf(stderr, "undo with: sebo observe %s --trial %d --include\n", shell_quoted(path).c_str(), index);
    return 0;
}

void warn_extreme_values(const Experiment& experiment, const std::vector<int>& trials, const std::string& path) {
    for (int index : trials)
        if (const auto extreme = find_extreme_value(experiment, index))
            std::fprintf(stderr, "warning: %s; if it is a failed measurement: sebo observe %s --trial %d --exclude \"REASON\"\n",
                         describe(*extreme).c_str(), shell_quoted(path).c_str(), index);
}

bool warn_partial_standard_errors(const Experiment& experiment) {
    const std::vector<PartialStandardErrors> partial = partial_standard_errors(experiment);
    for (const PartialStandardErrors& p : partial) std::fprintf(stderr, "warning: %s\n", describe(p).c_str());
    return !partial.empty();
}

}  // namespace sebo::cli
