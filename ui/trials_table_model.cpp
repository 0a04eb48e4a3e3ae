#include "trials_table_model.h"

#include <QBrush>
#include <QFont>
#include <QLocale>

namespace sebo::ui {

TrialsTableModel::TrialsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TrialsTableModel::setSnapshot(SnapshotPtr snapshot, bool replaced) {
    const int old_rows = rowCount();
    const int new_rows = snapshot ? static_cast<int>(snapshot->experiment.trials.size()) : 0;
    if (replaced || new_rows < old_rows) {
        beginResetModel();
        snapshot_ = std::move(snapshot);
        endResetModel();
        return;
    }
    if (new_rows > old_rows) {
        beginInsertRows({}, old_rows, new_rows - 1);
        snapshot_ = std::move(snapshot);
        endInsertRows();
    } else {
        snapshot_ = std::move(snapshot);
    }
    // Frontier membership, chosen marks and manual results can change any earlier row.
    if (old_rows > 0) emit dataChanged(index(0, 0), index(old_rows - 1, ColumnCount - 1));
    emit headerDataChanged(Qt::Horizontal, Objective, Objective);
}

int TrialsTableModel::rowOfTrial(int trial) const { return snapshot_ ? snapshot_->position(trial) : -1; }

int TrialsTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !snapshot_) return 0;
    return static_cast<int>(snapshot_->experiment.trials.size());
}

int TrialsTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TrialsTableModel::data(const QModelIndex& index, int role) const {
    if (!snapshot_ || !index.isValid() || index.row() >= rowCount()) return {};
    const ExperimentSnapshot& s = *snapshot_;
    const Trial& t = s.experiment.trials[static_cast<std::size_t>(index.row())];
    const bool pareto = s.isPareto(t.index);
    const ChosenConfiguration* chosen = s.chosen(t.index);
    const int active = s.sparsity[static_cast<std::size_t>(index.row())];
    const QString status = t.exclusion ? tr("excluded") : QString::fromLatin1(to_string(t.status));
    const QString error = t.exclusion ? tr("excluded: %1").arg(QString::fromStdString(t.exclusion->reason))
                                      : QString::fromStdString(t.error);

    switch (role) {
    case TrialRole: return t.index;
    case FrontierRole: return pareto;
    case SortRole:
        switch (index.column()) {
        case Index: return t.index;
        case Status: return status;
        // Trials without a value sort after every number in either direction of the objective.
        case Objective: return t.objective ? QVariant(*t.objective) : QVariant();
        case Sem: return t.sem ? QVariant(*t.sem) : QVariant();
        case Active: return active;
        case Frontier: return pareto ? 1 : 0;
        case Chosen: return chosen ? 1 : 0;
        case Generator: return QString::fromStdString(t.generator);
        case Error: return error;
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case Index: return t.index;
        case Status: return status;
        case Objective: return t.objective ? display_number(*t.objective) : QString();
        case Sem: return t.sem ? display_number(*t.sem, 3) : QString();
        case Active: return active;
        case Frontier: return pareto ? tr("yes") : QString();
        case Chosen:
            if (!chosen) return QString();
            return chosen->note.empty() ? tr("chosen") : QString::fromStdString(chosen->note);
        case Generator: return QString::fromStdString(t.generator);
        case Error: return error;
        }
        return {};
    case Qt::ToolTipRole:
        if (t.exclusion)
            return tr("Trial %1 is excluded from analysis: %2. Its value (%3) counts nowhere; Trial › Include in "
                      "analysis counts it again.")
                .arg(t.index)
                .arg(QString::fromStdString(t.exclusion->reason))
                .arg(QString::number(*t.objective, 'g', 17));
        if (!t.error.empty()) return tr("Trial %1 failed: %2").arg(t.index).arg(QString::fromStdString(t.error));
        if (index.column() == Chosen && chosen && !chosen->note.empty()) return QString::fromStdString(chosen->note);
        if (index.column() == Objective && t.objective) return QString::number(*t.objective, 'g', 17);
        if (t.status == TrialStatus::Pending) return tr("Waiting for a result: enter it in the Configuration panel.");
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Index || index.column() == Objective || index.column() == Sem ||
            index.column() == Active)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (t.status == TrialStatus::Failed || t.status == TrialStatus::Abandoned) return QBrush(QColor(176, 0, 32));
        if (t.status == TrialStatus::Pending || t.exclusion) return QBrush(QColor(110, 110, 110));
        return {};
    case Qt::FontRole:
        if (pareto || t.status == TrialStatus::Pending || t.exclusion) {
            QFont font;
            font.setBold(pareto);
            font.setItalic(t.status == TrialStatus::Pending);
            // An excluded trial's value is struck through: it is kept but does not count.
            font.setStrikeOut(t.exclusion && index.column() == Objective);
            return font;
        }
        return {};
    default: return {};
    }
}

QVariant TrialsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Active: return tr("Parameters changed from their targets (groups, when the space has groups)");
        case Frontier: return tr("Non-dominated in objective vs number of active parameters");
        case Sem: return tr("Standard error of the observed objective, when the evaluator reports one");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Index: return tr("Trial");
    case Status: return tr("Status");
    case Objective:
        return snapshot_ && !snapshot_->experiment.objective.name.empty()
                   ? QString::fromStdString(snapshot_->experiment.objective.name)
                   : tr("Objective");
    case Sem: return tr("SEM");
    case Active: return tr("Active");
    case Frontier: return tr("Frontier");
    case Chosen: return tr("Chosen");
    case Generator: return tr("Generator");
    case Error: return tr("Error");
    }
    return {};
}

TrialsProxyModel::TrialsProxyModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(TrialsTableModel::SortRole);
    setDynamicSortFilter(true);
}

void TrialsProxyModel::setFrontierOnly(bool frontier_only) {
    if (frontier_only_ == frontier_only) return;
    frontier_only_ = frontier_only;
    invalidateFilter();
}

bool TrialsProxyModel::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
    if (!frontier_only_) return true;
    return sourceModel()->index(source_row, 0, source_parent).data(TrialsTableModel::FrontierRole).toBool();
}

}  // namespace sebo::ui
