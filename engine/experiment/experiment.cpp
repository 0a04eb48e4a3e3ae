#include "experiment/experiment.h"

#include <algorithm>
#include <cassert>
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
    case StrategyKind::Gpei: return "gpei";
    case StrategyKind::Saasbo: return "saasbo";
    case StrategyKind::EiEr: return "ei-er";
    case StrategyKind::EiIr: return "ei-ir";
    case StrategyKind::SeboL0: return "sebo-l0";
    case StrategyKind::SeboL1: return "sebo-l1";
    case StrategyKind::SeboGl: return "sebo-gl";
    case StrategyKind::SeboL0FixedA: return "sebo-l0-fixed-a";
    case StrategyKind::Bonsai: return "bonsai";
    }
    return "sobol";
}

const char* describe(StrategyKind kind) {
    switch (kind) {
    case StrategyKind::Sobol: return "quasi-random search (scrambled Sobol)";
    case StrategyKind::Gpei: return "standard GP + expected improvement (no sparsity)";
    case StrategyKind::Saasbo: return "SAAS GP + expected improvement (no sparsity)";
    case StrategyKind::EiEr: return "EI minus lambda x penalty (external regularization)";
    case StrategyKind::EiIr: return "EI of objective minus lambda x penalty (internal regularization)";
    case StrategyKind::SeboL0: return "SEBO: EHVI of objective and L0 sparsity, homotopy continuation";
    case StrategyKind::SeboL1: return "SEBO with the L1 penalty";
    case StrategyKind::SeboGl: return "SEBO with the group-lasso penalty (group sparsity)";
    case StrategyKind::SeboL0FixedA: return "SEBO-L0 at a fixed smoothing a (ablation, no homotopy)";
    case StrategyKind::Bonsai: return "BONSAI: EI candidate, then greedy resets to the target within a tolerance (default 20%)";
    }
    return "";
}

bool uses_model(StrategyKind kind) { return kind != StrategyKind::Sobol; }

bool is_sebo(StrategyKind kind) {
    return kind == StrategyKind::SeboL0 || kind == StrategyKind::SeboL1 || kind == StrategyKind::SeboGl ||
           kind == StrategyKind::SeboL0FixedA;
}

std::vector<StrategyKind> all_strategy_kinds() {
    return {StrategyKind::Sobol,  StrategyKind::Gpei,   StrategyKind::Saasbo,
            StrategyKind::EiEr,   StrategyKind::EiIr,   StrategyKind::SeboL0,
            StrategyKind::SeboL1, StrategyKind::SeboGl, StrategyKind::SeboL0FixedA,
            StrategyKind::Bonsai};
}

const char* to_string(ModelKind kind) {
    switch (kind) {
    case ModelKind::Gp: return "gp";
    case ModelKind::SaasNuts: return "saas";
    case ModelKind::SaasMap: return "saas-map";
    }
    return "gp";
}

std::vector<ModelKind> all_model_kinds() { return {ModelKind::Gp, ModelKind::SaasNuts, ModelKind::SaasMap}; }

std::optional<ModelKind> model_kind_from_string(const std::string& text) {
    for (ModelKind k : all_model_kinds())
        if (text == to_string(k)) return k;
    return std::nullopt;
}

const char* to_string(PenaltyKind kind) {
    switch (kind) {
    case PenaltyKind::L0: return "l0";
    case PenaltyKind::L1: return "l1";
    case PenaltyKind::GroupLasso: return "group-lasso";
    }
    return "l0";
}

std::optional<PenaltyKind> penalty_kind_from_string(const std::string& text) {
    for (PenaltyKind k : {PenaltyKind::L0, PenaltyKind::L1, PenaltyKind::GroupLasso})
        if (text == to_string(k)) return k;
    return std::nullopt;
}

ModelKind MethodSettings::resolved_model() const {
    if (model) return *model;
    return strategy == StrategyKind::Gpei ? ModelKind::Gp : ModelKind::SaasNuts;
}

PenaltyKind MethodSettings::resolved_penalty() const {
    switch (strategy) {
    case StrategyKind::SeboL1: return PenaltyKind::L1;
    case StrategyKind::SeboGl: return PenaltyKind::GroupLasso;
    case StrategyKind::EiEr:
    case StrategyKind::EiIr: return penalty.value_or(PenaltyKind::L0);
    default: return PenaltyKind::L0;
    }
}

