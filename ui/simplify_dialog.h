#pragma once
// "Simplify…" on a trial (issue 16): the model's predicted path from the trial's configuration to
// the target (experiment/simplify.h) as a small chart and a table, one row per step
// ("k changed → predicted ± sd"), computed off the GUI thread (simplify_job.h). Selected steps
// can be added to the experiment as pending trials.

#include <QDialog>
#include <vector>

#include "simplify_job.h"

class QChartView;
class QLabel;
class QPushButton;
class QTableWidget;

namespace sebo::ui {

class ExperimentDocument;

class SimplifyDialog : public QDialog {
    Q_OBJECT
public:
    // Starts computing at once for `trial` of the document's experiment.
    SimplifyDialog(ExperimentDocument* document, int trial, QWidget* parent = nullptr);

    int trial() const { return trial_; }
    bool isComputing() const { return job_->isRunning(); }
    const SimplifyOutcome& outcome() const { return outcome_; }
    QTableWidget* table() const { return table_; }
    QChartView* chartView() const { return chart_view_; }
    QPushButton* addButton() const { return add_; }
    QLabel* statusLabel() const { return status_; }

    // Adds the steps selected in the table (the trial itself excluded) as pending trials; returns
    // their indices (empty, with the reason in the status line, when nothing was added).
    std::vector<int> addSelectedSteps();

signals:
    void stepsAdded(const QString& summary);

private:
    void showOutcome(const SimplifyOutcome& outcome);
    void updateAddButton();

    ExperimentDocument* document_;
    int trial_;
    SimplifyJob* job_;
    SimplifyOutcome outcome_;
    QLabel* status_;
    QChartView* chart_view_;
    QTableWidget* table_;
    QPushButton* add_;
};

}  // namespace sebo::ui
