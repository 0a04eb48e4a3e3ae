#pragma once
// "Simplify…" on a trial (issue 16): the model's predicted path from the trial's configuration to
// the target (experiment/simplify.h) as small charts and a table, one row per step
// ("k changed → predicted ± sd"), computed off the GUI thread (simplify_job.h). With several
// objectives or outcome constraints every objective's prediction ± sd is a column and a chart of
// its own, and so is the probability that the configuration satisfies every constraint. Selected
// steps can be added to the experiment as pending trials, or run with the experiment's evaluator
// through the main window's run path (step_runner.h).

#include <QDialog>
#include <vector>

#include "simplify_job.h"
#include "step_runner.h"

class QChartView;
class QLabel;
class QPushButton;
class QTableWidget;

namespace sebo::ui {

class ExperimentDocument;

class SimplifyDialog : public QDialog {
    Q_OBJECT
public:
    // Starts computing at once for `trial` of the document's experiment. Without a runner the
    // dialog only adds steps as pending trials.
    SimplifyDialog(ExperimentDocument* document, int trial, QWidget* parent = nullptr, StepRunner runner = {});

    int trial() const { return trial_; }
    bool isComputing() const { return job_->isRunning(); }
    const SimplifyOutcome& outcome() const { return outcome_; }
    QTableWidget* table() const { return table_; }
    // The first objective's chart, and every chart: one per objective, then the probability of
    // feasibility when the experiment has outcome constraints.
    QChartView* chartView() const { return charts_.front(); }
    const std::vector<QChartView*>& chartViews() const { return charts_; }
    QPushButton* addButton() const { return add_; }
    QPushButton* runButton() const { return run_; }
    QLabel* statusLabel() const { return status_; }

    // Adds the steps selected in the table (the trial itself excluded) as pending trials; returns
    // their indices (empty, with the reason in the status line, when nothing was added).
    std::vector<int> addSelectedSteps();
    // Runs the selected steps with the experiment's evaluator; false (the reason in the status
    // line) when they did not start.
    bool runSelectedSteps();
    // The main window's run ended (`message`: how). After a run this dialog started, the status
    // line names the trials it recorded instead of still saying "Running…", and the steps can be
    // run again.
    void runEnded(const QString& message);

signals:
    void stepsAdded(const QString& summary);

private:
    void showOutcome(const SimplifyOutcome& outcome);
    void updateButtons();
    std::vector<int> selectedSteps() const;
    QChartView* addChart();

    ExperimentDocument* document_;
    int trial_;
    StepRunner runner_;
    SimplifyJob* job_;
    SimplifyOutcome outcome_;
    QLabel* status_;
    QWidget* chart_area_;
    std::vector<QChartView*> charts_;
    int per_row_ = 3;  // charts per row of the grid
    QTableWidget* table_;
    QPushButton* add_;
    QPushButton* run_;
    int run_from_ = -1;  // while a run started here goes on: the first trial index it may add
};

}  // namespace sebo::ui
