#include "configuration_model.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QStringList>

#include "palette_colors.h"

namespace sebo::ui {

ConfigurationModel::ConfigurationModel(QObject* parent) : QAbstractTableModel(parent) {}

void ConfigurationModel::setTrial(SnapshotPtr snapshot, int trial) {
    beginResetModel();
    snapshot_ = std::move(snapshot);
    trial_ = trial;
    rows_.clear();
    changed_count_ = 0;
    const Trial* t = snapshot_ ? snapshot_->trial(trial) : nullptr;
    if (t && static_cast<int>(t->parameters.size()) == snapshot_->experiment.space.dimension()) {
        const SearchSpace& space = snapshot_->experiment.space;
        const std::vector<bool> mask = space.active_mask(t->parameters);
        std::vector<Row> unchanged;
        for (int i = 0; i < space.dimension(); ++i) {
            const Row row{&space.parameter(i), i, t->parameters[static_cast<std::size_t>(i)],
                          space.parameter(i).resolved_target(), static_cast<bool>(mask[static_cast<std::size_t>(i)])};
            (row.changed ? rows_ : unchanged).push_back(row);
        }
        changed_count_ = static_cast<int>(rows_.size());
        rows_.insert(rows_.end(), unchanged.begin(), unchanged.end());
        for (const Parameter& p : space.fixed_parameters())
            rows_.push_back(Row{&p, -1, p.resolved_target(), p.resolved_target(), false});
    } else {
        trial_ = -1;
    }
    endResetModel();
}

int ConfigurationModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ConfigurationModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid()) return 0;
    // The group column only when the space has groups.
    return snapshot_ && snapshot_->experiment.space.has_groups() ? ColumnCount : ColumnCount - 1;
}

QVariant ConfigurationModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    const Parameter& p = *row.spec;
    const bool fixed = row.parameter < 0;
    switch (role) {
    case ParameterRole: return row.parameter;
    case ChangedRole: return row.changed;
    case FixedRole: return fixed;
    case SortRole:
        switch (index.column()) {
        case Name: return QString::fromStdString(p.name);
        case Value: return row.value;
        case Target: return row.target;
        case Changed: return row.changed ? 1 : fixed ? -1 : 0;
        case Group: return QString::fromStdString(p.group);
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name: return QString::fromStdString(p.name);
        case Value: return display_value(p, row.value);
        case Target: return display_value(p, row.target);
        case Changed: return row.changed ? tr("changed") : fixed ? tr("fixed") : QString();
        case Group: return QString::fromStdString(p.group);
        }
        return {};
    case Qt::ToolTipRole:
        if (fixed)
            return tr("Fixed at %1 for this study: sent to the evaluator with every trial, never varied, never counted "
                      "as a change")
                .arg(QString::number(row.value, 'g', 17));
        if ((index.column() == Value || index.column() == Target) && p.kind == ParameterKind::Choice) {
            QStringList values;
            for (const ChoiceValue& v : p.values) values << QString::fromStdString(v.text);
            return tr("one of %1%2").arg(values.join(QStringLiteral(" | ")), p.ordered ? tr(" (ordered)") : QString());
        }
        if (index.column() == Value || index.column() == Target) {
            QString text = QString::number(index.column() == Value ? row.value : row.target, 'g', 17);
            text += tr(" (bounds %1 to %2%3)")
                        .arg(display_value(p, p.lower), display_value(p, p.upper),
                             p.log_scale ? tr(", log scale") : QString());
            // What counts as a change (space/min_change.h; without one, 1 % of the range).
            text += p.min_change ? tr("\nMinimum change: %1; a smaller change from the target counts as none")
                                       .arg(QString::fromStdString(to_text(*p.min_change)))
                                 : tr("\nMinimum change: 1% of the range (the default); a smaller change from the target "
                                      "counts as none");
            return text;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Value || index.column() == Target) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::FontRole:
        if (row.changed) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        if (!row.changed) return QBrush(muted_text(QGuiApplication::palette()));
        return {};
    default: return {};
    }
}

QVariant ConfigurationModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name: return tr("Parameter");
    case Value: return tr("Value");
    case Target: return tr("Target");
    case Changed: return tr("Changed");
    case Group: return tr("Group");
    }
    return {};
}

}  // namespace sebo::ui
