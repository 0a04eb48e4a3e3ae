#include "main_window.h"

#include "evaluators/command_review.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QScrollBar>
#include <QScopedValueRollback>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QUrl>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>

#include "activation_chart_view.h"
#include "central_charts.h"
#include "chart_source.h"
#include "comparison_view.h"
#include "evaluator_log_view.h"
#include "command_trust_dialog.h"
#include "command_trust_store.h"
#include "configuration_inspector.h"
#include "confirm_actions.h"
#include "experiment_document.h"
#include "focus_indicator.h"
#include "frontier_chart_view.h"
#include "help_actions.h"
#include "hypervolume_chart_view.h"
#include "message_bar.h"
#include "objective_scatter_view.h"
#include "method_panel.h"
#include "palette_icons.h"
#include "parallel_coordinates_view.h"
#include "read_only_banner.h"
#include "run_controller.h"
#include "run_progress_widget.h"
#include "save_status_label.h"
#include "trial_context_menu.h"
#include "report_actions.h"
#include "simplify_actions.h"
#include "status_summary.h"
#include "trial_exclusion_actions.h"
#include "trials_table_model.h"
#include "welcome_page.h"

// The icons are compiled into the static sebo_ui library; referencing their initializer keeps
// the linker from dropping them from executables. Q_INIT_RESOURCE must be used outside a namespace.
static void init_sebo_resources() { Q_INIT_RESOURCE(resources); }

