#include "io/experiment_migration.h"

#include <array>
#include <cassert>
#include <utility>

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

// Version 3 (issue 15: NUTS chains in parallel, warm starts) adds the sampler mode
// "method.nuts" — "fast" when absent — with "method.nuts_chains" and "method.nuts_warm_warmup",
// each model trial's "fit" record and the document's "sampler_state", and makes the four NUTS
// numbers optional overrides of the mode. Every file of an older version was run with the
// paper's single chain from scratch, and an older reader ignored the new members: the step sets
// "nuts": "paper" (whatever the file says) and drops the new members, so that a resumed run
// continues exactly as it started. The NUTS numbers an older writer always wrote with the
// paper's values (512, 256, 16, 6) are dropped — the same under "paper", and not pinned should
// the user switch the file to "fast"; other values stay as overrides.
void version_2_to_3(Document& document) {
    document.erase("sampler_state");
    if (const auto trials = document.find("trials"); trials != document.end() && trials->is_array())
        for (Document& trial : *trials)
            if (trial.is_object()) trial.erase("fit");
    auto method = document.find("method");
    if (method == document.end() || method->is_null()) {
        document["method"] = Document::object();
        method = document.find("method");
    }
    if (!method->is_object()) return;  // the reader reports it
    (*method)["nuts"] = "paper";
    method->erase("nuts_chains");
    method->erase("nuts_warm_warmup");
    for (const auto& [key, paper_value] : {std::pair{"nuts_warmup", 512}, std::pair{"nuts_samples", 256},
                                           std::pair{"nuts_thinning", 16}, std::pair{"nuts_max_tree_depth", 6}}) {
        const auto it = method->find(key);
        if (it != method->end() && it->is_number() && it->get<double>() == paper_value) method->erase(it);
    }
}

// Version 4 (issue 14: real parameter spaces) adds a parameter's "min_change" and the method's
// "max_active", "min_active" and "status_quo_first". A version-3 file means what it meant: an older
// reader ignored these members, so any it holds never took effect and the step drops them; absent,
// they are today's behaviour (the 1 % snapping rule, the sparsity range 0..D, Sobol first).
void version_3_to_4(Document& document) {
    if (const auto method = document.find("method"); method != document.end() && method->is_object())
        for (const char* key : {"max_active", "min_active", "status_quo_first"}) method->erase(key);
    const auto space = document.find("space");
    if (space == document.end() || !space->is_object()) return;  // the reader reports it
    const auto parameters = space->find("parameters");
    if (parameters == space->end() || !parameters->is_array()) return;
    for (Document& parameter : *parameters)
        if (parameter.is_object()) parameter.erase("min_change");
}

// steps[v - 1] rewrites a version-v document into version v + 1.
using MigrationStep = void (*)(Document&);
constexpr std::array<MigrationStep, kExperimentVersion - 1> kSteps{&version_1_to_2, &version_2_to_3,
                                                                        &version_3_to_4};

}  // namespace

void migrate_experiment_document(Document& document, int version) {
    assert(version >= 1 && version <= kExperimentVersion);
    for (int v = version; v < kExperimentVersion; ++v) kSteps[static_cast<std::size_t>(v - 1)](document);
}

}  // namespace sebo
