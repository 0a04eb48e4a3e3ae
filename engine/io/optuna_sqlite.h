#pragma once
// Optuna's RDB storage in a SQLite file (optuna/storages/_rdb/models.py in optuna/optuna; schema
// version 12, which Optuna 3.0 to 4.x write). Tables are read by column name, so columns a later
// Optuna adds do not matter; a missing table or column, a value of the wrong type, or another
// schema version is refused naming it. The file is opened read-only and defensively (no triggers,
// no views, no functions from the schema, a bounded amount of work per query): a database file is
// input like any other. Internal to the Optuna importer (io/import_optuna.h); sqlite3.h stays in
// the .cpp.

#include <string>
#include <vector>

#include "io/optuna_study.h"

namespace sebo::optuna {

// The schema version this reader knows (version_info.schema_version).
inline constexpr int kOptunaSchemaVersion = 12;

std::vector<OptunaStudySummary> read_sqlite_studies(const std::string& path);

// The study named `study` (empty: the only one). Throws InputError naming the table, row and
// column ("trials[trial_id=5].state: ...") or the file.
StudyRecord read_sqlite_study(const std::string& path, const std::string& study);

}  // namespace sebo::optuna