namespace sebo::ui {

namespace {

// The message bar's topic of "trial N is waiting for its result".
const QString kWaitingTopic = QStringLiteral("waiting:");
QString waitingTopic(int trial) { return kWaitingTopic + QString::number(trial); }

}  // namespace

std::unique_ptr<QSettings> make_settings() { return std::make_unique<QSettings>("SEBO", "SEBO Explorer"); }

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    qRegisterMetaType<sebo::ui::SnapshotPtr>();
    init_sebo_resources();
    setObjectName("MainWindow");
    setWindowIcon(QIcon(":/icons/sebo-explorer.png"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks | QMainWindow::AllowNestedDocks);

    document_ = new ExperimentDocument(this);
    // Untitled experiments (new ones, copies of the bundled examples) autosave to a recovery file.
    document_->setRecoveryEnabled(true);
    controller_ = new RunController(document_, this);
    chart_source_ = new ChartSource(this);

    auto* central = new QWidget(this);
    auto* central_layout = new QVBoxLayout(central);
    central_layout->setContentsMargins(4, 4, 4, 0);
    central_layout->setSpacing(4);
    read_only_banner_ = new ReadOnlyBanner(document_, central);
    central_layout->addWidget(read_only_banner_);
    message_bar_ = new MessageBar(central);
    central_layout->addWidget(message_bar_);
    center_ = new QStackedWidget(central);
    createWelcomePage();
    charts_ = new CentralCharts(center_);
    frontier_ = charts_->frontier();
    center_->addWidget(welcome_);
    center_->addWidget(charts_);
    central_layout->addWidget(center_, 1);
    setCentralWidget(central);

    createActions();
    createDocks();
    createMenus();
    createStatusBar();
    focus_indicator_ = new FocusIndicator(this);

    connect(chart_source_, &ChartSource::chartSnapshotChanged, this, &MainWindow::onChartSnapshot);
    connect(chart_source_, &ChartSource::estimatesChanged, this, [this] { inspector_->setEstimates(chart_source_->estimates()); });
    connect(document_, &ExperimentDocument::snapshotChanged, this, &MainWindow::onSnapshot);
    connect(document_, &ExperimentDocument::experimentReplaced, this, &MainWindow::onExperimentReplaced);
    connect(document_, &ExperimentDocument::selectionChanged, this, &MainWindow::onSelection);
    connect(document_, &ExperimentDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document_, &ExperimentDocument::filePathChanged, this, [this](const QString& path) {
        updateTitle();
        // "Until you save it…" no longer holds once it is in a file (issue 32: it stayed).
        if (!path.isEmpty()) message_bar_->dismissTopic(kUnsavedTopic);
    });
    connect(controller_, &RunController::runningChanged, this, &MainWindow::onRunningChanged);
    connect(controller_, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(controller_, &RunController::stepCompleted, this, &MainWindow::onStepCompleted);
    connect(controller_, &RunController::autosaveFailed, this, [this](const QString& message) {
        showError(tr("The new trial could not be saved: %1").arg(message));
    });
    connect(charts_, &CentralCharts::trialClicked, document_, &ExperimentDocument::setSelectedTrial);
    // Other processes writing the same file (docs/file-format.md, "Several writers").
    connect(document_, &ExperimentDocument::accessChanged, this, [this] {
        updateTitle();
        updateActions();
    });
    connect(document_, &ExperimentDocument::externalChangesMerged, this,
            [this](const QStringList& messages, bool failed) {
                if (failed) showError(messages.join(' '));
                else showInfo(messages.join(' '));
            });
    connect(document_, &ExperimentDocument::notice, this,
            [this](const QString& text) { statusBar()->showMessage(text, 10000); });
    connect(read_only_banner_, &ReadOnlyBanner::reloadFailed, this, [this](const QString& message) {
        showError(tr("Could not reload %1:\n%2").arg(document_->displayName(), message));
    });

    onSnapshot(document_->snapshot());
    onExperimentReplaced();
    resize(DockLayout::initialWindowSize(screen() ? screen()->availableGeometry().size() : QSize()));
}

MainWindow::~MainWindow() = default;

void MainWindow::setPromptHandler(PromptHandler handler) { prompt_ = std::move(handler); }
void MainWindow::setDialogHandler(DialogHandler handler) { dialog_handler_ = std::move(handler); }

bool MainWindow::ensureCommandApproved() {
    if (!document_->hasExperiment()) return true;
    const sebo::EvaluatorSpec& spec = document_->experiment().evaluator;
    if (spec.kind != sebo::EvaluatorSpec::Kind::Command || controller_->commandApproved()) return true;
    // The approval is of exactly what the person is shown (command_review.h).
    const CommandReview review = review_command(spec);
    const QByteArray key = command_approval_key(review);
    const QString file = document_->filePath();
    const auto settings = make_settings();
    CommandTrustStore trust(*settings);
    if (trust.isTrusted(key, file)) {
        controller_->approveCommand(key);
        statusBar()->showMessage(tr("Running the command you trusted for %1 (unchanged since).").arg(document_->displayName()),
                                 5000);
        return true;
    }
    CommandTrustDialog dialog(review, file.isEmpty() ? tr("This experiment") : QDir::toNativeSeparators(file),
                              !file.isEmpty(), this);
    const bool accepted =
        dialog_handler_ || !prompt_
            ? execDialog(dialog) == QDialog::Accepted
            : ask(dialog.windowTitle(), dialog.text(), QMessageBox::Yes | QMessageBox::No, QMessageBox::No) ==
                  QMessageBox::Yes;
    if (!accepted) return false;
    if (const QStringList refusals = dialog.refusals(); !refusals.isEmpty()) {
        showError(tr("The command was not run:\n%1").arg(refusals.join("\n")));
        return false;
    }
    controller_->approveCommand(key);
    if (dialog.trustRequested()) trust.trust(key, file);
    return true;
}

int MainWindow::execDialog(QDialog& dialog) { return dialog_handler_ ? dialog_handler_(dialog) : dialog.exec(); }

QMessageBox::StandardButton MainWindow::ask(const QString& title, const QString& text,
                                            QMessageBox::StandardButtons buttons,
                                            QMessageBox::StandardButton default_button) {
    if (prompt_) return prompt_(title, text, buttons, default_button);
    return QMessageBox::question(this, title, text, buttons, default_button);
}

// ---------------------------------------------------------------------------------------------
// Construction

void MainWindow::createActions() {
    QStyle* s = style();
    new_ = new QAction(s->standardIcon(QStyle::SP_FileIcon), tr("&New experiment…"), this);
    new_->setShortcut(QKeySequence::New);
    new_->setToolTip(tr("Create an experiment from a built-in problem or your own parameters (Ctrl+N)"));
    connect(new_, &QAction::triggered, this, &MainWindow::newDialog);

    open_ = new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this);
    open_->setShortcut(QKeySequence::Open);
    open_->setToolTip(tr("Open an experiment file (Ctrl+O)"));
    connect(open_, &QAction::triggered, this, &MainWindow::openDialog);

    import_ = new QAction(tr("&Import experiment…"), this);
    import_->setToolTip(tr("Open an Ax snapshot or an Optuna study (SQLite storage or journal file) as a new experiment"));
    connect(import_, &QAction::triggered, this, &MainWindow::importDialog);

    save_ = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this);
    save_->setShortcut(QKeySequence::Save);
    save_->setToolTip(tr("Save the experiment (Ctrl+S)"));
    connect(save_, &QAction::triggered, this, &MainWindow::saveFile);

