#include "trials_table_model.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QLocale>

#include "generator_label.h"
#include "palette_colors.h"
#include "experiment/configuration_changes.h"

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

std::vector<std::string> TrialsTableModel::orderedMetrics(const ExperimentSnapshot* snapshot) {
    std::vector<std::string> metrics;
    if (!snapshot) return metrics;
    const Outcomes& outcomes = snapshot->experiment.outcomes;
    for (const sebo::Objective& o : outcomes.objectives) metrics.push_back(o.metric);
    for (const std::string& m : outcomes.metrics)
        if (!outcomes.objective_on(m)) metrics.push_back(m);
    return metrics;
}

int TrialsTableModel::column(Column kind, int metric) const {
    const int pairs = 2 * static_cast<int>(metrics_.size());
    if (kind == Value) return Value + 2 * metric;
    if (kind == Sem) return Value + 2 * metric + 1;
    return kind < Value ? static_cast<int>(kind) : static_cast<int>(kind) - 2 + pairs;
}

int TrialsTableModel::valueColumn(const QString& metric) const {
    for (std::size_t i = 0; i < metrics_.size(); ++i)
        if (QString::fromStdString(metrics_[i]) == metric) return column(Value, static_cast<int>(i));
    return -1;
}

int TrialsTableModel::semColumn(const QString& metric) const {
    const int value = valueColumn(metric);
    return value < 0 ? -1 : value + 1;
}

TrialsTableModel::Column TrialsTableModel::kindOf(int column) const {
    const int pairs = 2 * static_cast<int>(metrics_.size());
    if (column < Value) return static_cast<Column>(column);
    if (column < Value + pairs) return (column - Value) % 2 == 0 ? Value : Sem;
    return static_cast<Column>(column - pairs + 2);
}

QString TrialsTableModel::metricOf(int column) const {
    const Column kind = kindOf(column);
    if (kind != Value && kind != Sem) return {};
    return QString::fromStdString(metrics_[static_cast<std::size_t>((column - Value) / 2)]);
}

bool TrialsTableModel::hasStandardErrors(int metric) const {
    if (!snapshot_ || metric < 0 || metric >= static_cast<int>(metrics_.size())) return false;
    const std::string& name = metrics_[static_cast<std::size_t>(metric)];
    for (const Trial& t : snapshot_->experiment.trials)
        if (const Measurement* m = t.measurement(name); m && m->sem) return true;
    return false;
}

QString TrialsTableModel::changedText(const Trial& trial, const QString& separator) const {
    const SearchSpace& space = snapshot_->experiment.space;
    if (static_cast<int>(trial.parameters.size()) != space.dimension()) return {};
    return display_changes(space, changes_from_target(space, trial.parameters), separator);
}