const char* to_string(NoisyAcquisition mode) {
    switch (mode) {
    case NoisyAcquisition::Auto: return "auto";
    case NoisyAcquisition::On: return "on";
    case NoisyAcquisition::Off: return "off";
    }
    return "auto";
}

std::vector<NoisyAcquisition> all_noisy_acquisitions() {
    return {NoisyAcquisition::Auto, NoisyAcquisition::On, NoisyAcquisition::Off};
}

std::optional<NoisyAcquisition> noisy_acquisition_from_string(const std::string& text) {
    for (NoisyAcquisition m : all_noisy_acquisitions())
        if (text == to_string(m)) return m;
    return std::nullopt;
}

const char* to_string(NutsMode mode) {
    switch (mode) {
    case NutsMode::Fast: return "fast";
    case NutsMode::Paper: return "paper";
    }
    return "fast";
}

std::vector<NutsMode> all_nuts_modes() { return {NutsMode::Fast, NutsMode::Paper}; }

std::optional<NutsMode> nuts_mode_from_string(const std::string& text) {
    for (NutsMode m : all_nuts_modes())
        if (text == to_string(m)) return m;
    return std::nullopt;
}

NutsSchedule MethodSettings::nuts_defaults(NutsMode mode) {
    NutsSchedule s;
    if (mode == NutsMode::Paper) return s;  // the member initializers: the paper's settings
    s.chains = 0;
    s.warm_start = true;
    s.mode_start = true;
    s.warm_warmup = 48;
    s.samples = 256;
    s.thinning = 16;
    return s;
}

NutsSchedule MethodSettings::nuts_schedule(int threads) const {
    NutsSchedule s = nuts_defaults(nuts);
    s.warmup = nuts_warmup.value_or(s.warmup);
    s.samples = nuts_samples.value_or(s.samples);
    s.thinning = nuts_thinning.value_or(s.thinning);
    s.max_tree_depth = nuts_max_tree_depth.value_or(s.max_tree_depth);
    if (nuts == NutsMode::Fast) {
        const int kept = (s.samples + s.thinning - 1) / s.thinning;
        s.chains = nuts_chains.value_or(std::clamp(threads, 1, std::min(kMaxAutomaticChains, kept)));
        s.warm_warmup = nuts_warm_warmup.value_or(s.warm_warmup);
    }
    return s;
}

std::optional<StrategyKind> strategy_kind_from_string(const std::string& text) {
    for (StrategyKind k : all_strategy_kinds())
        if (text == to_string(k)) return k;
    return std::nullopt;
}

