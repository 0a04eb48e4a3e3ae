#include "experiment/overtaken_choices.h"

namespace sebo {

namespace {

bool better_on_every_objective(const Experiment& e, const Trial& candidate, const Trial& chosen) {
    for (std::size_t j = 0; j < e.outcomes.objectives.size(); ++j) {
        const auto mine = e.utility(candidate, j), theirs = e.utility(chosen, j);
        if (!mine || !theirs || !(*mine > *theirs)) return false;
    }
    return true;
}

}  // namespace

std::vector<OvertakenChoice> overtaken_choices(const Experiment& experiment, const std::vector<int>& candidates) {
    std::vector<OvertakenChoice> out;
    for (const ChosenConfiguration& c : experiment.chosen) {
        const Trial* chosen = experiment.find_trial(c.trial);
        if (!chosen || !experiment.analyzed(*chosen)) continue;
        for (int index : candidates) {
            const Trial* t = experiment.find_trial(index);
            if (!t || t->index == chosen->index || t->parameters == chosen->parameters || !experiment.feasible(*t)) continue;
            if (better_on_every_objective(experiment, *t, *chosen)) out.push_back({chosen->index, t->index});
        }
    }
    return out;
}

std::vector<OvertakenChoice> overtaken_choices(const Experiment& experiment) {
    std::vector<int> all;
    for (const Trial& t : experiment.trials) all.push_back(t.index);
    return overtaken_choices(experiment, all);
}

}  // namespace sebo
