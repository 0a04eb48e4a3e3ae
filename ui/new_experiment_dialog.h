#pragma once
// "New experiment" (SPEC §5, §10): from a built-in problem (problem, dimension, evaluated by the
// problem or by hand; its metrics filled in from Problem::outcomes(), whose objectives,
// thresholds and constraints may be changed) or from the user's own parameters (a table editor
// with spreadsheet paste), metrics with objectives, thresholds and outcome constraints (a table
// checked as it is edited, outcome_table_editor.h) and an evaluator; plus the method (strategy,
// initial Sobol trials, budget, seed, whether the status quo is measured first). Invalid input keeps the dialog open with the message
// at the field.

#include <QDialog>
#include <optional>

#include "experiment/experiment.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QDoubleSpinBox;
class QRadioButton;
class QSpinBox;
class QTabWidget;

namespace sebo::ui {

class OutcomeTableEditor;
class ParameterTableEditor;

class NewExperimentDialog : public QDialog {
    Q_OBJECT
public:
    enum class Source { BuiltInProblem, OwnParameters };

    explicit NewExperimentDialog(QWidget* parent = nullptr);

    // Builds the experiment from the fields; on invalid input shows the message at the field
    // and returns nothing.
    std::optional<Experiment> buildExperiment();
    // The experiment built when the dialog was accepted.
    const Experiment& experiment() const { return experiment_; }

    // For tests and scripted set-up.
    void setSource(Source source);
    Source source() const;
    QComboBox* problemBox() const { return problem_; }
    QSpinBox* dimensionBox() const { return dimension_; }
    QRadioButton* manualBox() const { return problem_manual_; }
    ParameterTableEditor* parameterEditor() const { return parameters_; }
    // The metrics of the user's own system, and those of the chosen built-in problem.
    OutcomeTableEditor* outcomesEditor() const { return outcomes_; }
    OutcomeTableEditor* problemOutcomesEditor() const { return problem_outcomes_; }
    QSpinBox* initialTrialsBox() const { return initial_; }
    QSpinBox* budgetBox() const { return budget_; }
    QLineEdit* seedEdit() const { return seed_; }
    QCheckBox* statusQuoBox() const { return status_quo_; }
    QComboBox* evaluatorBox() const { return evaluator_; }
    QComboBox* strategyBox() const { return strategy_; }
    QLabel* strategyDescription() const { return strategy_description_; }
    QComboBox* modelBox() const { return model_; }
    QLineEdit* commandEdit() const { return command_; }
    QDoubleSpinBox* timeoutBox() const { return timeout_; }
    QString errorText() const;
    QPushButton* createButton() const { return create_; }

public slots:
    void accept() override;

private:
    void showError(QWidget* field, const QString& message);
    void updateProblemDescription();
    void updateCreateButton();

    QTabWidget* tabs_;
    QComboBox* problem_;
    QLabel* problem_description_;
    QSpinBox* dimension_;
    QRadioButton* problem_evaluates_;
    QRadioButton* problem_manual_;
    QLineEdit* name_;
    ParameterTableEditor* parameters_;
    OutcomeTableEditor* outcomes_;
    OutcomeTableEditor* problem_outcomes_;
    std::optional<Outcomes> problem_defaults_;  // the chosen problem's own
    QComboBox* evaluator_;
    QLineEdit* command_;       // program and arguments, split with quotes respected; never a shell
    QDoubleSpinBox* timeout_;  // seconds per evaluation
    QComboBox* strategy_;
    QLabel* strategy_description_;
    QComboBox* model_;
    QSpinBox* initial_;
    QSpinBox* budget_;
    QLineEdit* seed_;
    QCheckBox* status_quo_;  // MethodSettings::status_quo_first
    QLabel* error_;
    QPushButton* create_;
    QWidget* error_field_ = nullptr;
    Experiment experiment_;
};

}  // namespace sebo::ui
