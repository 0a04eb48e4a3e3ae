#include "parameter_table_editor.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLocale>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <set>

#include "configuration_inspector.h"
#include "parameter_constraint_editor.h"
#include "io/choice_text.h"
#include "io/space_file.h"
#include "palette_colors.h"
#include "tinted_label.h"

namespace sebo::ui {

namespace {

std::optional<ParameterKind> parse_kind(const QString& text) {
    const QString t = text.trimmed().toLower();
    if (t.isEmpty() || t == "continuous" || t == "float" || t == "real" || t == "double" || t == "c")
        return ParameterKind::Continuous;
    if (t == "integer" || t == "int" || t == "i" || t == "discrete") return ParameterKind::Integer;
    if (t == "fixed" || t == "constant") return ParameterKind::Fixed;
    if (t == "choice" || t == "categorical") return ParameterKind::Choice;
    return std::nullopt;
}

bool is_flag_column(int column) { return column == ParameterTableEditor::Log || column == ParameterTableEditor::Ordered; }

// Whether a column has a meaning for a parameter of `kind` (every column while the kind is not
// known: the kind's own message comes first).
bool applies(std::optional<ParameterKind> kind, int column) {
    using E = ParameterTableEditor;
    if (!kind) return true;
    switch (*kind) {
    case ParameterKind::Choice:
        return column != E::Lower && column != E::Upper && column != E::Log && column != E::MinChange && column != E::Value;
    case ParameterKind::Fixed:
        return column != E::Log && column != E::Target && column != E::Group && column != E::MinChange &&
               column != E::Values && column != E::Ordered;
    case ParameterKind::Continuous:
    case ParameterKind::Integer: return column != E::Value && column != E::Values && column != E::Ordered;
    }
    return true;
}

// A choice's values as they were loaded, kept on its Values cell while its text is unchanged: a
// JSON space may hold the string "4", which the typed text "4" reads as the number 4.
constexpr int kLoadedTextsRole = Qt::UserRole;
constexpr int kLoadedNumbersRole = Qt::UserRole + 1;

void keep_loaded_values(QTableWidgetItem* item, const std::vector<ChoiceValue>& values) {
    QStringList texts;
    QVariantList numbers;
    for (const ChoiceValue& v : values) {
        texts << QString::fromStdString(v.text);
        numbers << (v.number ? QVariant(*v.number) : QVariant());
    }
    item->setData(kLoadedTextsRole, texts);
    item->setData(kLoadedNumbersRole, numbers);
}

std::vector<ChoiceValue> choice_values_of(const QTableWidgetItem* item) {
    const QString text = item->text().trimmed();
    const QStringList texts = item->data(kLoadedTextsRole).toStringList();
    const QVariantList numbers = item->data(kLoadedNumbersRole).toList();
    if (!texts.isEmpty() && texts.join('|') == text && numbers.size() == texts.size()) {
        std::vector<ChoiceValue> values;
        for (qsizetype k = 0; k < texts.size(); ++k)
            values.push_back({texts[k].toStdString(),
                              numbers[k].isValid() ? std::optional<double>(numbers[k].toDouble()) : std::nullopt});
        return values;
    }
    return choice_values_from_text(text.toStdString());
}

bool parse_flag(const QString& text) {
    static const std::set<QString> yes = {"1", "true", "yes", "y", "x", "log", "on"};
    return yes.count(text.trimmed().toLower()) > 0;
}

QString column_key(int column) {
    switch (column) {
    case ParameterTableEditor::Name: return "name";
    case ParameterTableEditor::Kind: return "kind";
    case ParameterTableEditor::Lower: return "lower";
    case ParameterTableEditor::Upper: return "upper";
    case ParameterTableEditor::Log: return "log_scale";
    case ParameterTableEditor::Target: return "target";
    case ParameterTableEditor::Group: return "group";
    case ParameterTableEditor::MinChange: return "min_change";
    case ParameterTableEditor::Value: return "value";
    case ParameterTableEditor::Values: return "values";
    case ParameterTableEditor::Ordered: return "ordered";
    }
    return {};
}

// The column of a field the engine names in a message ("parameters[2] (x3).log: ...").
int column_of_field(const QString& field) {
    if (field == "log") return ParameterTableEditor::Log;
    for (int c = 0; c < ParameterTableEditor::ColumnCount; ++c)
        if (column_key(c) == field) return c;
    return ParameterTableEditor::Name;
}

// The Kind cell edited with a list of the kinds, and a choice's Target with a list of its row's
// values; every other cell (and a number's target) as text. The cells keep their text either way.
class ParameterCellDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    // The texts a combo box offers for the cell, or nothing for a text cell.
    static std::optional<QStringList> options(const QModelIndex& index) {
        if (index.column() == ParameterTableEditor::Kind) {
            QStringList kinds;
            for (ParameterKind kind : {ParameterKind::Continuous, ParameterKind::Integer, ParameterKind::Choice, ParameterKind::Fixed})
                kinds << QString::fromLatin1(to_string(kind));
            return kinds;
        }
        const QModelIndex kind = index.siblingAtColumn(ParameterTableEditor::Kind);
        if (index.column() != ParameterTableEditor::Target || parse_kind(kind.data().toString()) != ParameterKind::Choice)
            return std::nullopt;
        const QString list = index.siblingAtColumn(ParameterTableEditor::Values).data().toString().trimmed();
        if (list.isEmpty()) return std::nullopt;
        QStringList values;
        for (const ChoiceValue& v : choice_values_from_text(list.toStdString())) values << QString::fromStdString(v.text);
        return values;
    }

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override {
        const std::optional<QStringList> items = options(index);
        if (!items) return QStyledItemDelegate::createEditor(parent, option, index);
        auto* combo = new QComboBox(parent);
        combo->addItems(*items);
        // A pick is committed at once, not when the focus leaves.
        connect(combo, &QComboBox::activated, this, [this, combo] {
            emit const_cast<ParameterCellDelegate*>(this)->commitData(combo);
            emit const_cast<ParameterCellDelegate*>(this)->closeEditor(combo);
        });
        return combo;
    }

