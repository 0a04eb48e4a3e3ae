#pragma once
// CSV and JSON export of trials and chosen configurations, in the user's units. Numbers are
// written with format_number (shortest text that reads back to the same double); unset values
// are empty CSV cells. Lines end with "\n"; every row, the last included, ends with one. Text
// cells (names, choice values, generators, errors, exclusion reasons) are written with
// csv_text_cell, so one that a spreadsheet would run as a formula starts with ' (io/csv_cell.h),
// which the readers of these sheets remove again.

#include <string>

#include "experiment/experiment.h"
#include "io/csv_cell.h"

namespace sebo {

// One row per trial, in the experiment's order:
//   trial,status,<metric>,<metric>_sem,...,active,[feasible,]generator,<parameter names...>,error,excluded
// with two columns per metric (its value and standard error, in the experiment's metric order),
// so that the sheet reads back with `sebo import` / `sebo observe --csv`. "active" is
// Experiment::sparsity(): active groups when the space has groups, otherwise active parameters.
// "feasible" (true, false or unknown; only when the experiment has outcome constraints) is
// Experiment::feasibility of a completed trial, empty for the others. Values are empty when
// unset, error is empty when there is none, excluded holds the reason of a trial excluded from
// analysis (empty when it counts).
std::string trials_to_csv(const Experiment& experiment);

// One configuration. changed_only keeps only the parameters that differ from their targets.
// CSV: header "parameter,value,target,changed" and a row per parameter (changed is true or false,
// and "fixed" for a fixed parameter: pinned for the study, its value is its target).
// JSON: {"trial": i, "metrics": {name: {"mean": v, "sem": s}, ...}, "active": k, "parameters":
// {name: value, ...}}: every recorded metric ("sem" when known; {} for a trial without a result),
// parameters in the order of the search space and integer parameters written as JSON integers.
// An experiment with one objective also has "objective": v (null without a value) after
// "trial", as before it had several; one with outcome constraints has "feasible": true, false or
// "unknown" (Experiment::feasibility) after "active"; a trial excluded from analysis has
// "excluded": reason (before "parameters"). The names of the fixed parameters among "parameters"
// (pinned for the study, never varied) follow as "fixed": [name, ...], when there are any.
// The trial must exist (throws InputError with field "trial" otherwise).
std::string configuration_to_csv(const Experiment& experiment, int trial, bool changed_only);
std::string configuration_to_json(const Experiment& experiment, int trial, bool changed_only);

// The chosen configurations (Experiment::chosen, SPEC §5 "Pick ... and export them"), as the GUI's
// File › Export chosen and `sebo export --chosen` write them.
// CSV: "trial,note,parameter,value,target,changed": configuration_to_csv's rows, each with its
// trial and note in front (a long table that spreadsheets pivot easily). A cell with a comma, quote
// or line break is quoted whole, so a note or name over several lines stays one cell.
// JSON: {"experiment": name, "objective": {"name", "minimize"} (the first objective, as before
// there were several), "objectives": [{"name", "minimize"}, ...], "changed_only": bool,
// "configurations": [configuration_to_json(...) with "note", ...]}.
std::string chosen_to_csv(const Experiment& experiment, bool changed_only);
std::string chosen_to_json(const Experiment& experiment, bool changed_only);

}  // namespace sebo
