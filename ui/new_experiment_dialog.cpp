#include "new_experiment_dialog.h"

#include <QDoubleSpinBox>
#include <QProcess>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <exception>

#include "core/input_error.h"
#include "method_choices.h"
#include "outcome_table_editor.h"
#include "parameter_constraint_editor.h"
#include "parameter_table_editor.h"
#include "tinted_label.h"
#include "problems/problem_catalog.h"

namespace sebo::ui {

NewExperimentDialog::NewExperimentDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("New experiment"));
    auto* layout = new QVBoxLayout(this);
    // The problem or the user's own system on the left, the method on the right: side by side the
    // dialog fits a 1366×768 screen with room for the metrics and parameters tables.
    auto* columns = new QHBoxLayout;
    layout->addLayout(columns, 1);
    tabs_ = new QTabWidget(this);
    columns->addWidget(tabs_, 1);

    // Built-in problem.
    auto* builtin = new QWidget(tabs_);
    auto* builtin_form = new QFormLayout(builtin);
    problem_ = new QComboBox(builtin);
    try {
        for (const ProblemInfo& info : list_problems()) {
            problem_->addItem(QString::fromStdString(info.name), QString::fromStdString(info.name));
            problem_->setItemData(problem_->count() - 1, QString::fromStdString(info.description), Qt::ToolTipRole);
        }
    } catch (const std::exception&) {
        // An engine without problems leaves the list empty; the tab then says so.
    }
    problem_description_ = new QLabel(builtin);
    problem_description_->setWordWrap(true);
    dimension_ = new QSpinBox(builtin);
    dimension_->setRange(0, 1000);
    dimension_->setSpecialValueText(tr("problem default"));
    dimension_->setToolTip(tr("Number of parameters; the extra ones do not affect the objective"));
    problem_evaluates_ = new QRadioButton(tr("Evaluate trials with the built-in problem"), builtin);
    problem_manual_ = new QRadioButton(tr("Enter results by hand (practice the manual workflow)"), builtin);
    problem_evaluates_->setChecked(true);
    builtin_form->addRow(tr("&Problem"), problem_);
    builtin_form->addRow(QString(), problem_description_);
    builtin_form->addRow(tr("&Dimension"), dimension_);
    builtin_form->addRow(tr("Evaluator"), problem_evaluates_);
    builtin_form->addRow(QString(), problem_manual_);
    // The problem's metrics: which are objectives, their thresholds and constraints can change.
    problem_outcomes_ = new OutcomeTableEditor(builtin);
    problem_outcomes_->setFixedMetrics(true);
    auto* problem_outcomes_label = new QLabel(tr("&Metrics"), builtin);
    problem_outcomes_label->setBuddy(problem_outcomes_->table());
    builtin_form->addRow(problem_outcomes_label, problem_outcomes_);
    tabs_->addTab(builtin, tr("Built-in problem"));
    connect(problem_, &QComboBox::currentIndexChanged, this, &NewExperimentDialog::updateProblemDescription);
    updateProblemDescription();

    // The user's own parameters.
    auto* own = new QWidget(tabs_);
    auto* own_layout = new QVBoxLayout(own);
    auto* own_form = new QFormLayout;
    name_ = new QLineEdit(tr("My experiment"), own);
    outcomes_ = new OutcomeTableEditor(own);
    outcomes_->setOutcomes(Outcomes::single("objective", false));
    evaluator_ = new QComboBox(own);
    evaluator_->addItem(tr("Manual entry: I run each trial and type its result"),
                        static_cast<int>(EvaluatorSpec::Kind::Manual));
    evaluator_->addItem(tr("External command: a program evaluates each trial"),
                        static_cast<int>(EvaluatorSpec::Kind::Command));
    command_ = new QLineEdit(own);
    command_->setPlaceholderText(tr("e.g.  python3 /path/to/evaluate.py --fast"));
    command_->setToolTip(tr("The program and its arguments (double quotes group words). It is started directly, never through a shell; "
                            "each trial is written to its standard input as JSON and it prints "
                            "{\"objective\": value}, or {\"metrics\": {\"name\": value, ...}} with several "
                            "metrics (see the README)."));
    timeout_ = new QDoubleSpinBox(own);
    timeout_->setRange(1.0, 7 * 24 * 3600.0);
    timeout_->setDecimals(0);
    timeout_->setSuffix(tr(" s"));
    timeout_->setValue(3600.0);
    auto update_command = [this] {
        const bool command = evaluator_->currentData().toInt() == static_cast<int>(EvaluatorSpec::Kind::Command);
        command_->setEnabled(command);
        timeout_->setEnabled(command);
    };
    connect(evaluator_, &QComboBox::currentIndexChanged, this, update_command);
    update_command();
    own_form->addRow(tr("&Name"), name_);
    own_form->addRow(tr("&Evaluator"), evaluator_);
    own_form->addRow(tr("&Command"), command_);
    own_form->addRow(tr("&Time limit"), timeout_);
    own_layout->addLayout(own_form);
    auto* metrics_label = new QLabel(tr("&Metrics: what each trial measures, the objectives and the constraints"), own);
    metrics_label->setBuddy(outcomes_->table());
    own_layout->addWidget(metrics_label);
    own_layout->addWidget(outcomes_);
    auto* parameters_label = new QLabel(tr("&Parameters"), own);
    own_layout->addWidget(parameters_label);
    parameters_ = new ParameterTableEditor(own);
    parameters_label->setBuddy(parameters_->table());
    parameters_->setParameters({Parameter{"x1", ParameterKind::Continuous, 0.0, 1.0, false, std::nullopt, {}, {}, {}, false},
                                Parameter{"x2", ParameterKind::Continuous, 0.0, 1.0, false, std::nullopt, {}, {}, {}, false}});
    own_layout->addWidget(parameters_, 1);
    tabs_->addTab(own, tr("Your own parameters"));

    // Method.
    auto* method = new QGroupBox(tr("Method"), this);
    auto* method_form = new QFormLayout(method);
    strategy_ = new QComboBox(method);
    add_strategy_items(strategy_);
    // What the chosen strategy does, in one line (as the Method panel shows it).
    strategy_description_ = new QLabel(method);
    strategy_description_->setWordWrap(true);
    QFont small = strategy_description_->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    strategy_description_->setFont(small);
    model_ = new QComboBox(method);
    add_model_items(model_);
    model_->setToolTip(tr("Surrogate model: gp (standard GP, MAP, seconds per trial), saas (the paper's SAAS prior "
                          "sampled with NUTS, up to minutes per trial) or saas-map (a fast approximation of it)"));
    connect(strategy_, &QComboBox::currentIndexChanged, this, [this] {
        const auto kind = static_cast<StrategyKind>(strategy_->currentData().toInt());
        strategy_description_->setText(QString::fromLatin1(describe(kind)));
        model_->setEnabled(uses_model(kind));
    });
    // SEBO-L0 is what this tool is for; Sobol stays one click away.
    const int sebo = strategy_->findData(static_cast<int>(StrategyKind::SeboL0));
    strategy_->setCurrentIndex(-1);
    strategy_->setCurrentIndex(sebo >= 0 ? sebo : 0);
    const MethodSettings defaults;
    initial_ = new QSpinBox(method);
    initial_->setRange(0, 100000);
    initial_->setValue(defaults.initial_trials);
    initial_->setToolTip(tr("Quasi-random (scrambled Sobol) trials before any model is used"));
    budget_ = new QSpinBox(method);
    budget_->setRange(1, 100000);
    budget_->setValue(defaults.budget);
    seed_ = new QLineEdit("0", method);
    seed_->setToolTip(tr("Seeds the Sobol design and every random choice"));
    method_form->addRow(tr("&Strategy"), strategy_);
    method_form->addRow(QString(), strategy_description_);
    method_form->addRow(tr("&Model"), model_);
    method_form->addRow(tr("&Initial trials"), initial_);
    method_form->addRow(tr("&Budget"), budget_);
    method_form->addRow(tr("S&eed"), seed_);
    status_quo_ = new QCheckBox(tr("Measure the status &quo first"), method);
    status_quo_->setChecked(true);
    status_quo_->setToolTip(tr("The first trial is the target configuration (every parameter at its target): the "
                               "system as it runs today, measured before anything is changed"));
    method_form->addRow(QString(), status_quo_);
    method->setMaximumWidth(360);
    columns->addWidget(method, 0, Qt::AlignTop);

    error_ = new TintedLabel(TintedLabel::Tint::Error, this);
    error_->hide();
    layout->addWidget(error_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    create_ = buttons->button(QDialogButtonBox::Ok);
    create_->setText(tr("Create"));
    // The parameters and their linear constraints are checked as they are typed: while a
    // parameter cell is wrong, a constraint cannot be read, no configuration satisfies them all,
    // or the target violates one, Create waits.
    connect(parameters_, &ParameterTableEditor::validated, this, &NewExperimentDialog::updateCreateButton);
    connect(parameters_->constraintEditor(), &ParameterConstraintEditor::checked, this,
            &NewExperimentDialog::updateCreateButton);
    connect(tabs_, &QTabWidget::currentChanged, this, &NewExperimentDialog::updateCreateButton);
    updateCreateButton();
    connect(buttons, &QDialogButtonBox::accepted, this, &NewExperimentDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &NewExperimentDialog::reject);
    layout->addWidget(buttons);
    resize(1000, 640);
}

