#pragma once
// The SEBO Explorer window (SPEC §5): the frontier chart in the middle; docks for the method,
// the selected configuration, the trials, the hypervolume trace, the activation frequencies, the
// parallel coordinates and the evaluator's log, placed for the window's size (dock_layout.h);
// steps run through a RunController so the window stays responsive. Each view is its own class;
// the window creates and wires them.
//
// Everything a user can do is also a public function without dialogs (openFile, exportChosen,
// ...), which the menu actions call after asking for a path; tests drive those directly.
//
// The definitions: main_window.cpp (construction, reacting to the document and the controller,
// selection, window events), main_window_files.cpp (files, recent files, layout, file dialogs)
// and main_window_export.cpp (exports, imports and their dialogs).

#include <QMainWindow>
#include <QMessageBox>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <set>

#include "dock_layout.h"
#include "experiment_snapshot.h"

class QAction;
class QDialog;
class QLabel;
class QMenu;
class QSettings;
class QSpinBox;
class QStackedWidget;
class QTableView;
class QCheckBox;
class QLineEdit;
class QDockWidget;

namespace sebo::ui {

class ActivationChartView;
class CentralCharts;
class ChartSource;
class ChartPanel;
class ComparisonActions;
class ConfigurationInspector;
class ConfirmActions;
class EvaluatorLogView;
class ExperimentDocument;
class FocusIndicator;
class FrontierChartView;
class HelpActions;
class HypervolumeChartView;
class MessageBar;
class MethodPanel;
class ParallelCoordinatesView;
class ReadOnlyBanner;
class RunController;
class RunProgressWidget;
class SaveStatusLabel;
class TrialContextMenu;
class ReportActions;
class SimplifyActions;
class TrialExclusionActions;
class TrialsProxyModel;
class TrialsTableModel;
class WelcomePage;
enum class RunEnd;
struct MethodChoice;
struct RunProgress;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // Asks the user a question; the default shows a QMessageBox. Tests install an answerer.
    using PromptHandler = std::function<QMessageBox::StandardButton(
        const QString& title, const QString& text, QMessageBox::StandardButtons buttons,
        QMessageBox::StandardButton default_button)>;
    // Runs a modal dialog (the command confirmation, the new-experiment dialog) and returns its
    // result; the default calls QDialog::exec(). Tests install a handler that reads and answers it.
    using DialogHandler = std::function<int(QDialog& dialog)>;
    enum class Chart { Frontier, Hypervolume, Activation };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    ExperimentDocument* document() const { return document_; }
    RunController* controller() const { return controller_; }
    // What the charts plot: measurements, or the model's estimates (chart_source.h).
    ChartSource* chartSource() const { return chart_source_; }
    FrontierChartView* frontierChart() const { return frontier_; }
    // The frontier chart, and with several objectives the objectives scatter (central_charts.h).
    CentralCharts* centralCharts() const { return charts_; }
    HypervolumeChartView* hypervolumeChart() const { return hypervolume_; }
    ActivationChartView* activationChart() const { return activation_; }
    ConfigurationInspector* inspector() const { return inspector_; }
    MethodPanel* methodPanel() const { return method_; }
    ParallelCoordinatesView* parallelCoordinates() const { return parallel_; }
    EvaluatorLogView* evaluatorLog() const { return log_; }
    WelcomePage* welcomePage() const { return welcome_; }
    // The menu of a trial in the table, the charts and the parallel coordinates.
    TrialContextMenu* trialMenu() const { return trial_menu_; }
    // The docks by their part in the layout.
    const DockLayout::Docks& docks() const { return docks_; }
    QTableView* trialsView() const { return trials_view_; }
    TrialsTableModel* trialsModel() const { return trials_model_; }
    TrialsProxyModel* trialsProxy() const { return trials_proxy_; }
    MessageBar* messageBar() const { return message_bar_; }
    // The frame around the widget with the keyboard focus (focus_indicator.h).
    FocusIndicator* focusIndicator() const { return focus_indicator_; }
    QAction* newAction() const { return new_; }
    QAction* importAction() const { return import_; }
    // Trial › Exclude from analysis, and the offer to exclude a new extreme value.
    TrialExclusionActions* exclusionActions() const { return exclusion_; }
    SimplifyActions* simplifyActions() const { return simplify_; }
    // Trial › Confirm with more measurements (confirm_actions.h).
    ConfirmActions* confirmActions() const { return confirm_; }
    // Trial › Compare… and Trial › Export change request… (comparison_view.h).
    ComparisonActions* comparisonActions() const { return comparison_; }
    ReadOnlyBanner* readOnlyBanner() const { return read_only_banner_; }
    // Help › Documentation and Help › Keyboard shortcuts (help_actions.h).
    HelpActions* helpActions() const { return help_; }
    // The folder file dialogs start in: the open experiment's, else the last one used.
    QString dialogDirectory() const;
    QAction* stepAction() const { return step_; }
    QAction* runAction() const { return run_n_; }
    QAction* runToBudgetAction() const { return run_budget_; }
    QAction* cancelAction() const { return cancel_; }
    QSpinBox* runCountBox() const { return run_count_; }
    RunProgressWidget* runProgress() const { return run_progress_; }
    QCheckBox* frontierOnlyBox() const { return frontier_only_; }
    QLineEdit* changedFilterEdit() const { return changed_filter_; }

