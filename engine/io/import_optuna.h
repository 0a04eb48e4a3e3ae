#pragma once
// Optuna studies (issue 31): an RDB storage in a SQLite file ("study.db", or Optuna's URL
// "sqlite:///study.db") or a journal file (JournalFileStorage), read into an ordinary Experiment
// (io/imported_experiment.h). The storages are read by io/optuna_sqlite.h and
// io/optuna_journal.h into one record of the study (io/optuna_study.h); its mapping, here, is the
// same for both. docs/file-format.md, "Imports", lists every element.
//
//   FloatDistribution / IntDistribution   continuous / integer (log kept); with a step, an ordered
//                                         choice of the grid's values (at most kMaxStepValues),
//                                         saying so; more values are refused
//   CategoricalDistribution               choice with the choices as typed (string, number, bool,
//                                         None); a single choice is a fixed parameter
//   directions                            one objective per value: "value", or "values_0", ...
//                                         (Optuna's own names), or the study's metric names
//   system_attrs "constraints"            constraint_0 <= 0, constraint_1 <= 0, ... (feasible
//                                         when every value <= 0, as Optuna counts it)
//   COMPLETE / FAIL / PRUNED / RUNNING, WAITING
//                                         completed / failed / abandoned (pruned at step N) /
//                                         pending
//
// A parameter that only some trials have (a conditional, define-by-run space) is refused;
// trials that stopped before every parameter was suggested are left out, with a warning.

#include <string>
#include <vector>

#include "io/imported_experiment.h"

namespace sebo {

// A step grid with more values than this is refused rather than turned into a choice.
inline constexpr int kMaxStepValues = 100;

// One study of a storage, for a list to choose from.
struct OptunaStudySummary {
    std::string name;
    int trials = 0;
};

// The studies of a storage, in the order they were created. Throws InputError as the readers do.
std::vector<OptunaStudySummary> list_optuna_studies(const std::string& path);

// Reads study `study` (empty: the only one; with several, an InputError on "--study" lists them).
// Throws InputError naming the table and column, or the journal line, of what cannot be read.
ImportedExperiment import_optuna_sqlite(const std::string& path, const std::string& study);
ImportedExperiment import_optuna_journal(const std::string& path, const std::string& study);

// The same for a journal's text.
ImportedExperiment import_optuna_journal_text(const std::string& text, const std::string& study);

}  // namespace sebo