    void setEditorData(QWidget* editor, const QModelIndex& index) const override {
        auto* combo = qobject_cast<QComboBox*>(editor);
        if (!combo) return QStyledItemDelegate::setEditorData(editor, index);
        // The cell's text, or the kind or value it names; the first item when it names none.
        const QString text = index.data().toString().trimmed();
        int at = combo->findText(text);
        if (at < 0 && index.column() == ParameterTableEditor::Kind)
            if (const auto kind = parse_kind(text)) at = combo->findText(QString::fromLatin1(to_string(*kind)));
        combo->setCurrentIndex(std::max(at, 0));
    }

    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override {
        auto* combo = qobject_cast<QComboBox*>(editor);
        if (!combo) return QStyledItemDelegate::setModelData(editor, model, index);
        if (combo->currentText() != index.data().toString()) model->setData(index, combo->currentText());
    }
};

// The shortest text that reads back to the same double (0.1, not 0.10000000000000001).
QString number_text(double value) { return QString::number(value, 'g', QLocale::FloatingPointShortest); }

}  // namespace

ParameterTableEditor::ParameterTableEditor(QWidget* parent) : QWidget(parent) {
    // The parameters and their linear constraints on two tabs, so that each table has the room.
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    tabs_ = new QTabWidget(this);
    outer->addWidget(tabs_);
    auto* page = new QWidget(tabs_);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setHorizontalHeaderLabels({tr("Name"), tr("Kind"), tr("Lower"), tr("Upper"), tr("Log"), tr("Target"),
                                       tr("Group"), tr("Min change"), tr("Value"), tr("Values"), tr("Ordered")});
    table_->horizontalHeaderItem(Kind)->setToolTip(
        tr("continuous, integer, choice or fixed (a choice is one of its values; a fixed parameter is sent to the "
           "evaluator with its value and never varied)"));
    table_->horizontalHeaderItem(Values)->setToolTip(
        tr("A choice parameter's values, separated by | (such as none|lz4|zstd); a value that reads as a number is "
           "sent to the evaluator as a number"));
    table_->horizontalHeaderItem(Ordered)->setToolTip(
        tr("Whether the order of a choice's values means something (the model then sees one ordinal input instead "
           "of one input per value)"));
    table_->horizontalHeaderItem(Value)->setToolTip(
        tr("A fixed parameter's value (its lower and upper may be left empty); empty for the other kinds"));
    table_->horizontalHeaderItem(Log)->setToolTip(tr("Model the parameter on a log scale (positive bounds)"));
    table_->horizontalHeaderItem(Target)->setToolTip(
        tr("The value that counts as \"unchanged\" (empty: 0 when inside the bounds, else the lower bound; for a "
           "choice one of its values, empty: the first)"));
    table_->horizontalHeaderItem(Group)->setToolTip(
        tr("Parameters with the same group name count as one for sparsity (empty: its own group)"));
    table_->horizontalHeaderItem(MinChange)->setToolTip(
        tr("The smallest change from the target that counts, in the parameter's units (0.5) or as a percentage of "
           "the range (2%); smaller changes are set back onto the target (empty: 1% of the range)"));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // A choice's values as wide as they are ("none|lz4|zstd" whole).
    for (int c : {static_cast<int>(Kind), static_cast<int>(Log), static_cast<int>(Values), static_cast<int>(Ordered)})
        table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->setItemDelegate(new ParameterCellDelegate(table_));
    table_->installEventFilter(this);
    layout->addWidget(table_, 2);

    error_ = new TintedLabel(TintedLabel::Tint::Error, this);
    error_->hide();
    layout->addWidget(error_);

    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add parameter"), this);
    auto* remove = new QPushButton(tr("Remove selected"), this);
    auto* paste = new QPushButton(tr("Paste rows"), this);
    paste->setToolTip(tr("Paste tab-separated rows copied from a spreadsheet: name, kind, lower, upper, log, "
                         "target, group, min change, value, values, ordered (Ctrl+V in the table)"));
    buttons->addWidget(add);
    auto* load = new QPushButton(tr("Load space CSV…"), this);
    load->setToolTip(tr("Read the parameters from a CSV file with the header name,kind,lower,upper,log,target,group,"
                        "min_change,value,values,ordered "
                        "(or the JSON of sebo new --space, with its parameter constraints)"));
    buttons->addWidget(remove);
    buttons->addStretch(1);
    buttons->addWidget(load);
    buttons->addWidget(paste);
    layout->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, &ParameterTableEditor::addRow);
    connect(remove, &QPushButton::clicked, this, &ParameterTableEditor::removeSelectedRows);
    connect(paste, &QPushButton::clicked, this, &ParameterTableEditor::pasteFromClipboard);
    connect(load, &QPushButton::clicked, this, &ParameterTableEditor::loadFileDialog);
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (item->column() == Kind) kindEdited(item->row());
        parametersEdited();
    });

    tabs_->addTab(page, tr("Parameters"));
    constraints_ = new ParameterConstraintEditor(tabs_);
    tabs_->addTab(constraints_, QString());
    connect(constraints_, &ParameterConstraintEditor::checked, this, [this] {
        // "Linear constraints (2)", marked while one of them holds Create back.
        const qsizetype count = constraints_->constraintTexts().size();
        QString title = count ? tr("Linear constraints (%1)").arg(count) : tr("Linear constraints");
        if (!constraints_->acceptable()) title += tr(" — to fix");
        tabs_->setTabText(tabs_->indexOf(constraints_), title);
        tabs_->setTabToolTip(tabs_->indexOf(constraints_), constraints_->problem());
    });
    parametersEdited();
}

