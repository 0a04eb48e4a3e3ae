#include "io/experiment_merge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "core/input_error.h"
#include "io/experiment_file.h"

namespace sebo {

namespace {

using Json = nlohmann::ordered_json;
using Value = std::optional<Json>;  // a member, or nothing when the object does not have it

Json to_json(const Experiment& e) { return Json::parse(experiment_to_json_text(e)); }

Value member(const Json& object, const std::string& key) {
    if (!object.is_object()) return std::nullopt;
    const auto it = object.find(key);
    if (it == object.end()) return std::nullopt;
    return *it;
}

bool pending(const Json& trial) { return trial.value("status", std::string()) == "pending"; }

// What a trial measured: its status, value and standard error. Two records of one trial with
// the same measurement differ only in bookkeeping (times, messages).
Json measurement(const Json& trial) {
    return Json::array({trial.value("status", std::string()), member(trial, "objective").value_or(Json()),
                        member(trial, "sem").value_or(Json())});
}

int index_of(const Json& trial) { return trial.at("index").get<int>(); }

// Trials of a document by index.
std::map<int, const Json*> by_index(const Json& document, const char* array, const char* key) {
    std::map<int, const Json*> out;
    if (const auto it = document.find(array); it != document.end() && it->is_array())
        for (const Json& item : *it) out[item.at(key).get<int>()] = &item;
    return out;
}

const Json* find(const std::map<int, const Json*>& map, int index) {
    const auto it = map.find(index);
    return it == map.end() ? nullptr : it->second;
}

bool same(const Json* a, const Json* b) { return a == b || (a && b && *a == *b); }

// The top-level members that define the problem: mine and the file must agree on them.
const char* const kProblemMembers[] = {"space", "objective"};

std::string problem_member_name(const std::string& key) { return key == "space" ? "search space" : key; }

std::string list_text(const std::vector<int>& indices) {
    std::string text;
    for (std::size_t i = 0; i < indices.size(); ++i) {
        if (i > 0) text += i + 1 == indices.size() ? " and " : ", ";
        text += std::to_string(indices[i]);
    }
    return text;
}

std::string setting_name(const std::string& key) {
    if (key == "method") return "method settings";
    if (key == "hypervolume_reference") return "hypervolume reference point";
    return key;
}

}  // namespace

bool MergeReport::empty() const {
    return results_recorded.empty() && trials_added.empty() && trials_changed.empty() && renumbered.empty() &&
           kept_both.empty() && kept_file_version.empty() && restored.empty() && same_configuration.empty() &&
           settings_changed.empty() && settings_kept.empty() && !chosen_changed && !file_was_missing;
}

int MergeReport::new_index(int index) const {
    for (const auto& [from, to] : renumbered)
        if (from == index) return to;
    return index;
}

MergeResult merge_experiments(const Experiment* base, const Experiment& mine, const Experiment& theirs) {
    const Json b = base ? to_json(*base) : Json::object();
    const Json m = to_json(mine);
    const Json t = to_json(theirs);
    MergeReport report;

    for (const char* key : kProblemMembers) {
        const Value bv = member(b, key), mv = member(m, key), tv = member(t, key);
        if (mv != tv && (!base || tv != bv))
            throw MergeError("the file now holds another problem: its " + problem_member_name(key) +
                             " was changed by another program; nothing was merged");
    }

    // Settings: the side that changed a member since the base wins; mine when both did.
    Json merged = Json::object();
    std::set<std::string> keys;
    std::vector<std::string> order;
    for (const Json* document : {&t, &m})
        for (auto it = document->begin(); it != document->end(); ++it)
            if (keys.insert(it.key()).second) order.push_back(it.key());
    for (const std::string& key : order) {
        if (key == "trials" || key == "chosen") continue;
        const Value bv = member(b, key), mv = member(m, key), tv = member(t, key);
        Value pick;
        if (mv == tv) {
            pick = tv;
        } else if (base && mv == bv) {
            pick = tv;
            report.settings_changed.push_back(key);
        } else if (base && tv == bv) {
            pick = mv;
        } else {
            pick = mv;
            if (base) report.settings_kept.push_back(key);
        }
        if (pick) merged[key] = *pick;
    }

    // Trials, by index.
    const auto base_trials = by_index(b, "trials", "index");
    const auto mine_trials = by_index(m, "trials", "index");
    const auto their_trials = by_index(t, "trials", "index");
    int next_free = 0;
    for (const auto* map : {&base_trials, &mine_trials, &their_trials})
        if (!map->empty()) next_free = std::max(next_free, map->rbegin()->first + 1);

    Json trials = Json::array();
    std::vector<Json> moved;      // mine's trials that get a new index, appended last
    std::map<int, int> remapped;  // mine's new trials renumbered: old index -> new
    for (const Json& trial : t.value("trials", Json::array())) {
        const int i = index_of(trial);
        const Json* bt = find(base_trials, i);
        const Json* mt = find(mine_trials, i);
        trials.push_back(trial);
        if (!mt) {
            if (!bt) report.trials_added.push_back(i);
            continue;
        }
        if (*mt == trial) continue;
        if (!bt) {
            // Both sides made a trial i: the file's keeps the number.
            report.trials_added.push_back(i);
            Json copy = *mt;
            copy["index"] = next_free;
            report.renumbered.emplace_back(i, next_free);
            remapped[i] = next_free++;
            moved.push_back(std::move(copy));
            continue;
        }
        if (*mt == *bt) {  // changed only in the file
            if (!pending(*bt) && pending(trial)) {
                // An older copy of the file, from before the result: a merge never undoes a result.
                trials.back() = *mt;
                report.restored.push_back(i);
            } else if (pending(*bt) && !pending(trial)) report.results_recorded.push_back(i);
            else report.trials_changed.push_back(i);
            continue;
        }
        if (trial == *bt) {  // changed only here
            trials.back() = *mt;
            continue;
        }
        // Changed on both sides.
        if (pending(*bt) && !pending(trial)) report.results_recorded.push_back(i);
        if (pending(*mt) || measurement(*mt) == measurement(trial)) {
            report.kept_file_version.push_back(i);
        } else if (pending(trial)) {
            trials.back() = *mt;
        } else {
            // Two different measurements of one configuration: both are kept.
            Json copy = *mt;
            copy["index"] = next_free;
            report.kept_both.emplace_back(i, next_free++);
            moved.push_back(std::move(copy));
        }
    }
    for (const Json& trial : m.value("trials", Json::array())) {
        const int i = index_of(trial);
        if (their_trials.count(i)) continue;
        if (base_trials.count(i)) report.restored.push_back(i);
        trials.push_back(trial);
    }
    for (Json& trial : moved) trials.push_back(std::move(trial));

    // Mine's new trials that repeat a configuration added elsewhere meanwhile (two proposals
    // made from the same data at the same time).
    for (const Json& trial : trials) {
        const int i = index_of(trial);
        const bool mine_new = (!base_trials.count(i) && !their_trials.count(i) && mine_trials.count(i)) ||
                              std::any_of(report.renumbered.begin(), report.renumbered.end(),
                                          [&](const auto& r) { return r.second == i; });
        if (!mine_new) continue;
        for (int added : report.trials_added)
            if (their_trials.at(added)->at("parameters") == trial.at("parameters")) {
                report.same_configuration.emplace_back(i, added);
                break;
            }
    }
    merged["trials"] = std::move(trials);

    // Chosen configurations, by trial (mine's renumbered trials keep their picks).
    Json mine_chosen_doc = Json::object();
    mine_chosen_doc["chosen"] = Json::array();
    for (Json c : m.value("chosen", Json::array())) {
        if (const auto it = remapped.find(c.at("trial").get<int>()); it != remapped.end()) c["trial"] = it->second;
        mine_chosen_doc["chosen"].push_back(std::move(c));
    }
    const auto base_chosen = by_index(b, "chosen", "trial");
    const auto mine_chosen = by_index(mine_chosen_doc, "chosen", "trial");
    const auto their_chosen = by_index(t, "chosen", "trial");
    Json chosen = Json::array();
    for (const Json& c : t.value("chosen", Json::array())) {
        const int i = c.at("trial").get<int>();
        const Json* bc = find(base_chosen, i);
        const Json* mc = find(mine_chosen, i);
        if (same(mc, &c)) {
            chosen.push_back(c);
        } else if (same(mc, bc)) {
            chosen.push_back(c);
            report.chosen_changed = true;
        } else if (same(&c, bc)) {
            if (mc) chosen.push_back(*mc);  // absent: un-chosen here
        } else {
            chosen.push_back(c);
        }
    }
    for (const Json& c : mine_chosen_doc["chosen"]) {
        const int i = c.at("trial").get<int>();
        if (their_chosen.count(i)) continue;
        const Json* bc = find(base_chosen, i);
        if (bc && *bc == c) {
            report.chosen_changed = true;  // un-chosen elsewhere
            continue;
        }
        chosen.push_back(c);
    }
    merged["chosen"] = std::move(chosen);

    MergeResult result;
    try {
        result.experiment = experiment_from_json_text(merged.dump());
    } catch (const InputError& error) {
        throw MergeError(std::string("the file's changes cannot be merged: ") + error.what());
    }
    result.report = std::move(report);
    return result;
}

std::vector<std::string> describe_merge(const MergeReport& r, const std::string& elsewhere, const std::string& here) {
    std::vector<std::string> out;
    const auto trials = [](const std::vector<int>& v) { return (v.size() == 1 ? "Trial " : "Trials ") + list_text(v); };
    if (!r.results_recorded.empty())
        out.push_back(r.results_recorded.size() == 1
                          ? "Trial " + std::to_string(r.results_recorded[0]) + "'s result was recorded " + elsewhere + "."
                          : "The results of trials " + list_text(r.results_recorded) + " were recorded " + elsewhere + ".");
    if (!r.trials_added.empty())
        out.push_back(trials(r.trials_added) + (r.trials_added.size() == 1 ? " was" : " were") + " added " + elsewhere + ".");
    if (!r.trials_changed.empty())
        out.push_back(trials(r.trials_changed) + (r.trials_changed.size() == 1 ? " was" : " were") + " changed " +
                      elsewhere + ".");
    for (const auto& [from, to] : r.renumbered)
        out.push_back("The new trial " + std::to_string(from) + " made " + here + " is now trial " + std::to_string(to) +
                      ": another trial " + std::to_string(from) + " was added " + elsewhere + " at the same time.");
    for (const auto& [trial, copy] : r.kept_both)
        out.push_back("Trial " + std::to_string(trial) + " got different results " + here + " and " + elsewhere +
                      ": the one recorded " + elsewhere + " stays trial " + std::to_string(trial) +
                      ", the one recorded " + here + " is kept as trial " + std::to_string(copy) +
                      " (same configuration).");
    for (int trial : r.kept_file_version)
        out.push_back("Trial " + std::to_string(trial) + " was changed both " + here + " and " + elsewhere +
                      "; the file's version is kept.");
    if (!r.restored.empty())
        out.push_back(trials(r.restored) + (r.restored.size() == 1 ? " was" : " were") +
                      " missing from the file, or without the result recorded " + here + ", and " +
                      (r.restored.size() == 1 ? "is" : "are") + " kept as " + (r.restored.size() == 1 ? "it was." : "they were."));
    for (const auto& [trial, other] : r.same_configuration)
        out.push_back("Trial " + std::to_string(trial) + " has the same configuration as trial " + std::to_string(other) +
                      ", proposed " + elsewhere + " at the same time.");
    for (const std::string& key : r.settings_changed)
        out.push_back("The " + setting_name(key) + (key == "method" ? " were" : " was") + " changed " + elsewhere + ".");
    for (const std::string& key : r.settings_kept)
        out.push_back("The " + setting_name(key) + (key == "method" ? " were" : " was") + " changed both " + here +
                      " and " + elsewhere + "; the " + (key == "method" ? "ones " : "one ") + here + (key == "method" ? " are" : " is") +
                      " kept.");
    if (r.chosen_changed) out.push_back("The chosen configurations were changed " + elsewhere + ".");
    if (r.file_was_missing) out.push_back("The file had been moved or deleted " + elsewhere + "; it was written again.");
    return out;
}

}  // namespace sebo
