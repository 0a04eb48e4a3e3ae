#include "parameter_constraint_editor.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <functional>
#include <set>

#include "palette_colors.h"
#include "io/linear_constraint_text.h"
#include "space/space_constraints.h"
#include "tinted_label.h"

namespace sebo::ui {

namespace {

// What the engine's parser makes of one row: the constraint, or the parser's message.
struct RowReading {
    std::optional<LinearConstraint> constraint;
    QString message;  // "column 6: two signs in a row ...", when the row does not parse
};

RowReading read_row(const QString& text, const std::vector<ConstraintVariable>& variables) {
    const ConstraintParse parsed = parse_linear_constraint(text.toStdString(), variables);
    if (parsed.ok()) return {parsed.constraint, {}};
    return {std::nullopt, QString::fromStdString(parsed.error.describe())};
}

}  // namespace

ParameterConstraintEditor::ParameterConstraintEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* hint = new TintedLabel(TintedLabel::Tint::Muted,
                                 tr("One per row, in the parameters' units: 2*fa + fb <= 1, fa - fb >= 0, fa + fb = 1. "
                                    "Every proposed configuration satisfies them; fixed parameters are constants, "
                                    "log-scale ones cannot appear."),
                                 this);
    layout->addWidget(hint);
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName("parameterConstraints");
    table_->setHorizontalHeaderLabels({tr("Constraint"), tr("Reads as")});
    table_->horizontalHeaderItem(Text)->setToolTip(
        tr("A linear constraint between numeric parameters, in their units: 2*fa + fb <= 1, fa - fb >= 0, fa + fb = 1 "
           "(quote other names: 'cache size' + 'timeout-ms' <= 10). Every proposed configuration satisfies it."));
    table_->horizontalHeaderItem(Check)->setToolTip(tr("What the constraint says once read, or why it cannot be read"));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    layout->addWidget(table_, 1);

    summary_ = new TintedLabel(TintedLabel::Tint::Muted, this);
    summary_->setObjectName("parameterConstraintSummary");
    layout->addWidget(summary_);

    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add constraint"), this);
    auto* remove = new QPushButton(tr("Remove selected"), this);
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, &ParameterConstraintEditor::addRow);
    connect(remove, &QPushButton::clicked, this, &ParameterConstraintEditor::removeSelectedRows);
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (item->column() == Text) revalidate();
    });
    revalidate();
}

QLabel* ParameterConstraintEditor::summaryLabel() const { return summary_; }

void ParameterConstraintEditor::setConstraints(const QStringList& texts) {
    {
        const QSignalBlocker block(table_);
        table_->setRowCount(0);
        for (const QString& text : texts) {
            const int row = table_->rowCount();
            table_->insertRow(row);
            table_->setItem(row, Text, new QTableWidgetItem(text));
        }
    }
    revalidate();
}

QStringList ParameterConstraintEditor::constraintTexts() const {
    QStringList texts;
    for (int r = 0; r < table_->rowCount(); ++r)
        if (const QTableWidgetItem* item = table_->item(r, Text); item && !item->text().trimmed().isEmpty())
            texts << item->text().trimmed();
    return texts;
}

void ParameterConstraintEditor::addRow() {
    const int row = table_->rowCount();
    {
        const QSignalBlocker block(table_);
        table_->insertRow(row);
        table_->setItem(row, Text, new QTableWidgetItem);
    }
    table_->setCurrentCell(row, Text);
    table_->editItem(table_->item(row, Text));
    revalidate();
}

void ParameterConstraintEditor::removeSelectedRows() {
    std::set<int, std::greater<>> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedIndexes()) rows.insert(index.row());
    if (rows.empty() && table_->currentRow() >= 0) rows.insert(table_->currentRow());
    {
        const QSignalBlocker block(table_);
        for (int row : rows) table_->removeRow(row);
    }
    revalidate();
}

void ParameterConstraintEditor::setParameters(const std::optional<SearchSpace>& parameters) {
    parameters_ = parameters;
    revalidate();
}

