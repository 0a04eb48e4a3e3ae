#include "comparison_view.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSaveFile>
#include <QStringList>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <optional>

#include "experiment_document.h"
#include "file_locations.h"
#include "io/comparison_export.h"

namespace sebo::ui {

namespace {

QString trial_names(const std::vector<int>& trials) {
    QStringList names;
    for (int t : trials) names << QString::number(t);
    return names.join(", ");
}

QString qtext(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

ComparisonDialog::ComparisonDialog(const Experiment& experiment, const std::vector<int>& trials,
                                   std::shared_ptr<const RecommendationReport> estimates, const QString& missing,
                                   QWidget* parent)
    : QDialog(parent), comparison_(compare_candidates(experiment, trials, estimates.get())) {
    setObjectName("comparisonDialog");
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Compare candidates (%1 trials)").arg(experiment.trials.size()));
    auto* layout = new QVBoxLayout(this);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    QString note = comparison_.status_quo
                       ? tr("Each metric with its difference to the status quo, in its units and in per cent; "
                            "a configuration measured more than once by its mean ± standard error.")
                       : tr("The status quo (the configuration that changes nothing) was not measured: the values "
                            "have nothing to be compared with.");
    if (estimates)
        note += " " + tr("Below each value: the model's estimate with its 95 % interval, and the probability that "
                         "it beats the status quo.");
    else if (!missing.isEmpty())
        note += " " + tr("Without the model's estimates: %1").arg(missing);
    note_->setText(note);
    layout->addWidget(note_);

    table_ = new QTableWidget(this);
    table_->setObjectName("comparisonTable");
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(true);
    table_->setSelectionMode(QAbstractItemView::ContiguousSelection);
    layout->addWidget(table_, 1);
    fill(experiment);

    text_ = qtext(comparison_text(experiment, comparison_));
    csv_ = qtext(comparison_csv(experiment, comparison_));
    auto* buttons = new QHBoxLayout;
    copy_text_ = new QPushButton(tr("Copy as &text"), this);
    copy_text_->setToolTip(tr("The comparison as lines of text, for a message or a ticket"));
    copy_csv_ = new QPushButton(tr("Copy as &CSV"), this);
    copy_csv_->setToolTip(tr("A row per configuration and metric, numbers in full, for a spreadsheet"));
    auto* close = new QPushButton(tr("Close"), this);
    buttons->addWidget(copy_text_);
    buttons->addWidget(copy_csv_);
    buttons->addStretch(1);
    buttons->addWidget(close);
    layout->addLayout(buttons);
    connect(copy_text_, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(text_); });
    connect(copy_csv_, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(csv_); });
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    resize(std::min(260 + 220 * table_->columnCount(), 1200), std::min(160 + 56 * table_->rowCount(), 640));
}

void ComparisonDialog::fill(const Experiment& experiment) {
    std::vector<const CandidateComparison*> columns;
    if (comparison_.status_quo) columns.push_back(&*comparison_.status_quo);
    for (const CandidateComparison& c : comparison_.candidates)
        if (!c.is_status_quo || !comparison_.status_quo) columns.push_back(&c);
    const bool constraints = !experiment.outcomes.constraints.empty();
    const int rows = 1 + static_cast<int>(experiment.outcomes.metrics.size()) + (constraints ? 1 : 0);
    table_->setRowCount(rows);
    table_->setColumnCount(static_cast<int>(columns.size()));
    QStringList row_names{tr("Changed parameters")};
    for (const std::string& metric : experiment.outcomes.metrics) row_names << qtext(metric_label(experiment, metric));
    if (constraints) row_names << tr("Constraints");
    table_->setVerticalHeaderLabels(row_names);
    for (int column = 0; column < static_cast<int>(columns.size()); ++column) {
        const CandidateComparison& c = *columns[static_cast<std::size_t>(column)];
        columns_.push_back(c.trial);
        const QString measured = c.measurements.size() > 1 ? tr("trials %1").arg(trial_names(c.measurements))
                                                           : tr("trial %1").arg(c.trial);
        table_->setHorizontalHeaderItem(column, new QTableWidgetItem(c.is_status_quo ? tr("Status quo\n(%1)").arg(measured)
                                                                                      : tr("Trial %1").arg(c.trial)));
        const QString changes = c.changes.empty() ? tr("no change")
                                                  : (c.changes.size() == 1 ? tr("1 change:") : tr("%1 changes:").arg(c.changes.size())) + "\n" +
                                                        display_changes(experiment.space, c.changes, "\n");
        table_->setItem(0, column, new QTableWidgetItem(changes));
        for (std::size_t i = 0; i < c.metrics.size(); ++i) {
            const MetricComparison& m = c.metrics[i];
            QString cell = qtext(describe_value(m));
            if (const std::string estimate = describe_estimate(m); !estimate.empty()) cell += "\n" + qtext(estimate);
            auto* item = new QTableWidgetItem(cell);
            if (m.better) item->setToolTip(*m.better ? tr("Better than the status quo") : tr("Worse than the status quo"));
            table_->setItem(1 + static_cast<int>(i), column, item);
        }
        if (constraints) table_->setItem(rows - 1, column, new QTableWidgetItem(qtext(constraints_text(c.feasibility))));
    }
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    // Rows follow the wrapped text at the widths the columns have once the dialog is shown and
    // whenever it is resized (sized only here, before that, the rows were two to three times too
    // tall and pushed the metrics out of view). Queued: while the header stretches its sections,
    // the view still has the old widths.
    connect(table_->horizontalHeader(), &QHeaderView::sectionResized, table_, &QTableView::resizeRowsToContents,
            Qt::QueuedConnection);
    table_->resizeRowsToContents();
}

// ---------------------------------------------------------------------------------------------

ComparisonActions::ComparisonActions(ExperimentDocument* document, QWidget* dialog_parent)
    : QObject(dialog_parent), document_(document), dialog_parent_(dialog_parent) {
    compare_ = new QAction(tr("Com&pare…"), this);
    compare_->setObjectName("compareAction");
    connect(compare_, &QAction::triggered, this, [this] { compare(comparable()); });
    change_request_ = new QAction(tr("Export c&hange request…"), this);
    change_request_->setObjectName("changeRequestAction");
    change_request_->setToolTip(tr("Save what to change for the selected trial's configuration, and what it is expected "
                                   "to do, as a plain-text file"));
    connect(change_request_, &QAction::triggered, this, [this] {
        const int trial = document_->selectedTrial();
        if (!ask_path_) return;
        const QString path =
            ask_path_(tr("Export change request of trial %1").arg(trial), tr("Text (*.txt)"), QString("change-request-trial-%1.txt").arg(trial));
        if (!path.isEmpty()) exportChangeRequest(trial, path);
    });
    update();
}

std::vector<int> ComparisonActions::comparable() const {
    std::vector<int> trials;
    if (!document_->hasExperiment()) return trials;
    const SnapshotPtr snapshot = document_->snapshot();  // held: what runs below may replace it
    const ExperimentSnapshot& s = *snapshot;
    for (int t : selected_ ? selected_() : std::vector<int>{document_->selectedTrial()}) {
        const Trial* trial = s.trial(t);
        if (trial && trial->status == TrialStatus::Completed && std::find(trials.begin(), trials.end(), t) == trials.end())
            trials.push_back(t);
    }
    std::sort(trials.begin(), trials.end());
    return trials;
}

void ComparisonActions::update() {
    const std::vector<int> trials = comparable();
    const int count = static_cast<int>(trials.size());
    compare_->setEnabled(count >= 1 && count <= kMaxCandidates);
    compare_->setToolTip(count > kMaxCandidates
                             ? tr("Select at most %1 completed trials to compare (%2 are selected)").arg(kMaxCandidates).arg(count)
                             : tr("The selected completed trials (up to %1; Ctrl+click in the trials table) side by side "
                                  "with the status quo")
                                   .arg(kMaxCandidates));
    const Trial* t = document_->hasExperiment() ? document_->snapshot()->trial(document_->selectedTrial()) : nullptr;
    change_request_->setEnabled(t && t->status == TrialStatus::Completed);
}

ComparisonDialog* ComparisonActions::compare(const std::vector<int>& trials) {
    if (trials.empty() || static_cast<int>(trials.size()) > kMaxCandidates) {
        emit failed(tr("Select between 1 and %1 completed trials in the trials table to compare them.").arg(kMaxCandidates));
        return nullptr;
    }
    if (dialog_) dialog_->close();
    try {
        dialog_ = new ComparisonDialog(document_->experiment(), trials, estimates_ ? estimates_() : nullptr,
                                       missing_ ? missing_() : QString(), dialog_parent_);
    } catch (const std::exception& error) {
        emit failed(tr("Cannot compare: %1").arg(QString::fromStdString(error.what())));
        return nullptr;
    }
    dialog_->show();
    return dialog_;
}

bool ComparisonActions::exportChangeRequest(int trial, const QString& path) {
    QString content;
    try {
        const std::shared_ptr<const RecommendationReport> estimates = estimates_ ? estimates_() : nullptr;
        content = QString::fromStdString(change_request_text(document_->experiment(), trial, estimates.get()));
    } catch (const std::exception& error) {
        emit failed(tr("No change request: %1").arg(QString::fromStdString(error.what())));
        return false;
    }
    std::optional<QString> error = refuse_bundled_path(path);
    if (!error) {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) error = file.errorString();
        else if (file.write(content.toUtf8()) < 0 || !file.commit()) error = file.errorString();
    }
    if (error) {
        emit failed(tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), *error));
        return false;
    }
    emit changed(tr("Exported the change request of trial %1 to %2").arg(trial).arg(QDir::toNativeSeparators(path)));
    return true;
}

}  // namespace sebo::ui
