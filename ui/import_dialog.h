#pragma once
// File › Import experiment… (issue 31): another tool's experiment (an Ax JSON snapshot, an Optuna
// SQLite storage or journal file) previewed before anything is created — the parameters and their
// kinds, the objectives and constraints, the trials found by status, the warnings — with the
// choice of the target: the status-quo arm, a trial from a list, or the default rule, each value
// of which may be changed per parameter. The reading, the mapping and the target are the engine's
// (io/imported_experiment.h), as `sebo new --from` has them; this dialog shows what they return.
// A storage of several Optuna studies offers them in a list.

#include <QDialog>
#include <QStringList>
#include <map>
#include <optional>

#include "io/imported_experiment.h"

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QRadioButton;
class QTableWidget;
class QTableWidgetItem;

namespace sebo::ui {

class TintedLabel;

class ImportDialog : public QDialog {
    Q_OBJECT
public:
    // Reads `source` at once; a source that cannot be imported shows why, with Import disabled.
    explicit ImportDialog(const QString& source, QWidget* parent = nullptr);

    bool hasImport() const { return imported_.has_value(); }
    // The import's message when it was refused, or the target's when that is refused; empty when
    // the experiment can be created.
    QString errorText() const;
    // The experiment with the chosen target; unset while errorText() is not empty.
    std::optional<Experiment> experiment() const;
    // The engine's description of the target in use ("the status-quo arm 'status_quo' (…)").
    QString targetDescription() const;
    QStringList warnings() const;

    // For tests and scripted use.
    QComboBox* studyBox() const { return study_; }
    QLabel* sourceLabel() const { return source_label_; }
    QTableWidget* parameterTable() const { return parameters_; }
    QTableWidget* outcomeTable() const { return outcomes_; }
    QLabel* trialSummary() const { return trials_; }
    QListWidget* warningList() const { return warnings_; }
    QRadioButton* statusQuoButton() const { return status_quo_; }
    QRadioButton* trialButton() const { return from_trial_; }
    QRadioButton* defaultRuleButton() const { return default_rule_; }
    QComboBox* trialBox() const { return trial_; }
    // Name | target; editing a target replaces that parameter's value of the chosen base.
    QTableWidget* targetTable() const { return targets_; }
    QPushButton* importButton() const { return import_; }

    enum ParameterColumn { Name, Kind, Range, Scale };
    enum OutcomeColumn { Metric, Role, Limit };

private:
    void load();
    void showImport();
    void fillTargetTable();
    void updateTarget();
    ImportTargetChoice choice() const;

    QString source_;
    std::optional<ImportedExperiment> imported_;
    QString import_error_;
    // Targets typed per parameter, by name, on top of the chosen base.
    std::map<std::string, std::string> typed_;
    std::optional<Experiment> result_;
    QString target_error_;
    QString target_description_;
    bool filling_ = false;

    QComboBox* study_;
    QLabel* source_label_;
    QTableWidget* parameters_;
    QLabel* constraints_;
    QTableWidget* outcomes_;
    QLabel* trials_;
    QListWidget* warnings_;
    QRadioButton* status_quo_;
    QRadioButton* from_trial_;
    QRadioButton* default_rule_;
    QComboBox* trial_;
    QTableWidget* targets_;
    QLabel* target_;
    TintedLabel* error_;
    QPushButton* import_;
};

}  // namespace sebo::ui
