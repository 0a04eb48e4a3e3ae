#include "simplify_dialog.h"

#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPen>
#include <QPushButton>
#include <QTableWidget>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "experiment_document.h"
#include "experiment_snapshot.h"
#include "palette_colors.h"

namespace sebo::ui {

namespace {

QString changed_names(const SearchSpace& space, const std::vector<int>& changed) {
    QStringList names;
    for (int i : changed) names << QString::fromStdString(space.parameter(i).name);
    return names.isEmpty() ? QObject::tr("none (the target)") : names.join(", ");
}

}  // namespace

SimplifyDialog::SimplifyDialog(ExperimentDocument* document, int trial, QWidget* parent)
    : QDialog(parent), document_(document), trial_(trial), job_(new SimplifyJob(this)) {
    setObjectName("simplifyDialog");
    setWindowTitle(tr("Simplify trial %1").arg(trial));
    auto* layout = new QVBoxLayout(this);
    status_ = new QLabel(tr("Fitting the model to the completed trials…"), this);
    status_->setObjectName("simplifyStatus");
    status_->setWordWrap(true);
    layout->addWidget(status_);

    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart_view_ = new QChartView(chart, this);
    chart_view_->setObjectName("simplifyChart");
    chart_view_->setRenderHint(QPainter::Antialiasing);
    chart_view_->setMinimumSize(360, 200);
    layout->addWidget(chart_view_, 1);

    table_ = new QTableWidget(0, 4, this);
    table_->setObjectName("simplifyTable");
    table_->setHorizontalHeaderLabels({tr("Changed"), tr("Predicted ± sd"), tr("Reset at this step"), tr("Within tolerance")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(table_, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    add_ = buttons->addButton(tr("Add selected steps as pending trials"), QDialogButtonBox::ActionRole);
    add_->setObjectName("simplifyAdd");
    add_->setEnabled(false);
    connect(add_, &QPushButton::clicked, this, [this] { addSelectedSteps(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SimplifyDialog::updateAddButton);

    connect(job_, &SimplifyJob::finished, this, &SimplifyDialog::showOutcome);
    job_->start(document_->experiment(), trial);
}

void SimplifyDialog::showOutcome(const SimplifyOutcome& outcome) {
    outcome_ = outcome;
    if (!outcome.ok) {
        status_->setText(tr("The model could not be fitted: %1").arg(outcome.message));
        return;
    }
    const Experiment& e = document_->experiment();
    const SimplifyPath& path = outcome.path;
    status_->setText(tr("From trial %1 (measured %2) to the target, one parameter per step, each the reset the model "
                        "predicts to cost least. Steps marked within tolerance are predicted at most %3 % worse than "
                        "the trial's prediction.")
                         .arg(path.trial)
                         .arg(path.measured ? display_number(*path.measured) : tr("–"))
                         .arg(display_number(100.0 * path.tolerance, 3)));

    // The chart: predicted mean against the number of changed parameters, with ± sd.
    QChart* chart = chart_view_->chart();
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) chart->removeAxis(axis);
    auto* mean = new QLineSeries;
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const SimplifyStep& s : path.steps) {
        const double k = static_cast<double>(s.changed.size());
        mean->append(k, s.predicted.mean);
        upper->append(k, s.predicted.mean + s.predicted.sd);
        lower->append(k, s.predicted.mean - s.predicted.sd);
        lo = std::min(lo, s.predicted.mean - s.predicted.sd);
        hi = std::max(hi, s.predicted.mean + s.predicted.sd);
    }
    mean->setPointsVisible(true);
    for (QLineSeries* s : {lower, upper, mean}) chart->addSeries(s);
    // The ± sd lines in the mean's colour, halfway to the background, dashed.
    const QColor band_color = mix(mean->color(), palette().color(QPalette::Base), 0.5);
    for (QLineSeries* band : {upper, lower}) {
        QPen pen = band->pen();
        pen.setColor(band_color);
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.0);
        band->setPen(pen);
    }
    auto* x = new QValueAxis;
    x->setTitleText(tr("changed parameters"));
    x->setLabelFormat("%d");
    const double k_max = path.steps.empty() ? 1.0 : static_cast<double>(path.steps.front().changed.size());
    x->setRange(0.0, std::max(k_max, 1.0));
    x->setTickCount(static_cast<int>(std::min(std::max(k_max, 1.0), 10.0)) + 1);
    auto* y = new QValueAxis;
    y->setTitleText(tr("predicted %1").arg(QString::fromStdString(e.primary_objective().metric)));
    const double pad = std::max(0.05 * (hi - lo), 1e-9);
    if (std::isfinite(lo) && std::isfinite(hi)) y->setRange(lo - pad, hi + pad);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }

    // The table: one row per step; the trial itself (row 0) cannot be added again.
    table_->setRowCount(static_cast<int>(path.steps.size()));
    for (int r = 0; r < table_->rowCount(); ++r) {
        const SimplifyStep& s = path.steps[static_cast<std::size_t>(r)];
        const QString tip = tr("Changed: %1").arg(changed_names(e.space, s.changed));
        auto* changed = new QTableWidgetItem(r == 0 ? tr("%1 (trial %2)").arg(s.changed.size()).arg(path.trial)
                                                    : QString::number(s.changed.size()));
        auto* predicted = new QTableWidgetItem(display_number(s.predicted.mean) + " ± " + display_number(s.predicted.sd, 3));
        auto* reset = new QTableWidgetItem(s.reset >= 0 ? QString::fromStdString(e.space.parameter(s.reset).name) : QString());
        auto* within = new QTableWidgetItem(s.within_tolerance ? tr("yes") : tr("no"));
        for (QTableWidgetItem* item : {changed, predicted, reset, within}) {
            item->setToolTip(tip);
            if (r == 0) item->setFlags(item->flags() & ~Qt::ItemIsSelectable);
        }
        table_->setItem(r, 0, changed);
        table_->setItem(r, 1, predicted);
        table_->setItem(r, 2, reset);
        table_->setItem(r, 3, within);
    }
    table_->resizeColumnsToContents();
    updateAddButton();
}

void SimplifyDialog::updateAddButton() {
    bool any = false;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows()) any = any || index.row() > 0;
    add_->setEnabled(outcome_.ok && any && !document_->isReadOnly());
    add_->setToolTip(document_->isReadOnly() ? document_->readOnlyReason()
                                             : tr("Add the selected configurations to the experiment as pending trials"));
}

std::vector<int> SimplifyDialog::addSelectedSteps() {
    std::set<int> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows())
        if (index.row() > 0) rows.insert(index.row());
    if (!outcome_.ok || rows.empty()) {
        status_->setText(tr("Select the steps to add first."));
        return {};
    }
    const Experiment& e = document_->experiment();
    std::vector<Trial> trials;
    int next = e.next_trial_index();
    for (int r : rows) {
        Trial t;
        t.index = next++;
        t.parameters = outcome_.path.steps[static_cast<std::size_t>(r)].parameters;
        t.status = TrialStatus::Pending;
        t.generator = "simplify";
        trials.push_back(std::move(t));
    }
    std::vector<int> indices;
    if (const auto error = document_->appendTrials(trials, &indices)) {
        status_->setText(tr("The trials were added but not saved: %1").arg(*error));
    }
    QStringList names;
    for (int i : indices) names << QString::number(i);
    const QString summary = tr("Added %n pending trial(s) from the simplified path of trial %1: %2", nullptr,
                               static_cast<int>(indices.size()))
                                .arg(trial_)
                                .arg(names.join(", "));
    emit stepsAdded(summary);
    return indices;
}

}  // namespace sebo::ui
