#pragma once
// Compare candidates (issue 32 item 3): the trials selected in the trials table (1 to 6) side by
// side with the status quo, in a window of their own that stays open beside the main window — a
// column per configuration, the status quo first; a row for the changed parameters ("cache_mb 256
// → 811", configuration_changes.h) and one per metric with its value, its difference to the status
// quo in units and per cent, and the model's estimate with its 95 % interval where the model has
// one (experiment/comparison.h). Copy as text and Copy as CSV put io/comparison_export.h's text
// and CSV on the clipboard (the CSV's text cells guarded against spreadsheet formulas).
//
// The comparison is of the experiment as it was when the window opened (its title says how many
// trials it had); Compare again for a newer one.
//
// ComparisonActions owns Trial › Compare… and Trial › Export change request… (a plain-text file
// saying what to change for one configuration and what it is expected to do).

#include <QDialog>
#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>
#include <vector>

#include "experiment/comparison.h"

class QAction;
class QLabel;
class QPushButton;
class QTableWidget;

namespace sebo::ui {

class ExperimentDocument;

class ComparisonDialog : public QDialog {
    Q_OBJECT
public:
    // `estimates` may be null (the model's estimates are not there, or not yet): `missing` says why.
    ComparisonDialog(const Experiment& experiment, const std::vector<int>& trials,
                     std::shared_ptr<const RecommendationReport> estimates, const QString& missing, QWidget* parent = nullptr);

    const Comparison& comparison() const { return comparison_; }
    // The columns' trials: the status quo's (when it was measured), then the candidates'.
    const std::vector<int>& columnTrials() const { return columns_; }
    QTableWidget* table() const { return table_; }
    QPushButton* copyTextButton() const { return copy_text_; }
    QPushButton* copyCsvButton() const { return copy_csv_; }
    // What the buttons copy.
    QString text() const { return text_; }
    QString csv() const { return csv_; }

private:
    void fill(const Experiment& experiment);

    Comparison comparison_;
    std::vector<int> columns_;
    QString text_, csv_;
    QLabel* note_;
    QTableWidget* table_;
    QPushButton* copy_text_;
    QPushButton* copy_csv_;
};

class ComparisonActions : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxCandidates = 6;

    ComparisonActions(ExperimentDocument* document, QWidget* dialog_parent);

    QAction* compareAction() const { return compare_; }
    QAction* changeRequestAction() const { return change_request_; }
    // The trials selected (the trials table's rows), and the model's estimates with why they are
    // missing when they are.
    void setSelectionSource(std::function<std::vector<int>()> selected) { selected_ = std::move(selected); }
    void setEstimatesSource(std::function<std::shared_ptr<const RecommendationReport>()> estimates,
                            std::function<QString()> missing) {
        estimates_ = std::move(estimates);
        missing_ = std::move(missing);
    }
    // Asks where to save (title, filters, suggested name); an empty answer cancels.
    void setSavePathAsker(std::function<QString(const QString&, const QString&, const QString&)> ask) {
        ask_path_ = std::move(ask);
    }
    // Follows the selection and the document.
    void update();

    // Opens the comparison of `trials` (replacing one that is open); null, with failed(), when they
    // cannot be compared.
    ComparisonDialog* compare(const std::vector<int>& trials);
    ComparisonDialog* dialog() const { return dialog_; }
    // Writes the change request of `trial` to `path` (atomically).
    bool exportChangeRequest(int trial, const QString& path);

signals:
    void changed(const QString& summary);
    void failed(const QString& message);

private:
    std::vector<int> comparable() const;

    ExperimentDocument* document_;
    QWidget* dialog_parent_;
    QAction* compare_;
    QAction* change_request_;
    std::function<std::vector<int>()> selected_;
    std::function<std::shared_ptr<const RecommendationReport>()> estimates_;
    std::function<QString()> missing_;
    std::function<QString(const QString&, const QString&, const QString&)> ask_path_;
    QPointer<ComparisonDialog> dialog_;
};

}  // namespace sebo::ui