std::optional<SearchSpace> ParameterConstraintEditor::readSpace(const SearchSpace& parameters, QString* error) const {
    const std::vector<ConstraintVariable> variables = constraint_variables(parameters);
    std::vector<LinearConstraint> constraints;
    int number = 0;
    for (int r = 0; r < table_->rowCount(); ++r) {
        // As typed, so that the parser's columns are the row's.
        const QString text = table_->item(r, Text) ? table_->item(r, Text)->text() : QString();
        if (text.trimmed().isEmpty()) continue;
        ++number;
        const RowReading reading = read_row(text, variables);
        if (!reading.constraint) {
            *error = tr("Constraint %1 ('%2'), %3").arg(number).arg(text.trimmed(), reading.message);
            return std::nullopt;
        }
        constraints.push_back(*reading.constraint);
    }
    SearchSpace space(parameters.declared_parameters(), std::move(constraints));
    // The checks `sebo new` makes on creation: an empty feasible set, a target that violates one
    // (their messages say "parameter constraints: ..." or "the target point ... violates ...").
    std::optional<std::string> message = space.validate();
    if (!message) message = check_constraints_on_creation(space);
    if (message) {
        *error = QString::fromStdString(*message);
        return std::nullopt;
    }
    return space;
}

void ParameterConstraintEditor::revalidate() {
    const QSignalBlocker block(table_);
    const QPalette& palette = table_->palette();
    std::vector<ConstraintVariable> variables;
    if (parameters_) variables = constraint_variables(*parameters_);
    QString first_problem;
    int rows_with_text = 0;
    for (int r = 0; r < table_->rowCount(); ++r) {
        QTableWidgetItem* text_item = table_->item(r, Text);
        if (!text_item) table_->setItem(r, Text, text_item = new QTableWidgetItem);
        auto* check = new QTableWidgetItem;
        check->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        text_item->setBackground(QBrush());
        const QString text = text_item->text();
        if (text.trimmed().isEmpty()) {
            check->setText(tr("(empty: ignored)"));
            check->setForeground(muted_text(palette));
        } else if (!parameters_) {
            ++rows_with_text;
            check->setText(tr("checked once the parameters are valid"));
            check->setForeground(muted_text(palette));
        } else {
            ++rows_with_text;
            const RowReading reading = read_row(text, variables);
            if (reading.constraint) {
                std::vector<std::string> names = parameters_->variable_names();
                check->setText(QString::fromStdString(canonical_text(*reading.constraint, names)));
            } else {
                check->setText(reading.message);
                check->setForeground(error_text(palette));
                text_item->setBackground(tone_background(palette, Tone::Error));
                if (first_problem.isEmpty())
                    first_problem = tr("Constraint %1 ('%2'), %3").arg(rows_with_text).arg(text.trimmed(), reading.message);
            }
        }
        check->setToolTip(check->text());
        table_->setItem(r, Check, check);
    }

    TintedLabel* summary = summary_;
    QString summary_text;
    if (rows_with_text == 0) {
        summary_text = tr("No constraints: any configuration within the bounds may be proposed.");
    } else if (!parameters_) {
        summary_text = tr("The constraints are checked once the parameters above are valid.");
    } else if (first_problem.isEmpty()) {
        QString error;
        if (readSpace(*parameters_, &error))
            summary_text = tr("Some configurations satisfy every constraint, and the target point (the status quo) is one of "
                              "them.");
        else
            first_problem = error;
    }
    if (!first_problem.isEmpty()) summary_text = first_problem;
    summary->setTint(first_problem.isEmpty() ? TintedLabel::Tint::Muted : TintedLabel::Tint::Error);
    summary->setText(summary_text);
    problem_ = first_problem;
    const bool acceptable = first_problem.isEmpty();
    const bool changed = acceptable != acceptable_;
    acceptable_ = acceptable;
    if (changed) emit acceptableChanged(acceptable);
    emit checked();
}

}  // namespace sebo::ui