void NewExperimentDialog::updateProblemDescription() {
    const QString name = problem_->currentData().toString();
    QString text;
    try {
        for (const ProblemInfo& info : list_problems()) {
            if (QString::fromStdString(info.name) != name) continue;
            text = QString::fromStdString(info.description).toHtmlEscaped();
            for (const ProblemOptionInfo& option : info.options)
                text += QString("<br><small><b>%1</b>: %2</small>")
                            .arg(QString::fromStdString(option.name).toHtmlEscaped(),
                                 QString::fromStdString(option.description).toHtmlEscaped());
        }
    } catch (const std::exception&) {
    }
    if (problem_->count() == 0) text = tr("This build has no built-in problems.");
    problem_description_->setText(text);
    // The problem's own metrics, objectives and constraints (Problem::outcomes()).
    try {
        ProblemSpec spec;
        spec.name = name.toStdString();
        problem_defaults_ = make_problem(resolve_problem_spec(spec))->outcomes();
        problem_outcomes_->setOutcomes(*problem_defaults_);
        problem_outcomes_->setEnabled(true);
    } catch (const std::exception&) {
        problem_defaults_.reset();
        problem_outcomes_->setOutcomes({});
        problem_outcomes_->setEnabled(false);
    }
}

void NewExperimentDialog::updateCreateButton() {
    const ParameterConstraintEditor* constraints = parameters_->constraintEditor();
    QString blocked;
    if (source() == Source::OwnParameters && !parameters_->acceptable())
        blocked = tr("Fix the parameters first: %1").arg(parameters_->problem());
    else if (source() == Source::OwnParameters && !constraints->acceptable())
        blocked = tr("Fix the parameter constraints first: %1").arg(constraints->problem());
    create_->setEnabled(blocked.isEmpty());
    create_->setToolTip(blocked);
}