    save_as_ = new QAction(tr("Save &As…"), this);
    save_as_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(save_as_, &QAction::triggered, this, &MainWindow::saveAsDialog);

    quit_ = new QAction(tr("&Quit"), this);
    quit_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit_->setMenuRole(QAction::QuitRole);
    connect(quit_, &QAction::triggered, this, &QWidget::close);

    export_trials_ = new QAction(tr("Export &trials as CSV…"), this);
    connect(export_trials_, &QAction::triggered, this, &MainWindow::exportTrialsDialog);
    export_chosen_ = new QAction(tr("Export &chosen configurations…"), this);
    export_chosen_->setToolTip(tr("Write the chosen configurations as JSON or CSV, in your units"));
    connect(export_chosen_, &QAction::triggered, this, &MainWindow::exportChosenDialog);
    changed_only_ = new QAction(tr("Export changed parameters only"), this);
    changed_only_->setCheckable(true);
    changed_only_->setChecked(make_settings()->value("export/changedOnly", true).toBool());
    changed_only_->setToolTip(tr("Leave out parameters that stay at their targets"));
    connect(changed_only_, &QAction::toggled, this,
            [](bool on) { make_settings()->setValue("export/changedOnly", on); });
    const QString image_kinds = ChartPanel::svgExportAvailable() ? tr("PNG or SVG") : tr("PNG");
    export_frontier_ = new QAction(tr("&Frontier chart as %1…").arg(image_kinds), this);
    export_frontier_->setToolTip(tr("The chart in the middle: with several objectives, the tab shown"));
    connect(export_frontier_, &QAction::triggered, this, [this] { exportChartDialog(Chart::Frontier); });
    export_hypervolume_ = new QAction(tr("&Hypervolume chart as %1…").arg(image_kinds), this);
    connect(export_hypervolume_, &QAction::triggered, this, [this] { exportChartDialog(Chart::Hypervolume); });
    export_activation_ = new QAction(tr("&Activation chart as %1…").arg(image_kinds), this);
    connect(export_activation_, &QAction::triggered, this, [this] { exportChartDialog(Chart::Activation); });

    step_ = new QAction(s->standardIcon(QStyle::SP_MediaSkipForward), tr("&Step"), this);
    step_->setShortcut(QKeySequence(Qt::Key_F5));
    step_->setToolTip(tr("Propose and evaluate one trial (F5)"));
    connect(step_, &QAction::triggered, this, [this] {
        if (ensureCommandApproved()) controller_->step();
    });

    run_n_ = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Run N trials"), this);
    run_n_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    run_n_->setToolTip(tr("Run the number of trials set next to this button (Ctrl+R)"));
    run_count_ = new QSpinBox(this);
    run_count_->setRange(1, 10000);
    run_count_->setValue(5);
    run_count_->setToolTip(tr("Trials to run with Run N"));
    run_count_->setAccessibleName(tr("Trials to run"));
    connect(run_n_, &QAction::triggered, this, [this] {
        if (ensureCommandApproved()) controller_->run(run_count_->value());
    });

    run_budget_ = new QAction(s->standardIcon(QStyle::SP_MediaSeekForward), tr("Run to &budget"), this);
    run_budget_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    run_budget_->setToolTip(tr("Run until the experiment has its budget of trials (Ctrl+Shift+R)"));
    connect(run_budget_, &QAction::triggered, this, [this] {
        if (ensureCommandApproved()) controller_->runToBudget();
    });

    cancel_ = new QAction(s->standardIcon(QStyle::SP_MediaStop), tr("&Cancel"), this);
    cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancel_->setToolTip(tr("Stop the running step; the experiment stays as it was before it (Esc)"));
    connect(cancel_, &QAction::triggered, controller_, &RunController::cancel);

    choose_ = new QAction(tr("&Mark as chosen"), this);
    choose_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    choose_->setToolTip(tr("Pick (or un-pick) the selected trial to take away (Ctrl+M)"));
    connect(choose_, &QAction::triggered, this, &MainWindow::toggleChosenOfSelection);
    copy_config_ = new QAction(tr("&Copy configuration"), this);
    copy_config_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(copy_config_, &QAction::triggered, this, [this] { copyConfiguration(document_->selectedTrial()); });
    export_config_ = new QAction(tr("&Export configuration…"), this);
    connect(export_config_, &QAction::triggered, this,
            [this] { exportConfigurationDialog(document_->selectedTrial()); });
    enter_result_ = new QAction(tr("Ente&r result…"), this);
    enter_result_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    enter_result_->setToolTip(tr("Type the observed value of a pending trial (Ctrl+E)"));
    connect(enter_result_, &QAction::triggered, this, &MainWindow::enterResultOfPending);

