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

// Everything but the trials and the chosen configurations, in the file's JSON form: every
// setting the format holds, now or later, takes part in the merge without being listed here.
Json settings_json(const Experiment& e) {
    Experiment settings = e;
    settings.trials.clear();
    settings.chosen.clear();
    Json j = Json::parse(experiment_to_json_text(settings));
    j.erase("trials");
    j.erase("chosen");
    return j;
}

Value member(const Json& object, const std::string& key) {
    if (!object.is_object()) return std::nullopt;
    const auto it = object.find(key);
    if (it == object.end()) return std::nullopt;
    return *it;
}

bool pending(const Trial& t) { return t.status == TrialStatus::Pending; }

// Two records of one trial with the same measurement differ only in bookkeeping (times, messages).
bool same_measurement(const Trial& a, const Trial& b) {
    return a.status == b.status && a.values == b.values;
}

template <typename T, typename Key>
std::map<int, const T*> by_key(const std::vector<T>& items, Key key) {
    std::map<int, const T*> out;
    for (const T& item : items) out[key(item)] = &item;
    return out;
}

template <typename T>
const T* find(const std::map<int, const T*>& map, int index) {
    const auto it = map.find(index);
    return it == map.end() ? nullptr : it->second;
}

template <typename T>
bool same(const T* a, const T* b) {
    return a == b || (a && b && *a == *b);
}

// The top-level members that define the problem: mine and the file must agree on them. The
// objectives' metrics and directions define it too (objective_directions); their thresholds, like
// the outcome constraints, are settings.
const char* const kProblemMembers[] = {"space", "metrics"};

std::string problem_member_name(const std::string& key) { return key == "space" ? "search space" : key; }

std::vector<std::pair<std::string, bool>> objective_directions(const Experiment& e) {
    std::vector<std::pair<std::string, bool>> directions;
    for (const Objective& o : e.outcomes.objectives) directions.emplace_back(o.metric, o.minimize);
    return directions;
}

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
    if (key == "objectives") return "objective thresholds";
    if (key == "constraints") return "outcome constraints";
    return key;
}