void ParameterTableEditor::parametersEdited() {
    CellError error;
    const std::optional<SearchSpace> parameters = readParameters(error);
    if (parameters) clearError();
    else markError(error.row, error.column, error.message);
    problem_ = parameters ? QString() : error.message;
    constraints_->setParameters(parameters);
    emit validated();
}

void ParameterTableEditor::kindEdited(int row) {
    QTableWidgetItem* kind_item = table_->item(row, Kind);
    const std::optional<ParameterKind> kind = parse_kind(kind_item->text());
    const std::optional<ParameterKind> before = parse_kind(kind_item->data(Qt::UserRole).toString());
    const QSignalBlocker block(table_);
    if (kind) kind_item->setText(QString::fromLatin1(to_string(*kind)));
    kind_item->setData(Qt::UserRole, kind_item->text());
    if (!kind || !before || (*kind == ParameterKind::Choice) == (*before == ParameterKind::Choice)) return;
    // Bounds and a numeric target mean nothing to a choice, nor its values to a number.
    auto clear = [&](int column) {
        if (is_flag_column(column)) table_->item(row, column)->setCheckState(Qt::Unchecked);
        else table_->item(row, column)->setText(QString());
    };
    clear(Target);
    if (*kind == ParameterKind::Choice) {
        for (int c : {static_cast<int>(Lower), static_cast<int>(Upper), static_cast<int>(Log), static_cast<int>(MinChange),
                      static_cast<int>(Value)})
            clear(c);
    } else {
        clear(Values);
        clear(Ordered);
        if (*kind != ParameterKind::Fixed) {
            // As a new row's.
            table_->item(row, Lower)->setText("0");
            table_->item(row, Upper)->setText("1");
        }
    }
}