    abandon_ = new QAction(tr("&Abandon pending trial"), this);
    abandon_->setToolTip(tr("Give up on the selected pending trial: it stays in the file as abandoned, counts nowhere, "
                            "and no step evaluates it"));
    connect(abandon_, &QAction::triggered, this, [this] { abandonTrial(document_->selectedTrial()); });

    import_results_ = new QAction(tr("&Import results from CSV…"), this);
    import_results_->setToolTip(tr("Read measured values from a CSV sheet, as sebo observe --csv and sebo import do: "
                                   "results of pending trials (rows named by a trial column or by every parameter's "
                                   "value), or past measurements as new trials; a column per metric (optional: "
                                   "<metric>_sem, status, error)"));
    connect(import_results_, &QAction::triggered, this, &MainWindow::importResultsDialog);

    exclusion_ = new TrialExclusionActions(document_, message_bar_, this);
    connect(exclusion_, &TrialExclusionActions::changed, this,
            [this](const QString& summary) { statusBar()->showMessage(summary, 8000); });
    simplify_ = new SimplifyActions(document_, this);
    simplify_->setStepRunner({[this] { return controller_->cannotRunOnceApproved(); },
                              [this](const std::vector<std::vector<double>>& points) {
                                  return ensureCommandApproved() && controller_->runConfigurations(points, "simplify");
                              }});
    connect(simplify_, &SimplifyActions::changed, this, [this](const QString& summary) { statusBar()->showMessage(summary, 8000); });
    connect(controller_, &RunController::runFinished, simplify_,
            [this](RunEnd, const QString& message) { simplify_->runEnded(message); });
    report_ = new ReportActions(document_, this);
    report_->setPathChooser([this](const QString& title, const QString& filters, const QString& suggested) {
        return askSavePath(title, filters, suggested);
    });
    connect(report_, &ReportActions::exported, this, [this](const QString& summary) { statusBar()->showMessage(summary, 8000); });
    connect(report_, &ReportActions::failed, this, &MainWindow::showError);
    confirm_ = new ConfirmActions(document_, this);
    confirm_->setPendingRunner({[this] { return controller_->cannotRunOnceApproved(); },
                                [this](int steps) { return ensureCommandApproved() && controller_->run(steps); }});
    confirm_->setDialogRunner([this](QDialog& dialog) { return execDialog(dialog); });
    connect(confirm_, &ConfirmActions::changed, this, [this](const QString& summary) { statusBar()->showMessage(summary, 8000); });
    connect(confirm_, &ConfirmActions::failed, this, &MainWindow::showError);

    help_ = new HelpActions(this);

    reset_layout_ = new QAction(tr("&Reset layout"), this);
    reset_layout_->setToolTip(tr("Place every panel as the default arrangement for this window size does"));
    connect(reset_layout_, &QAction::triggered, this, &MainWindow::resetLayout);

    for (QAction* a : {new_, open_, save_, save_as_, quit_, step_, run_n_, run_budget_, cancel_, choose_,
                       copy_config_, enter_result_})
        addAction(a);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(new_);
    file->addAction(open_);
    file->addAction(import_);
    examples_menu_ = file->addMenu(tr("Open &example"));
    recent_menu_ = file->addMenu(tr("Open &recent"));
    file->addSeparator();
    file->addAction(save_);
    file->addAction(save_as_);
    file->addSeparator();
    QMenu* exports = file->addMenu(tr("E&xport"));
    exports->addAction(export_chosen_);
    exports->addAction(changed_only_);
    exports->addSeparator();
    exports->addAction(export_trials_);
    exports->addSeparator();
    exports->addAction(export_frontier_);
    exports->addAction(export_hypervolume_);
    exports->addAction(export_activation_);
    if (!ChartPanel::svgExportAvailable()) {
        QAction* note = exports->addAction(tr("(SVG export needs Qt SVG, which this build lacks)"));
        note->setEnabled(false);
    }
    file->addAction(report_->exportAction());
    file->addSeparator();
    file->addAction(quit_);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(step_);
    run->addAction(run_n_);
    run->addAction(run_budget_);
    run->addSeparator();
    run->addAction(cancel_);
    run->addSeparator();
    QAction* forget = run->addAction(tr("&Forget trusted commands"));
    forget->setObjectName("forgetTrustedCommands");
    forget->setToolTip(tr("Ask again before any experiment's external command runs, also for the files whose "
                          "command you chose to trust"));
    connect(forget, &QAction::triggered, this, [this] {
        const auto settings = make_settings();
        CommandTrustStore(*settings).clear();
        controller_->revokeCommandApproval();
        statusBar()->showMessage(tr("Every experiment's command will be asked about again before it runs."), 5000);
    });

