#include "outcome_table_editor.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>
#include <set>

#include "palette_colors.h"
#include "tinted_label.h"

namespace sebo::ui {

namespace {

std::optional<OutcomeTableEditor::MetricRole> parse_role(const QString& text) {
    const QString t = text.trimmed().toLower();
    if (t == "maximize" || t == "max" || t == "maximise") return OutcomeTableEditor::MetricRole::Maximize;
    if (t == "minimize" || t == "min" || t == "minimise") return OutcomeTableEditor::MetricRole::Minimize;
    if (t.isEmpty() || t == "tracked" || t == "track") return OutcomeTableEditor::MetricRole::Tracked;
    return std::nullopt;
}

// A finite number in C notation (the locale's comma is not a decimal point here, as in the files).
std::optional<double> parse_number(const QString& text) {
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(value)) return std::nullopt;
    return value;
}

QString bound_text(double bound) { return QString::number(bound, 'g', 17); }

}  // namespace

OutcomeTableEditor::OutcomeTableEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setHorizontalHeaderLabels({tr("Metric"), tr("Role"), tr("Threshold"), tr("Constraint")});
    table_->horizontalHeaderItem(Name)->setToolTip(tr("The name the evaluator reports the value under"));
    table_->horizontalHeaderItem(Role)->setToolTip(
        tr("maximize or minimize: an objective (one to four); tracked: only recorded (or constrained)"));
    table_->horizontalHeaderItem(Threshold)->setToolTip(
        tr("Objectives only, optional: the value worse than which the objective is worthless (the hypervolume's "
           "reference; empty: from the observed values)"));
    table_->horizontalHeaderItem(Constraint)->setToolTip(
        tr("Optional: a limit the metric must keep, \"<= 50\" or \">= 10\" (several separated by ;). Trials that "
           "break one are infeasible: on no frontier"));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(Role, QHeaderView::ResizeToContents);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 10);
    // A header and four rows.
    table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() +
                             4 * table_->verticalHeader()->defaultSectionSize() + 4);
    layout->addWidget(table_, 1);

    error_ = new TintedLabel(TintedLabel::Tint::Error, this);
    error_->hide();
    layout->addWidget(error_);

    auto* buttons = new QHBoxLayout;
    add_ = new QPushButton(tr("Add metric"), this);
    remove_ = new QPushButton(tr("Remove selected"), this);
    buttons->addWidget(add_);
    buttons->addWidget(remove_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(add_, &QPushButton::clicked, this, &OutcomeTableEditor::addRow);
    connect(remove_, &QPushButton::clicked, this, &OutcomeTableEditor::removeSelectedRows);
    connect(table_, &QTableWidget::itemChanged, this, &OutcomeTableEditor::check);
}

int OutcomeTableEditor::rowCount() const { return table_->rowCount(); }

QComboBox* OutcomeTableEditor::roleBox(int row) const { return qobject_cast<QComboBox*>(table_->cellWidget(row, Role)); }

void OutcomeTableEditor::setRow(int row, const QStringList& cells) {
    {
        const QSignalBlocker block(table_);
        for (int c : {Name, Threshold, Constraint}) {
            auto* item = new QTableWidgetItem(cells.value(c).trimmed());
            if (c == Name && fixed_) item->setFlags(item->flags() & ~Qt::ItemIsEditable);
            table_->setItem(row, c, item);
        }
    }
    auto* role = new QComboBox(table_);
    role->addItem(tr("maximize"), static_cast<int>(MetricRole::Maximize));
    role->addItem(tr("minimize"), static_cast<int>(MetricRole::Minimize));
    role->addItem(tr("tracked"), static_cast<int>(MetricRole::Tracked));
    const std::optional<MetricRole> parsed = parse_role(cells.value(Role));
    role->setCurrentIndex(role->findData(static_cast<int>(parsed.value_or(MetricRole::Tracked))));
    role->setAccessibleName(tr("Role of metric %1").arg(row + 1));
    table_->setCellWidget(row, Role, role);
    connect(role, &QComboBox::currentIndexChanged, this, &OutcomeTableEditor::check);
}

void OutcomeTableEditor::appendRow(const QStringList& cells) {
    const int row = table_->rowCount();
    table_->insertRow(row);
    setRow(row, cells);
    check();
}

void OutcomeTableEditor::addRow() {
    if (fixed_) return;
    // A new metric is an objective while there is none, tracked otherwise.
    bool objective = false;
    for (int r = 0; r < table_->rowCount(); ++r)
        objective = objective || (roleBox(r) && roleBox(r)->currentData().toInt() != static_cast<int>(MetricRole::Tracked));
    appendRow({QString("metric%1").arg(table_->rowCount() + 1), objective ? "tracked" : "maximize", "", ""});
    table_->setCurrentCell(table_->rowCount() - 1, Name);
}

void OutcomeTableEditor::removeSelectedRows() {
    if (fixed_) return;
    std::set<int, std::greater<>> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedIndexes()) rows.insert(index.row());
    if (rows.empty() && table_->currentRow() >= 0) rows.insert(table_->currentRow());
    for (int row : rows) table_->removeRow(row);
    check();
}

void OutcomeTableEditor::setFixedMetrics(bool fixed) {
    fixed_ = fixed;
    add_->setVisible(!fixed);
    remove_->setVisible(!fixed);
    const QSignalBlocker block(table_);
    for (int r = 0; r < table_->rowCount(); ++r)
        if (QTableWidgetItem* item = table_->item(r, Name))
            item->setFlags(fixed ? item->flags() & ~Qt::ItemIsEditable : item->flags() | Qt::ItemIsEditable);
}

