#include "experiment/experiment.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/format.h"

namespace sebo {

const char* to_string(TrialStatus status) {
    switch (status) {
    case TrialStatus::Pending: return "pending";
    case TrialStatus::Completed: return "completed";
    case TrialStatus::Failed: return "failed";
    case TrialStatus::Abandoned: return "abandoned";
    }
    return "pending";
}

std::optional<TrialStatus> trial_status_from_string(const std::string& text) {
    for (TrialStatus s : {TrialStatus::Pending, TrialStatus::Completed, TrialStatus::Failed, TrialStatus::Abandoned})
        if (text == to_string(s)) return s;
    return std::nullopt;
}

const char* to_string(EvaluatorSpec::Kind kind) {
    switch (kind) {
    case EvaluatorSpec::Kind::Problem: return "problem";
    case EvaluatorSpec::Kind::Command: return "command";
    case EvaluatorSpec::Kind::Manual: return "manual";
    }
    return "manual";
}

std::optional<EvaluatorSpec::Kind> evaluator_kind_from_string(const std::string& text) {
    for (auto k : {EvaluatorSpec::Kind::Problem, EvaluatorSpec::Kind::Command, EvaluatorSpec::Kind::Manual})
        if (text == to_string(k)) return k;
    return std::nullopt;
}

const char* to_string(StrategyKind kind) {
    switch (kind) {
    case StrategyKind::Sobol: return "sobol";
    }
    return "sobol";
}

std::vector<StrategyKind> all_strategy_kinds() { return {StrategyKind::Sobol}; }

std::optional<StrategyKind> strategy_kind_from_string(const std::string& text) {
    for (StrategyKind k : all_strategy_kinds())
        if (text == to_string(k)) return k;
    return std::nullopt;
}

std::optional<std::string> MethodSettings::validate() const {
    if (initial_trials < 0) return "method.initial_trials: " + std::to_string(initial_trials) + " is negative";
    if (budget < 0) return "method.budget: " + std::to_string(budget) + " is negative";
    return std::nullopt;
}

std::optional<double> Experiment::utility(const Trial& trial) const {
    if (trial.status != TrialStatus::Completed || !trial.objective) return std::nullopt;
    return to_utility(*trial.objective);
}

int Experiment::sparsity(const Trial& trial) const {
    return space.has_groups() ? space.active_group_count(trial.parameters) : space.active_count(trial.parameters);
}

int Experiment::max_sparsity() const { return space.has_groups() ? space.group_count() : space.dimension(); }

int Experiment::count(TrialStatus status) const {
    return static_cast<int>(std::count_if(trials.begin(), trials.end(), [&](const Trial& t) { return t.status == status; }));
}

const Trial* Experiment::find_trial(int index) const {
    for (const Trial& t : trials)
        if (t.index == index) return &t;
    return nullptr;
}

Trial* Experiment::find_trial(int index) {
    for (Trial& t : trials)
        if (t.index == index) return &t;
    return nullptr;
}

int Experiment::next_trial_index() const {
    int next = 0;
    for (const Trial& t : trials) next = std::max(next, t.index + 1);
    return next;
}

std::optional<std::string> Experiment::validate() const {
    if (auto error = space.validate()) return error;
    if (auto error = method.validate()) return error;
    if (hypervolume_reference && !std::isfinite(*hypervolume_reference))
        return "hypervolume_reference: " + format_number(*hypervolume_reference) + " is not a finite number";
    std::set<int> indices;
    for (std::size_t i = 0; i < trials.size(); ++i) {
        const Trial& t = trials[i];
        const std::string at = "trials[" + std::to_string(i) + "]";
        if (t.index < 0) return at + ".index: " + std::to_string(t.index) + " is negative";
        if (!indices.insert(t.index).second) return at + ".index: duplicate trial index " + std::to_string(t.index);
        if (auto error = space.check_point(t.parameters)) return at + ".parameters." + *error;
        if (t.status == TrialStatus::Completed) {
            if (!t.objective) return at + ".objective: a completed trial needs an objective value";
            if (!std::isfinite(*t.objective))
                return at + ".objective: " + format_number(*t.objective) + " is not a finite number";
        }
        if (t.sem && (!std::isfinite(*t.sem) || *t.sem < 0))
            return at + ".sem: " + format_number(*t.sem) + " is not a finite non-negative number";
    }
    for (std::size_t i = 0; i < chosen.size(); ++i)
        if (!indices.count(chosen[i].trial))
            return "chosen[" + std::to_string(i) + "].trial: no trial with index " + std::to_string(chosen[i].trial);
    return std::nullopt;
}

}  // namespace sebo
