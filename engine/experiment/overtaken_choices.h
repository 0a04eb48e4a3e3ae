#pragma once
// "Notice what changed" (issue 32 item 5): a configuration someone chose to take away is overtaken
// when a later measurement is better on every objective and feasible — the choice deserves a second
// look. The explorer says so in its message bar when a trial arrives; the report lists every such
// pair.
//
// Overtaken means: the trial counts in the analysis (Experiment::analyzed), is feasible
// (Experiment::feasible), and its value of every objective is strictly better than the chosen
// trial's (in the objective's direction). A chosen trial that does not count (excluded, failed) is
// never overtaken; a trial never overtakes itself or a replicate of the same configuration.

#include <vector>

#include "experiment/experiment.h"

namespace sebo {

struct OvertakenChoice {
    int chosen = 0;  // the chosen trial
    int by = 0;      // the trial that is better on every objective
};

// For each chosen configuration in Experiment::chosen order, the trials among `candidates` (trial
// indices; unknown ones are ignored) that overtake it, in the order given.
std::vector<OvertakenChoice> overtaken_choices(const Experiment& experiment, const std::vector<int>& candidates);
// The same over every trial of the experiment.
std::vector<OvertakenChoice> overtaken_choices(const Experiment& experiment);

}  // namespace sebo
