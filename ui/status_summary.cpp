#include "status_summary.h"

#include <QObject>

#include "experiment_snapshot.h"

namespace sebo::ui {

QString status_summary(const ExperimentSnapshot& s) {
    const auto tr = [](const char* text) { return QObject::tr(text); };
    const Experiment& e = s.experiment;
    QString text = static_cast<int>(e.trials.size()) <= e.method.budget
                       ? tr("%1 of %2 trials").arg(e.trials.size()).arg(e.method.budget)
                       : tr("%1 trials (beyond the budget of %2)").arg(e.trials.size()).arg(e.method.budget);
    const int failed = e.count(TrialStatus::Failed);
    const int pending = e.count(TrialStatus::Pending);
    if (failed) text += tr(" · %1 failed").arg(failed);
    if (pending) text += tr(" · %1 pending").arg(pending);
    if (const int excluded = e.excluded_count()) text += tr(" · %1 excluded").arg(excluded);
    if (!e.outcomes.constraints.empty()) text += tr(" · %1 feasible").arg(s.report.feasible_trials);
    if (e.outcomes.objectives.size() == 1 && !s.report.levels.empty() && s.report.levels.back().best_objective)
        text += tr(" · best %1").arg(display_number(*s.report.levels.back().best_objective, 5));
    if (s.completedCount() > 0) text += tr(" · hypervolume %1").arg(display_number(s.report.hypervolume, 5));
    return text;
}

}  // namespace sebo::ui