    QMenu* trial = menuBar()->addMenu(tr("&Trial"));
    trial->addAction(choose_);
    trial->addAction(exclusion_->toggleAction());
    trial->addAction(simplify_->simplifyAction());
    trial->addAction(confirm_->trialAction());
    trial->addAction(confirm_->frontierAction());
    trial->addAction(copy_config_);
    trial->addAction(export_config_);
    trial->addSeparator();
    trial->addAction(comparison_->compareAction());
    trial->addAction(comparison_->changeRequestAction());
    trial->addSeparator();
    trial->addAction(enter_result_);
    trial->addAction(import_results_);
    trial->addAction(abandon_);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* d : docks_.all()) view->addAction(d->toggleViewAction());
    view->addSeparator();
    // From the keyboard: a panel behind another's tab comes forward with its focus (issue 32: no
    // way to bring a tabbed panel forward without the mouse). Alt+0 goes back to the charts.
    QMenu* go = view->addMenu(tr("&Go to panel"));
    QAction* charts = go->addAction(tr("Charts"));
    charts->setShortcut(QKeySequence(Qt::ALT | Qt::Key_0));
    connect(charts, &QAction::triggered, this, [this] { center_->currentWidget()->setFocus(Qt::ShortcutFocusReason); });
    addAction(charts);
    int key = 1;
    for (QDockWidget* d : docks_.all()) {
        QAction* a = go->addAction(d->windowTitle());
        if (key <= 9) a->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_0 + key++)));
        connect(a, &QAction::triggered, this, [this, d] { raisePanel(d); });
        addAction(a);
        panel_actions_ << a;
    }
    view->addSeparator();
    view->addAction(chart_source_->toggleAction());
    view->addSeparator();
    view->addAction(reset_layout_);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(help_->documentationAction());
    help->addAction(help_->shortcutsAction());
    help->addSeparator();
    help_examples_menu_ = help->addMenu(tr("&Examples"));
    help->addSeparator();
    QAction* about = help->addAction(tr("&About SEBO Explorer"));
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About SEBO Explorer"),
                           tr("<b>SEBO Explorer</b> %1<p>Sparse Bayesian optimization: find configurations that "
                              "perform well and change as few parameters as possible.</p><p>Method: Liu, Feng, "
                              "Eriksson, Letham, Bakshy, <i>Sparse Bayesian Optimization</i>, AISTATS 2023.</p>"
                              "<p>Licence: GPL-3.0-or-later.</p>")
                               .arg(QApplication::applicationVersion()));
    });

    QToolBar* tools = addToolBar(tr("Main"));
    tools->setObjectName("mainToolBar");
    tools->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    tools->addAction(new_);
    tools->addAction(open_);
    tools->addAction(save_);
    tools->addSeparator();
    tools->addAction(step_);
    tools->addAction(run_n_);
    tools->addWidget(run_count_);
    tools->addAction(run_budget_);
    tools->addAction(cancel_);
    follow_palette_with_icons(tools, {step_, run_n_, run_budget_, cancel_});  // black glyphs vanish on dark

    connect(recent_menu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    rebuildRecentMenu();
    rebuildExamplesMenu();
}

void MainWindow::createWelcomePage() {
    welcome_ = new WelcomePage(this);
    connect(welcome_, &WelcomePage::newRequested, this, &MainWindow::newDialog);
    connect(welcome_, &WelcomePage::openRequested, this, &MainWindow::openDialog);
    connect(welcome_, &WelcomePage::exampleRequested, this, [this](const QString& path) { openFile(path); });
    connect(welcome_, &WelcomePage::recentRequested, this, [this](const QString& path) { openFile(path); });
}

void MainWindow::createStatusBar() {
    run_progress_ = new RunProgressWidget(controller_, statusBar(), this);
    summary_label_ = new QLabel(this);
    summary_label_->setTextFormat(Qt::PlainText);
    statusBar()->addPermanentWidget(run_progress_, 1);
    save_status_ = new SaveStatusLabel(document_, this);
    statusBar()->addPermanentWidget(save_status_);
    statusBar()->addPermanentWidget(summary_label_);
}

// ---------------------------------------------------------------------------------------------
// Reacting to the document and the controller

