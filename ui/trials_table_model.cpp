#include "trials_table_model.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QLocale>

#include "generator_label.h"
#include "palette_colors.h"

namespace sebo::ui {

TrialsTableModel::TrialsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

int TrialsTableModel::recordedCount() const {
    return snapshot_ ? static_cast<int>(snapshot_->experiment.trials.size()) : 0;
}

std::vector<TrialsTableModel::Running> TrialsTableModel::notRecorded(std::vector<Running> running) const {
    if (snapshot_)
        std::erase_if(running, [this](const Running& r) { return snapshot_->trial(r.trial.index) != nullptr; });
    return running;
}

void TrialsTableModel::setSnapshot(SnapshotPtr snapshot, bool replaced) {
    const int old_rows = rowCount();
    std::swap(snapshot_, snapshot);  // notRecorded() looks at the new snapshot
    std::vector<Running> running = replaced ? std::vector<Running>{} : notRecorded(running_);
    std::swap(snapshot_, snapshot);
    const int new_rows =
        (snapshot ? static_cast<int>(snapshot->experiment.trials.size()) : 0) + static_cast<int>(running.size());
    if (replaced || new_rows < old_rows) {
        beginResetModel();
        snapshot_ = std::move(snapshot);
        running_ = std::move(running);
        endResetModel();
        return;
    }
    if (new_rows > old_rows) {
        beginInsertRows({}, old_rows, new_rows - 1);
        snapshot_ = std::move(snapshot);
        running_ = std::move(running);
        endInsertRows();
    } else {
        snapshot_ = std::move(snapshot);
        running_ = std::move(running);
    }
    // Frontier membership, chosen marks and manual results can change any earlier row.
    if (old_rows > 0) emit dataChanged(index(0, 0), index(old_rows - 1, ColumnCount - 1));
    emit headerDataChanged(Qt::Horizontal, Objective, Objective);
}

void TrialsTableModel::setRunningTrials(std::vector<Trial> trials) {
    std::vector<Running> running;
    for (Trial& t : trials) {
        const int active = snapshot_ ? snapshot_->experiment.sparsity(t) : 0;
        running.push_back({std::move(t), active});
    }
    running = notRecorded(std::move(running));
    const int first = recordedCount();
    const int old_count = static_cast<int>(running_.size());
    const int new_count = static_cast<int>(running.size());
    if (new_count < old_count) {
        beginRemoveRows({}, first + new_count, first + old_count - 1);
        running_ = std::move(running);
        endRemoveRows();
    } else if (new_count > old_count) {
        beginInsertRows({}, first + old_count, first + new_count - 1);
        running_ = std::move(running);
        endInsertRows();
    } else {
        running_ = std::move(running);
    }
    if (const int changed = std::min(old_count, new_count); changed > 0)
        emit dataChanged(index(first, 0), index(first + changed - 1, ColumnCount - 1));
}

int TrialsTableModel::rowOfTrial(int trial) const {
    if (snapshot_)
        if (const int row = snapshot_->position(trial); row >= 0) return row;
    for (std::size_t i = 0; i < running_.size(); ++i)
        if (running_[i].trial.index == trial) return recordedCount() + static_cast<int>(i);
    return -1;
}

int TrialsTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !snapshot_) return 0;
    return recordedCount() + static_cast<int>(running_.size());
}

int TrialsTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TrialsTableModel::data(const QModelIndex& index, int role) const {
    if (!snapshot_ || !index.isValid() || index.row() >= rowCount()) return {};
    const ExperimentSnapshot& s = *snapshot_;
    const bool running = index.row() >= recordedCount();
    const Running* in_flight = running ? &running_[static_cast<std::size_t>(index.row() - recordedCount())] : nullptr;
    const Trial& t = running ? in_flight->trial : s.experiment.trials[static_cast<std::size_t>(index.row())];
    const bool pareto = !running && s.isPareto(t.index);
    const ChosenConfiguration* chosen = running ? nullptr : s.chosen(t.index);
    const int active = running ? in_flight->active : s.sparsity[static_cast<std::size_t>(index.row())];
    const Measurement* value = s.experiment.objective_measurement(t);
    const QString status = running       ? tr("running")
                           : t.exclusion ? tr("excluded")
                                         : QString::fromLatin1(to_string(t.status));
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
        case Objective: return value ? QVariant(value->mean) : QVariant();
        case Sem: return value && value->sem ? QVariant(*value->sem) : QVariant();
        case Active: return active;
        case Frontier: return pareto ? 1 : 0;
        case Chosen: return chosen ? 1 : 0;
        case Generator: return generator_label(t.generator);
        case Error: return error;
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case Index: return t.index;
        case Status: return status;
        case Objective: return value ? display_number(value->mean) : QString();
        case Sem: return value && value->sem ? display_number(*value->sem, 3) : QString();
        case Active: return active;
        case Frontier: return pareto ? tr("yes") : QString();
        case Chosen:
            if (!chosen) return QString();
            return chosen->note.empty() ? tr("chosen") : QString::fromStdString(chosen->note);
        case Generator: return generator_label(t.generator);
        case Error: return error;
        }
        return {};
    case Qt::ToolTipRole:
        if (t.exclusion)
            return tr("Trial %1 is excluded from analysis: %2. Its value (%3) counts nowhere; Trial › Include in "
                      "analysis counts it again.")
                .arg(t.index)
                .arg(QString::fromStdString(t.exclusion->reason))
                .arg(QString::number(value->mean, 'g', 17));
        if (!t.error.empty()) return tr("Trial %1 failed: %2").arg(t.index).arg(QString::fromStdString(t.error));
        if (index.column() == Chosen && chosen && !chosen->note.empty()) return QString::fromStdString(chosen->note);
        if (index.column() == Objective && value) return QString::number(value->mean, 'g', 17);
        if (running) return tr("Being evaluated now (Run › Cancel stops it; the Evaluator log shows its output).");
        if (t.status == TrialStatus::Pending) return tr("Waiting for a result: enter it in the Configuration panel.");
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Index || index.column() == Objective || index.column() == Sem ||
            index.column() == Active)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        // From the application palette, which the table's follows: readable in light and dark themes.
        if (t.status == TrialStatus::Failed || t.status == TrialStatus::Abandoned)
            return QBrush(error_text(QGuiApplication::palette()));
        if ((t.status == TrialStatus::Pending && !running) || t.exclusion)
            return QBrush(muted_text(QGuiApplication::palette()));
        return {};
    case Qt::FontRole:
        if (pareto || t.status == TrialStatus::Pending || running || t.exclusion) {
            QFont font;
            font.setBold(pareto || running);
            font.setItalic(t.status == TrialStatus::Pending && !running);
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
        return snapshot_ ? QString::fromStdString(snapshot_->experiment.primary_objective().metric)
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
