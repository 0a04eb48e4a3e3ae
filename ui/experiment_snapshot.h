#pragma once
// An immutable picture of an experiment and its frontier analytics (SPEC §3). Every widget
// reads one of these and nothing else: the document builds a new snapshot after each change
// and hands out shared pointers to const, so no view ever sees an experiment being modified
// (DESIGN "Threading": widgets only ever read snapshots).

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "experiment/analytics.h"
#include "experiment/configuration_changes.h"
#include "experiment/experiment.h"
#include "experiment/recommendations.h"

namespace sebo::ui {

// What the values of a snapshot's trials are (chart_source.h): as measured (the document's own
// snapshot); with the replicates of each configuration merged into its first trial (mean, SEM; the
// others left out of the analysis); or the model's estimates of each configuration (posterior
// means, their 95 % intervals in `estimates`).
enum class ValueView { Measured, MergedReplicates, ModelEstimates };

struct ExperimentSnapshot {
    Experiment experiment;
    FrontierReport report;
    // Per trial, in the order of experiment.trials: its sparsity count (active parameters, or
    // active groups when the space has groups).
    std::vector<int> sparsity;
    // The most recently added completed trial, if any (marked in the frontier chart).
    std::optional<int> newest_completed;
    // Increases with every change of the document, so views can skip redundant work.
    int revision = 0;

    // The charts' snapshots (chart_source.h) say what their values are; the document's is Measured.
    ValueView values = ValueView::Measured;
    // MergedReplicates and ModelEstimates: the measurements of each configuration measured more than
    // once, by the trial that stands for it (its first).
    std::map<int, std::vector<int>> replicates;
    // ModelEstimates: where the values come from, and the same experiment with its replicates merged
    // (what was measured, for tooltips).
    std::shared_ptr<const RecommendationReport> estimates;
    std::shared_ptr<const ExperimentSnapshot> measured;

    bool isPareto(int trial) const;
    // Position of a trial in experiment.trials, or -1.
    int position(int trial) const;
    const Trial* trial(int index) const;
    int sparsityOf(int trial) const;
    const ChosenConfiguration* chosen(int trial) const;
    // Names of the parameters a trial changes away from their targets, in space order.
    QStringList activeNames(int trial) const;
    int completedCount() const;
    // The trial that stands for `trial`'s configuration here (the first of its replicates when they
    // are merged; the trial itself otherwise).
    int standIn(int trial) const;
    // The measurements merged into `trial` here (the trial alone when there are none).
    std::vector<int> measurementsOf(int trial) const;
    // ModelEstimates: the model's estimate of `trial`'s configuration.
    const ConfigurationEstimate* estimateOf(int trial) const;

private:
    friend std::shared_ptr<const ExperimentSnapshot> make_view_snapshot(Experiment experiment, int revision, ValueView values,
                                                                        std::map<int, std::vector<int>> replicates,
                                                                        std::shared_ptr<const RecommendationReport> estimates,
                                                                        std::shared_ptr<const ExperimentSnapshot> measured);
    std::map<int, int> position_;
    std::vector<int> pareto_sorted_;
};

using SnapshotPtr = std::shared_ptr<const ExperimentSnapshot>;

// Runs the analytics once and freezes the result.
SnapshotPtr make_snapshot(Experiment experiment, int revision);
// A chart's snapshot of a derived experiment (chart_source.h), with what its values are.
SnapshotPtr make_view_snapshot(Experiment experiment, int revision, ValueView values,
                               std::map<int, std::vector<int>> replicates,
                               std::shared_ptr<const RecommendationReport> estimates = nullptr,
                               SnapshotPtr measured = nullptr);

// Short, readable number text for tables and labels (full precision belongs in tooltips/exports).
QString display_number(double value, int significant = 6);
// "1 trial", "3 trials": English plurals without a translation catalogue.
QString count_text(long long n, const QString& singular, const QString& plural);
// A duration for people: "< 1 ms", "35 ms", "2.4 s", "3 min 20 s".
QString display_duration(double seconds);
// Parameter value in the parameter's own terms (integers without decimals).
QString display_value(const Parameter& parameter, double value);
// "x1 0 → 0.25" per change, joined by `separator`, with display_value's numbers (the engine's
// describe() keeps every digit, for files and the CLI); "no change" when there is none.
QString display_changes(const SearchSpace& space, const std::vector<ParameterChange>& changes,
                        const QString& separator = QStringLiteral(", "));

}  // namespace sebo::ui

Q_DECLARE_METATYPE(sebo::ui::SnapshotPtr)