std::optional<std::string> MethodSettings::validate() const {
    auto at_least = [](const char* field, int value, int minimum) -> std::optional<std::string> {
        if (value < minimum)
            return std::string("method.") + field + ": " + std::to_string(value) + " must be at least " + std::to_string(minimum);
        return std::nullopt;
    };
    auto positive = [](const char* field, double value) -> std::optional<std::string> {
        if (!(value > 0) || !std::isfinite(value))
            return std::string("method.") + field + ": " + format_number(value) + " must be a positive number";
        return std::nullopt;
    };
    const NutsSchedule nuts_settings = nuts_schedule(1);
    for (auto check : {at_least("initial_trials", initial_trials, 0), at_least("budget", budget, 0),
                       at_least("raw_samples", raw_samples, 1), at_least("restarts", restarts, 1),
                       at_least("homotopy_steps", homotopy_steps, 1), at_least("nuts_warmup", nuts_settings.warmup, 10),
                       at_least("nuts_samples", nuts_settings.samples, 1), at_least("nuts_thinning", nuts_settings.thinning, 1),
                       at_least("nuts_max_tree_depth", nuts_settings.max_tree_depth, 1),
                       at_least("nuts_chains", nuts_chains.value_or(1), 1),
                       at_least("nuts_warm_warmup", nuts_warm_warmup.value_or(0), 0), positive("homotopy_a_start", homotopy_a_start),
                       positive("homotopy_a_end", homotopy_a_end), positive("fixed_a", fixed_a)})
        if (check) return check;
    if (!(lambda >= 0) || !std::isfinite(lambda)) return "method.lambda: " + format_number(lambda) + " must be a non-negative number";
    if (!(bonsai_tolerance > 0.0 && bonsai_tolerance <= 1.0))
        return "method.bonsai_tolerance: " + format_number(bonsai_tolerance) + " is not in (0, 1]";
    if (max_active && *max_active < 1) return "method.max_active: " + std::to_string(*max_active) + " must be at least 1";
    if (min_active && *min_active < 1) return "method.min_active: " + std::to_string(*min_active) + " must be at least 1";
    if (max_active && min_active && *min_active > *max_active)
        return "method.min_active: " + std::to_string(*min_active) + " is above max_active " + std::to_string(*max_active);
    if ((max_active || min_active) && resolved_penalty() != PenaltyKind::L0)
        return std::string("method.") + (max_active ? "max_active" : "min_active") +
               ": the sparsity range counts changed parameters, which needs the L0 penalty; " + to_string(strategy) +
               " uses " + to_string(resolved_penalty());
    if (homotopy_a_end > homotopy_a_start)
        return "method.homotopy_a_end: " + format_number(homotopy_a_end) + " is above homotopy_a_start " + format_number(homotopy_a_start);
    if (homotopy_steps > 1000) return "method.homotopy_steps: " + std::to_string(homotopy_steps) + " is above 1000";
    if (nuts_settings.max_tree_depth > 12)
        return "method.nuts_max_tree_depth: " + std::to_string(nuts_settings.max_tree_depth) + " is above 12";
    if (nuts_settings.thinning > nuts_settings.samples)
        return "method.nuts_thinning: " + std::to_string(nuts_settings.thinning) + " is above nuts_samples " +
               std::to_string(nuts_settings.samples);
    if (nuts_chains) {
        const int kept = (nuts_settings.samples + nuts_settings.thinning - 1) / nuts_settings.thinning;
        if (*nuts_chains > kMaxChains)
            return "method.nuts_chains: " + std::to_string(*nuts_chains) + " is above " + std::to_string(kMaxChains);
        if (*nuts_chains > kept)
            return "method.nuts_chains: " + std::to_string(*nuts_chains) + " chains cannot share the " + std::to_string(kept) +
                   " kept draws (nuts_samples / nuts_thinning); every chain keeps at least one";
    }
    if (nuts_warm_warmup && *nuts_warm_warmup > 1'000'000)
        return "method.nuts_warm_warmup: " + std::to_string(*nuts_warm_warmup) + " is above 1000000";
    if (restarts > raw_samples)
        return "method.restarts: " + std::to_string(restarts) + " is above raw_samples " + std::to_string(raw_samples);
    if (dense_steps < 0 || dense_steps > 1'000'000)
        return "method.dense_steps: " + std::to_string(dense_steps) + " is outside [0, 1000000]";
    if (dense_steps_max < 0 || dense_steps_max > 1'000'000)
        return "method.dense_steps_max: " + std::to_string(dense_steps_max) + " is outside [0, 1000000]";
    if (noisy_draws < 2 || noisy_draws > 4096)
        return "method.noisy_draws: " + std::to_string(noisy_draws) + " is outside [2, 4096]";
    return std::nullopt;
}

const char* to_string(Feasibility feasibility) {
    switch (feasibility) {
    case Feasibility::Feasible: return "feasible";
    case Feasibility::Infeasible: return "infeasible";
    case Feasibility::Unknown: return "unknown";
    }
    return "unknown";
}

bool Experiment::analyzed(const Trial& trial) const {
    return trial.status == TrialStatus::Completed && !trial.exclusion && objective_measurement(trial);
}

const Measurement* Experiment::objective_measurement(const Trial& trial, std::size_t objective) const {
    assert(objective < outcomes.objectives.size());
    return trial.measurement(outcomes.objectives[objective].metric);
}

std::optional<double> Experiment::objective_value(const Trial& trial, std::size_t objective) const {
    const Measurement* m = objective_measurement(trial, objective);
    return m ? std::optional<double>(m->mean) : std::nullopt;
}

