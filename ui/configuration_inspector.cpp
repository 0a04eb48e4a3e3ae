#include "configuration_inspector.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStackedLayout>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "configuration_model.h"
#include "experiment/replicates.h"
#include "generator_label.h"
#include "outcome_text.h"
#include "palette_colors.h"
#include "tinted_label.h"
#include "trial_explanation_view.h"

namespace sebo::ui {

std::optional<double> parse_user_number(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty()) return std::nullopt;
    bool ok = false;
    double value = QLocale::c().toDouble(trimmed, &ok);
    if (!ok) value = QLocale().toDouble(trimmed, &ok);
    if (!ok || !std::isfinite(value)) return std::nullopt;
    return value;
}

ConfigurationInspector::ConfigurationInspector(QWidget* parent) : QWidget(parent) {
    stack_ = new QStackedLayout(this);

    placeholder_ = new TintedLabel(TintedLabel::Tint::Muted,
                                   tr("Select a trial in the frontier chart or the Trials table to see its "
                                      "configuration."),
                                   this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setMargin(16);
    stack_->addWidget(placeholder_);

    auto* page = new QWidget(this);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(6, 6, 6, 6);

    title_ = new QLabel(page);
    QFont title_font = title_->font();
    title_font.setBold(true);
    title_font.setPointSizeF(title_font.pointSizeF() * 1.15);
    title_->setFont(title_font);
    title_->setWordWrap(true);
    layout->addWidget(title_);

    summary_ = new QLabel(page);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    auto* pick_row = new QHBoxLayout;
    chosen_ = new QCheckBox(tr("Chosen"), page);
    chosen_->setToolTip(tr("Pick this configuration to take away (File ▸ Export chosen configurations)"));
    note_ = new QLineEdit(page);
    note_->setPlaceholderText(tr("Note: why this one?"));
    note_->setClearButtonEnabled(true);
    pick_row->addWidget(chosen_);
    pick_row->addWidget(note_, 1);
    layout->addLayout(pick_row);

    auto* button_row = new QHBoxLayout;
    copy_ = new QPushButton(tr("Copy"), page);
    copy_->setToolTip(tr("Copy this configuration to the clipboard as JSON (Ctrl+Shift+C)"));
    export_ = new QPushButton(tr("Export…"), page);
    export_->setToolTip(tr("Save this configuration as JSON or CSV"));
    button_row->addWidget(copy_);
    button_row->addWidget(export_);
    button_row->addStretch(1);
    layout->addLayout(button_row);

    result_box_ = new QGroupBox(tr("Enter the observed result"), page);
    auto* grid = new QGridLayout(result_box_);
    value_edit_ = new QLineEdit(result_box_);
    value_edit_->setPlaceholderText(tr("observed value"));
    sem_edit_ = new QLineEdit(result_box_);
    sem_edit_->setPlaceholderText(tr("standard error (optional)"));
    record_ = new QPushButton(tr("Record result"), result_box_);
    record_->setDefault(true);
    reason_edit_ = new QLineEdit(result_box_);
    reason_edit_->setPlaceholderText(tr("why it failed or was abandoned (optional)"));
    fail_ = new QPushButton(tr("Mark failed"), result_box_);
    abandon_ = new QPushButton(tr("Abandon"), result_box_);
    abandon_->setObjectName("abandonButton");
    abandon_->setToolTip(tr("Give up on this trial without a result: it stays in the file as abandoned (with the "
                            "reason typed beside Mark failed), counts nowhere, and no step evaluates it"));
    result_error_ = new TintedLabel(TintedLabel::Tint::Error, result_box_);
    result_error_->hide();
    value_label_ = new QLabel(tr("Value"), result_box_);
    grid->addWidget(value_label_, 0, 0);
    grid->addWidget(value_edit_, 0, 1);
    grid->addWidget(sem_edit_, 0, 2);
    grid->addWidget(record_, 0, 3);
    // The other metrics' fields, one row each (updateMetricFields).
    metric_fields_ = new QWidget(result_box_);
    auto* metric_grid = new QGridLayout(metric_fields_);
    metric_grid->setContentsMargins(0, 0, 0, 0);
    metric_grid->setColumnStretch(1, 2);
    metric_grid->setColumnStretch(2, 1);
    metric_fields_->hide();
    grid->addWidget(metric_fields_, 1, 0, 1, 3);
    grid->addWidget(result_error_, 2, 1, 1, 3);
    grid->addWidget(new QLabel(tr("Failed"), result_box_), 3, 0);
    grid->addWidget(reason_edit_, 3, 1, 1, 2);
    grid->addWidget(fail_, 3, 3);
    grid->addWidget(abandon_, 4, 3);
    grid->setColumnStretch(1, 2);
    grid->setColumnStretch(2, 1);
    layout->addWidget(result_box_);

    explanation_ = new TrialExplanationView(page);
    layout->addWidget(explanation_);

    filter_ = new QLineEdit(page);
    filter_->setPlaceholderText(tr("Filter parameters"));
    filter_->setClearButtonEnabled(true);
    layout->addWidget(filter_);

    model_ = new ConfigurationModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setFilterKeyColumn(ConfigurationModel::Name);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setSortRole(ConfigurationModel::SortRole);
    table_ = new QTableView(page);
    table_->setModel(proxy_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(table_, 1);
    stack_->addWidget(page);

    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(chosen_, &QCheckBox::toggled, this, [this](bool on) {
        note_->setEnabled(on);
        if (trial_ >= 0) emit chosenChanged(trial_, on, note_->text());
    });
    connect(note_, &QLineEdit::editingFinished, this, [this] {
        if (trial_ >= 0 && chosen_->isChecked()) emit chosenChanged(trial_, true, note_->text());
    });
    connect(copy_, &QPushButton::clicked, this, [this] {
        if (trial_ >= 0) emit copyRequested(trial_);
    });
    connect(export_, &QPushButton::clicked, this, [this] {
        if (trial_ >= 0) emit exportRequested(trial_);
    });
    connect(record_, &QPushButton::clicked, this, &ConfigurationInspector::submitResult);
    // Enter records from either field of the result (the standard error is often typed last).
    connect(value_edit_, &QLineEdit::returnPressed, this, &ConfigurationInspector::submitResult);
    connect(sem_edit_, &QLineEdit::returnPressed, this, &ConfigurationInspector::submitResult);
    connect(fail_, &QPushButton::clicked, this, [this] {
        if (trial_ >= 0) emit failureEntered(trial_, reason_edit_->text().trimmed());
    });
    connect(abandon_, &QPushButton::clicked, this, [this] {
        if (trial_ >= 0) emit abandonRequested(trial_, reason_edit_->text().trimmed());
    });
    stack_->setCurrentWidget(placeholder_);
}

void ConfigurationInspector::setSnapshot(SnapshotPtr snapshot) {
    snapshot_ = std::move(snapshot);
    updateMetricFields();
    if (snapshot_ && trial_ >= 0 && !snapshot_->trial(trial_)) trial_ = -1;
    explanation_->setSnapshot(snapshot_);
    explanation_->setTrial(trial_);
    refresh();
}

void ConfigurationInspector::setEstimates(std::shared_ptr<const RecommendationReport> estimates) {
    estimates_ = std::move(estimates);
    refresh();
}

void ConfigurationInspector::updateMetricFields() {
    std::vector<QString> metrics;
    if (snapshot_ && snapshot_->experiment.outcomes.metrics.size() > 1)
        for (const std::string& m : snapshot_->experiment.outcomes.metrics)
            if (m != snapshot_->experiment.primary_objective().metric) metrics.push_back(QString::fromStdString(m));
    std::vector<QString> shown;
    for (const MetricField& row : metric_rows_) shown.push_back(row.metric);
    value_label_->setText(metrics.empty() || !snapshot_
                              ? tr("Value")
                              : QString::fromStdString(snapshot_->experiment.primary_objective().metric));
    if (shown == metrics) return;
    auto* grid = static_cast<QGridLayout*>(metric_fields_->layout());
    while (QLayoutItem* item = grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    metric_rows_.clear();
    const Outcomes& outcomes = snapshot_ ? snapshot_->experiment.outcomes : Outcomes{};
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const int row = static_cast<int>(i);
        MetricField field{metrics[i], new QLineEdit(metric_fields_), new QLineEdit(metric_fields_)};
        const bool needed = outcomes.objective_on(metrics[i].toStdString()) || outcomes.is_constrained(metrics[i].toStdString());
        field.value->setPlaceholderText(needed ? tr("observed value") : tr("observed value (optional)"));
        field.value->setAccessibleName(tr("Observed %1").arg(metrics[i]));
        field.sem->setPlaceholderText(tr("standard error (optional)"));
        grid->addWidget(new QLabel(metrics[i], metric_fields_), row, 0);
        grid->addWidget(field.value, row, 1);
        grid->addWidget(field.sem, row, 2);
        for (QLineEdit* edit : {field.value, field.sem})
            connect(edit, &QLineEdit::returnPressed, this, &ConfigurationInspector::submitResult);
        metric_rows_.push_back(field);
    }
    metric_fields_->setVisible(!metric_rows_.empty());
}

QLineEdit* ConfigurationInspector::metricEdit(const QString& metric) const {
    for (const MetricField& row : metric_rows_)
        if (row.metric == metric) return row.value;
    return nullptr;
}

QLineEdit* ConfigurationInspector::metricSemEdit(const QString& metric) const {
    for (const MetricField& row : metric_rows_)
        if (row.metric == metric) return row.sem;
    return nullptr;
}

void ConfigurationInspector::setTrial(int trial) {
    if (trial != trial_) {
        value_edit_->clear();
        sem_edit_->clear();
        for (const MetricField& row : metric_rows_) {
            row.value->clear();
            row.sem->clear();
        }
        reason_edit_->clear();
        result_error_->hide();
    }
    trial_ = trial;
    explanation_->setTrial(trial_);
    refresh();
}

QString ConfigurationInspector::titleText() const { return trial_ >= 0 ? title_->text() : QString(); }
QString ConfigurationInspector::summaryText() const { return trial_ >= 0 ? summary_->text() : QString(); }
QString ConfigurationInspector::resultError() const { return result_error_->isHidden() ? QString() : result_error_->text(); }

void ConfigurationInspector::focusResultEntry() {
    if (!result_box_->isHidden()) value_edit_->setFocus(Qt::OtherFocusReason);
}

void ConfigurationInspector::refresh() {
    const Trial* t = snapshot_ && trial_ >= 0 ? snapshot_->trial(trial_) : nullptr;
    if (!t) {
        trial_ = -1;
        model_->setTrial(snapshot_, -1);
        stack_->setCurrentWidget(placeholder_);
        return;
    }
    const Experiment& e = snapshot_->experiment;
    model_->setTrial(snapshot_, trial_);
    stack_->setCurrentIndex(1);

    QString title = tr("Trial %1 — %2")
                        .arg(trial_)
                        .arg(t->exclusion ? tr("excluded") : QString::fromLatin1(to_string(t->status)));
    if (is_status_quo(t->generator)) title += tr(", the status quo");
    if (snapshot_->isPareto(trial_)) title += tr(", on the frontier");
    title_->setText(title);

    QStringList lines;
    const QString objective = QString::fromStdString(e.primary_objective().metric).toHtmlEscaped();
    if (const Measurement* m = e.objective_measurement(*t)) {
        QString line = QString("<b>%1</b>: %2").arg(objective, display_number(m->mean, 8));
        if (m->sem) line += QString(" ± %1").arg(display_number(*m->sem, 3));
        line += e.primary_objective().minimize ? tr(" (minimized)") : tr(" (maximized)");
        lines << line;
    } else if (t->status == TrialStatus::Pending) {
        lines << tr("<b>%1</b>: waiting for a result").arg(objective);
    }
    for (const std::string& metric : e.outcomes.metrics) {
        const Measurement* m = metric == e.primary_objective().metric ? nullptr : t->measurement(metric);
        if (!m) continue;
        QString line = QString("<b>%1</b>: %2").arg(QString::fromStdString(metric).toHtmlEscaped(), display_number(m->mean, 8));
        if (m->sem) line += QString(" ± %1").arg(display_number(*m->sem, 3));
        if (const sebo::Objective* o = e.outcomes.objective_on(metric))
            line += o->minimize ? tr(" (minimized)") : tr(" (maximized)");
        lines << line;
    }
    lines << replicateAndModelLines(e, *t);
    if (const QString infeasible = infeasibility_text(e, *t); !infeasible.isEmpty())
        lines << QString("<span style='color:%1'><b>%2</b></span>")
                     .arg(error_text(palette()).name(), infeasible.toHtmlEscaped());
    const int active = snapshot_->sparsityOf(trial_);
    const QString unit = e.space.has_groups() ? tr("groups") : tr("parameters");
    QString active_line = tr("<b>Active</b>: %1 of %2 %3 changed from the target").arg(active).arg(e.max_sparsity()).arg(unit);
    if (const auto fixed = e.space.fixed_parameters().size(); fixed > 0)
        active_line += tr(" (and %n fixed, never changed)", nullptr, static_cast<int>(fixed));
    lines << active_line;
    QString origin = is_status_quo(t->generator)
                         ? tr("<b>Proposed by</b>: status quo (every parameter at its target, measured first)")
                         : tr("<b>Proposed by</b>: %1").arg(QString::fromStdString(t->generator).toHtmlEscaped());
    if (t->evaluation_seconds > 0)
        origin += tr(" (%1 to propose, %2 to evaluate)")
                      .arg(display_duration(t->generation_seconds).toHtmlEscaped(),
                           display_duration(t->evaluation_seconds).toHtmlEscaped());
    else if (t->generation_seconds > 0)
        origin += tr(" (%1 to propose)").arg(display_duration(t->generation_seconds).toHtmlEscaped());
    lines << origin;
    if (!t->error.empty())
        lines << QString("<span style='color:%1'><b>%2</b>: %3</span>")
                     .arg(error_text(palette()).name(), tr("Error"), QString::fromStdString(t->error).toHtmlEscaped());
    if (t->exclusion)
        lines << QString("<span style='color:%1'><b>%2</b>: %3</span>")
                     .arg(error_text(palette()).name(), tr("Excluded from analysis"),
                          QString::fromStdString(t->exclusion->reason).toHtmlEscaped());
    summary_->setText(lines.join("<br>"));

    const ChosenConfiguration* chosen = snapshot_->chosen(trial_);
    {
        const QSignalBlocker block_box(chosen_);
        const QSignalBlocker block_note(note_);
        chosen_->setChecked(chosen != nullptr);
        if (!note_->hasFocus()) note_->setText(chosen ? QString::fromStdString(chosen->note) : QString());
        note_->setEnabled(chosen != nullptr);
    }
    const bool pending = t->status == TrialStatus::Pending;
    result_box_->setVisible(pending);
    chosen_->setEnabled(t->status == TrialStatus::Completed || chosen);
    copy_->setEnabled(true);
    export_->setEnabled(true);
}

QStringList ConfigurationInspector::replicateAndModelLines(const Experiment& e, const Trial& t) const {
    QStringList lines;
    if (!e.analyzed(t)) return lines;
    // Its configuration measured more than once: one configuration in the analysis.
    for (const Replicates& group : analyzed_replicates(e)) {
        if (group.trials.size() < 2 || std::find(group.trials.begin(), group.trials.end(), t.index) == group.trials.end())
            continue;
        QStringList trials, values;
        for (int i : group.trials) trials << QString::number(i);
        for (const std::string& metric : e.outcomes.metrics) {
            const MergedMeasurement m = merged_measurement(e, group.trials, metric);
            if (m.count == 0) continue;
            QString value = QString("%1 %2").arg(QString::fromStdString(metric).toHtmlEscaped(), display_number(m.mean));
            if (m.sem) value += QString(" ± %1").arg(display_number(*m.sem, 3));
            values << value;
        }
        lines << tr("<b>Measured %1 times</b> (trials %2): %3").arg(group.trials.size()).arg(trials.join(", "), values.join(", "));
    }
    const ConfigurationEstimate* c = estimates_ ? estimates_->find(t.index) : nullptr;
    if (!c) return lines;
    // In the experiment's order of metrics (objectives first), as the measured values above, not
    // the maps' alphabetical one.
    QStringList estimates, better;
    for (const std::string& metric : e.outcomes.metrics) {
        const QString name = QString::fromStdString(metric).toHtmlEscaped();
        if (const auto it = c->estimates.find(metric); it != c->estimates.end())
            estimates << tr("%1 %2 (95 %: %3 – %4)")
                             .arg(name, display_number(it->second.mean), display_number(it->second.lower, 4),
                                  display_number(it->second.upper, 4));
        if (const auto it = c->p_better_than_status_quo.find(metric); it != c->p_better_than_status_quo.end())
            better << QString("%1 %2").arg(name, display_number(it->second, 2));
    }
    QString line = tr("<b>Model's estimate</b>: %1").arg(estimates.join(", "));
    if (!better.isEmpty()) line += "<br>" + tr("P(better than the status quo): %1").arg(better.join(", "));
    if (c->p_feasible) line += "<br>" + tr("P(feasible): %1").arg(display_number(*c->p_feasible, 2));
    lines << line;
    return lines;
}

void ConfigurationInspector::showResultError(const QString& message) {
    result_error_->setText(message);
    result_error_->setVisible(!message.isEmpty());
}

void ConfigurationInspector::submitResult() {
    if (trial_ < 0) return;
    const std::optional<double> value = parse_user_number(value_edit_->text());
    if (!value) {
        showResultError(value_edit_->text().trimmed().isEmpty()
                            ? tr("Type the observed value first.")
                            : tr("'%1' is not a number.").arg(value_edit_->text().trimmed()));
        value_edit_->setFocus();
        return;
    }
    std::optional<double> sem;
    if (!sem_edit_->text().trimmed().isEmpty()) {
        sem = parse_user_number(sem_edit_->text());
        if (!sem || *sem < 0) {
            showResultError(tr("The standard error '%1' is not a non-negative number.").arg(sem_edit_->text().trimmed()));
            sem_edit_->setFocus();
            return;
        }
    }
    if (metric_rows_.empty()) {
        showResultError({});
        emit resultEntered(trial_, *value, sem);
        return;
    }
    // Several metrics: every objective and constrained metric needs its value (as in a results
    // sheet); a tracked one may stay empty.
    const Outcomes& outcomes = snapshot_->experiment.outcomes;
    MetricValues values{{snapshot_->experiment.primary_objective().metric, Measurement{*value, sem}}};
    for (const MetricField& row : metric_rows_) {
        const std::string metric = row.metric.toStdString();
        const QString typed = row.value->text().trimmed();
        if (typed.isEmpty()) {
            if (outcomes.objective_on(metric) || outcomes.is_constrained(metric)) {
                showResultError(outcomes.objective_on(metric)
                                    ? tr("Type the observed value of %1 (an objective) too.").arg(row.metric)
                                    : tr("Type the observed value of %1 (it is constrained) too.").arg(row.metric));
                row.value->setFocus();
                return;
            }
            continue;
        }
        const std::optional<double> metric_value = parse_user_number(typed);
        if (!metric_value) {
            showResultError(tr("%1: '%2' is not a number.").arg(row.metric, typed));
            row.value->setFocus();
            return;
        }
        std::optional<double> metric_sem;
        if (!row.sem->text().trimmed().isEmpty()) {
            metric_sem = parse_user_number(row.sem->text());
            if (!metric_sem || *metric_sem < 0) {
                showResultError(tr("%1: the standard error '%2' is not a non-negative number.")
                                    .arg(row.metric, row.sem->text().trimmed()));
                row.sem->setFocus();
                return;
            }
        }
        values[metric] = Measurement{*metric_value, metric_sem};
    }
    showResultError({});
    emit resultsEntered(trial_, values);
}

}  // namespace sebo::ui
