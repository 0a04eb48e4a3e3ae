#pragma once
// Test helper: an experiment document of the current version rewritten as a file of an older
// version would have held it. Versions 3 to 5 had one sampler state ("sampler_state", the first
// objective's) instead of version 6's "sampler_states"; versions 1 to 3 had one measured value: "objective":
// {"name", "minimize"}, "hypervolume_reference", and each trial's "objective" and "sem" instead
// of version 4's "metrics", "objectives", "constraints" and trials' "values". The first objective
// becomes the one; other metrics and the constraints are dropped. Members that an older version
// did not have stay, so that tests can check that the migration drops them.

#include <nlohmann/json.hpp>

namespace sebo::test {

template <typename Json>
void rewrite_as_version(Json& j, int version) {
    j["version"] = version;
    // Versions 3 to 5 kept one sampler state, the first objective's.
    if (version <= 5 && j.contains("sampler_states")) {
        const std::string first = j["objectives"][0]["metric"].template get<std::string>();
        if (j["sampler_states"].contains(first)) j["sampler_state"] = j["sampler_states"][first];
        j.erase("sampler_states");
    }
    if (version > 3) return;
    const Json objective = j["objectives"][0];
    const std::string metric = objective["metric"].template get<std::string>();
    j.erase("metrics");
    j.erase("objectives");
    j.erase("constraints");
    j["objective"] = Json{{"name", metric}, {"minimize", objective["minimize"]}};
    if (objective.contains("threshold")) j["hypervolume_reference"] = objective["threshold"];
    if (!j.contains("trials")) return;
    for (Json& trial : j["trials"]) {
        if (!trial.contains("values")) continue;
        const Json m = trial["values"][metric];
        trial.erase("values");
        if (m.is_null()) continue;
        trial["objective"] = m["mean"];
        if (m.contains("sem")) trial["sem"] = m["sem"];
    }
}

}  // namespace sebo::test
