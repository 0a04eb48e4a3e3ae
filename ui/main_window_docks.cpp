// MainWindow's docks: the method panel, the configuration inspector (and the results typed into
// it), the activation chart, the parallel coordinates (and their brushing of the table), the trials
// table with its filters, the hypervolume chart, the evaluator log, and one trial context menu for
// all of them.
#include "main_window.h"

#include <QChartView>
#include <QCheckBox>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

#include "activation_chart_view.h"
#include "central_charts.h"
#include "chart_source.h"
#include "comparison_view.h"
#include "configuration_inspector.h"
#include "confirm_actions.h"
#include "evaluator_log_view.h"
#include "experiment_document.h"
#include "frontier_chart_view.h"
#include "hypervolume_chart_view.h"
#include "message_bar.h"
#include "method_panel.h"
#include "objective_scatter_view.h"
#include "parallel_coordinates_view.h"
#include "run_controller.h"
#include "simplify_actions.h"
#include "trial_context_menu.h"
#include "trial_exclusion_actions.h"
#include "trials_table_model.h"

namespace sebo::ui {

void MainWindow::createDocks() {
    // Placed by DockLayout when the window is first shown (or its saved layout restored).
    auto make_dock = [this](const QString& title, const QString& name, QWidget* content) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setWidget(content);
        addDockWidget(Qt::RightDockWidgetArea, dock);
        return dock;
    };

    method_ = new MethodPanel(this);
    docks_.method = make_dock(tr("Method"), "methodDock", method_);
    connect(method_, &MethodPanel::applyRequested, this, &MainWindow::onMethodApplied);

    inspector_ = new ConfigurationInspector(this);
    docks_.configuration = make_dock(tr("Configuration"), "inspectorDock", inspector_);
    connect(inspector_, &ConfigurationInspector::chosenChanged, document_, &ExperimentDocument::setChosen);
    connect(inspector_, &ConfigurationInspector::copyRequested, this, &MainWindow::copyConfiguration);
    connect(inspector_, &ConfigurationInspector::exportRequested, this, &MainWindow::exportConfigurationDialog);
    const auto recorded = [this](int trial, const std::optional<QString>& error) {
        if (error) {
            showError(tr("The result of trial %1 could not be recorded: %2").arg(trial).arg(*error));
            return;
        }
        statusBar()->showMessage(tr("Recorded the result of trial %1.").arg(trial), 5000);
        if (message_bar_->kind() == MessageBar::Kind::Information) message_bar_->dismiss();
        exclusion_->checkNewValues({trial});
    };
    connect(inspector_, &ConfigurationInspector::resultEntered, this,
            [this, recorded](int trial, double value, std::optional<double> sem) {
                recorded(trial, document_->recordResult(trial, value, sem));
            });
    connect(inspector_, &ConfigurationInspector::resultsEntered, this, [this, recorded](int trial, const MetricValues& values) {
        recorded(trial, document_->recordResults({ObservedResult{trial, TrialStatus::Completed, values, {}}}));
    });
    connect(inspector_, &ConfigurationInspector::failureEntered, this, [this](int trial, const QString& reason) {
        if (auto error = document_->recordFailure(trial, reason))
            showError(tr("Trial %1 could not be marked failed: %2").arg(trial).arg(*error));
    });
    connect(inspector_, &ConfigurationInspector::abandonRequested, this, &MainWindow::abandonTrial);

    activation_ = new ActivationChartView(this);
    docks_.activation = make_dock(tr("Activation"), "activationDock", activation_);

    parallel_ = new ParallelCoordinatesView(this);
    docks_.parallel = make_dock(tr("Parallel coordinates"), "parallelDock", parallel_);
    connect(parallel_, &ParallelCoordinatesView::trialClicked, document_, &ExperimentDocument::setSelectedTrial);
    connect(parallel_, &ParallelCoordinatesView::brushChanged, this, [this](const QList<int>& matching, bool active) {
        brushed_count_ = active ? static_cast<int>(matching.size()) : -1;
        if (active) selectTrialsInTable(matching);
        else syncTableSelection(document_->selectedTrial(), false);
        updateSummary();
    });

