#include "parameter_table_editor.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLocale>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <exception>
#include <set>

#include "configuration_inspector.h"
#include "parameter_constraint_editor.h"
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
    return std::nullopt;
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

// The kinds this editor has a row for; a space file with another (added to the engine later) is
// refused rather than loaded in part.
bool editable_kind(ParameterKind kind) {
    return kind == ParameterKind::Continuous || kind == ParameterKind::Integer || kind == ParameterKind::Fixed;
}

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
                                       tr("Group"), tr("Min change"), tr("Value")});
    table_->horizontalHeaderItem(Kind)->setToolTip(
        tr("continuous, integer or fixed (a fixed parameter is sent to the evaluator with its value and never varied)"));
    table_->horizontalHeaderItem(Value)->setToolTip(
        tr("A fixed parameter's value (its lower and upper may be left empty); empty for the other kinds"));
    table_->horizontalHeaderItem(Log)->setToolTip(tr("Model the parameter on a log scale (positive bounds)"));
    table_->horizontalHeaderItem(Target)->setToolTip(
        tr("The value that counts as \"unchanged\" (empty: 0 when inside the bounds, else the lower bound)"));
    table_->horizontalHeaderItem(Group)->setToolTip(
        tr("Parameters with the same group name count as one for sparsity (empty: its own group)"));
    table_->horizontalHeaderItem(MinChange)->setToolTip(
        tr("The smallest change from the target that counts, in the parameter's units (0.5) or as a percentage of "
           "the range (2%); smaller changes are set back onto the target (empty: 1% of the range)"));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    for (int c : {static_cast<int>(Kind), static_cast<int>(Log)})
        table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
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
                         "target, group, min change, value (Ctrl+V in the table)"));
    buttons->addWidget(add);
    auto* load = new QPushButton(tr("Load space CSV…"), this);
    load->setToolTip(tr("Read the parameters from a CSV file with the header name,kind,lower,upper,log,target,group,"
                        "min_change,value "
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
    connect(table_, &QTableWidget::itemChanged, this, [this] { parametersEdited(); });

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
    clearError();
    CellError ignored;
    constraints_->setParameters(readParameters(ignored));
}

int ParameterTableEditor::rowCount() const { return table_->rowCount(); }

void ParameterTableEditor::setRow(int row, const QStringList& cells) {
    const QSignalBlocker block(table_);
    for (int c = 0; c < ColumnCount; ++c) {
        const QString text = c < cells.size() ? cells[c].trimmed() : QString();
        auto* item = new QTableWidgetItem;
        if (c == Log) {
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
            item->setCheckState(parse_flag(text) ? Qt::Checked : Qt::Unchecked);
        } else if (c == Kind) {
            const auto kind = parse_kind(text);
            item->setText(kind ? QString::fromLatin1(to_string(*kind)) : text);
        } else {
            item->setText(text);
        }
        table_->setItem(row, c, item);
    }
}

void ParameterTableEditor::addRow() {
    const int row = table_->rowCount();
    table_->insertRow(row);
    setRow(row, {QString("x%1").arg(row + 1), "continuous", "0", "1", "", "", "", "", ""});
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
        const SearchSpace space = load_space_file(path.toStdString());
        // A kind without a row here: refuse the file rather than drop or change the parameter.
        for (const Parameter& p : space.declared_parameters())
            if (!editable_kind(p.kind)) {
                showError(-1, 0, tr("Could not load %1: the parameter '%2' is of kind %3, which this editor cannot show yet; "
                                    "create the experiment with 'sebo new --space' and open it")
                                     .arg(QDir::toNativeSeparators(path), QString::fromStdString(p.name),
                                          QString::fromLatin1(to_string(p.kind))));
                return false;
            }
        setSpace(space);
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
    const QSignalBlocker block(table_);
    for (int r = 0; r < table_->rowCount(); ++r)
        for (int c = 0; c < ColumnCount; ++c)
            if (auto* item = table_->item(r, c)) item->setBackground(QBrush());
}

void ParameterTableEditor::showError(int row, int column, const QString& message) {
    clearError();
    error_->setText(message);
    error_->show();
    if (row >= 0 && row < table_->rowCount()) {
        const QSignalBlocker block(table_);
        if (auto* item = table_->item(row, column)) item->setBackground(tone_background(table_->palette(), Tone::Error));
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
        if (!kind) return fail(Kind, tr("'%1' is not continuous, integer or fixed").arg(cell(Kind)));
        p.kind = *kind;
        p.log_scale = table_->item(r, Log) && table_->item(r, Log)->checkState() == Qt::Checked;
        p.group = cell(Group).toStdString();
        if (p.kind == ParameterKind::Fixed) {
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
            if (p.kind == ParameterKind::Fixed && cell(c).isEmpty()) continue;
            const auto value = number(c);
            if (!value) return fail(c, tr("'%1' is not a number").arg(cell(c)));
            (c == Lower ? p.lower : p.upper) = *value;
        }
        if (p.kind != ParameterKind::Fixed && !cell(Target).isEmpty()) {
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