    void setPromptHandler(PromptHandler handler);
    // Without a dialog handler but with a prompt handler, the command confirmation is asked
    // through the prompt handler (its title and text; Yes runs, with no variable allowed).
    void setDialogHandler(DialogHandler handler);

    // Opens a file; asks about unsaved changes first. A file that fails to load is reported
    // in the message bar (with the engine's field path and value) and the current experiment
    // stays open. A bundled example opens as an untitled copy; a file another process runs
    // opens read-only (a banner says by whom). Returns whether the file was opened.
    bool openFile(const QString& path);
    // Replaces the open experiment with a new, not yet saved one (asks about unsaved changes).
    bool newExperiment(Experiment experiment);
    // File › Import experiment…: another tool's experiment (an Ax snapshot, an Optuna storage),
    // previewed in an ImportDialog (import_dialog.h) run through the dialog handler; when it is
    // accepted, the experiment opens untitled (Save As makes it a file). Returns whether it did.
    bool importExperiment(const QString& source);
    bool saveFile();
    // Appends ".sebo.json" to a name without ".json"; refuses the application's own folders.
    bool saveFileAs(const QString& path);
    bool exportChosen(const QString& path, bool changed_only);
    bool exportConfiguration(int trial, const QString& path, bool changed_only);
    bool exportTrials(const QString& path);
    // Reads a CSV sheet of results for pending trials, or of past measurements (results_import.h);
    // asks before recording part of a sheet or adding past measurements as new trials.
    bool importResults(const QString& path);
    bool exportChart(Chart chart, const QString& path);
    // Gives up on a pending trial (Trial › Abandon pending trial, the inspector's Abandon).
    bool abandonTrial(int trial, const QString& reason = {});
    // Recovery files of untitled experiments that no window holds any more (the explorer ended
    // without saving or discarding them: a crash, a kill): the newest is offered in the message
    // bar with an "Open it" button. Called once the window is shown at start-up.
    void offerRecovery();
    // Opens a recovery file as the untitled experiment it was (asks about unsaved changes first).
    bool openRecovered(const QString& path);
    void copyConfiguration(int trial);

