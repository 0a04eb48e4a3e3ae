#pragma once
// Optuna's journal file storage (optuna/storages/journal in optuna/optuna; JournalFileStorage,
// Optuna 3.1 to 4.x): one JSON object per line, each an operation with an "op_code" (create a
// study, set an attribute, create a trial, set a parameter, set the state and values, report an
// intermediate value, ...). Replaying them in order, as Optuna's JournalStorageReplayResult does,
// gives every study; operations Optuna would ignore when replaying another worker's log (a
// duplicate study name, a trial already finished, a parameter whose distribution conflicts) are
// ignored here too. Internal to the Optuna importer (io/import_optuna.h).

#include <string>
#include <vector>

#include "io/optuna_study.h"

namespace sebo::optuna {

struct JournalReplay {
    std::vector<StudyRecord> studies;  // in the order they were created (deleted ones removed)
    std::vector<std::string> warnings;  // a last line cut short (a writer stopped mid-line)
};

// Throws InputError naming the line ("line 12") and the member of a bad operation.
JournalReplay replay_journal(const std::string& text);

}  // namespace sebo::optuna