void ParameterTableEditor::markInapplicableCells() {
    const QSignalBlocker block(table_);
    const QPalette& palette = table_->palette();
    const QColor grey = mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.08);
    for (int r = 0; r < table_->rowCount(); ++r) {
        const QTableWidgetItem* kind_item = table_->item(r, Kind);
        const std::optional<ParameterKind> kind = parse_kind(kind_item ? kind_item->text() : QString());
        for (int c = 0; c < ColumnCount; ++c) {
            QTableWidgetItem* item = table_->item(r, c);
            if (!item) continue;
            const bool flag = is_flag_column(c);
            const bool empty = flag ? item->checkState() != Qt::Checked : item->text().trimmed().isEmpty();
            // A cell that does not apply but holds something stays editable, so that it can be emptied.
            const bool inapplicable = !applies(kind, c) && empty;
            Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
            if (!inapplicable) flags |= flag ? Qt::ItemIsUserCheckable : Qt::ItemIsEditable;
            item->setFlags(flags);
            // No check box where there is nothing to check.
            if (flag && inapplicable) item->setData(Qt::CheckStateRole, QVariant());
            else if (flag && !item->data(Qt::CheckStateRole).isValid()) item->setCheckState(Qt::Unchecked);
            item->setBackground(inapplicable ? QBrush(grey) : QBrush());
            item->setToolTip(inapplicable && kind ? tr("Does not apply to a %1 parameter").arg(QString::fromLatin1(to_string(*kind)))
                                                  : QString());
        }
    }
}

int ParameterTableEditor::rowCount() const { return table_->rowCount(); }

void ParameterTableEditor::setRow(int row, const QStringList& cells) {
    const QSignalBlocker block(table_);
    for (int c = 0; c < ColumnCount; ++c) {
        const QString text = c < cells.size() ? cells[c].trimmed() : QString();
        auto* item = new QTableWidgetItem;
        if (is_flag_column(c)) {
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
            item->setCheckState(parse_flag(text) ? Qt::Checked : Qt::Unchecked);
        } else if (c == Kind) {
            const auto kind = parse_kind(text);
            item->setText(kind ? QString::fromLatin1(to_string(*kind)) : text);
            item->setData(Qt::UserRole, item->text());  // the kind before an edit (kindEdited)
        } else {
            item->setText(text);
        }
        table_->setItem(row, c, item);
    }
}

void ParameterTableEditor::addRow() {
    const int row = table_->rowCount();
    table_->insertRow(row);
    setRow(row, {QString("x%1").arg(row + 1), "continuous", "0", "1"});
    table_->setCurrentCell(row, Name);
    parametersEdited();
}

void ParameterTableEditor::removeSelectedRows() {
    std::set<int, std::greater<>> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedIndexes()) rows.insert(index.row());
    if (rows.empty() && table_->currentRow() >= 0) rows.insert(table_->currentRow());
    for (int row : rows) table_->removeRow(row);
    parametersEdited();
}

void ParameterTableEditor::setParameters(const std::vector<Parameter>& parameters) {
    table_->setRowCount(0);
    for (const Parameter& p : parameters) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        const QString name = QString::fromStdString(p.name), kind = QString::fromLatin1(to_string(p.kind));
        if (p.kind == ParameterKind::Choice) {
            // Its values and the target as one of them (empty when unset: the first).
            setRow(row, {name, kind, "", "", "", p.target ? QString::fromStdString(value_text(p, *p.target)) : QString(),
                         QString::fromStdString(p.group), "", "", QString::fromStdString(choice_values_text(p.values)),
                         p.ordered ? "true" : ""});
            keep_loaded_values(table_->item(row, Values), p.values);
            continue;
        }
        if (p.kind == ParameterKind::Fixed) {
            // Its value; bounds only when they were given (and say more than the value).
            const bool bounds = p.lower != p.upper;
            setRow(row, {name, kind, bounds ? number_text(p.lower) : QString(), bounds ? number_text(p.upper) : QString(), "",
                         "", "", "", number_text(p.resolved_target())});
            continue;
        }
        setRow(row, {name, kind, number_text(p.lower), number_text(p.upper), p.log_scale ? "true" : "",
                     p.target ? number_text(*p.target) : QString(), QString::fromStdString(p.group),
                     p.min_change ? QString::fromStdString(to_text(*p.min_change)) : QString(), ""});
    }
    parametersEdited();
}

