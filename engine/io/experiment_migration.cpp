#include "io/experiment_migration.h"

#include <array>
#include <cassert>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "io/experiment_file.h"
#include "io/json_document.h"

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

// A member of `object` that is present and not null (null means absent in every version).
const Document* present(const Document& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

// A number of a version-3 file, or an InputError with its version-3 path: the step moves the
// value elsewhere, where a message would name a path the file does not have.
const Document& version_3_number(const Document& value, const std::string& path) {
    if (!value.is_number()) throw InputError(path, "expected a number, got " + describe_value(value));
    return value;
}

// Version 4 (issues 13 and 14) has named metrics, one to four objectives and outcome constraints,
// a parameter's "min_change" and the method's "max_active", "min_active" and
// "status_quo_first". Versions 1–3 had one measured value: "objective": {"name" (default
// "objective"), "minimize"}, an optional "hypervolume_reference" (its value, user sign) and per
// trial "objective" and "sem". The step says the same in version 4: one metric of that name, the
// one objective on it with the reference as its threshold, no constraints, and each trial's value
// and standard error under "values". Checks what it moves against version 3's rules and names
// version-3 paths, so that a broken older file is reported as the person wrote it. An older reader
// ignored the issue-14 members, so any such member never took effect and the step drops it;
// absent, they are the earlier behaviour (the 1 % snapping rule, the range 0..D, Sobol first).
void version_3_to_4(Document& document) {
    const Document* objective = present(document, "objective");
    if (!objective) throw InputError("objective", "required field is missing");
    if (!objective->is_object()) throw InputError("objective", "expected an object, got " + describe_value(*objective));
    std::string name = "objective";
    if (const Document* given = present(*objective, "name")) {
        if (!given->is_string()) throw InputError("objective.name", "expected a string, got " + describe_value(*given));
        // Older versions allowed an empty name, which version 4 does not give a metric: the default.
        if (!given->get_ref<const std::string&>().empty()) name = given->get<std::string>();
    }
    const Document* minimize = present(*objective, "minimize");
    if (!minimize) throw InputError("objective.minimize", "required field is missing");
    if (!minimize->is_boolean())
        throw InputError("objective.minimize", "expected true or false, got " + describe_value(*minimize));
    Document migrated = Document::object();
    migrated["metric"] = name;
    migrated["minimize"] = *minimize;
    if (const Document* reference = present(document, "hypervolume_reference"))
        migrated["threshold"] = version_3_number(*reference, "hypervolume_reference");

    const auto trials = document.find("trials");
    if (trials != document.end() && trials->is_array()) {  // otherwise the reader reports it
        for (std::size_t i = 0; i < trials->size(); ++i) {
            Document& trial = (*trials)[i];
            if (!trial.is_object()) continue;
            const std::string at = "trials[" + std::to_string(i) + "]";
            const Document* value = present(trial, "objective");
            const Document* sem = present(trial, "sem");
            Document measurement = Document::object();
            if (value) measurement["mean"] = version_3_number(*value, at + ".objective");
            if (sem) {
                version_3_number(*sem, at + ".sem");
                if (sem->get<double>() < 0.0) throw InputError(at + ".sem", describe_value(*sem) + " is negative");
            }
            const auto status = trial.find("status");
            if (!value && status != trial.end() && *status == "completed")
                throw InputError(at + ".objective", "a completed trial needs an objective value");
            // A standard error without a value described nothing; it is dropped with the value.
            if (value && sem) measurement["sem"] = *sem;
            trial.erase("objective");
            trial.erase("sem");
            trial.erase("values");  // an older reader ignored it: it meant nothing
            if (value) trial["values"] = Document{{name, std::move(measurement)}};
        }
    }
    document.erase("objective");
    document.erase("hypervolume_reference");
    document["metrics"] = Document::array({name});
    document["objectives"] = Document::array({std::move(migrated)});
    document["constraints"] = Document::array();
    if (const auto method = document.find("method"); method != document.end() && method->is_object())
        for (const char* key : {"max_active", "min_active", "status_quo_first"}) method->erase(key);
    const auto space = document.find("space");
    if (space == document.end() || !space->is_object()) return;  // the reader reports it
    const auto parameters = space->find("parameters");
    if (parameters == space->end() || !parameters->is_array()) return;
    for (Document& parameter : *parameters)
        if (parameter.is_object()) parameter.erase("min_change");
}

// Version 5 (issue 14, items 2 and 3) adds linear parameter constraints
// ("space.parameter_constraints") and fixed parameters (kind "fixed" with a "value"). A version-4
// reader ignored the constraints and a parameter's "value" (and refused the kind "fixed"), so
// the step drops both members: the file means in version 5 what it meant in version 4.
void version_4_to_5(Document& document) {
    const auto space = document.find("space");
    if (space == document.end() || !space->is_object()) return;  // the reader reports it
    space->erase("parameter_constraints");
    const auto parameters = space->find("parameters");
    if (parameters == space->end() || !parameters->is_array()) return;
    for (Document& parameter : *parameters)
        if (parameter.is_object()) parameter.erase("value");
}

// Version 6 (issue 13, speed) keeps a sampler state per modelled metric: "sampler_states", an
// object {"METRIC": state}, replaces "sampler_state", the one state of version 3–5, which was
// always the first objective's fit (a state's members are unchanged). A version-5 reader ignored
// "sampler_states", so the step drops any such member, then files the old state under the first
// objective's metric. A document without a readable first objective keeps its "sampler_state"
// as it is: the reader reports the objectives, and would ignore that member.
void version_5_to_6(Document& document) {
    document.erase("sampler_states");
    const auto state = document.find("sampler_state");
    if (state == document.end()) return;
    const auto objectives = document.find("objectives");
    if (objectives == document.end() || !objectives->is_array() || objectives->empty()) return;
    const Document& first = objectives->front();
    const Document* metric = first.is_object() ? present(first, "metric") : nullptr;
    if (!metric || !metric->is_string()) return;
    if (!state->is_null()) document["sampler_states"] = Document{{metric->get<std::string>(), std::move(*state)}};
    document.erase("sampler_state");
}

// Version 7 (issue 30: noisy measurements) adds a built-in problem's measurement noise
// "evaluator.problem.noise", each trial's "noise_free" values and the method's
// "noisy_acquisition" (default "auto") and "noisy_draws". A version-6 reader ignored them, so
// none meant anything in a version-6 file: the problem was measured without added noise, and every
// step trusted the measured values. The step drops them and sets "noisy_acquisition": "off", so
// that a resumed run continues as it ran.
void version_6_to_7(Document& document) {
    if (const auto method = document.find("method"); method != document.end() && method->is_object()) {
        method->erase("noisy_draws");
        (*method)["noisy_acquisition"] = "off";
    }
    if (const auto evaluator = document.find("evaluator"); evaluator != document.end() && evaluator->is_object())
        if (const auto problem = evaluator->find("problem"); problem != evaluator->end() && problem->is_object())
            problem->erase("noise");
    if (const auto trials = document.find("trials"); trials != document.end() && trials->is_array())
        for (Document& trial : *trials)
            if (trial.is_object()) trial.erase("noise_free");
}

// Version 8 (issue 30: a dense start under noise) adds the method's "dense_steps" (default 15). A
// version-7 reader ignored it and every step of a SEBO strategy was sparse, so the step sets
// "dense_steps": 0, and a resumed run continues as it ran.
void version_7_to_8(Document& document) {
    if (const auto method = document.find("method"); method != document.end() && method->is_object())
        (*method)["dense_steps"] = 0;
}

// Version 9 (issue 30: the dense start judges its noisy EI) adds the method's "dense_thompson"
// (default true). A version-8 reader ignored it and its dense start used the noisy EI throughout,
// so the step sets "dense_thompson": false, and a resumed run continues as it ran.
void version_8_to_9(Document& document) {
    if (const auto method = document.find("method"); method != document.end() && method->is_object())
        (*method)["dense_thompson"] = false;
}

// Version 10 (issue 30: the warp is checked) adds the method's "warp_check" (default true). A
// version-9 reader ignored it and warped whenever "warp_objective", so the step sets
// "warp_check": false, and a resumed run continues as it ran.
void version_9_to_10(Document& document) {
    if (const auto method = document.find("method"); method != document.end() && method->is_object())
        (*method)["warp_check"] = false;
}

// Version 11 (issue 30: the dense start lasts until the model knows a parameter to matter) adds
// the method's "dense_steps_max" (default 30). A version-10 reader ignored it and its dense start
// ended after "dense_steps", so the step sets "dense_steps_max" to that, and a resumed run
// continues as it ran.
void version_10_to_11(Document& document) {
    if (const auto method = document.find("method"); method != document.end() && method->is_object()) {
        const auto steps = method->find("dense_steps");
        (*method)["dense_steps_max"] = steps != method->end() ? *steps : Document(MethodSettings{}.dense_steps);
    }
}

// steps[v - 1] rewrites a version-v document into version v + 1.
using MigrationStep = void (*)(Document&);
constexpr std::array<MigrationStep, kExperimentVersion - 1> kSteps{&version_1_to_2, &version_2_to_3, &version_3_to_4,
                                                                  &version_4_to_5, &version_5_to_6, &version_6_to_7,
                                                                  &version_7_to_8, &version_8_to_9, &version_9_to_10,
                                                                  &version_10_to_11};

}  // namespace

void migrate_experiment_document(Document& document, int version) {
    assert(version >= 1 && version <= kExperimentVersion);
    for (int v = version; v < kExperimentVersion; ++v) kSteps[static_cast<std::size_t>(v - 1)](document);
}

}  // namespace sebo