void TrialsTableModel::setSnapshot(SnapshotPtr snapshot, bool replaced) {
    // Other metrics are other columns: a reset.
    replaced = replaced || orderedMetrics(snapshot.get()) != metrics_;
    const int old_rows = rowCount();
    std::swap(snapshot_, snapshot);  // notRecorded() looks at the new snapshot
    std::vector<Running> running = replaced ? std::vector<Running>{} : notRecorded(running_);
    std::swap(snapshot_, snapshot);
    const int new_rows =
        (snapshot ? static_cast<int>(snapshot->experiment.trials.size()) : 0) + static_cast<int>(running.size());
    if (replaced || new_rows < old_rows) {
        beginResetModel();
        metrics_ = orderedMetrics(snapshot.get());
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
    if (old_rows > 0) emit dataChanged(index(0, 0), index(old_rows - 1, columnCount() - 1));
    emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
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
        emit dataChanged(index(first, 0), index(first + changed - 1, columnCount() - 1));
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

int TrialsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : KindCount - 2 + 2 * static_cast<int>(metrics_.size());
}

QVariant TrialsTableModel::data(const QModelIndex& index, int role) const {
    if (!snapshot_ || !index.isValid() || index.row() >= rowCount()) return {};
    const ExperimentSnapshot& s = *snapshot_;
    const Experiment& e = s.experiment;
    const bool running = index.row() >= recordedCount();
    const Running* in_flight = running ? &running_[static_cast<std::size_t>(index.row() - recordedCount())] : nullptr;
    const Trial& t = running ? in_flight->trial : e.trials[static_cast<std::size_t>(index.row())];
    const bool pareto = !running && s.isPareto(t.index);
    const ChosenConfiguration* chosen = running ? nullptr : s.chosen(t.index);
    const int active = running ? in_flight->active : s.sparsity[static_cast<std::size_t>(index.row())];
    const Column kind = kindOf(index.column());
    // The column's metric (Value and Sem columns).
    const std::string metric = kind == Value || kind == Sem ? metrics_[static_cast<std::size_t>((index.column() - Value) / 2)]
                                                            : std::string();
    const Measurement* value = metric.empty() ? nullptr : t.measurement(metric);
    // A completed trial's feasibility; pending, failed and running trials have none.
    const std::optional<Feasibility> feasibility =
        !running && t.status == TrialStatus::Completed ? std::optional(e.feasibility(t)) : std::nullopt;
    const QString status = running       ? tr("running")
                           : t.exclusion ? tr("excluded")
                                         : QString::fromLatin1(to_string(t.status));
    const QString error = t.exclusion ? tr("excluded: %1").arg(QString::fromStdString(t.exclusion->reason))
                                      : QString::fromStdString(t.error);
    // The recorded value breaks one of its metric's constraints.
    const auto breaks_constraint = [&] {
        if (!value || !feasibility) return false;
        for (const OutcomeConstraint& c : e.outcomes.constraints)
            if (c.metric == metric && !c.holds(value->mean)) return true;
        return false;
    };

    switch (role) {
    case TrialRole: return t.index;
    case FrontierRole: return pareto;
    case ActiveRole: return active;
    case SortRole:
        switch (kind) {
        case Index: return t.index;
        case Status: return status;
        // Trials without a value sort after every number in either direction of the objective.
        case Value: return value ? QVariant(value->mean) : QVariant();
        case Sem: return value && value->sem ? QVariant(*value->sem) : QVariant();
        // By how many changes, then by what they are.
        case Changed: return QString("%1 %2").arg(active, 4, 10, QChar('0')).arg(changedText(t));
        // Infeasible 0, unknown 1, feasible 2; trials without a result after them either way.
        case Feasible:
            if (!feasibility) return QVariant();
            return *feasibility == Feasibility::Feasible ? 2 : *feasibility == Feasibility::Unknown ? 1 : 0;
        case Active: return active;
        case Frontier: return pareto ? 1 : 0;
        case Chosen: return chosen ? 1 : 0;
        case Generator: return generator_label(t.generator);
        case Error: return error;
        case KindCount: break;
        }
        return {};
    case Qt::DisplayRole:
        switch (kind) {
        case Index: return t.index;
        case Status: return status;
        case Value: return value ? display_number(value->mean) : QString();
        case Sem: return value && value->sem ? display_number(*value->sem, 3) : QString();
        case Changed: return changedText(t);
        case Feasible:
            if (!feasibility) return QString();
            return *feasibility == Feasibility::Feasible ? tr("yes")
                   : *feasibility == Feasibility::Infeasible ? tr("no")
                                                             : tr("unknown");
        case Active: return active;
        case Frontier: return pareto ? tr("yes") : QString();
        case Chosen:
            if (!chosen) return QString();
            return chosen->note.empty() ? tr("chosen") : QString::fromStdString(chosen->note);
        case Generator: return generator_label(t.generator);
        case Error: return error;
        case KindCount: break;
        }
        return {};
    case Qt::ToolTipRole:
        if (t.exclusion)
            return tr("Trial %1 is excluded from analysis: %2. Its value (%3) counts nowhere; Trial › Include in "
                      "analysis counts it again.")
                .arg(t.index)
                .arg(QString::fromStdString(t.exclusion->reason))
                .arg(QString::number(e.objective_measurement(t) ? e.objective_measurement(t)->mean : 0.0, 'g', 17));
        if (!t.error.empty()) return tr("Trial %1 failed: %2").arg(t.index).arg(QString::fromStdString(t.error));
        if (kind == Chosen && chosen && !chosen->note.empty()) return QString::fromStdString(chosen->note);
        if (kind == Changed && static_cast<int>(t.parameters.size()) == e.space.dimension())
            return changedText(t, QStringLiteral("\n"));  // one per line, as the column shows them
        if (kind == Value && value) {
            QString text = QString::number(value->mean, 'g', 17);
            if (value->sem) text += QString(" ± %1").arg(QString::number(*value->sem, 'g', 6));
            if (breaks_constraint()) {
                QStringList broken;
                for (const OutcomeConstraint& c : e.outcomes.constraints)
                    if (c.metric == metric && !c.holds(value->mean)) broken << QString::fromStdString(c.text());
                text += "\n" + tr("Breaks the constraint %1").arg(broken.join(", "));
            }
            return text;
        }
        if (kind == Feasible && feasibility && *feasibility == Feasibility::Unknown)
            return tr("A constrained metric was not recorded: the trial counts as infeasible.");
        if (kind == Feasible && feasibility && *feasibility == Feasibility::Infeasible)
            return tr("An outcome constraint does not hold: the trial is on no frontier.");
        if (running) return tr("Being evaluated now (Run › Cancel stops it; the Evaluator log shows its output).");
        if (t.status == TrialStatus::Pending) return tr("Waiting for a result: enter it in the Configuration panel.");
        return {};
    case Qt::TextAlignmentRole:
        if (kind == Index || kind == Value || kind == Sem || kind == Active)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        // From the application palette, which the table's follows: readable in light and dark themes.
        if (t.status == TrialStatus::Failed || t.status == TrialStatus::Abandoned)
            return QBrush(error_text(QGuiApplication::palette()));
        if ((t.status == TrialStatus::Pending && !running) || t.exclusion)
            return QBrush(muted_text(QGuiApplication::palette()));
        if (kind == Value && breaks_constraint())
            return QBrush(error_text(QGuiApplication::palette()));
        if (kind == Feasible && feasibility && *feasibility != Feasibility::Feasible)
            return QBrush(error_text(QGuiApplication::palette()));
        return {};
    case Qt::FontRole:
        if (pareto || t.status == TrialStatus::Pending || running || t.exclusion) {
            QFont font;
            font.setBold(pareto || running);
            font.setItalic(t.status == TrialStatus::Pending && !running);
            // An excluded trial's values are struck through: they are kept but do not count.
            font.setStrikeOut(t.exclusion && (kind == Value || kind == Sem));
            return font;
        }
        return {};
    default: return {};
    }
}

QVariant TrialsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    const Column kind = kindOf(section);
    // What a metric is for: an objective and its direction, its constraints, or tracked.
    const auto metric_role = [this](const std::string& metric) {
        const Outcomes& outcomes = snapshot_->experiment.outcomes;
        QStringList parts;
        if (const sebo::Objective* o = outcomes.objective_on(metric))
            parts << (o->minimize ? tr("objective, minimized") : tr("objective, maximized"));
        for (const OutcomeConstraint& c : outcomes.constraints)
            if (c.metric == metric) parts << tr("constraint %1").arg(QString::fromStdString(c.text()));
        if (parts.isEmpty()) parts << tr("tracked");
        return parts.join("; ");
    };
    if (role == Qt::ToolTipRole) {
        switch (kind) {
        case Active: return tr("Parameters changed from their targets (groups, when the space has groups)");
        case Frontier:
            return snapshot_ && snapshot_->experiment.outcomes.objectives.size() > 1
                       ? tr("Non-dominated in the objectives and the number of active parameters")
                       : tr("Non-dominated in objective vs number of active parameters");
        case Sem: return tr("Standard error of %1, when one was reported").arg(metricOf(section));
        case Feasible: return tr("Whether every outcome constraint holds (a trial that is not feasible is on no frontier)");
        case Value: return snapshot_ ? metric_role(metricOf(section).toStdString()) : QVariant();
        case Changed:
            return tr("What the trial changes from the status quo (every parameter at its target), as name old → new; "
                      "sorts by how many, then by name");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (kind) {
    case Index: return tr("Trial");
    case Status: return tr("Status");
    case Value: return metricOf(section);
    // With one metric "SEM" says whose; with several each names its metric.
    case Sem: return metrics_.size() == 1 ? tr("SEM") : tr("%1 SEM").arg(metricOf(section));
    case Changed: return tr("Changed parameters");
    case Feasible: return tr("Feasible");
    case Active: return tr("Active");
    case Frontier: return tr("Frontier");
    case Chosen: return tr("Chosen");
    case Generator: return tr("Generator");
    case Error: return tr("Error");
    case KindCount: break;
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

void TrialsProxyModel::setActiveLimit(std::optional<int> max_active, const QList<int>& front) {
    if (max_active_ == max_active && level_front_ == front) return;
    max_active_ = max_active;
    level_front_ = front;
    invalidateFilter();
}

void TrialsProxyModel::setChangedFilter(const QString& text) {
    const QString filter = text.simplified();
    if (filter == changed_filter_) return;
    changed_filter_ = filter;
    invalidateFilter();
}

bool TrialsProxyModel::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
    const QModelIndex index = sourceModel()->index(source_row, 0, source_parent);
    if (!changed_filter_.isEmpty()) {
        const auto* model = static_cast<const TrialsTableModel*>(sourceModel());
        const QString changed =
            model->index(source_row, model->column(TrialsTableModel::Changed), source_parent).data().toString();
        for (const QString& word : changed_filter_.split(' '))
            if (!changed.contains(word, Qt::CaseInsensitive)) return false;
    }
    if (max_active_) {
        if (frontier_only_) return level_front_.contains(index.data(TrialsTableModel::TrialRole).toInt());
        return index.data(TrialsTableModel::ActiveRole).toInt() <= *max_active_;
    }
    if (!frontier_only_) return true;
    return index.data(TrialsTableModel::FrontierRole).toBool();
}

}  // namespace sebo::ui
