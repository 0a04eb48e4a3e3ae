#pragma once
// The SEBO Explorer window (SPEC §5): the frontier chart in the middle; docks for the method,
// the selected configuration, the trials, the hypervolume trace and the activation
// frequencies; steps run through a RunController so the window stays responsive.
//
// Everything a user can do is also a public function without dialogs (openFile, exportChosen,
// ...), which the menu actions call after asking for a path; tests drive those directly.

#include <QMainWindow>
#include <QMessageBox>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

#include "experiment_snapshot.h"

class QAction;
class QDialog;
class QLabel;
class QListWidget;
class QMenu;
class QProgressBar;
class QPushButton;
class QSettings;
class QSpinBox;
class QStackedWidget;
class QTableView;
class QTimer;
class QCheckBox;
class QDockWidget;

namespace sebo::ui {

class ActivationChartView;
class ChartPanel;
class ConfigurationInspector;
class ExperimentDocument;
class FrontierChartView;
class HypervolumeChartView;
class MessageBar;
class MethodPanel;
class ReadOnlyBanner;
class RunController;
class SaveStatusLabel;
class TrialExclusionActions;
class TrialsProxyModel;
class TrialsTableModel;
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
    FrontierChartView* frontierChart() const { return frontier_; }
    HypervolumeChartView* hypervolumeChart() const { return hypervolume_; }
    ActivationChartView* activationChart() const { return activation_; }
    ConfigurationInspector* inspector() const { return inspector_; }
    MethodPanel* methodPanel() const { return method_; }
    QTableView* trialsView() const { return trials_view_; }
    TrialsTableModel* trialsModel() const { return trials_model_; }
    TrialsProxyModel* trialsProxy() const { return trials_proxy_; }
    MessageBar* messageBar() const { return message_bar_; }
    QAction* newAction() const { return new_; }
    // Trial › Exclude from analysis, and the offer to exclude a new extreme value.
    TrialExclusionActions* exclusionActions() const { return exclusion_; }
    ReadOnlyBanner* readOnlyBanner() const { return read_only_banner_; }
    // The folder file dialogs start in: the open experiment's, else the last one used.
    QString dialogDirectory() const;
    QAction* stepAction() const { return step_; }
    QAction* runAction() const { return run_n_; }
    QAction* runToBudgetAction() const { return run_budget_; }
    QAction* cancelAction() const { return cancel_; }
    QSpinBox* runCountBox() const { return run_count_; }
    QLabel* progressLabel() const { return progress_label_; }
    QCheckBox* frontierOnlyBox() const { return frontier_only_; }

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
    bool saveFile();
    // Appends ".sebo.json" to a name without ".json"; refuses the application's own folders.
    bool saveFileAs(const QString& path);
    bool exportChosen(const QString& path, bool changed_only);
    bool exportConfiguration(int trial, const QString& path, bool changed_only);
    bool exportTrials(const QString& path);
    // Reads observed results for pending trials from a CSV file (see results_import.h).
    bool importResults(const QString& path);
    bool exportChart(Chart chart, const QString& path);
    void copyConfiguration(int trial);

    QStringList recentFiles() const;
    // Off for throw-away windows (--screenshot), so they leave the user's recent files alone.
    void setRememberRecentFiles(bool remember) { remember_recent_ = remember; }
    // Window geometry and dock layout from the settings (not used for screenshots).
    void restoreLayout();
    void saveLayout() const;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createDocks();
    QWidget* createWelcomePage();
    void createStatusBar();

    void onSnapshot(const SnapshotPtr& snapshot);
    void onExperimentReplaced();
    void onSelection(int trial);
    void syncTableSelection(int trial, bool scroll);
    void onRunningChanged(bool running);
    void onProgress(const RunProgress& progress);
    void onRunFinished(RunEnd end, const QString& message);
    void onStepCompleted(const QList<int>& trials);
    void onMethodApplied(const MethodChoice& choice);
    void updateActions();
    void updateTitle();
    void updateElapsed();
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
    QString askSavePath(const QString& title, const QString& filters, const QString& suggested);
    // A file name for an experiment without one: the example's, or from the experiment's name.
    QString suggestedFileName() const;

    void openDialog();
    void saveAsDialog();
    void newDialog();
    void exportChosenDialog();
    void exportConfigurationDialog(int trial);
    void exportTrialsDialog();
    void exportChartDialog(Chart chart);
    void toggleChosenOfSelection();
    void enterResultOfPending();
    void importResultsDialog();

    ExperimentDocument* document_;
    RunController* controller_;
    PromptHandler prompt_;
    DialogHandler dialog_handler_;
    // Asks before an experiment's external command runs, unless exactly this command was
    // approved in this session or trusted for this file; false when refused.
    bool ensureCommandApproved();
    bool syncing_selection_ = false;
    bool remember_recent_ = true;

    MessageBar* message_bar_;
    TrialExclusionActions* exclusion_;
    ReadOnlyBanner* read_only_banner_;
    SaveStatusLabel* save_status_;
    QStackedWidget* center_;
    QWidget* welcome_;
    QListWidget* welcome_recent_;
    QPushButton* welcome_example_;
    FrontierChartView* frontier_;
    HypervolumeChartView* hypervolume_;
    ActivationChartView* activation_;
    ConfigurationInspector* inspector_;
    MethodPanel* method_;
    TrialsTableModel* trials_model_;
    TrialsProxyModel* trials_proxy_;
    QTableView* trials_view_;
    QCheckBox* frontier_only_;
    QLabel* trials_count_;
    QList<QDockWidget*> docks_;

    QLabel* progress_label_;
    QProgressBar* progress_bar_;
    QLabel* summary_label_;
    QTimer* elapsed_timer_;

    QAction* new_;
    QAction* open_;
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
    QAction* import_results_;
    QAction* reset_layout_;
    QMenu* recent_menu_;
    QMenu* examples_menu_;
    QSpinBox* run_count_;
    QByteArray default_state_;
};

// The application's settings store (organization "SEBO", application "SEBO Explorer").
// Tests call QStandardPaths::setTestModeEnabled(true) first so the user's file is never touched.
std::unique_ptr<QSettings> make_settings();

}  // namespace sebo::ui
