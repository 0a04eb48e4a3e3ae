#pragma once
// A table editor for what an experiment measures and wants (SPEC §10, experiment/outcomes.h): one
// row per metric — its name, its role (maximize, minimize, or tracked only), an optional
// threshold (objectives only: the value worse than which it is worthless, the hypervolume
// reference) and optional outcome constraints ("<= 50", several separated by ";"). The rows with
// an objective role are the objectives, in table order (the first is the one single-objective
// views show). Every edit is checked at once; the first problem is shown under the table with
// the row, the metric and the column it concerns, and its cell outlined.
//
// For a built-in problem the metrics are the problem's own (fixedMetrics): names cannot be
// edited and rows not added or removed; roles, thresholds and constraints can.

#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>

#include "experiment/outcomes.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace sebo::ui {

class OutcomeTableEditor : public QWidget {
    Q_OBJECT
public:
    enum Column { Name, Role, Threshold, Constraint, ColumnCount };
    enum class MetricRole { Maximize, Minimize, Tracked };

    explicit OutcomeTableEditor(QWidget* parent = nullptr);

    // Replaces the rows by these outcomes (every metric, objectives in their order first).
    void setOutcomes(const Outcomes& outcomes);
    // Appends a row: name, role ("maximize"/"max", "minimize"/"min", "tracked" or empty),
    // threshold, constraints.
    void appendRow(const QStringList& cells);
    int rowCount() const;
    QTableWidget* table() const { return table_; }
    QComboBox* roleBox(int row) const;
    void setFixedMetrics(bool fixed);
    bool fixedMetrics() const { return fixed_; }

    // The outcomes, or nothing with the problem shown (errorText()).
    std::optional<Outcomes> readOutcomes();
    QString errorText() const;

public slots:
    void addRow();
    void removeSelectedRows();

signals:
    // After every edit, with the result of checking the table.
    void edited(bool valid);

private:
    void setRow(int row, const QStringList& cells);
    void check();
    void showError(int row, int column, const QString& message);

    QTableWidget* table_;
    QLabel* error_;
    QPushButton* add_;
    QPushButton* remove_;
    bool fixed_ = false;
};

}  // namespace sebo::ui