    QStringList recentFiles() const;
    // Off for throw-away windows (--screenshot), so they leave the user's recent files alone.
    void setRememberRecentFiles(bool remember) { remember_recent_ = remember; }
    // Window geometry and dock layout from the settings (not used for screenshots), for a screen
    // whose free area is `available` (default: this window's screen). A layout saved on a larger
    // screen gives way to the default arrangement (dock_layout.h), and the status bar says so.
    // Without a saved layout, a window as large as the free area is maximized (its frame fits).
    void restoreLayout(QSize available = {});
    void saveLayout() const;
    // View › Reset layout: the default arrangement for the window's current size.
    void resetLayout();
    // View › Go to panel (Alt+1…): shows the dock, brings it in front of the docks tabbed with
    // it, and moves the keyboard focus into it.
    void raisePanel(QDockWidget* dock);
    // Those actions, in the order of docks().all().
    const QList<QAction*>& panelActions() const { return panel_actions_; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    // Before the window is first shown, its docks take the default arrangement for its size
    // (unless restoreLayout() put a saved layout in place): they must be in place before the
    // layout first computes the window's minimum size.
    void setVisible(bool visible) override;
    // When the window's size crosses between the compact and the wide arrangement (maximizing,
    // tiling half a screen), the docks are placed again for the new size.
    void resizeEvent(QResizeEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createDocks();
    void createWelcomePage();
    void createStatusBar();

    void onSnapshot(const SnapshotPtr& snapshot);
    void onChartSnapshot(const SnapshotPtr& snapshot);
    void onExperimentReplaced();
    void updateTrialColumns();
    // After a change of the experiment (main_window_notices.cpp), once the change is complete (a
    // replaced experiment counts as seen): a chosen configuration that a new trial overtook
    // (experiment/overtaken_choices.h), else the partial-standard-error warning
    // (experiment/standard_errors.h), once per metric.
    void postNotices();
    void showNotices();
    bool noticeOvertaken(const Experiment& experiment);
    void warnPartialStandardErrors(const Experiment& experiment);
    void onSelection(int trial);
    void syncTableSelection(int trial, bool scroll);
    void onRunningChanged(bool running);
    void onRunFinished(RunEnd end, const QString& message);
    void onStepCompleted(const QList<int>& trials);
    void onMethodApplied(const MethodChoice& choice);
    void updateActions();
    void updateTitle();
    void updateSummary();
    void rebuildRecentMenu();
    void rebuildExamplesMenu();
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);

    // Unsaved changes: Save / Discard / Cancel. Returns false when the user cancels.
    bool maybeSave();
    QMessageBox::StandardButton ask(const QString& title, const QString& text, QMessageBox::StandardButtons buttons,
                                    QMessageBox::StandardButton default_button);
    int execDialog(QDialog& dialog);
    void showError(const QString& text);
    void showInfo(const QString& text);
    // A note that the experiment is not in a file of the user's yet ("Until you save it…"): it
    // goes as soon as the experiment is saved to a file.
    void showUnsavedNote(const QString& text);
    static inline const QString kUnsavedTopic = QStringLiteral("unsaved");
    QString askSavePath(const QString& title, const QString& filters, const QString& suggested);
    // A file name for an experiment without one: the example's, or from the experiment's name.
    QString suggestedFileName() const;

    void openDialog();
    void importDialog();
    void saveAsDialog();
    void newDialog();
    void exportChosenDialog();
    void exportConfigurationDialog(int trial);
    void exportTrialsDialog();
    void exportChartDialog(Chart chart);
    void toggleChosenOfSelection();
    void enterResultOfPending();
    void importResultsDialog();
    // Selects these trials' rows (brushing in the parallel coordinates) without changing the
    // selected trial.
    void selectTrialsInTable(const QList<int>& trials);

    ExperimentDocument* document_;
    RunController* controller_;
    ChartSource* chart_source_;
    PromptHandler prompt_;
    DialogHandler dialog_handler_;
    // Asks before an experiment's external command runs, unless exactly this command was
    // approved in this session or trusted for this file; false when refused.
    bool ensureCommandApproved();
    bool syncing_selection_ = false;
    bool remember_recent_ = true;

    MessageBar* message_bar_;
    FocusIndicator* focus_indicator_;
    TrialExclusionActions* exclusion_;
    SimplifyActions* simplify_;
    ReportActions* report_;
    ConfirmActions* confirm_;
    ComparisonActions* comparison_ = nullptr;  // made with the trials table (createDocks)
    HelpActions* help_;
    ReadOnlyBanner* read_only_banner_;
    SaveStatusLabel* save_status_;
    QStackedWidget* center_;
    WelcomePage* welcome_;
    CentralCharts* charts_;
    FrontierChartView* frontier_;
    HypervolumeChartView* hypervolume_;
    ActivationChartView* activation_;
    ParallelCoordinatesView* parallel_;
    EvaluatorLogView* log_;
    TrialContextMenu* trial_menu_;
    ConfigurationInspector* inspector_;
    MethodPanel* method_;
    TrialsTableModel* trials_model_;
    TrialsProxyModel* trials_proxy_;
    QTableView* trials_view_;
    QCheckBox* frontier_only_;
    QLineEdit* changed_filter_;
    QLabel* trials_count_;
    DockLayout::Docks docks_;
    bool layout_placed_ = false;
    DockLayout::Arrangement arrangement_ = DockLayout::Arrangement::Compact;
    bool rearrange_posted_ = false;
    int brushed_count_ = -1;      // trials matching the parallel coordinates' brushes; -1: no brush
    QStringList warned_partial_;  // metrics whose partial standard errors were pointed out
    std::set<int> seen_completed_;  // completed trials already looked at for overtaken choices
    bool notices_posted_ = false;
    bool selection_from_table_ = false;  // the trials table is making its current row the selection

    RunProgressWidget* run_progress_;
    QLabel* summary_label_;

    QAction* new_;
    QAction* open_;
    QAction* import_;
    QAction* save_;
    QAction* save_as_;
    QAction* quit_;
    QAction* export_trials_;
    QAction* export_chosen_;
    QAction* changed_only_;
    QAction* export_frontier_;
    QAction* export_hypervolume_;
    QAction* export_activation_;
    QAction* step_;
    QAction* run_n_;
    QAction* run_budget_;
    QAction* cancel_;
    QAction* choose_;
    QAction* copy_config_;
    QAction* export_config_;
    QAction* enter_result_;
    QAction* abandon_;
    QAction* import_results_;
    QAction* reset_layout_;
    QList<QAction*> panel_actions_;
    QMenu* recent_menu_;
    QMenu* examples_menu_;
    QMenu* help_examples_menu_;
    QSpinBox* run_count_;
};

// The application's settings store (organization "SEBO", application "SEBO Explorer").
// Tests call QStandardPaths::setTestModeEnabled(true) first so the user's file is never touched.
std::unique_ptr<QSettings> make_settings();

}  // namespace sebo::ui