    auto* trials_page = new QWidget(this);
    auto* trials_layout = new QVBoxLayout(trials_page);
    trials_layout->setContentsMargins(4, 2, 4, 4);
    auto* trials_header = new QHBoxLayout;
    frontier_only_ = new QCheckBox(tr("Frontier trials only"), trials_page);
    frontier_only_->setToolTip(tr("Show only the non-dominated trials"));
    trials_count_ = new QLabel(trials_page);
    changed_filter_ = new QLineEdit(trials_page);
    changed_filter_->setObjectName("changedFilter");
    changed_filter_->setPlaceholderText(tr("Filter by changed parameter"));
    changed_filter_->setClearButtonEnabled(true);
    changed_filter_->setToolTip(tr("Only the trials whose changed parameters mention every word typed (e.g. a "
                                   "parameter's name)"));
    trials_header->addWidget(frontier_only_);
    trials_header->addWidget(changed_filter_, 1);
    trials_header->addStretch(1);
    trials_header->addWidget(trials_count_);
    trials_layout->addLayout(trials_header);
    trials_model_ = new TrialsTableModel(this);
    trials_proxy_ = new TrialsProxyModel(this);
    trials_proxy_->setSourceModel(trials_model_);
    trials_view_ = new QTableView(trials_page);
    trials_view_->setModel(trials_proxy_);
    trials_view_->setSortingEnabled(true);
    trials_view_->sortByColumn(TrialsTableModel::Index, Qt::AscendingOrder);
    trials_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Several rows: the trials brushed in the parallel coordinates.
    trials_view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    trials_view_->setAlternatingRowColors(true);
    trials_view_->verticalHeader()->hide();
    trials_view_->verticalHeader()->setDefaultSectionSize(trials_view_->fontMetrics().height() + 6);
    trials_view_->horizontalHeader()->setStretchLastSection(true);
    trials_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // At least a header and five rows, however small the window.
    trials_view_->setMinimumHeight(trials_view_->horizontalHeader()->sizeHint().height() +
                                   6 * trials_view_->verticalHeader()->defaultSectionSize());
    trials_layout->addWidget(trials_view_, 1);
    docks_.trials = make_dock(tr("Trials"), "trialsDock", trials_page);
    connect(controller_, &RunController::runningTrialsChanged, this,
            [this] { trials_model_->setRunningTrials(controller_->runningTrials()); });
    connect(frontier_only_, &QCheckBox::toggled, trials_proxy_, &TrialsProxyModel::setFrontierOnly);
    connect(frontier_only_, &QCheckBox::toggled, this, &MainWindow::updateSummary);
    connect(changed_filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        trials_proxy_->setChangedFilter(text);
        updateSummary();
    });
    // The objectives scatter's "at most k parameters changed" limits the table to those trials.
    connect(charts_, &CentralCharts::activeLimitChanged, this, [this](std::optional<int> k, const QList<int>& front) {
        trials_proxy_->setActiveLimit(k, front);
        updateSummary();
    });
    connect(trials_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (syncing_selection_ || !current.isValid()) return;
                const QScopedValueRollback from_table(selection_from_table_, true);
                document_->setSelectedTrial(current.data(TrialsTableModel::TrialRole).toInt());
            });
    // Trial › Compare…: the rows selected in the table (comparison_view.h).
    comparison_ = new ComparisonActions(document_, this);
    comparison_->setSelectionSource([this] {
        std::vector<int> trials;
        for (const QModelIndex& row : trials_view_->selectionModel()->selectedRows())
            trials.push_back(row.data(TrialsTableModel::TrialRole).toInt());
        return trials;
    });
    comparison_->setEstimatesSource([this] { return chart_source_->estimates(); },
                                    [this] { return chart_source_->status(); });
    comparison_->setSavePathAsker(
        [this](const QString& title, const QString& filters, const QString& name) { return askSavePath(title, filters, name); });
    connect(comparison_, &ComparisonActions::changed, this, [this](const QString& summary) { statusBar()->showMessage(summary, 8000); });
    connect(comparison_, &ComparisonActions::failed, this, &MainWindow::showError);
    connect(trials_view_->selectionModel(), &QItemSelectionModel::selectionChanged, comparison_, &ComparisonActions::update);

    hypervolume_ = new HypervolumeChartView(this);
    docks_.hypervolume = make_dock(tr("Hypervolume"), "hypervolumeDock", hypervolume_);
    // One toggle between the model's estimates and the measurements, on every chart that plots them.
    hypervolume_->addOptionAction(chart_source_->toggleAction());
    frontier_->addOptionAction(chart_source_->toggleAction());
    charts_->scatter()->addOptionAction(chart_source_->toggleAction());

    log_ = new EvaluatorLogView(this);
    docks_.log = make_dock(tr("Evaluator log"), "evaluatorLogDock", log_);
    connect(controller_, &RunController::evaluationsStarted, log_,
            [this](const QList<int>& trials) { log_->beginEvaluations(trials); });
    connect(controller_, &RunController::evaluatorOutput, log_, &EvaluatorLogView::appendLine);
    connect(controller_, &RunController::evaluatorOutputDropped, log_, &EvaluatorLogView::noteDropped);

    // One context menu for a trial, wherever it is right-clicked.
    trial_menu_ = new TrialContextMenu(document_, this);
    trial_menu_->addAction(choose_);
    trial_menu_->addAction(exclusion_->toggleAction());
    trial_menu_->addAction(simplify_->simplifyAction());
    trial_menu_->addAction(confirm_->trialAction());
    trial_menu_->addSeparator();
    trial_menu_->addAction(copy_config_);
    trial_menu_->addAction(export_config_);
    trial_menu_->addAction(abandon_);
    trial_menu_->attach(trials_view_->viewport(), [this](const QPoint& p) -> std::optional<int> {
        const QModelIndex index = trials_view_->indexAt(p);
        if (!index.isValid()) return std::nullopt;
        return index.data(TrialsTableModel::TrialRole).toInt();
    });
    trial_menu_->attach(frontier_->chartView()->viewport(), [this](const QPoint& p) { return frontier_->trialAt(p); });
    ObjectiveScatterView* scatter = charts_->scatter();
    trial_menu_->attach(scatter->chartView()->viewport(), [scatter](const QPoint& p) { return scatter->trialAt(p); });
    trial_menu_->attach(parallel_->canvas(), [this](const QPoint& p) { return parallel_->trialAt(p); });
}

void MainWindow::selectTrialsInTable(const QList<int>& trials) {
    const QScopedValueRollback guard(syncing_selection_, true);
    QItemSelection selection;
    QModelIndex first;
    for (int trial : trials) {
        const int row = trials_model_->rowOfTrial(trial);
        if (row < 0) continue;
        const QModelIndex index = trials_proxy_->mapFromSource(trials_model_->index(row, 0));
        if (!index.isValid()) continue;
        selection.select(index, index);
        if (!first.isValid() || index.row() < first.row()) first = index;
    }
    trials_view_->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    if (first.isValid()) trials_view_->scrollTo(first);
}

}  // namespace sebo::ui
