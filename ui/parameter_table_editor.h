#pragma once
// A table editor for the user's own search space (SPEC §1, §10): name, kind (continuous, integer
// or fixed), lower, upper, log, target, group, min change (space/min_change.h: user units or N %
// of the range) and value (a fixed parameter's; its bounds are optional) — one row per parameter,
// the columns of a space CSV in its order — and below it the linear parameter constraints
// (parameter_constraint_editor.h) on a second tab, checked as they are typed against the
// parameters. Rows can
// be pasted from a spreadsheet (tab separated, with or without a header row) or loaded from a
// space file (the CSV or JSON of `sebo new --space`, read by the engine's io/space_file.h,
// constraints included). Reading it checks every cell, the engine's SearchSpace::validate() and the
// constraints' creation checks; the first problem is shown at its cell.
//
// A kind is one more case of parse_kind() and readRow(); a space file with a kind this editor does
// not know yet is refused with a message naming the parameter and its kind, never loaded in part.

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
    enum Column { Name, Kind, Lower, Upper, Log, Target, Group, MinChange, Value, ColumnCount };

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
    void showError(int row, int column, const QString& message);
    void clearError();

    QTableWidget* table_;
    QLabel* error_;
    QTabWidget* tabs_;  // the parameters, the constraints
    ParameterConstraintEditor* constraints_;
};

}  // namespace sebo::ui
