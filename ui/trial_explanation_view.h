#pragma once
// "Explain this trial" in the configuration inspector (issue 16): on request, the model's
// prediction for the selected trial (mean ± sd) next to its measured value, and for each changed
// parameter the predicted effect of resetting it alone, as bars sorted from the most harmful
// reset (experiment/simplify.h). The model is fitted off the GUI thread (simplify_job.h) and only
// when asked: a SAAS fit takes seconds, too long to repeat on every change of selection.

#include <QWidget>

#include "experiment_snapshot.h"
#include "simplify_job.h"

class QLabel;
class QPushButton;

namespace sebo::ui {

class ExplanationBars;

class TrialExplanationView : public QWidget {
    Q_OBJECT
public:
    explicit TrialExplanationView(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setTrial(int trial);
    // Fits the model and explains the current trial (when the button is enabled).
    void explain();

    QPushButton* explainButton() const { return button_; }
    QLabel* predictionLabel() const { return prediction_; }
    bool isComputing() const { return job_->isRunning(); }
    // The explanation shown (ok false until one is).
    const SimplifyOutcome& outcome() const { return outcome_; }
    // The bars' labels, top to bottom (for tests).
    QStringList barLabels() const;

private:
    void updateButton();
    void showOutcome(const SimplifyOutcome& outcome);

    SnapshotPtr snapshot_;
    int trial_ = -1;
    SimplifyJob* job_;
    SimplifyOutcome outcome_;
    QPushButton* button_;
    QLabel* prediction_;
    ExplanationBars* bars_;
};

}  // namespace sebo::ui