void NewExperimentDialog::setSource(Source source) {
    tabs_->setCurrentIndex(source == Source::BuiltInProblem ? 0 : 1);
}

NewExperimentDialog::Source NewExperimentDialog::source() const {
    return tabs_->currentIndex() == 0 ? Source::BuiltInProblem : Source::OwnParameters;
}

QString NewExperimentDialog::errorText() const {
    if (!error_->isHidden()) return error_->text();
    const OutcomeTableEditor* outcomes = source() == Source::BuiltInProblem ? problem_outcomes_ : outcomes_;
    if (!outcomes->errorText().isEmpty()) return outcomes->errorText();
    return parameters_->errorText();
}

void NewExperimentDialog::showError(QWidget* field, const QString& message) {
    if (error_field_) error_field_->setStyleSheet({});
    error_field_ = field;
    error_->setText(message);
    error_->setVisible(!message.isEmpty());
    if (field) {
        field->setStyleSheet(error_outline_style(field->palette()));
        field->setFocus(Qt::OtherFocusReason);
    }
}

std::optional<Experiment> NewExperimentDialog::buildExperiment() {
    showError(nullptr, {});
    MethodSettings method;
    method.strategy = static_cast<StrategyKind>(strategy_->currentData().toInt());
    if (const int model = model_->currentData().toInt(); model >= 0 && uses_model(method.strategy))
        method.model = static_cast<ModelKind>(model);
    method.initial_trials = initial_->value();
    method.budget = budget_->value();
    method.status_quo_first = status_quo_->isChecked();
    bool seed_ok = false;
    const std::uint64_t seed = seed_->text().trimmed().toULongLong(&seed_ok);
    if (!seed_ok) {
        showError(seed_, tr("Seed: '%1' is not a whole number from 0 to 18446744073709551615").arg(seed_->text()));
        return std::nullopt;
    }
    if (auto error = method.validate()) {
        showError(budget_, QString::fromStdString(*error));
        return std::nullopt;
    }
    if (method.initial_trials > method.budget) {
        showError(initial_, tr("Initial trials: %1 exceed the budget of %2").arg(method.initial_trials).arg(method.budget));
        return std::nullopt;
    }

    if (source() == Source::BuiltInProblem) {
        if (problem_->count() == 0) {
            showError(problem_, tr("This build has no built-in problems."));
            return std::nullopt;
        }
        ProblemSpec spec;
        spec.name = problem_->currentData().toString().toStdString();
        spec.dimension = dimension_->value();
        const std::optional<Outcomes> outcomes = problem_outcomes_->readOutcomes();
        if (!outcomes) {
            showError(problem_outcomes_->table(), {});  // the editor shows the message under its table
            return std::nullopt;
        }
        // Other objectives or constraints than the problem's own replace them.
        std::optional<Outcomes> chosen;
        if (!problem_defaults_ || outcomes->summary() != problem_defaults_->summary()) chosen = outcomes;
        try {
            Experiment e = make_problem_experiment(spec, method, seed, chosen);
            if (problem_manual_->isChecked()) e.evaluator.kind = EvaluatorSpec::Kind::Manual;
            return e;
        } catch (const InputError& error) {
            const QString field = QString::fromStdString(error.field());
            showError(field.contains("dimension") ? static_cast<QWidget*>(dimension_) : problem_,
                      QString::fromStdString(error.what()));
            return std::nullopt;
        } catch (const std::exception& error) {
            showError(problem_, QString::fromStdString(error.what()));
            return std::nullopt;
        }
    }

    std::optional<Outcomes> outcomes = outcomes_->readOutcomes();
    if (!outcomes) {
        showError(outcomes_->table(), {});  // the editor shows the message under its table
        return std::nullopt;
    }
    std::optional<SearchSpace> space = parameters_->readSpace();
    if (!space) return std::nullopt;
    const bool command = evaluator_->currentData().toInt() == static_cast<int>(EvaluatorSpec::Kind::Command);
    const QStringList argv = QProcess::splitCommand(command_->text());
    if (command && argv.isEmpty()) {
        showError(command_, tr("Command: give the program that evaluates a trial, and its arguments"));
        return std::nullopt;
    }
    Experiment e;
    e.name = name_->text().trimmed().toStdString();
    e.space = std::move(*space);
    e.outcomes = std::move(*outcomes);
    e.evaluator.kind = command ? EvaluatorSpec::Kind::Command : EvaluatorSpec::Kind::Manual;
    if (command) {
        for (const QString& arg : argv) e.evaluator.command.push_back(arg.toStdString());
        e.evaluator.timeout_seconds = timeout_->value();
    }
    e.method = method;
    e.seed = seed;
    if (auto error = e.validate()) {
        showError(nullptr, QString::fromStdString(*error));
        return std::nullopt;
    }
    return e;
}

void NewExperimentDialog::accept() {
    std::optional<Experiment> e = buildExperiment();
    if (!e) return;
    experiment_ = std::move(*e);
    QDialog::accept();
}

}  // namespace sebo::ui
