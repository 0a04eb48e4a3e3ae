#include "import_dialog.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/format.h"
#include "core/input_error.h"
#include "io/import_optuna.h"
#include "tinted_label.h"

namespace sebo::ui {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString kind_text(const Parameter& p) {
    switch (p.kind) {
    case ParameterKind::Continuous: return ImportDialog::tr("continuous");
    case ParameterKind::Integer: return ImportDialog::tr("integer");
    case ParameterKind::Fixed: return ImportDialog::tr("fixed");
    case ParameterKind::Choice: return p.ordered ? ImportDialog::tr("choice (ordered)") : ImportDialog::tr("choice");
    }
    return {};
}

QString range_text(const Parameter& p) {
    if (p.kind == ParameterKind::Fixed) return qs(format_number(p.resolved_target()));
    if (p.kind == ParameterKind::Choice) {
        QStringList values;
        for (const ChoiceValue& v : p.values) values << qs(v.text);
        return values.join(" | ");
    }
    return QString("[%1, %2]").arg(qs(format_number(p.lower)), qs(format_number(p.upper)));
}

QTableWidgetItem* cell(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

QTableWidget* make_table(const QStringList& headers, QWidget* parent) {
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    return table;
}

}  // namespace

ImportDialog::ImportDialog(const QString& source, QWidget* parent) : QDialog(parent), source_(source) {
    setWindowTitle(tr("Import experiment"));
    auto* layout = new QVBoxLayout(this);

    auto* top = new QHBoxLayout;
    source_label_ = new QLabel(this);
    source_label_->setWordWrap(true);
    top->addWidget(source_label_, 1);
    study_ = new QComboBox(this);
    study_->setToolTip(tr("The storage holds several studies: the one to import"));
    top->addWidget(study_);
    layout->addLayout(top);

    auto* columns = new QGridLayout;
    auto* space = new QGroupBox(tr("Parameters"), this);
    auto* space_layout = new QVBoxLayout(space);
    parameters_ = make_table({tr("Name"), tr("Kind"), tr("Range or values"), tr("Scale")}, space);
    space_layout->addWidget(parameters_);
    constraints_ = new QLabel(space);
    constraints_->setWordWrap(true);
    space_layout->addWidget(constraints_);
    columns->addWidget(space, 0, 0);

    auto* measured = new QGroupBox(tr("Objectives and constraints"), this);
    auto* measured_layout = new QVBoxLayout(measured);
    outcomes_ = make_table({tr("Metric"), tr("Role"), tr("Threshold or bound")}, measured);
    measured_layout->addWidget(outcomes_);
    trials_ = new QLabel(measured);
    measured_layout->addWidget(trials_);
    columns->addWidget(measured, 0, 1);

    auto* notes = new QGroupBox(tr("Warnings: what was kept only approximately, or left out"), this);
    auto* notes_layout = new QVBoxLayout(notes);
    warnings_ = new QListWidget(notes);
    warnings_->setWordWrap(true);
    warnings_->setSpacing(3);
    notes_layout->addWidget(warnings_);
    columns->addWidget(notes, 1, 0);

    auto* target = new QGroupBox(tr("Target: the configuration in use today"), this);
    auto* target_layout = new QVBoxLayout(target);
    status_quo_ = new QRadioButton(tr("The &status-quo arm"), target);
    from_trial_ = new QRadioButton(tr("The configuration of a &trial:"), target);
    default_rule_ = new QRadioButton(tr("The &default rule (0, or the lower bound; a choice's first value)"), target);
    auto* group = new QButtonGroup(this);
    for (QRadioButton* b : {status_quo_, from_trial_, default_rule_}) group->addButton(b);
    trial_ = new QComboBox(target);
    auto* trial_row = new QHBoxLayout;
    trial_row->addWidget(from_trial_);
    trial_row->addWidget(trial_, 1);
    target_layout->addWidget(status_quo_);
    target_layout->addLayout(trial_row);
    target_layout->addWidget(default_rule_);
    targets_ = make_table({tr("Parameter"), tr("Target")}, target);
    targets_->setToolTip(tr("Change a value to set that parameter's target yourself"));
    target_layout->addWidget(targets_);
    target_ = new QLabel(target);
    target_->setWordWrap(true);
    target_layout->addWidget(target_);
    columns->addWidget(target, 1, 1);
    layout->addLayout(columns, 1);

    error_ = new TintedLabel(TintedLabel::Tint::Error, this);
    error_->setWordWrap(true);
    error_->hide();
    layout->addWidget(error_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    import_ = buttons->button(QDialogButtonBox::Ok);
    import_->setText(tr("Import"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    // A storage of several studies: the list, and the first one shown.
    try {
        const std::string path = import_source_path(source.toStdString());
        if (detect_import_format(path) != ImportFormat::AxSnapshot)
            for (const OptunaStudySummary& s : list_optuna_studies(path))
                study_->addItem(s.trials == 1 ? tr("%1 (1 trial)").arg(qs(s.name)) : tr("%1 (%2 trials)").arg(qs(s.name)).arg(s.trials),
                                qs(s.name));
    } catch (const InputError&) {
        // load() reports it.
    }
    study_->setVisible(study_->count() > 1);
    connect(study_, &QComboBox::currentIndexChanged, this, [this] { load(); });
    connect(group, &QButtonGroup::buttonToggled, this, [this](QAbstractButton*, bool on) {
        if (on) fillTargetTable();
    });
    connect(trial_, &QComboBox::currentIndexChanged, this, [this] {
        if (from_trial_->isChecked()) fillTargetTable();
    });
    connect(targets_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (filling_ || item->column() != 1) return;
        typed_[targets_->item(item->row(), 0)->text().toStdString()] = item->text().trimmed().toStdString();
        updateTarget();
    });
    load();
    resize(1000, 700);
}

void ImportDialog::load() {
    imported_.reset();
    import_error_.clear();
    typed_.clear();
    ImportOptions options;
    if (study_->count() > 0) options.study = study_->currentData().toString().toStdString();
    try {
        imported_ = import_experiment(source_.toStdString(), options);
    } catch (const InputError& e) {
        import_error_ = qs(e.what());
    }
    showImport();
}

void ImportDialog::showImport() {
    const QString file = QFileInfo(source_).fileName();
    source_label_->setText(imported_ ? tr("%1 from %2").arg(qs(imported_->source), file) : tr("Cannot import %1").arg(file));
    parameters_->setRowCount(0);
    outcomes_->setRowCount(0);
    warnings_->clear();
    trial_->clear();
    constraints_->clear();
    trials_->clear();
    for (QRadioButton* b : {status_quo_, from_trial_, default_rule_}) b->setEnabled(imported_.has_value());
    if (!imported_) {
        fillTargetTable();
        return;
    }
    const Experiment& e = imported_->experiment;
    for (const Parameter& p : e.space.declared_parameters()) {
        const int row = parameters_->rowCount();
        parameters_->insertRow(row);
        parameters_->setItem(row, Name, cell(qs(p.name)));
        parameters_->setItem(row, Kind, cell(kind_text(p)));
        parameters_->setItem(row, Range, cell(range_text(p)));
        parameters_->setItem(row, Scale, cell(p.log_scale ? tr("log") : QString()));
    }
    parameters_->resizeColumnsToContents();
    QStringList constraints;
    for (int k = 0; k < static_cast<int>(e.space.constraints().size()); ++k) constraints << qs(e.space.constraint_text(k));
    constraints_->setText(constraints.isEmpty() ? QString() : tr("Subject to: %1").arg(constraints.join("; ")));

    const auto add_outcome = [this](const std::string& metric, const QString& role, const QString& limit) {
        const int row = outcomes_->rowCount();
        outcomes_->insertRow(row);
        outcomes_->setItem(row, Metric, cell(qs(metric)));
        outcomes_->setItem(row, Role, cell(role));
        outcomes_->setItem(row, Limit, cell(limit));
    };
    for (const Objective& o : e.outcomes.objectives)
        add_outcome(o.metric, o.minimize ? tr("minimize") : tr("maximize"), o.threshold ? qs(format_number(*o.threshold)) : QString());
    for (const OutcomeConstraint& c : e.outcomes.constraints)
        add_outcome(c.metric, tr("constraint"), qs(std::string(to_string(c.sense)) + " " + format_number(c.bound)));
    for (const std::string& m : e.outcomes.metrics)
        if (e.outcomes.is_tracked(m)) add_outcome(m, tr("tracked"), QString());
    outcomes_->resizeColumnsToContents();

    QStringList counts;
    for (const TrialStatus s : {TrialStatus::Completed, TrialStatus::Failed, TrialStatus::Abandoned, TrialStatus::Pending})
        if (const int n = e.count(s); n > 0) counts << QString("%1 %2").arg(n).arg(to_string(s));
    const QString listed = counts.isEmpty() ? tr("none") : counts.join(", ");
    trials_->setText(e.trials.size() == 1 ? tr("1 trial: %1").arg(listed) : tr("%1 trials: %2").arg(e.trials.size()).arg(listed));
    for (const std::string& w : imported_->warnings) warnings_->addItem(qs(w));
    if (imported_->warnings.empty()) warnings_->addItem(tr("(none: everything was mapped as it is)"));

    for (std::size_t i = 0; i < e.trials.size(); ++i)
        trial_->addItem(QString("%1 (%2)").arg(qs(imported_->origins[i].label), to_string(e.trials[i].status)), static_cast<int>(i));
    status_quo_->setEnabled(imported_->status_quo.has_value());
    status_quo_->setText(imported_->status_quo ? tr("The status quo: %1").arg(qs(imported_->status_quo->description))
                                               : tr("The &status quo (the source names none)"));
    from_trial_->setEnabled(!e.trials.empty());
    // As `sebo new --from`: the status quo when there is one, otherwise the default rule.
    QRadioButton* base = imported_->status_quo ? status_quo_ : default_rule_;
    if (base->isChecked()) fillTargetTable();
    else base->setChecked(true);
}

ImportTargetChoice ImportDialog::choice() const {
    ImportTargetChoice c;
    if (from_trial_->isChecked() && trial_->currentIndex() >= 0) c.trial = trial_->currentData().toInt();
    c.default_rule = default_rule_->isChecked();
    for (const auto& [name, text] : typed_) c.values.emplace_back(name, text);
    return c;
}

void ImportDialog::fillTargetTable() {
    typed_.clear();
    updateTarget();
}

void ImportDialog::updateTarget() {
    result_.reset();
    target_error_.clear();
    target_description_.clear();
    if (imported_) {
        ImportedExperiment copy = *imported_;
        try {
            target_description_ = qs(choose_import_target(copy, choice()).description);
            result_ = std::move(copy.experiment);
        } catch (const InputError& e) {
            // The engine names the command line's flag; here the value was typed in the table.
            target_error_ = qs(e.what());
            if (target_error_.startsWith("--target ")) target_error_ = tr("Target of %1").arg(target_error_.mid(9));
        }
    }
    // The table shows the targets in use: the chosen base's, with the values typed over it (when
    // a typed value is refused, the base's for the others).
    std::optional<SearchSpace> base;
    if (imported_ && !result_) {
        ImportedExperiment copy = *imported_;
        ImportTargetChoice plain = choice();
        plain.values.clear();
        try {
            choose_import_target(copy, plain);
            base = copy.experiment.space;
        } catch (const InputError&) {
        }
    }
    filling_ = true;
    targets_->setRowCount(0);
    if (imported_) {
        const SearchSpace& space = result_ ? result_->space : base ? *base : imported_->experiment.space;
        for (const Parameter& p : space.parameters()) {
            const int row = targets_->rowCount();
            targets_->insertRow(row);
            targets_->setItem(row, 0, cell(qs(p.name)));
            const auto typed = typed_.find(p.name);
            targets_->setItem(row, 1, new QTableWidgetItem(typed != typed_.end() ? qs(typed->second) : qs(value_text(p, p.resolved_target()))));
        }
    }
    filling_ = false;
    target_->setText(target_description_.isEmpty() ? QString() : tr("Target: %1").arg(target_description_));
    const QString error = errorText();
    error_->setText(error);
    error_->setVisible(!error.isEmpty());
    import_->setEnabled(result_.has_value());
}

QString ImportDialog::errorText() const { return !import_error_.isEmpty() ? import_error_ : target_error_; }

std::optional<Experiment> ImportDialog::experiment() const { return result_; }

QString ImportDialog::targetDescription() const { return target_description_; }

QStringList ImportDialog::warnings() const {
    QStringList out;
    if (imported_)
        for (const std::string& w : imported_->warnings) out << qs(w);
    return out;
}

}  // namespace sebo::ui
