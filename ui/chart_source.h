#pragma once
// What the frontier, objectives and hypervolume charts plot (issue 30 items 4–5; SPEC §11 "Noise is
// the normal case"): every measured configuration once —
//
//  - measured: as recorded, the replicates of a configuration merged into one point at its first
//    trial (mean, SEM, count; experiment/replicates.h), the other replicates left out;
//  - the model's estimates: each configuration at its posterior mean, with its 95 % credible
//    interval, the frontier line connecting the recommended configuration of every k
//    (experiment/recommendations.h). The default whenever an objective is noisy
//    (RecommendationReport::noisy_objective: a standard error was reported, or the model's inferred
//    noise is not negligible); toggleAction() goes back to the measurements.
//
// The estimates come from a model fit, which takes from milliseconds (a GP) to a minute (SAAS with
// NUTS): it runs on a worker thread, as the "explain this trial" job does (simplify_job.h), after
// the analysed trials change and while no run is going (a step needs the CPU), and is published as
// an immutable report. Until it is there (or when it cannot be made: fewer than two trials count)
// the charts show the measurements, and the toggle says why. A change that does not touch what the
// model sees (a chosen mark, the selection, a pending trial) keeps the estimates.
//
// The charts get derived snapshots (ExperimentSnapshot::values says which): the experiment with
// every configuration as one trial carrying the values shown, so that the frontier, the staircase,
// the hypervolume trace and the tooltips all follow from the same analytics as before. With the
// model's values, feasibility is that of the posterior means (the recommendations use P(feasible)
// >= 1/2; for one constraint and no warp the two agree).

#include <QObject>
#include <QString>
#include <cstdint>
#include <map>
#include <memory>
#include <stop_token>
#include <string>
#include <thread>

#include "experiment_snapshot.h"

class QAction;
class QTimer;

namespace sebo {
class ThreadPool;
}

namespace sebo::ui {

// The experiment with each configuration measured more than once as one trial: its first trial
// holds the merged measurement of every metric, the others are marked abandoned ("a replicate of
// trial N") so that no analysis counts them twice. `replicates` receives the groups.
Experiment merged_replicates_view(const Experiment& experiment, std::map<int, std::vector<int>>* replicates);
// The same with each estimated configuration's modelled metrics at the model's posterior means
// (no standard error; the interval is in the report).
Experiment model_estimates_view(const Experiment& experiment, const RecommendationReport& estimates,
                                std::map<int, std::vector<int>>* replicates);

class ChartSource : public QObject {
    Q_OBJECT
public:
    explicit ChartSource(QObject* parent = nullptr);
    // Cancels a computation and waits for its worker.
    ~ChartSource() override;

    // The document's snapshot; chartSnapshotChanged() follows at once (with the estimates when
    // they still apply), and a new estimate is scheduled when the model's data changed.
    void setSnapshot(SnapshotPtr document);
    // Another experiment: the toggle follows the estimates again (the person's choice was for the
    // previous one).
    void reset();
    // While a run is going no estimate is computed; the last request runs when it ends.
    void setRunning(bool running);
    // How long after the last change an estimate starts (it is cancelled by a newer change).
    void setDelay(int milliseconds);

    SnapshotPtr chartSnapshot() const { return chart_; }
    // The estimates of the current experiment (null while they are computed, stale or failed).
    std::shared_ptr<const RecommendationReport> estimates() const;
    bool isComputing() const { return computing_; }
    // "Model estimates" (checkable): the charts show the model's estimates; enabled when there are
    // some, checked by default when an objective is noisy.
    QAction* toggleAction() const { return toggle_; }
    // Why the estimates are not shown (computing, too few trials, the fit failed), or empty.
    QString status() const { return status_; }

signals:
    void chartSnapshotChanged(sebo::ui::SnapshotPtr snapshot);
    // estimates() changed (new, or gone stale).
    void estimatesChanged();

private:
    void publish();
    void schedule();
    void start();
    void finished(std::shared_ptr<const RecommendationReport> report, std::string key, std::uint64_t generation);
    void stopWorker();
    void updateToggle();

    SnapshotPtr document_;
    SnapshotPtr chart_;
    std::string key_;            // what the model sees of document_
    std::string estimates_key_;  // what it saw for estimates_
    std::shared_ptr<const RecommendationReport> estimates_;
    bool running_ = false;
    bool computing_ = false;
    bool user_choice_ = false;  // the person set the toggle for this experiment
    QString status_;
    QAction* toggle_;
    QTimer* delay_;
    std::unique_ptr<ThreadPool> pool_;
    std::jthread worker_;
    std::uint64_t generation_ = 0;
};

// What the model sees of an experiment: a key that changes when the trials that count, their
// values, the outcomes or the model's settings change (the estimates are recomputed), and only then.
std::string model_input_key(const Experiment& experiment);

}  // namespace sebo::ui
