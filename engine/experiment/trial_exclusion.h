#pragma once
// Excluding a completed trial from the analysis, and including it again (Trial::exclusion): the
// one place where clients change it — `sebo observe --exclude/--include` and the GUI's
// Trial › Exclude from analysis — with the checks and messages both show. An excluded trial
// keeps its value; Experiment::utility() leaves it out of every analysis.

#include <optional>
#include <string>

#include "experiment/experiment.h"

namespace sebo {

// Marks the trial excluded with the reason (surrounding blanks removed) and the timestamp; an
// excluded trial gets the new reason. Returns why it cannot be done, naming the trial: there is
// no such trial, it is not completed (failed, abandoned and pending trials never count anyway),
// or the reason is empty. The experiment is unchanged then.
std::optional<std::string> exclude_trial(Experiment& experiment, int trial, const std::string& reason,
                                         const std::string& timestamp);

// Counts the trial again. Returns why it cannot be done (there is no such trial); a trial that is
// not excluded is left as it is.
std::optional<std::string> include_trial(Experiment& experiment, int trial);

}  // namespace sebo
