#pragma once
// The linear parameter constraints of the user's own space (issue 14 items 3 and 7), a row per
// constraint ("fa + fb + fc <= 1", in the parameters' units; space/linear_constraint.h), checked
// as they are typed: each row says what the engine's parser reads ("fa + fb + fc <= 1") or its
// message with the column ("column 6: two signs in a row ..."), and below the table the checks
// `sebo new` makes when the experiment is created (space/space_constraints.h): constraints that no
// configuration satisfies together, or a target point that violates one. acceptable() is false
// while any of these is wrong, so the dialog keeps Create disabled; rows left empty are ignored.

#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

#include "space/search_space.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace sebo::ui {

class TintedLabel;

class ParameterConstraintEditor : public QWidget {
    Q_OBJECT
public:
    enum Column { Text, Check, ColumnCount };

    explicit ParameterConstraintEditor(QWidget* parent = nullptr);

    void setConstraints(const QStringList& texts);
    // The non-empty rows, trimmed.
    QStringList constraintTexts() const;
    QTableWidget* table() const { return table_; }
    QLabel* summaryLabel() const;

    // The parameters the constraints are read against (no constraints of its own), or nothing
    // while the parameter table has a problem (the rows are then not checked, and do not hold
    // Create back: the parameter table's own message does). Re-checks every row.
    void setParameters(const std::optional<SearchSpace>& parameters);

    // `parameters` with the constraints, or nothing with `error` set to the first problem
    // ("Constraint 2, column 6: ...", or the creation check's message).
    std::optional<SearchSpace> readSpace(const SearchSpace& parameters, QString* error) const;

    // False while a row does not parse or the creation checks fail for the current parameters.
    bool acceptable() const { return acceptable_; }
    // The first problem shown (empty when acceptable).
    QString problem() const { return problem_; }

public slots:
    void addRow();
    void removeSelectedRows();

signals:
    void acceptableChanged(bool acceptable);
    // After every check (an edit of a row or of the parameters).
    void checked();

private:
    void revalidate();

    QTableWidget* table_;
    TintedLabel* summary_;
    std::optional<SearchSpace> parameters_;
    bool acceptable_ = true;
    QString problem_;
};

}  // namespace sebo::ui