void MainWindow::onChartSnapshot(const SnapshotPtr& snapshot) {
    charts_->setSnapshot(snapshot);
    hypervolume_->setSnapshot(snapshot);
    charts_->setSelectedTrial(snapshot->standIn(document_->selectedTrial()));
}

void MainWindow::onSnapshot(const SnapshotPtr& snapshot) {
    // The charts' values (measured, replicates merged, or the model's estimates) follow from it.
    chart_source_->setSnapshot(snapshot);
    activation_->setSnapshot(snapshot);
    inspector_->setSnapshot(snapshot);
    method_->setSnapshot(snapshot);
    const bool first_rows = trials_model_->rowCount() == 0 && !snapshot->experiment.trials.empty();
    QScrollBar* scroll = trials_view_->verticalScrollBar();
    const bool following = scroll->value() == scroll->maximum();
    trials_model_->setSnapshot(snapshot);
    updateTrialColumns();
    if (first_rows) trials_view_->resizeColumnsToContents();
    // The table keeps showing the document's selection after rows were added or re-sorted,
    // and keeps following new trials when it was scrolled to the end.
    charts_->setSelectedTrial(chart_source_->chartSnapshot()->standIn(document_->selectedTrial()));
    inspector_->setTrial(document_->selectedTrial());
    syncTableSelection(document_->selectedTrial(), false);
    if (following) trials_view_->scrollToBottom();
    // After the table: kept brushes select their (possibly more) trials in it again.
    parallel_->setSnapshot(snapshot);
    parallel_->setSelectedTrial(document_->selectedTrial());
    log_->setSnapshot(snapshot);
    // The note that a trial waits for its result goes once it has one (typed, failed, imported).
    if (const QString topic = message_bar_->topic(); topic.startsWith(kWaitingTopic)) {
        const Trial* waiting = snapshot->trial(topic.section(':', 1).toInt());
        if (!waiting || waiting->status != TrialStatus::Pending) message_bar_->dismiss();
    }
    postNotices();
    updateSummary();
    updateActions();
}

void MainWindow::updateTrialColumns() {
    // Feasibility means something only with outcome constraints, a metric's SEM only once one was
    // recorded. The header keeps hidden sections by position, and the columns move with the
    // metrics: every one is set.
    const bool constrained = !document_->snapshot()->experiment.outcomes.constraints.empty();
    const int feasible = trials_model_->column(TrialsTableModel::Feasible);
    for (int c = 0; c < trials_model_->columnCount(); ++c) {
        bool hidden = c == feasible && !constrained;
        if (trials_model_->kindOf(c) == TrialsTableModel::Sem)
            hidden = !trials_model_->hasStandardErrors((c - trials_model_->column(TrialsTableModel::Value)) / 2);
        trials_view_->setColumnHidden(c, hidden);
    }
}

void MainWindow::onExperimentReplaced() {
    chart_source_->reset();
    warned_partial_.clear();
    // The trials of the experiment opened are not news.
    seen_completed_.clear();
    for (const Trial& t : document_->experiment().trials)
        if (t.status == TrialStatus::Completed) seen_completed_.insert(t.index);
    trials_model_->setSnapshot(document_->snapshot(), true);
    updateTrialColumns();
    if (trials_model_->rowCount() > 0) trials_view_->resizeColumnsToContents();
    center_->setCurrentWidget(document_->hasExperiment() ? static_cast<QWidget*>(charts_) : welcome_);
    parallel_->clearBrushes();
    log_->clear();
    updateTitle();
    updateActions();
}

void MainWindow::onSelection(int trial) {
    charts_->setSelectedTrial(chart_source_->chartSnapshot() ? chart_source_->chartSnapshot()->standIn(trial) : trial);
    parallel_->setSelectedTrial(trial);
    inspector_->setTrial(trial);
    syncTableSelection(trial, true);
    updateActions();
}

void MainWindow::syncTableSelection(int trial, bool scroll) {
    const QScopedValueRollback guard(syncing_selection_, true);
    const int source_row = trials_model_->rowOfTrial(trial);
    const QModelIndex index = source_row >= 0 ? trials_proxy_->mapFromSource(trials_model_->index(source_row, 0))
                                              : QModelIndex();
    if (index.isValid()) {
        // The table made the row current itself (a click, or a Ctrl+click or Shift+arrow that selects
        // several trials to compare): the rows it selected stay as they are.
        const QModelIndex current = trials_view_->selectionModel()->currentIndex();
        if (selection_from_table_ && current.isValid() && current.row() == index.row()) {
            if (scroll) trials_view_->scrollTo(index);
            return;
        }
        // While brushing, the brushed rows stay selected with it.
        trials_view_->selectionModel()->setCurrentIndex(
            index, (brushed_count_ >= 0 ? QItemSelectionModel::Select : QItemSelectionModel::ClearAndSelect) |
                       QItemSelectionModel::Rows);
        if (scroll) trials_view_->scrollTo(index);
    } else {
        trials_view_->selectionModel()->clearSelection();
    }
}

