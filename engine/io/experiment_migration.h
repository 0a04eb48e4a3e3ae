#pragma once
// Upgrading experiment files of older versions (DESIGN "Persistence"; docs/file-format.md lists
// what each version added). A file of version v is rewritten one step at a time, v → v + 1 → …
// → kExperimentVersion, before it is read, so the reader knows only the current layout. Each
// step states what the older version meant and says it in the newer one; a step never fails on
// a document the older reader would have accepted. Kept out of experiment_file.cpp so that the
// reader and writer do not grow with every version.

#include <nlohmann/json_fwd.hpp>

namespace sebo {

// Rewrites `document`, an object of version `version` (1 ≤ version ≤ kExperimentVersion), into
// the current version in place. Members the steps do not know are left as they are.
void migrate_experiment_document(nlohmann::json& document, int version);

}  // namespace sebo
