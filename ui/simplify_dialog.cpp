#include "simplify_dialog.h"

#include <QChart>
#include <QChartView>
#include <QDialogButtonBox>
#include <QGridLayout>
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
#include <functional>
#include <limits>
#include <set>

#include "chart_panel.h"
#include "chart_style.h"
#include "experiment_document.h"
#include "experiment_snapshot.h"
#include "palette_colors.h"
#include "screen_fit.h"
#include "spread_columns.h"

namespace sebo::ui {

namespace {

QString changed_names(const SearchSpace& space, const std::vector<int>& changed) {
    QStringList names;
    for (int i : changed) names << QString::fromStdString(space.parameter(i).name);
    return names.isEmpty() ? QObject::tr("none (the target)") : names.join(", ");
}

// One quantity of the path, shown as a table column and a chart: an objective's prediction, or
// the probability of feasibility (no sd).
struct PathQuantity {
    QString title;   // the chart's y axis (short: several charts share a row)
    QString header;  // the table column
    std::function<std::optional<Prediction>(const SimplifyStep&)> value;
    bool probability = false;
};

std::vector<PathQuantity> path_quantities(const Experiment& e, const SimplifyPath& path) {
    std::vector<PathQuantity> out;
    const std::size_t objectives = e.outcomes.objectives.size();
    for (std::size_t j = 0; j < objectives; ++j) {
        const Objective& o = e.outcomes.objectives[j];
        PathQuantity q;
        q.title = objectives == 1 ? QObject::tr("predicted %1").arg(QString::fromStdString(o.metric))
                                  : QObject::tr("%1 (%2)").arg(QString::fromStdString(o.metric), o.minimize ? "min" : "max");
        q.header = objectives == 1 ? QObject::tr("Predicted ± sd") : QObject::tr("%1 ± sd").arg(QString::fromStdString(o.metric));
        q.value = [j](const SimplifyStep& s) -> std::optional<Prediction> {
            if (j == 0) return s.predicted;
            if (j < s.objectives.size()) return s.objectives[j];
            return std::nullopt;
        };
        out.push_back(std::move(q));
    }
    const bool feasibility = std::any_of(path.steps.begin(), path.steps.end(), [](const SimplifyStep& s) { return s.feasibility; });
    if (feasibility) {
        PathQuantity q;
        q.title = QObject::tr("P(feasible)");
        q.header = QObject::tr("P(feasible)");
        q.value = [](const SimplifyStep& s) -> std::optional<Prediction> {
            if (!s.feasibility) return std::nullopt;
            return Prediction{*s.feasibility, 0.0};
        };
        q.probability = true;
        out.push_back(std::move(q));
    }
    return out;
}

// The quantity against the number of changed parameters, with ± sd as dashed lines.
void fill_chart(QChart* chart, const std::vector<SimplifyStep>& steps, const PathQuantity& q, const QPalette& palette) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) chart->removeAxis(axis);
    auto* mean = new QLineSeries;
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const SimplifyStep& s : steps) {
        const std::optional<Prediction> p = q.value(s);
        if (!p) continue;
        const double k = static_cast<double>(s.changed.size());
        mean->append(k, p->mean);
        upper->append(k, p->mean + p->sd);
        lower->append(k, p->mean - p->sd);
        lo = std::min(lo, p->mean - p->sd);
        hi = std::max(hi, p->mean + p->sd);
    }
    mean->setPointsVisible(true);
    if (q.probability) {
        delete upper;
        delete lower;
        chart->addSeries(mean);
        lo = 0.0;
        hi = 1.0;
    } else {
        for (QLineSeries* s : {lower, upper, mean}) chart->addSeries(s);
        // The ± sd lines in the mean's colour, halfway to the background, dashed.
        const QColor band_color = mix(mean->color(), palette.color(QPalette::Base), 0.5);
        for (QLineSeries* band : {upper, lower}) {
            QPen pen = band->pen();
            pen.setColor(band_color);
            pen.setStyle(Qt::DashLine);
            pen.setWidthF(1.0);
            band->setPen(pen);
        }
    }
    auto* x = new QValueAxis;
    x->setTitleText(QObject::tr("changed parameters"));
    x->setLabelFormat("%d");
    const double k_max = steps.empty() ? 1.0 : static_cast<double>(steps.front().changed.size());
    x->setRange(0.0, std::max(k_max, 1.0));
    x->setTickCount(static_cast<int>(std::min(std::max(k_max, 1.0), 10.0)) + 1);
    // Ticks at round numbers with clean labels, as on the window's charts (ChartPanel::labelTicks).
    auto* y = ChartPanel::dynamicAxis(q.title, {});
    const double pad = q.probability ? 0.0 : std::max(0.05 * (hi - lo), 1e-9);
    if (!std::isfinite(lo) || !std::isfinite(hi)) {  // nothing predicted: an empty chart
        lo = 0.0;
        hi = 1.0;
    }
    ChartPanel::setAxis(y, lo - pad, hi + pad, ChartPanel::niceInterval(hi - lo + 2.0 * pad, 5));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    style_chart(chart, palette);
}

}  // namespace