void ParameterTableEditor::setSpace(const SearchSpace& space) {
    QStringList constraints;
    for (int k = 0; k < static_cast<int>(space.constraints().size()); ++k)
        constraints << QString::fromStdString(space.constraint_text(k));
    setParameters(space.declared_parameters());
    constraints_->setConstraints(constraints);
}

int ParameterTableEditor::pasteText(const QString& text) {
    QStringList lines = text.split(QRegularExpression("\r\n|\n|\r"));
    int added = 0;
    bool first = true;
    for (const QString& line : lines) {
        if (line.trimmed().isEmpty()) continue;
        const QStringList cells = line.split('\t');
        if (first && cells.value(0).trimmed().compare("name", Qt::CaseInsensitive) == 0) {
            first = false;
            continue;
        }
        first = false;
        const int row = table_->rowCount();
        table_->insertRow(row);
        setRow(row, cells);
        ++added;
    }
    parametersEdited();
    return added;
}

void ParameterTableEditor::pasteFromClipboard() { pasteText(QApplication::clipboard()->text()); }

bool ParameterTableEditor::loadFile(const QString& path) {
    try {
        setSpace(load_space_file(path.toStdString()));
        return true;
    } catch (const std::exception& error) {
        showError(-1, 0, tr("Could not load %1: %2").arg(QDir::toNativeSeparators(path), QString::fromStdString(error.what())));
        return false;
    }
}

void ParameterTableEditor::loadFileDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load search space"), QString(),
                                                      tr("Search spaces (*.csv *.json);;All files (*)"));
    if (!path.isEmpty()) loadFile(path);
}

