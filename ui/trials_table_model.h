#pragma once
// The trials of the current snapshot as a table (one row per trial, in experiment order),
// with raw values under SortRole so a QSortFilterProxyModel sorts numbers as numbers, and a
// proxy that can keep only the frontier trials, only those with at most k active parameters
// (the two-objective view's "at most k parameters changed"), or only those whose changed
// parameters mention a text. Every metric has a value column and a SEM column (its standard
// error, when one was recorded), the objectives first in their order, then the other metrics in
// the order of Outcomes::metrics; the Feasible column says whether the trial satisfies every
// outcome constraint (a value that breaks one is in the error colour); the Changed parameters
// column, last, lists what the trial changes from the status quo, "cache_mb 256 → 811"
// (experiment/configuration_changes.h; numbers shortened as the table shows them, in full in the
// tooltip), and sorts by how many, then by the text. Failed trials stay visible with
// their error; trials excluded from analysis show the status "excluded", their value struck
// through and the reason in the Error column. The trials a running step is evaluating follow, with the
// status "running", until the step records them (RunController::runningTrials).

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <optional>
#include <string>
#include <vector>

#include "experiment_snapshot.h"

namespace sebo::ui {

class TrialsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The kinds of column. Value and Sem are one pair of columns per metric, so the position of
    // a kind after them depends on the experiment: column(kind) gives it.
    enum Column { Index, Status, Value, Sem, Feasible, Active, Frontier, Chosen, Generator, Error, Changed, KindCount };
    enum Role {
        SortRole = Qt::UserRole + 1,  // numbers as numbers, text as text
        TrialRole,                    // the trial index of the row
        FrontierRole,                 // true for non-dominated trials
        ActiveRole                    // the number of active parameters (groups)
    };

    explicit TrialsTableModel(QObject* parent = nullptr);

    // `replaced`: a different experiment (reset the whole model); otherwise trials were
    // appended or changed in place and rows are updated and inserted without a reset, so
    // views keep their selection and scroll position.
    void setSnapshot(SnapshotPtr snapshot, bool replaced = false);
    SnapshotPtr snapshot() const { return snapshot_; }
    // The trials being evaluated now; those the snapshot already has are left out.
    void setRunningTrials(std::vector<Trial> trials);
    int runningCount() const { return static_cast<int>(running_.size()); }

    int rowOfTrial(int trial) const;
    // The position of a kind of column; Value and Sem: of the metric-th metric in the table's
    // order (metrics()), the first objective's being 0.
    int column(Column kind, int metric = 0) const;
    // The value column of a metric by name (-1 when it has none), and its SEM column.
    int valueColumn(const QString& metric) const;
    int semColumn(const QString& metric) const;
    // The kind of the column at a position, and for Value and Sem columns which metric.
    Column kindOf(int column) const;
    QString metricOf(int column) const;
    // The metrics with columns, in their order: the objectives, then the others.
    const std::vector<std::string>& metrics() const { return metrics_; }
    int metricColumnCount() const { return static_cast<int>(metrics_.size()); }
    // Whether any trial recorded a standard error of the metric-th metric (its SEM column is
    // worth showing).
    bool hasStandardErrors(int metric) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Running {
        Trial trial;
        int active = 0;
    };
    int recordedCount() const;
    std::vector<Running> notRecorded(std::vector<Running> running) const;

    // The metrics in the table's order: the objectives, then the others.
    static std::vector<std::string> orderedMetrics(const ExperimentSnapshot* snapshot);
    // "cache_mb 256 → 811, …" of a trial, numbers as the table shows them (display_value).
    // "x1 0 → 0.25, x4 …" with the table's number format (display_value), or "no change".
    QString changedText(const Trial& trial, const QString& separator = QStringLiteral(", ")) const;

    SnapshotPtr snapshot_;
    std::vector<Running> running_;
    std::vector<std::string> metrics_;
};

class TrialsProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TrialsProxyModel(QObject* parent = nullptr);
    void setFrontierOnly(bool frontier_only);
    bool frontierOnly() const { return frontier_only_; }
    // Only the trials with at most `max_active` active parameters (groups), and with "frontier
    // only" the trials of `front`, the front of that level (FrontierReport::Level::front); unset:
    // every trial (and the overall frontier).
    void setActiveLimit(std::optional<int> max_active, const QList<int>& front = {});
    std::optional<int> activeLimit() const { return max_active_; }
    // Only the trials whose "Changed parameters" text contains `text` (letter case ignored; every
    // word of it, in any order); empty: every trial.
    void setChangedFilter(const QString& text);
    QString changedFilter() const { return changed_filter_; }

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

private:
    bool frontier_only_ = false;
    std::optional<int> max_active_;
    QList<int> level_front_;
    QString changed_filter_;
};

}  // namespace sebo::ui
