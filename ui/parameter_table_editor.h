#pragma once
// A table editor for the user's own search space (SPEC §1): name, kind, lower, upper, log,
// target, group, min change (space/min_change.h) — one row per parameter. Rows can be pasted from a spreadsheet (tab
// separated, with or without a header row) or loaded from a space file (the CSV or JSON of
// `sebo new --space`, read by the engine's io/space_file.h). Reading it checks every cell and the
// engine's SearchSpace::validate(); the first problem is shown at its cell.

#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "space/search_space.h"

class QLabel;
class QTableWidget;

namespace sebo::ui {

class ParameterTableEditor : public QWidget {
    Q_OBJECT
public:
    enum Column { Name, Kind, Lower, Upper, Log, Target, Group, MinChange, ColumnCount };

    explicit ParameterTableEditor(QWidget* parent = nullptr);

    void setParameters(const std::vector<Parameter>& parameters);
    int rowCount() const;
    QTableWidget* table() const { return table_; }

    // Appends the rows of tab-separated text (a spreadsheet selection). A first row whose first
    // cell is "name" is taken as a header. Returns the number of rows added.
    int pasteText(const QString& text);
    // Replaces the rows by the parameters of a space file (CSV or JSON); on a mistake keeps the
    // rows and shows the engine's message, which names the line and column. Returns success.
    bool loadFile(const QString& path);

    // The search space, or nothing with the problem shown at its cell (see errorText()).
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
    void setRow(int row, const QStringList& cells);
    void showError(int row, int column, const QString& message);
    void clearError();

    QTableWidget* table_;
    QLabel* error_;
};

}  // namespace sebo::ui
