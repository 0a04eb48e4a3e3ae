#include "parameter_table_editor.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>
#include <exception>
#include <set>

#include "configuration_inspector.h"
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
    }
    return {};
}

}  // namespace

ParameterTableEditor::ParameterTableEditor(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setHorizontalHeaderLabels({tr("Name"), tr("Kind"), tr("Lower"), tr("Upper"), tr("Log"), tr("Target"),
                                       tr("Group"), tr("Min change")});
    table_->horizontalHeaderItem(Kind)->setToolTip(tr("continuous or integer"));
    table_->horizontalHeaderItem(Log)->setToolTip(tr("Model the parameter on a log scale (positive bounds)"));
    table_->horizontalHeaderItem(Target)->setToolTip(
        tr("The value that counts as \"unchanged\" (empty: 0 when inside the bounds, else the lower bound)"));
    table_->horizontalHeaderItem(Group)->setToolTip(
        tr("Parameters with the same group name count as one for sparsity (empty: its own group)"));
    table_->horizontalHeaderItem(MinChange)->setToolTip(
        tr("The smallest change from the target that counts, in the parameter's units (0.5) or as a percentage of "
           "the range (2%); smaller changes are set back onto the target (empty: 1% of the range)"));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(Log, QHeaderView::ResizeToContents);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 8);
    table_->installEventFilter(this);
    layout->addWidget(table_, 1);

    error_ = new TintedLabel(TintedLabel::Tint::Error, this);
    error_->hide();
    layout->addWidget(error_);

    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add parameter"), this);
    auto* remove = new QPushButton(tr("Remove selected"), this);
    auto* paste = new QPushButton(tr("Paste rows"), this);
    paste->setToolTip(tr("Paste tab-separated rows copied from a spreadsheet: name, kind, lower, upper, log, "
                         "target, group, min change (Ctrl+V in the table)"));
    buttons->addWidget(add);
    auto* load = new QPushButton(tr("Load space CSV…"), this);
    load->setToolTip(tr("Read the parameters from a CSV file with the header name,kind,lower,upper,log,target,group,"
                        "min_change "
                        "(or the JSON of sebo new --space)"));
    buttons->addWidget(remove);
    buttons->addStretch(1);
    buttons->addWidget(load);
    buttons->addWidget(paste);
    layout->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, &ParameterTableEditor::addRow);
    connect(remove, &QPushButton::clicked, this, &ParameterTableEditor::removeSelectedRows);
    connect(paste, &QPushButton::clicked, this, &ParameterTableEditor::pasteFromClipboard);
    connect(load, &QPushButton::clicked, this, &ParameterTableEditor::loadFileDialog);
    connect(table_, &QTableWidget::itemChanged, this, [this] { clearError(); });
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
    setRow(row, {QString("x%1").arg(row + 1), "continuous", "0", "1", "", "", "", ""});
    table_->setCurrentCell(row, Name);
}

void ParameterTableEditor::removeSelectedRows() {
    std::set<int, std::greater<>> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedIndexes()) rows.insert(index.row());
    if (rows.empty() && table_->currentRow() >= 0) rows.insert(table_->currentRow());
    for (int row : rows) table_->removeRow(row);
    clearError();
}

void ParameterTableEditor::setParameters(const std::vector<Parameter>& parameters) {
    table_->setRowCount(0);
    for (const Parameter& p : parameters) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        setRow(row, {QString::fromStdString(p.name), QString::fromLatin1(to_string(p.kind)), QString::number(p.lower, 'g', 17),
                     QString::number(p.upper, 'g', 17), p.log_scale ? "true" : "",
                     p.target ? QString::number(*p.target, 'g', 17) : QString(), QString::fromStdString(p.group),
                     p.min_change ? QString::fromStdString(to_text(*p.min_change)) : QString()});
    }
    clearError();
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
    clearError();
    return added;
}

void ParameterTableEditor::pasteFromClipboard() { pasteText(QApplication::clipboard()->text()); }

bool ParameterTableEditor::loadFile(const QString& path) {
    try {
        const SearchSpace space = load_space_file(path.toStdString());
        // The table has no place for them yet (issue 14, item 7): refuse rather than drop them.
        if (!space.fixed_parameters().empty() || space.has_constraints() || space.has_choices()) {
            showError(-1, 0, tr("Could not load %1: it has fixed parameters or linear parameter constraints (or choice "
                                "parameters), which this editor cannot show yet; create the experiment with "
                                "'sebo new --space' and open it")
                                 .arg(QDir::toNativeSeparators(path)));
            return false;
        }
        setParameters(space.parameters());
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

std::optional<SearchSpace> ParameterTableEditor::readSpace() {
    clearError();
    if (table_->rowCount() == 0) {
        showError(-1, 0, tr("Add at least one parameter (or paste rows from a spreadsheet)."));
        return std::nullopt;
    }
    std::vector<Parameter> parameters;
    for (int r = 0; r < table_->rowCount(); ++r) {
        auto cell = [&](int c) { return table_->item(r, c) ? table_->item(r, c)->text().trimmed() : QString(); };
        const QString where = tr("Row %1").arg(r + 1);
        Parameter p;
        p.name = cell(Name).toStdString();
        const auto kind = parse_kind(cell(Kind));
        if (!kind) {
            showError(r, Kind, tr("%1, kind: '%2' is neither continuous nor integer").arg(where, cell(Kind)));
            return std::nullopt;
        }
        p.kind = *kind;
        for (int c : {static_cast<int>(Lower), static_cast<int>(Upper)}) {
            const auto value = parse_user_number(cell(c));
            if (!value) {
                showError(r, c, tr("%1, %2: '%3' is not a number").arg(where, column_key(c), cell(c)));
                return std::nullopt;
            }
            (c == Lower ? p.lower : p.upper) = *value;
        }
        p.log_scale = table_->item(r, Log) && table_->item(r, Log)->checkState() == Qt::Checked;
        if (!cell(Target).isEmpty()) {
            const auto target = parse_user_number(cell(Target));
            if (!target) {
                showError(r, Target, tr("%1, target: '%2' is not a number (leave it empty for the default)")
                                         .arg(where, cell(Target)));
                return std::nullopt;
            }
            p.target = *target;
        }
        p.group = cell(Group).toStdString();
        if (!cell(MinChange).isEmpty()) {
            const auto change = min_change_from_text(cell(MinChange).toStdString());
            if (!change) {
                showError(r, MinChange,
                          tr("%1, min change: '%2' is not a number or a percentage of the range (such as 0.5 or 2%; "
                             "leave it empty for 1% of the range)")
                              .arg(where, cell(MinChange)));
                return std::nullopt;
            }
            p.min_change = *change;
        }
        parameters.push_back(std::move(p));
    }
    SearchSpace space(std::move(parameters));
    if (auto error = space.validate()) {
        // "parameters[2] (x3).upper: 0 is not above lower 1" → the cell of row 3, column upper.
        const QString message = QString::fromStdString(*error);
        static const QRegularExpression pattern(R"(^parameters\[(\d+)\](?: \([^)]*\))?\.(\w+): (.*)$)");
        const QRegularExpressionMatch m = pattern.match(message);
        if (m.hasMatch()) {
            const int row = m.captured(1).toInt();
            int column = Name;
            for (int c = 0; c < ColumnCount; ++c)
                if (column_key(c) == m.captured(2)) column = c;
            showError(row, column, tr("Row %1, %2: %3").arg(row + 1).arg(m.captured(2), m.captured(3)));
        } else {
            showError(-1, 0, message);
        }
        return std::nullopt;
    }
    return space;
}

}  // namespace sebo::ui