// The settings of the merge: for each member, the side that changed it since the base; mine
// when both did. Refuses a file that holds another problem.
Json merge_settings(const Experiment* base, const Experiment& mine, const Experiment& theirs, MergeReport& report) {
    const Json b = base ? settings_json(*base) : Json::object();
    const Json m = settings_json(mine);
    const Json t = settings_json(theirs);
    for (const char* key : kProblemMembers) {
        const Value bv = member(b, key), mv = member(m, key), tv = member(t, key);
        if (mv != tv && (!base || tv != bv))
            throw MergeError("the file now holds another problem: its " + problem_member_name(key) +
                             " was changed by another program; nothing was merged");
    }
    if (objective_directions(mine) != objective_directions(theirs) &&
        (!base || objective_directions(theirs) != objective_directions(*base)))
        throw MergeError("the file now holds another problem: its objectives were changed by another program; nothing "
                         "was merged");
    Json merged = Json::object();
    std::set<std::string> keys;
    std::vector<std::string> order;
    for (const Json* document : {&t, &m})
        for (auto it = document->begin(); it != document->end(); ++it)
            if (keys.insert(it.key()).second) order.push_back(it.key());
    for (const std::string& key : order) {
        const Value bv = member(b, key), mv = member(m, key), tv = member(t, key);
        // The sampler states (warm starts for the next model fits, one per modelled metric) merge
        // together, like one setting, but are not reported: they are no one's decision, and a
        // state fitted to other trials than the merged ones is harmless (the next fit of its
        // metric checks it against its data and starts afresh).
        const bool reported = key != "sampler_states";
        Value pick;
        if (mv == tv) {
            pick = tv;
        } else if (base && mv == bv) {
            pick = tv;
            if (reported) report.settings_changed.push_back(key);
        } else if (base && tv == bv) {
            pick = mv;
        } else {
            pick = mv;
            if (base && reported) report.settings_kept.push_back(key);
        }
        if (pick) merged[key] = *pick;
        if (!reported && pick != mv) report.sampler_states_taken = true;
    }
    return merged;
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
    MergeReport report;
    const Json settings = merge_settings(base, mine, theirs, report);

    // Trials, by index.
    static const std::vector<Trial> none;
    const auto index_of = [](const Trial& t) { return t.index; };
    const auto base_trials = by_key(base ? base->trials : none, index_of);
    const auto mine_trials = by_key(mine.trials, index_of);
    const auto their_trials = by_key(theirs.trials, index_of);
    int next_free = 0;
    for (const auto* map : {&base_trials, &mine_trials, &their_trials})
        if (!map->empty()) next_free = std::max(next_free, map->rbegin()->first + 1);

    std::vector<Trial> trials;
    trials.reserve(theirs.trials.size() + mine.trials.size());
    std::vector<Trial> moved;     // mine's trials that get a new index, appended last
    std::map<int, int> remapped;  // mine's new trials renumbered: old index -> new
    for (const Trial& trial : theirs.trials) {
        const int i = trial.index;
        const Trial* bt = find(base_trials, i);
        const Trial* mt = find(mine_trials, i);
        trials.push_back(trial);
        if (!mt) {
            if (!bt) report.trials_added.push_back(i);
            continue;
        }
        if (*mt == trial) continue;
        if (!bt) {
            // Both sides made a trial i: the file's keeps the number.
            report.trials_added.push_back(i);
            Trial copy = *mt;
            copy.index = next_free;
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
            } else if (pending(*bt) && !pending(trial)) {
                report.results_recorded.push_back(i);
            } else {
                report.trials_changed.push_back(i);
            }
            continue;
        }
        if (trial == *bt) {  // changed only here
            trials.back() = *mt;
            continue;
        }
        // Changed on both sides.
        if (pending(*bt) && !pending(trial)) report.results_recorded.push_back(i);
        if (pending(*mt) || same_measurement(*mt, trial)) {
            report.kept_file_version.push_back(i);
        } else if (pending(trial)) {
            trials.back() = *mt;
        } else {
            // Two different measurements of one configuration: both are kept.
            Trial copy = *mt;
            copy.index = next_free;
            report.kept_both.emplace_back(i, next_free++);
            moved.push_back(std::move(copy));
        }
    }
    for (const Trial& trial : mine.trials) {
        if (their_trials.count(trial.index)) continue;
        if (base_trials.count(trial.index)) report.restored.push_back(trial.index);
        trials.push_back(trial);
    }
    for (Trial& trial : moved) trials.push_back(std::move(trial));

    // Mine's new trials that repeat a configuration added elsewhere meanwhile (two proposals
    // made from the same data at the same time).
    std::set<int> mine_new;
    for (const Trial& t : mine.trials)
        if (!base_trials.count(t.index) && !their_trials.count(t.index)) mine_new.insert(t.index);
    for (const auto& [from, to] : report.renumbered) mine_new.insert(to);
    for (const Trial& trial : trials) {
        if (!mine_new.count(trial.index)) continue;
        for (int added : report.trials_added)
            if (their_trials.at(added)->parameters == trial.parameters) {
                report.same_configuration.emplace_back(trial.index, added);
                break;
            }
    }

    // Chosen configurations, by trial (mine's renumbered trials keep their picks).
    std::vector<ChosenConfiguration> mine_chosen_list = mine.chosen;
    for (ChosenConfiguration& c : mine_chosen_list)
        if (const auto it = remapped.find(c.trial); it != remapped.end()) c.trial = it->second;
    static const std::vector<ChosenConfiguration> no_chosen;
    const auto trial_of = [](const ChosenConfiguration& c) { return c.trial; };
    const auto base_chosen = by_key(base ? base->chosen : no_chosen, trial_of);
    const auto mine_chosen = by_key(mine_chosen_list, trial_of);
    const auto their_chosen = by_key(theirs.chosen, trial_of);
    std::vector<ChosenConfiguration> chosen;
    for (const ChosenConfiguration& c : theirs.chosen) {
        const ChosenConfiguration* bc = find(base_chosen, c.trial);
        const ChosenConfiguration* mc = find(mine_chosen, c.trial);
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
    for (const ChosenConfiguration& c : mine_chosen_list) {
        if (their_chosen.count(c.trial)) continue;
        const ChosenConfiguration* bc = find(base_chosen, c.trial);
        if (bc && *bc == c) {
            report.chosen_changed = true;  // un-chosen elsewhere
            continue;
        }
        chosen.push_back(c);
    }

    MergeResult result;
    try {
        result.experiment = experiment_from_json_text(settings.dump());
    } catch (const InputError& error) {
        throw MergeError(std::string("the file's changes cannot be merged: ") + error.what());
    }
    result.experiment.trials = std::move(trials);
    result.experiment.chosen = std::move(chosen);
    if (auto error = result.experiment.validate())
        throw MergeError("the file's changes cannot be merged: " + *error);
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