SimplifyDialog::SimplifyDialog(ExperimentDocument* document, int trial, QWidget* parent, StepRunner runner)
    : QDialog(parent), document_(document), trial_(trial), runner_(std::move(runner)), job_(new SimplifyJob(this)) {
    setObjectName("simplifyDialog");
    setWindowTitle(tr("Simplify trial %1").arg(trial));
    auto* layout = new QVBoxLayout(this);
    status_ = new QLabel(tr("Fitting the model to the completed trials…"), this);
    status_->setObjectName("simplifyStatus");
    status_->setWordWrap(true);
    layout->addWidget(status_);

    chart_area_ = new QWidget(this);
    auto* grid = new QGridLayout(chart_area_);
    grid->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(chart_area_, 1);
    addChart()->setObjectName("simplifyChart");

    table_ = new QTableWidget(0, 4, this);
    table_->setObjectName("simplifyTable");
    table_->setHorizontalHeaderLabels({tr("Changed"), tr("Predicted ± sd"), tr("Reset at this step"), tr("Within tolerance")});
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(table_, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    add_ = buttons->addButton(tr("Add selected steps as pending trials"), QDialogButtonBox::ActionRole);
    add_->setObjectName("simplifyAdd");
    add_->setEnabled(false);
    run_ = buttons->addButton(tr("Run selected steps"), QDialogButtonBox::ActionRole);
    run_->setObjectName("simplifyRun");
    run_->setEnabled(false);
    connect(add_, &QPushButton::clicked, this, [this] { addSelectedSteps(); });
    connect(run_, &QPushButton::clicked, this, [this] { runSelectedSteps(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &SimplifyDialog::updateButtons);

    connect(job_, &SimplifyJob::finished, this, &SimplifyDialog::showOutcome);
    job_->start(document_->experiment(), trial);
}

QChartView* SimplifyDialog::addChart() {
    auto* chart = new QChart;
    chart->legend()->hide();
    style_chart(chart, palette());  // before there is a path: no white box in a dark theme
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto* view = new QChartView(chart, chart_area_);
    view->setRenderHint(QPainter::Antialiasing);
    view->setBackgroundBrush(palette().color(QPalette::Base));
    // Small enough that two or three fit a 1024-pixel screen beside the table.
    view->setMinimumSize(240, 160);
    const int index = static_cast<int>(charts_.size());
    static_cast<QGridLayout*>(chart_area_->layout())->addWidget(view, index / per_row_, index % per_row_);
    charts_.push_back(view);
    return view;
}

void SimplifyDialog::showOutcome(const SimplifyOutcome& outcome) {
    outcome_ = outcome;
    if (!outcome.ok) {
        status_->setText(tr("The model could not be fitted: %1").arg(outcome.message));
        return;
    }
    const Experiment& e = document_->experiment();
    const SimplifyPath& path = outcome.path;
    QString text = tr("From trial %1 (measured %2) to the target, one parameter per step, each the reset the model "
                      "predicts to cost least. Steps marked within tolerance are predicted at most %3 % worse than "
                      "the trial's prediction.")
                       .arg(path.trial)
                       .arg(path.measured ? display_number(*path.measured) : tr("–"))
                       .arg(display_number(100.0 * path.tolerance, 3));
    if (e.outcomes.objectives.size() > 1)
        text += tr(" The path follows %1, the first objective.").arg(QString::fromStdString(e.primary_objective().metric));
    status_->setText(text);

    // A chart per quantity, in one row up to three, else two to a row.
    const std::vector<PathQuantity> quantities = path_quantities(e, path);
    per_row_ = quantities.size() <= 3 ? 3 : 2;
    while (charts_.size() < quantities.size()) addChart();
    for (std::size_t q = 0; q < quantities.size(); ++q) fill_chart(charts_[q]->chart(), path.steps, quantities[q], palette());
    if (quantities.size() > 1) {
        resize(std::max(width(), 340 * std::min(static_cast<int>(quantities.size()), per_row_)), std::max(height(), 620));
        // Grown after it was shown: whole on the screen again, centred over the window.
        fit_on_screen(this);
    }

    // The table: one row per step; the trial itself (row 0) cannot be added again.
    const int columns = 3 + static_cast<int>(quantities.size());
    table_->setColumnCount(columns);
    QStringList headers{tr("Changed")};
    for (const PathQuantity& q : quantities) headers << q.header;
    headers << tr("Reset at this step") << tr("Within tolerance");
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(static_cast<int>(path.steps.size()));
    for (int r = 0; r < table_->rowCount(); ++r) {
        const SimplifyStep& s = path.steps[static_cast<std::size_t>(r)];
        const QString tip = tr("Changed: %1").arg(changed_names(e.space, s.changed));
        std::vector<QTableWidgetItem*> items;
        items.push_back(new QTableWidgetItem(r == 0 ? tr("%1 (trial %2)").arg(s.changed.size()).arg(path.trial)
                                                    : QString::number(s.changed.size())));
        for (const PathQuantity& q : quantities) {
            const std::optional<Prediction> p = q.value(s);
            QString cell = tr("–");
            if (p) cell = q.probability ? display_number(p->mean, 3) : display_number(p->mean) + " ± " + display_number(p->sd, 3);
            items.push_back(new QTableWidgetItem(cell));
        }
        items.push_back(new QTableWidgetItem(s.reset >= 0 ? QString::fromStdString(e.space.parameter(s.reset).name) : QString()));
        items.push_back(new QTableWidgetItem(s.within_tolerance ? tr("yes") : tr("no")));
        for (int c = 0; c < columns; ++c) {
            QTableWidgetItem* item = items[static_cast<std::size_t>(c)];
            item->setToolTip(tip);
            if (r == 0) item->setFlags(item->flags() & ~Qt::ItemIsSelectable);
            table_->setItem(r, c, item);
        }
    }
    spread_columns(table_);
    updateButtons();
}

std::vector<int> SimplifyDialog::selectedSteps() const {
    std::set<int> rows;
    for (const QModelIndex& index : table_->selectionModel()->selectedRows())
        if (index.row() > 0) rows.insert(index.row());
    return {rows.begin(), rows.end()};
}

void SimplifyDialog::updateButtons() {
    const bool any = !selectedSteps().empty();
    add_->setEnabled(outcome_.ok && any && !document_->isReadOnly());
    add_->setToolTip(document_->isReadOnly() ? document_->readOnlyReason()
                                             : tr("Add the selected configurations to the experiment as pending trials"));
    // Running needs an evaluator that runs by itself: results entered by hand are added as pending.
    QString why;
    if (!runner_.available())
        why = tr("Steps can only be added as pending trials here.");
    else if (document_->hasExperiment() && document_->experiment().evaluator.kind == EvaluatorSpec::Kind::Manual)
        why = tr("This experiment's results are entered by hand: add the steps as pending trials and enter their results.");
    else
        why = runner_.cannot_run();
    run_->setEnabled(outcome_.ok && any && why.isEmpty());
    run_->setToolTip(why.isEmpty() ? tr("Run the selected configurations with the experiment's evaluator, one trial each, "
                                        "as Step does; the results are recorded in the experiment")
                                   : why);
}

std::vector<int> SimplifyDialog::addSelectedSteps() {
    const std::vector<int> rows = selectedSteps();
    if (!outcome_.ok || rows.empty()) {
        status_->setText(tr("Select the steps to add first."));
        return {};
    }
    const Experiment& e = document_->experiment();
    std::vector<Trial> trials;
    int next = e.next_trial_index();
    // A step already waiting for its result (added before, by a second click or from another
    // dialog) is not added again.
    QStringList already;
    for (int r : rows) {
        const std::vector<double>& point = outcome_.path.steps[static_cast<std::size_t>(r)].parameters;
        const auto pending = std::find_if(e.trials.begin(), e.trials.end(), [&](const Trial& t) {
            return t.status == TrialStatus::Pending && t.parameters == point;
        });
        if (pending != e.trials.end()) {
            already << QString::number(pending->index);
            continue;
        }
        Trial t;
        t.index = next++;
        t.parameters = point;
        t.status = TrialStatus::Pending;
        t.generator = "simplify";
        trials.push_back(std::move(t));
    }
    if (trials.empty()) {
        status_->setText(tr("The selected steps are already pending: trial %1.").arg(already.join(", ")));
        return {};
    }
    std::vector<int> indices;
    if (const auto error = document_->appendTrials(trials, &indices)) {
        status_->setText(tr("The trials were added but not saved: %1").arg(*error));
    } else if (!already.isEmpty()) {
        status_->setText(tr("Steps already pending (trial %1) were not added again.").arg(already.join(", ")));
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

bool SimplifyDialog::runSelectedSteps() {
    const std::vector<int> rows = selectedSteps();
    if (!outcome_.ok || rows.empty() || !run_->isEnabled()) {
        status_->setText(rows.empty() ? tr("Select the steps to run first.") : run_->toolTip());
        return false;
    }
    std::vector<std::vector<double>> points;
    for (int r : rows) points.push_back(outcome_.path.steps[static_cast<std::size_t>(r)].parameters);
    const int first = document_->experiment().next_trial_index();
    if (!runner_.run(points)) {
        const QString why = runner_.cannot_run();
        status_->setText(why.isEmpty() ? tr("The steps did not run (see the main window).") : why);
        return false;
    }
    status_->setText(tr("Running %n step(s) with the experiment's evaluator; each result is recorded in the experiment as "
                        "it completes.",
                        nullptr, static_cast<int>(points.size())));
    run_->setEnabled(false);
    run_from_ = first;
    return true;
}

void SimplifyDialog::runEnded(const QString& message) {
    if (run_from_ < 0) return;
    QStringList recorded;
    for (const Trial& t : document_->experiment().trials)
        if (t.index >= run_from_ && t.generator == "simplify" && t.status != TrialStatus::Pending)
            recorded << tr("trial %1 (%2)").arg(t.index).arg(QString::fromUtf8(to_string(t.status)));
    run_from_ = -1;
    status_->setText(recorded.isEmpty() ? tr("The run ended without recording a step: %1").arg(message)
                                        : tr("Run ended: %1 recorded in the experiment. %2").arg(recorded.join(", "), message));
    updateButtons();
}

}  // namespace sebo::ui
