#pragma once
// The selected trial in detail: its metrics (and whether it is feasible, with outcome
// constraints), active count, and per parameter its value, target and whether it changed (changed
// first), with the measurements of its configuration merged when it was measured more than once
// (mean, SEM, count) and the model's estimate with its 95 % interval when there is one. Here the
// user picks the trial (chosen + note), copies or exports it, and — for a pending
// trial — types the observed value of each metric, marks it failed or abandons it
// (SPEC §1 "manual", §5). On request the model explains a completed
// trial (trial_explanation_view.h).

#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "experiment_snapshot.h"

class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStackedLayout;
class QTableView;

namespace sebo::ui {

class ConfigurationModel;
class TrialExplanationView;

class ConfigurationInspector : public QWidget {
    Q_OBJECT
public:
    explicit ConfigurationInspector(QWidget* parent = nullptr);

    void setSnapshot(SnapshotPtr snapshot);
    void setTrial(int trial);
    // The model's estimates of the experiment (chart_source.h), or null: a trial's estimate and
    // interval are shown beside its measurements.
    void setEstimates(std::shared_ptr<const RecommendationReport> estimates);
    int trial() const { return trial_; }

    // For tests and keyboard focus.
    QString titleText() const;
    QString summaryText() const;
    ConfigurationModel* parameterModel() const { return model_; }
    QTableView* parameterView() const { return table_; }
    QCheckBox* chosenBox() const { return chosen_; }
    QLineEdit* noteEdit() const { return note_; }
    QGroupBox* resultBox() const { return result_box_; }
    QLineEdit* resultEdit() const { return value_edit_; }
    QLineEdit* semEdit() const { return sem_edit_; }
    // With several metrics: the value and standard error fields of a metric other than the
    // first objective (whose fields are resultEdit() and semEdit()), or nullptr.
    QLineEdit* metricEdit(const QString& metric) const;
    QLineEdit* metricSemEdit(const QString& metric) const;
    QLineEdit* failureEdit() const { return reason_edit_; }
    QPushButton* recordButton() const { return record_; }
    QPushButton* failButton() const { return fail_; }
    QPushButton* abandonButton() const { return abandon_; }
    TrialExplanationView* explanationView() const { return explanation_; }
    QString resultError() const;
    void focusResultEntry();

signals:
    void chosenChanged(int trial, bool chosen, const QString& note);
    void resultEntered(int trial, double value, std::optional<double> sem);
    // With several metrics: every value typed (each objective's at least).
    void resultsEntered(int trial, const MetricValues& values);
    void failureEntered(int trial, const QString& reason);
    // Give up on a pending trial (ExperimentDocument::abandonTrials).
    void abandonRequested(int trial, const QString& reason);
    void copyRequested(int trial);
    void exportRequested(int trial);

private:
    void refresh();
    // The merged measurements of the trial's configuration (when measured more than once) and
    // the model's estimate of it (when there is one).
    QStringList replicateAndModelLines(const Experiment& e, const Trial& t) const;
    void submitResult();
    void showResultError(const QString& message);
    // The fields of the metrics other than the first objective, for the snapshot's metrics.
    void updateMetricFields();

    SnapshotPtr snapshot_;
    std::shared_ptr<const RecommendationReport> estimates_;
    int trial_ = -1;
    QStackedLayout* stack_;
    QLabel* placeholder_;
    QLabel* title_;
    QLabel* summary_;
    QCheckBox* chosen_;
    QLineEdit* note_;
    QPushButton* copy_;
    QPushButton* export_;
    QGroupBox* result_box_;
    QLineEdit* value_edit_;
    QLineEdit* sem_edit_;
    QLineEdit* reason_edit_;
    QPushButton* record_;
    QPushButton* fail_;
    QPushButton* abandon_;
    QLabel* result_error_;
    QLabel* value_label_;
    QWidget* metric_fields_;
    struct MetricField {
        QString metric;
        QLineEdit* value = nullptr;
        QLineEdit* sem = nullptr;
    };
    std::vector<MetricField> metric_rows_;
    QLineEdit* filter_;
    ConfigurationModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    TrialExplanationView* explanation_;
};

// Parses a number typed by the user in either the C locale ("1.5") or the system's ("1,5").
std::optional<double> parse_user_number(const QString& text);

}  // namespace sebo::ui