bool ParameterTableEditor::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Paste)) {
            pasteFromClipboard();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QString ParameterTableEditor::errorText() const { return error_->isHidden() ? QString() : error_->text(); }

void ParameterTableEditor::clearError() {
    error_->hide();
    markInapplicableCells();
}

void ParameterTableEditor::markError(int row, int column, const QString& message) {
    clearError();
    error_->setText(message);
    error_->show();
    if (row >= 0 && row < table_->rowCount()) {
        const QSignalBlocker block(table_);
        if (auto* item = table_->item(row, column)) item->setBackground(tone_background(table_->palette(), Tone::Error));
    }
}

void ParameterTableEditor::showError(int row, int column, const QString& message) {
    markError(row, column, message);
    if (row >= 0 && row < table_->rowCount()) {
        table_->setCurrentCell(row, column);
        table_->scrollToItem(table_->item(row, column));
    }
}

std::optional<SearchSpace> ParameterTableEditor::readParameters(CellError& error) const {
    if (table_->rowCount() == 0) {
        error = {-1, 0, tr("Add at least one parameter (or paste rows from a spreadsheet).")};
        return std::nullopt;
    }
    std::vector<Parameter> parameters;
    for (int r = 0; r < table_->rowCount(); ++r) {
        auto cell = [&](int c) { return table_->item(r, c) ? table_->item(r, c)->text().trimmed() : QString(); };
        const QString where = tr("Row %1").arg(r + 1);
        auto fail = [&](int column, const QString& message) {
            const QString field = column == MinChange ? tr("min change") : column_key(column);
            error = {r, column, QString("%1, %2: %3").arg(where, field, message)};
            return std::nullopt;
        };
        auto number = [&](int column) -> std::optional<double> { return parse_user_number(cell(column)); };
        Parameter p;
        p.name = cell(Name).toStdString();
        const auto kind = parse_kind(cell(Kind));
        if (!kind) return fail(Kind, tr("'%1' is not continuous, integer, choice or fixed").arg(cell(Kind)));
        p.kind = *kind;
        const auto checked = [&](int column) { return table_->item(r, column) && table_->item(r, column)->checkState() == Qt::Checked; };
        p.log_scale = checked(Log);
        p.group = cell(Group).toStdString();
        if (p.kind != ParameterKind::Choice) {
            if (!cell(Values).isEmpty())
                return fail(Values, tr("only a choice parameter has values; this one is %1").arg(QString::fromLatin1(to_string(p.kind))));
            if (checked(Ordered))
                return fail(Ordered, tr("only a choice parameter is ordered or not; this one is %1").arg(QString::fromLatin1(to_string(p.kind))));
        }
        if (p.kind == ParameterKind::Choice) {
            // The values and the target as the space CSV reads them (io/choice_text.h); empty and
            // repeated values are SearchSpace::validate's, below.
            for (int c : {static_cast<int>(Lower), static_cast<int>(Upper), static_cast<int>(Value)})
                if (!cell(c).isEmpty())
                    return fail(c, tr("'%1': a choice parameter has values (column Values, such as none|lz4|zstd) instead of %2")
                                       .arg(cell(c), c == Value ? tr("a value") : tr("bounds")));
            if (cell(Values).isEmpty())
                return fail(Values, tr("a choice parameter needs its values, separated by | (such as none|lz4|zstd)"));
            p.values = choice_values_of(table_->item(r, Values));
            p.ordered = checked(Ordered);
            p.lower = 0.0;
            p.upper = static_cast<double>(p.values.size()) - 1.0;
            if (!cell(Target).isEmpty()) {
                std::string message;
                const auto k = choice_target_index(p, cell(Target).toStdString(), message);
                if (!k) return fail(Target, QString::fromStdString(message));
                p.target = *k;
            }
        } else if (p.kind == ParameterKind::Fixed) {
            // Its value, and bounds both given or neither (as a space CSV's row).
            if (!cell(Target).isEmpty()) return fail(Target, tr("a fixed parameter has a value (column Value) instead of a target"));
            if (cell(Value).isEmpty()) return fail(Value, tr("a fixed parameter needs a value"));
            const auto value = number(Value);
            if (!value) return fail(Value, tr("'%1' is not a number").arg(cell(Value)));
            p.target = *value;
            const bool lower = !cell(Lower).isEmpty(), upper = !cell(Upper).isEmpty();
            if (lower != upper) return fail(lower ? Upper : Lower, tr("a fixed parameter's bounds are both given or neither"));
            p.lower = p.upper = *value;
        } else if (!cell(Value).isEmpty()) {
            return fail(Value, tr("only a fixed parameter has a value; this one is %1").arg(QString::fromLatin1(to_string(p.kind))));
        }
        for (int c : {static_cast<int>(Lower), static_cast<int>(Upper)}) {
            if ((p.kind == ParameterKind::Fixed && cell(c).isEmpty()) || p.kind == ParameterKind::Choice) continue;
            const auto value = number(c);
            if (!value) return fail(c, tr("'%1' is not a number").arg(cell(c)));
            (c == Lower ? p.lower : p.upper) = *value;
        }
        if (p.kind != ParameterKind::Fixed && p.kind != ParameterKind::Choice && !cell(Target).isEmpty()) {
            const auto target = number(Target);
            if (!target) return fail(Target, tr("'%1' is not a number (leave it empty for the default)").arg(cell(Target)));
            p.target = *target;
        }
        if (!cell(MinChange).isEmpty()) {
            const auto change = min_change_from_text(cell(MinChange).toStdString());
            if (!change)
                return fail(MinChange, tr("'%1' is not a number or a percentage of the range (such as 0.5 or 2%; "
                                          "leave it empty for 1% of the range)")
                                           .arg(cell(MinChange)));
            p.min_change = *change;
        }
        parameters.push_back(std::move(p));
    }
    SearchSpace space(std::move(parameters));
    if (auto message = space.validate()) {
        // "parameters[2] (x3).upper: 0 is not above lower 1" → the cell of row 3, column upper.
        const QString text = QString::fromStdString(*message);
        static const QRegularExpression pattern(R"(^parameters\[(\d+)\](?: \([^)]*\))?\.(\w+): (.*)$)");
        const QRegularExpressionMatch m = pattern.match(text);
        if (m.hasMatch()) {
            const int row = m.captured(1).toInt();
            error = {row, column_of_field(m.captured(2)), tr("Row %1, %2: %3").arg(row + 1).arg(m.captured(2), m.captured(3))};
        } else {
            error = {-1, 0, text};
        }
        return std::nullopt;
    }
    return space;
}

std::optional<SearchSpace> ParameterTableEditor::readSpace() {
    clearError();
    CellError error;
    const std::optional<SearchSpace> parameters = readParameters(error);
    if (!parameters) {
        showError(error.row, error.column, error.message);
        return std::nullopt;
    }
    QString message;
    std::optional<SearchSpace> space = constraints_->readSpace(*parameters, &message);
    if (!space) {
        showError(-1, 0, message);
        tabs_->setCurrentWidget(constraints_);
    }
    return space;
}

}  // namespace sebo::ui