void MainWindow::onRunningChanged(bool running) {
    method_->setRunning(running);
    chart_source_->setRunning(running);
    updateActions();
}

void MainWindow::onStepCompleted(const QList<int>& trials) {
    exclusion_->checkNewValues(trials);
    const SnapshotPtr snapshot = document_->snapshot();  // held: what runs below may replace it
    const ExperimentSnapshot& s = *snapshot;
    for (int index : trials)
        if (const Trial* t = s.trial(index)) log_->endEvaluation(*t);
    // A SAAS-NUTS fit whose chains did not converge (R-hat above 1.05) or diverged after warm-up:
    // its proposals may rest on a poor picture of the posterior.
    for (int index : trials)
        if (const Trial* t = s.trial(index); t && t->fit && !t->fit->warning().empty()) {
            message_bar_->showMessage(MessageBar::Kind::Warning,
                                      tr("The model behind trial %1 may be unreliable: %2.")
                                          .arg(index)
                                          .arg(QString::fromStdString(t->fit->warning())));
            break;
        }
    for (int index : trials) {
        const Trial* t = s.trial(index);
        if (t && t->status == TrialStatus::Pending) {
            // Manual evaluation: take the user straight to the result entry.
            document_->setSelectedTrial(index);
            inspector_->focusResultEntry();
            message_bar_->showMessage(MessageBar::Kind::Information,
                                      tr("Trial %1 is waiting for its result: run it, then type the observed value "
                                         "in the Configuration panel (or mark it failed).")
                                          .arg(index),
                                      waitingTopic(index));
            break;
        }
    }
}

void MainWindow::onRunFinished(RunEnd end, const QString& message) {
    // A cancelled or failed step records no trial: its evaluations end here.
    log_->endOpenEvaluations(end == RunEnd::Cancelled ? tr("cancelled") : tr("stopped, not recorded"));
    switch (end) {
    case RunEnd::Finished: statusBar()->showMessage(message, 5000); break;
    case RunEnd::Cancelled: statusBar()->showMessage(message, 8000); break;
    case RunEnd::BudgetReached: showInfo(message); break;
    case RunEnd::Failed: showError(message); break;
    }
    updateActions();
}

void MainWindow::onMethodApplied(const MethodChoice& choice) {
    if (auto error = document_->setMethod(choice.method, choice.seed)) showError(*error);
    else statusBar()->showMessage(tr("Method settings applied; they are saved with the experiment."), 5000);
}

void MainWindow::updateActions() {
    const bool has = document_->hasExperiment();
    const bool running = controller_->isRunning();
    const SnapshotPtr s = document_->snapshot();
    const int selected = document_->selectedTrial();
    const Trial* t = selected >= 0 ? s->trial(selected) : nullptr;
    const bool room = has && RunController::stepsAvailable(s->experiment) > 0;
    const bool editable = has && !document_->isReadOnly();

    new_->setEnabled(!running);
    open_->setEnabled(!running);
    import_->setEnabled(!running);
    recent_menu_->setEnabled(!running);
    examples_menu_->setEnabled(!running);
    save_->setEnabled(editable);
    save_as_->setEnabled(has);
    step_->setEnabled(editable && !running && room);
    run_n_->setEnabled(editable && !running && room);
    run_count_->setEnabled(editable && !running && room);
    run_budget_->setEnabled(editable && !running && room);
    cancel_->setEnabled(running && !controller_->isCancelling());
    export_trials_->setEnabled(has && !s->experiment.trials.empty());
    export_chosen_->setEnabled(has && !s->experiment.chosen.empty());
    for (QAction* a : {export_frontier_, export_hypervolume_, export_activation_}) a->setEnabled(has);
    choose_->setEnabled(editable && t && t->status == TrialStatus::Completed);
    choose_->setText(t && s->chosen(selected) ? tr("Un&mark as chosen") : tr("&Mark as chosen"));
    copy_config_->setEnabled(t != nullptr);
    export_config_->setEnabled(t != nullptr);
    exclusion_->update();
    simplify_->update();
    confirm_->update();
    if (comparison_) comparison_->update();
    enter_result_->setEnabled(editable && s->experiment.count(TrialStatus::Pending) > 0);
    // Not while a step evaluates it.
    const std::vector<Trial>& evaluating = controller_->runningTrials();
    abandon_->setEnabled(editable && t && t->status == TrialStatus::Pending &&
                         std::none_of(evaluating.begin(), evaluating.end(), [&](const Trial& r) { return r.index == t->index; }));
    // Past measurements need no pending trial.
    import_results_->setEnabled(editable && !running);
    const QString reason = has && !running ? controller_->cannotRunReason() : QString();
    step_->setToolTip(reason.isEmpty() ? tr("Propose and evaluate one trial (F5)") : reason);
}

