#include "experiment/standard_errors.h"

#include <algorithm>

namespace sebo {

std::vector<PartialStandardErrors> partial_standard_errors(const Experiment& experiment) {
    const std::vector<std::string> modelled = experiment.outcomes.modelled_metrics();
    std::vector<PartialStandardErrors> out;
    for (const std::string& metric : experiment.outcomes.metrics) {
        if (std::find(modelled.begin(), modelled.end(), metric) == modelled.end()) continue;
        PartialStandardErrors p;
        p.metric = metric;
        for (const Trial& t : experiment.trials) {
            if (!experiment.analyzed(t)) continue;
            if (const Measurement* m = t.measurement(metric)) ++(m->sem ? p.with : p.without);
        }
        if (p.with > 0 && p.without > 0) out.push_back(p);
    }
    return out;
}

std::string describe(const PartialStandardErrors& p) {
    const int total = p.with + p.without;
    return p.metric + ": " + std::to_string(p.with) + " of " + std::to_string(total) + " measurements " +
           (p.with == 1 ? "has" : "have") + " a standard error and " + std::to_string(p.without) + " " +
           (p.without == 1 ? "does" : "do") + " not; the model infers the noise of " + p.metric +
           " from the data and does not use the reported standard errors (report one for every measurement, or none)";
}

}  // namespace sebo
