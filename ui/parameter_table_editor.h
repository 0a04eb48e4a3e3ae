#pragma once
// A table editor for the user's own search space (SPEC §1, §10): name, kind (continuous, integer,
// choice or fixed), lower, upper, log, target, group, min change (space/min_change.h: user units
// or N % of the range), value (a fixed parameter's; its bounds are optional), values (a choice's,
// "none|lz4|zstd", read by io/choice_text.h as the space CSV's column is) and ordered — one row per
// parameter, the columns of a space CSV in its order — and beside it the linear parameter
// constraints (parameter_constraint_editor.h) on a second tab. Rows can be pasted from a
// spreadsheet (tab separated, with or without a header row) or loaded from a space file (the CSV
// or JSON of `sebo new --space`, read by the engine's io/space_file.h, constraints included).
//
// Every edit is checked as it is typed: each cell, then the engine's SearchSpace::validate(); the
// first problem is shown under the table and tinted at its cell ("Row 2, values: 'lz4' appears
// twice (values 2 and 3)"), acceptable() is false meanwhile (the dialog keeps Create disabled),
// and the constraints are read against the parameters once these are right. A cell that does not
// apply to its row's kind (a choice's bounds, a fixed parameter's target) is greyed and read-only
// while empty; changing a row's kind to or from choice empties the cells the new kind has not.
// The kind is picked from a list, and so is a choice's target, from its row's values.
//
// A kind is one more case of parse_kind() and readParameters().

#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "space/search_space.h"

class QLabel;
class QTabWidget;
class QTableWidget;

namespace sebo::ui {

class ParameterConstraintEditor;

class ParameterTableEditor : public QWidget {
    Q_OBJECT
public:
    enum Column { Name, Kind, Lower, Upper, Log, Target, Group, MinChange, Value, Values, Ordered, ColumnCount };

    explicit ParameterTableEditor(QWidget* parent = nullptr);

    // The rows of the parameters (fixed ones included, in declared order).
    void setParameters(const std::vector<Parameter>& parameters);
    // The parameters and the constraints' texts of a space.
    void setSpace(const SearchSpace& space);
    int rowCount() const;
    QTableWidget* table() const { return table_; }
    ParameterConstraintEditor* constraintEditor() const { return constraints_; }
    QTabWidget* tabs() const { return tabs_; }

    // Appends the rows of tab-separated text (a spreadsheet selection). A first row whose first
    // cell is "name" is taken as a header. Returns the number of rows added.
    int pasteText(const QString& text);
    // Replaces the rows by the parameters of a space file (CSV or JSON); on a mistake keeps the
    // rows and shows the engine's message, which names the line and column. Returns success.
    bool loadFile(const QString& path);

    // The search space with its constraints, or nothing with the problem shown at its cell (see
    // errorText()).
    std::optional<SearchSpace> readSpace();
    QString errorText() const;

    // False while a parameter cell is wrong (the constraints are the constraint editor's).
    bool acceptable() const { return problem_.isEmpty(); }
    // The first problem of the parameters, as shown under the table (empty when acceptable).
    QString problem() const { return problem_; }

signals:
    // After every check of the parameters (an edit, a paste, a load).
    void validated();

public slots:
    void addRow();
    void removeSelectedRows();
    void pasteFromClipboard();
    void loadFileDialog();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct CellError {
        int row = -1;  // -1: not one cell's
        int column = 0;
        QString message;
    };
    // The parameters of the table without constraints, or the first problem.
    std::optional<SearchSpace> readParameters(CellError& error) const;
    // Tells the constraint editor the parameters they are read against, after every edit.
    void parametersEdited();
    void setRow(int row, const QStringList& cells);
    // A kind edited to or from choice: empties the cells the new kind does not have.
    void kindEdited(int row);
    // Greys the empty cells that do not apply to their row's kind, and makes them read-only.
    void markInapplicableCells();
    // The message under the table and the cell tinted; showError also makes it the current cell.
    void markError(int row, int column, const QString& message);
    void showError(int row, int column, const QString& message);
    void clearError();

    QTableWidget* table_;
    QLabel* error_;
    QTabWidget* tabs_;  // the parameters, the constraints
    ParameterConstraintEditor* constraints_;
    QString problem_;
};

}  // namespace sebo::ui