void MainWindow::updateTitle() {
    setWindowTitle(QString("%1[*] — SEBO Explorer").arg(document_->displayName()));
    setWindowModified(document_->isModified());
}

void MainWindow::updateSummary() {
    const SnapshotPtr snapshot = document_->snapshot();  // held: what runs below may replace it
    const ExperimentSnapshot& s = *snapshot;
    if (!document_->hasExperiment()) {
        summary_label_->setText(tr("No experiment open"));
        trials_count_->clear();
        return;
    }
    summary_label_->setText(status_summary(s));
    QString shown = tr("%1 shown · %2 on the frontier").arg(trials_proxy_->rowCount()).arg(s.report.pareto_trials.size());
    if (const std::optional<int> k = trials_proxy_->activeLimit())
        shown = tr("%1 shown (≤ %2 changed) · %3 on its front").arg(trials_proxy_->rowCount()).arg(*k).arg(
            charts_->scatter()->highlightedFront().size());
    if (brushed_count_ >= 0) shown += tr(" · %1 brushed").arg(brushed_count_);
    trials_count_->setText(shown);
}

// ---------------------------------------------------------------------------------------------
// Selection and manual entry

void MainWindow::toggleChosenOfSelection() {
    const int trial = document_->selectedTrial();
    if (trial < 0) return;
    const ChosenConfiguration* c = document_->snapshot()->chosen(trial);
    document_->setChosen(trial, c == nullptr, c ? QString::fromStdString(c->note) : QString());
}

void MainWindow::enterResultOfPending() {
    for (const Trial& t : document_->experiment().trials) {
        if (t.status != TrialStatus::Pending) continue;
        document_->setSelectedTrial(t.index);
        docks_.configuration->show();
        docks_.configuration->raise();
        inspector_->focusResultEntry();
        return;
    }
}

void MainWindow::raisePanel(QDockWidget* dock) {
    dock->show();
    dock->raise();
    // Into the panel: its first widget that takes the focus from the keyboard.
    QWidget* content = dock->widget();
    QWidget* target = content;
    for (QWidget* w = content->nextInFocusChain(); w && w != content; w = w->nextInFocusChain())
        if (content->isAncestorOf(w) && w->isVisibleTo(dock) && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus)) {
            target = w;
            break;
        }
    target->setFocus(Qt::ShortcutFocusReason);
}

bool MainWindow::abandonTrial(int trial, const QString& reason) {
    if (auto error = document_->abandonTrials({trial}, reason)) {
        showError(tr("Trial %1 could not be abandoned: %2").arg(trial).arg(*error));
        return false;
    }
    statusBar()->showMessage(tr("Trial %1 abandoned: it stays in the experiment, counts nowhere, and no step evaluates it.")
                                 .arg(trial),
                             8000);
    if (message_bar_->topic() == waitingTopic(trial)) message_bar_->dismiss();
    return true;
}

void MainWindow::showError(const QString& text) { message_bar_->showMessage(MessageBar::Kind::Error, text); }
void MainWindow::showInfo(const QString& text) { message_bar_->showMessage(MessageBar::Kind::Information, text); }

// ---------------------------------------------------------------------------------------------
// Window events

void MainWindow::closeEvent(QCloseEvent* event) {
    if (controller_->isRunning()) {
        const auto answer = ask(tr("A step is running"),
                                tr("A step is running. Cancel it and close? Trials completed so far are kept."),
                                QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return;
        }
        controller_->cancelAndWait();
    }
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    saveLayout();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QMimeData* mime = event->mimeData();
    if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile()) return;
    event->acceptProposedAction();
    const QString path = urls.first().toLocalFile();
    // Open after the drop has finished, so a question about unsaved changes does not run
    // inside the drag-and-drop event loop.
    QTimer::singleShot(0, this, [this, path] { openFile(path); });
}

}  // namespace sebo::ui
