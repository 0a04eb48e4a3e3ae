#include "results_import.h"

#include "io/csv_table.h"

namespace sebo::ui {

ResultsImportPlan plan_results_import(const Experiment& experiment, const std::string& text, const std::string& source) {
    const CsvTable table = parse_csv_table(text, source);
    ResultsImportPlan plan;
    plan.rows = static_cast<int>(table.rows.size());
    const ResultsMatch match = match_results(experiment, table);
    const int matched = match.count(ResultRow::Status::Matched);
    // A sheet of past measurements: configurations no pending trial has, and no trial index.
    if (!table.column_ignoring_case("trial") && matched == 0 && match.count(ResultRow::Status::Unmatched) > 0) {
        TrialImport imported = import_trials(experiment, table);
        plan.kind = ResultsImportPlan::Kind::PastTrials;
        plan.trials = std::move(imported.trials);
        for (const std::string& p : imported.problems) plan.problems << QString::fromStdString(p);
        for (const std::string& n : imported.notes) plan.notes << QString::fromStdString(n);
        return plan;
    }
    plan.results = match.results;
    for (const ResultRow& row : match.rows) {
        if (row.status == ResultRow::Status::Skipped) ++plan.skipped;
        if (row.status == ResultRow::Status::Recorded) ++plan.recorded;
        if (row.status == ResultRow::Status::Invalid || row.status == ResultRow::Status::Unmatched)
            plan.problems << QString("line %1: %2").arg(row.line).arg(QString::fromStdString(row.message));
    }
    return plan;
}

}  // namespace sebo::ui
