#pragma once
// Trial › Import results from CSV… (SPEC §5 "enter or import (CSV) observed results"): what a
// results sheet holds for the open experiment, read and matched by the engine exactly as
// `sebo observe --csv` and `sebo import` read it (io/csv_table.h, io/results_import.h): a byte
// order mark, guarded formula cells, a `trial` column or none. This only decides which of the two
// the sheet is, and words each row's fate; the window asks and the document records.
//
//  - Results for pending trials (match_results): rows name their trial by a `trial` column, or by
//    the values of every parameter. Rows without a value yet are skipped.
//  - Past measurements (import_trials), when the sheet has no `trial` column and none of its rows
//    is a pending trial's configuration: every row becomes a new completed trial, as `sebo import`
//    adds them.

#include <QString>
#include <QStringList>
#include <string>
#include <vector>

#include "experiment/experiment.h"
#include "io/results_import.h"

namespace sebo::ui {

struct ResultsImportPlan {
    enum class Kind { Results, PastTrials };
    Kind kind = Kind::Results;
    std::vector<ObservedResult> results;  // Kind::Results: one per matched row
    std::vector<Trial> trials;            // Kind::PastTrials: completed, generator "import"
    int rows = 0;                         // data rows in the sheet
    int skipped = 0;                      // Kind::Results: rows without a value yet
    int recorded = 0;                     // Kind::Results: rows repeating their trial's result
    // Rows that cannot be used, one line each ("line 4: column objective: 'abc' is not a number").
    QStringList problems;
    // Kind::PastTrials: rows outside the linear parameter constraints, imported all the same.
    QStringList notes;
};

// Reads `text` (a CSV file's bytes, `source` its name in messages). Throws InputError naming the
// line (and column) when the sheet itself is unusable: a malformed table, no column for a metric,
// neither a `trial` column nor every parameter's column.
ResultsImportPlan plan_results_import(const Experiment& experiment, const std::string& text, const std::string& source);

}  // namespace sebo::ui
