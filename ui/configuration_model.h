#pragma once
// One trial's configuration, a row per parameter: value, target, changed (SPEC §5 "a
// configuration inspector"). Changed parameters come first, each part in search-space order,
// because the point of a sparse configuration is the few parameters it changes; the space's
// fixed parameters (issue 14 item 2) come last, marked "fixed" and never counted as changed. The
// value's tooltip gives the bounds and the minimum change that counts (space/min_change.h).

#include <QAbstractTableModel>
#include <vector>

#include "experiment_snapshot.h"

namespace sebo::ui {

class ConfigurationModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Value, Target, Changed, Group, ColumnCount };
    // ParameterRole: the varying parameter's index (SearchSpace::parameter), -1 for a fixed one.
    enum Role { SortRole = Qt::UserRole + 1, ParameterRole, ChangedRole, FixedRole };

    explicit ConfigurationModel(QObject* parent = nullptr);

    void setTrial(SnapshotPtr snapshot, int trial);
    int trial() const { return trial_; }
    int changedCount() const { return changed_count_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        const Parameter* spec = nullptr;  // in the snapshot's space
        int parameter = 0;                // column of the varying parameters; -1 for a fixed one
        double value = 0.0;
        double target = 0.0;
        bool changed = false;
    };
    SnapshotPtr snapshot_;
    int trial_ = -1;
    int changed_count_ = 0;
    std::vector<Row> rows_;
};

}  // namespace sebo::ui
