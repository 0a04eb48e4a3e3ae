#pragma once
// The trials of the current snapshot as a table (one row per trial, in experiment order),
// with raw values under SortRole so a QSortFilterProxyModel sorts numbers as numbers, and a
// proxy that can keep only the frontier trials. Failed trials stay visible with their error;
// trials excluded from analysis show the status "excluded", their value struck through and
// the reason in the Error column. The trials a running step is evaluating follow, with the
// status "running", until the step records them (RunController::runningTrials).

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include "experiment_snapshot.h"

namespace sebo::ui {

class TrialsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Index, Status, Objective, Sem, Active, Frontier, Chosen, Generator, Error, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1,  // numbers as numbers, text as text
        TrialRole,                    // the trial index of the row
        FrontierRole                  // true for non-dominated trials
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

    SnapshotPtr snapshot_;
    std::vector<Running> running_;
};

class TrialsProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TrialsProxyModel(QObject* parent = nullptr);
    void setFrontierOnly(bool frontier_only);
    bool frontierOnly() const { return frontier_only_; }

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

private:
    bool frontier_only_ = false;
};

}  // namespace sebo::ui
