#pragma once
// Standard errors reported for some measurements of a metric and not for others (issue 30 item 6).
// A model uses reported standard errors as known noise only when every measurement of the metric
// in the analysis has one (experiment/model_step.h); otherwise it infers one noise level for all
// of them and the reported errors are not used. That switch is silent in the data, so the programs
// say it once: `sebo run`, `sebo observe`, `sebo frontier` and the explorer's message bar.

#include <string>
#include <vector>

#include "experiment/experiment.h"

namespace sebo {

struct PartialStandardErrors {
    std::string metric;
    int with = 0;     // measurements in the analysis that reported a standard error
    int without = 0;  // and those that did not
};

// The modelled metrics (objectives and constrained metrics) in that state, in the experiment's
// metric order.
std::vector<PartialStandardErrors> partial_standard_errors(const Experiment& experiment);

// "latency: 12 of 20 measurements have a standard error and 8 do not; the model infers the noise
// of latency from the data and does not use the reported standard errors (report one for every
// measurement, or none)".
std::string describe(const PartialStandardErrors& partial);

}  // namespace sebo
