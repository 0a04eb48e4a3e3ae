#pragma once
// One trial's configuration, a row per parameter: value, target, changed (SPEC §5 "a
// configuration inspector"). Changed parameters come first, each part in search-space order,
// because the point of a sparse configuration is the few parameters it changes.

#include <QAbstractTableModel>
#include <vector>

#include "experiment_snapshot.h"

namespace sebo::ui {

class ConfigurationModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Value, Target, Changed, Group, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, ParameterRole, ChangedRole };

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
        int parameter = 0;
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
