#include "io/experiment_migration.h"

#include <array>
#include <cassert>

#include <nlohmann/json.hpp>

#include "io/experiment_file.h"

namespace sebo {

namespace {

using Document = nlohmann::json;

// Version 2 lets a completed trial carry "excluded": {"reason", "at"} (left out of the
// analysis, experiment/trial.h). A version-1 reader ignored members it did not know, so an
// "excluded" member in a version-1 file never meant anything: the trial counted. The step drops
// it, so that the file means in version 2 what it meant in version 1.
void version_1_to_2(Document& document) {
    const auto trials = document.find("trials");
    if (trials == document.end() || !trials->is_array()) return;  // the reader reports it
    for (Document& trial : *trials)
        if (trial.is_object()) trial.erase("excluded");
}

// steps[v - 1] rewrites a version-v document into version v + 1.
using MigrationStep = void (*)(Document&);
constexpr std::array<MigrationStep, kExperimentVersion - 1> kSteps{&version_1_to_2};

}  // namespace

void migrate_experiment_document(Document& document, int version) {
    assert(version >= 1 && version <= kExperimentVersion);
    for (int v = version; v < kExperimentVersion; ++v) kSteps[static_cast<std::size_t>(v - 1)](document);
}

}  // namespace sebo