void OutcomeTableEditor::setOutcomes(const Outcomes& outcomes) {
    table_->setRowCount(0);
    std::vector<std::string> order;
    for (const sebo::Objective& o : outcomes.objectives) order.push_back(o.metric);
    for (const std::string& m : outcomes.metrics)
        if (!outcomes.objective_on(m)) order.push_back(m);
    for (const std::string& metric : order) {
        const sebo::Objective* o = outcomes.objective_on(metric);
        QStringList constraints;
        for (const OutcomeConstraint& c : outcomes.constraints)
            if (c.metric == metric) constraints << QString("%1 %2").arg(to_string(c.sense), bound_text(c.bound));
        const int row = table_->rowCount();
        table_->insertRow(row);
        setRow(row, {QString::fromStdString(metric), !o ? "tracked" : o->minimize ? "minimize" : "maximize",
                     o && o->threshold ? bound_text(*o->threshold) : QString(), constraints.join("; ")});
    }
    check();
}

void OutcomeTableEditor::check() { emit edited(readOutcomes().has_value()); }

QString OutcomeTableEditor::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

void OutcomeTableEditor::showError(int row, int column, const QString& message) {
    error_->setText(message);
    error_->setVisible(!message.isEmpty());
    const QColor mark = mix(error_text(palette()), palette().color(QPalette::Base), 0.8);
    const QSignalBlocker block(table_);
    for (int r = 0; r < table_->rowCount(); ++r)
        for (int c : {Name, Threshold, Constraint})
            if (QTableWidgetItem* item = table_->item(r, c))
                item->setBackground(r == row && c == column ? QBrush(mark) : QBrush());
    for (int r = 0; r < table_->rowCount(); ++r)
        if (QComboBox* box = roleBox(r))
            box->setStyleSheet(r == row && column == Role ? error_outline_style(box->palette()) : QString());
}

std::optional<Outcomes> OutcomeTableEditor::readOutcomes() {
    static const QRegularExpression constraint_pattern(R"(^\s*(?:([^<>=≤≥\s]+)\s*)?(<=|>=|≤|≥)\s*(\S+)\s*$)");
    Outcomes outcomes;
    const auto where = [this](int row) {
        const QTableWidgetItem* name = table_->item(row, Name);
        const QString metric = name ? name->text().trimmed() : QString();
        return metric.isEmpty() ? tr("Metric %1").arg(row + 1) : tr("Metric %1 (%2)").arg(row + 1).arg(metric);
    };
    const auto fail = [this](int row, int column, const QString& message) -> std::optional<Outcomes> {
        showError(row, column, message);
        return std::nullopt;
    };
    if (table_->rowCount() == 0) return fail(-1, Name, tr("Metrics: add the metric to optimize"));
    std::set<QString> names;
    for (int r = 0; r < table_->rowCount(); ++r) {
        const QString name = table_->item(r, Name) ? table_->item(r, Name)->text().trimmed() : QString();
        if (name.isEmpty()) return fail(r, Name, tr("%1, name: give the metric a name").arg(where(r)));
        if (!names.insert(name).second)
            return fail(r, Name, tr("%1, name: another metric is called '%2'").arg(where(r), name));
        const std::string metric = name.toStdString();
        outcomes.metrics.push_back(metric);
        const auto role = static_cast<MetricRole>(roleBox(r)->currentData().toInt());
        const QString threshold = table_->item(r, Threshold) ? table_->item(r, Threshold)->text().trimmed() : QString();
        if (role == MetricRole::Tracked) {
            if (!threshold.isEmpty())
                return fail(r, Threshold,
                            tr("%1, threshold: only an objective has a threshold (make it maximize or minimize, "
                               "or leave the threshold empty)")
                                .arg(where(r)));
        } else {
            sebo::Objective o;
            o.metric = metric;
            o.minimize = role == MetricRole::Minimize;
            if (!threshold.isEmpty()) {
                const std::optional<double> value = parse_number(threshold);
                if (!value) return fail(r, Threshold, tr("%1, threshold: '%2' is not a number").arg(where(r), threshold));
                o.threshold = value;
            }
            outcomes.objectives.push_back(o);
        }
        const QString constraints = table_->item(r, Constraint) ? table_->item(r, Constraint)->text() : QString();
        for (const QString& part : constraints.split(';', Qt::SkipEmptyParts)) {
            if (part.trimmed().isEmpty()) continue;
            const QRegularExpressionMatch match = constraint_pattern.match(part);
            const std::optional<double> bound = match.hasMatch() ? parse_number(match.captured(3)) : std::nullopt;
            if (!match.hasMatch() || !bound || (!match.captured(1).isEmpty() && match.captured(1) != name))
                return fail(r, Constraint,
                            tr("%1, constraint: '%2' is not \"<= number\" or \">= number\"").arg(where(r), part.trimmed()));
            const QString sense = match.captured(2);
            outcomes.constraints.push_back(
                {metric, sense == "<=" || sense == "≤" ? ConstraintSense::AtMost : ConstraintSense::AtLeast, *bound});
        }
    }
    if (outcomes.objectives.empty())
        return fail(0, Role, tr("Role: make at least one metric an objective (maximize or minimize)"));
    if (static_cast<int>(outcomes.objectives.size()) > Outcomes::kMaxObjectives)
        return fail(-1, Role, tr("Role: at most %1 metrics can be objectives; %2 are")
                                  .arg(Outcomes::kMaxObjectives)
                                  .arg(outcomes.objectives.size()));
    if (auto error = outcomes.validate()) return fail(-1, Name, QString::fromStdString(*error));
    showError(-1, Name, {});
    return outcomes;
}

}  // namespace sebo::ui