std::optional<double> Experiment::utility(const Trial& trial, std::size_t objective) const {
    if (!analyzed(trial)) return std::nullopt;
    const Measurement* m = objective_measurement(trial, objective);
    if (!m) return std::nullopt;
    return outcomes.objectives[objective].to_utility(m->mean);
}

Feasibility Experiment::feasibility(const Trial& trial) const {
    if (trial.status != TrialStatus::Completed) return Feasibility::Unknown;
    bool unknown = false;
    for (const OutcomeConstraint& c : outcomes.constraints) {
        const Measurement* m = trial.measurement(c.metric);
        if (!m) unknown = true;
        else if (!c.holds(m->mean)) return Feasibility::Infeasible;
    }
    return unknown ? Feasibility::Unknown : Feasibility::Feasible;
}

bool Experiment::feasible(const Trial& trial) const {
    return analyzed(trial) && feasibility(trial) == Feasibility::Feasible;
}

int Experiment::feasible_count() const {
    return static_cast<int>(std::count_if(trials.begin(), trials.end(), [&](const Trial& t) { return feasible(t); }));
}

int Experiment::sparsity(const Trial& trial) const {
    return space.has_groups() ? space.active_group_count(trial.parameters) : space.active_count(trial.parameters);
}

int Experiment::max_sparsity() const { return space.has_groups() ? space.group_count() : space.dimension(); }

int Experiment::count(TrialStatus status) const {
    return static_cast<int>(std::count_if(trials.begin(), trials.end(), [&](const Trial& t) { return t.status == status; }));
}

int Experiment::excluded_count() const {
    return static_cast<int>(std::count_if(trials.begin(), trials.end(), [](const Trial& t) { return t.exclusion.has_value(); }));
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
    if (auto error = outcomes.validate()) return error;
    if (auto error = method.validate()) return error;
    for (const auto& [field, value] : {std::pair{"max_active", method.max_active}, std::pair{"min_active", method.min_active}})
        if (value && *value > max_sparsity())
            return std::string("method.") + field + ": " + std::to_string(*value) + " is above the " +
                   std::to_string(max_sparsity()) + (space.has_groups() ? " parameter groups" : " parameters") + " of the space";
    std::set<int> indices;
    for (std::size_t i = 0; i < trials.size(); ++i) {
        const Trial& t = trials[i];
        const std::string at = "trials[" + std::to_string(i) + "]";
        if (t.index < 0) return at + ".index: " + std::to_string(t.index) + " is negative";
        if (!indices.insert(t.index).second) return at + ".index: duplicate trial index " + std::to_string(t.index);
        if (auto error = space.check_point(t.parameters)) return at + ".parameters." + *error;
        for (const auto& [metric, m] : t.values) {
            const std::string value_at = at + ".values." + metric;
            if (!outcomes.has_metric(metric))
                return value_at + ": unknown metric '" + metric + "'; the metrics are " + outcomes.metric_list();
            if (!std::isfinite(m.mean)) return value_at + ".mean: " + format_number(m.mean) + " is not a finite number";
            if (m.sem && (!std::isfinite(*m.sem) || *m.sem < 0))
                return value_at + ".sem: " + format_number(*m.sem) + " is not a finite non-negative number";
        }
        if (t.status == TrialStatus::Completed)
            for (const Objective& o : outcomes.objectives)
                if (!t.measurement(o.metric))
                    return at + ".values." + o.metric + ": a completed trial needs a value of every objective";
        if (t.exclusion) {
            if (t.status != TrialStatus::Completed)
                return at + ".excluded: only a completed trial can be excluded from analysis (this one is " +
                       to_string(t.status) + ")";
            if (t.exclusion->reason.empty()) return at + ".excluded.reason: the reason must not be empty";
        }
        if (t.fit)
            if (auto error = t.fit->validate(at + ".fit")) return error;
    }
    if (sampler_state)
        if (auto error = sampler_state->validate(space.model_input_count())) return error;
    for (std::size_t i = 0; i < chosen.size(); ++i)
        if (!indices.count(chosen[i].trial))
            return "chosen[" + std::to_string(i) + "].trial: no trial with index " + std::to_string(chosen[i].trial);
    return std::nullopt;
}

}  // namespace sebo
