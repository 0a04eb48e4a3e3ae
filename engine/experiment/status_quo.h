#pragma once
// Status quo first (issue 14, item 6; SPEC §10): the first trial of a new experiment is the target
// configuration — every parameter at its target, the system as it runs today — so that the
// frontier's k = 0 point is a measurement, not a model's guess. Set by
// MethodSettings::status_quo_first (off for files written before it existed and for the paper's
// bench presets, which start from Sobol as the paper did).

#include "experiment/experiment.h"

namespace sebo {

// Recorded as the trial's generator.
inline constexpr const char* kStatusQuoGenerator = "status-quo";

// True when the next step must propose the status quo before anything else: the setting is on
// and the experiment has no trial yet (so a file with imported results, or one that already
// measured the status quo, is never given a second one).
bool status_quo_due(const Experiment& experiment);

}  // namespace sebo
