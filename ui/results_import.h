#pragma once
// Importing observed results for pending trials from CSV (SPEC §5 "Manual evaluation: enter
// or import (CSV) observed results"). The file needs a header row; the columns used are
//   trial         (required) the trial index
//   <metric>      one per metric, named after it: the observed value (with a single metric also
//                 "objective"); a completed row needs every objective's and constrained
//                 metric's value, a tracked metric's cell may be empty
//   <metric>_sem  (optional) its standard error (with a single metric also "sem")
//   status        (optional) "failed" marks the trial failed
//   error         (optional) why it failed
// Other columns are ignored, so the Trials CSV export (trial,status,<metric>,<metric>_sem,...,
// error) can be filled in a spreadsheet and read back. A sheet without a column for some metric
// is refused, unless it has no metric column at all and a status column (failures only). Rows
// of trials that are not pending, and pending rows without any value, are skipped and counted.
// A cell that the exports guarded against spreadsheet formulas ("'=x", io/csv_cell.h) reads
// without that apostrophe, the header's names included.

#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"

namespace sebo::ui {

struct ResultRow {
    int trial = 0;
    bool failed = false;
    MetricValues values;  // when not failed
    std::string error;
};

struct ResultsImport {
    std::vector<ResultRow> rows;  // results for pending trials, in file order
    int skipped_not_pending = 0;  // trials that already have a result
    int skipped_empty = 0;        // pending trials without a value in the file
};

// Parses and checks the text against the experiment; throws InputError naming the line and
// column ("line 4.throughput: 'abc' is not a number").
ResultsImport parse_results_csv(const std::string& text, const Experiment& experiment);

// Splits CSV text into rows of fields (RFC 4180: quoted fields may hold commas, quotes and
// line breaks). Throws InputError on an unterminated quote.
std::vector<std::vector<std::string>> split_csv(const std::string& text);

}  // namespace sebo::ui
