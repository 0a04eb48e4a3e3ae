#pragma once
// The status bar's one-line summary of an experiment: trials against the budget (imported trials
// may outnumber it, and then it says so rather than "75 of 30"), failed, pending, excluded and
// feasible counts, the best objective and the hypervolume.

#include <QString>

namespace sebo::ui {

struct ExperimentSnapshot;

QString status_summary(const ExperimentSnapshot& snapshot);

}  // namespace sebo::ui
