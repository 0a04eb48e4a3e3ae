#pragma once
// An experiment: the problem definition, the method settings, and every trial (SPEC §1, §7).
// All state of an optimization run lives here; strategies and analytics are pure functions of it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "experiment/trial.h"
#include "space/search_space.h"

namespace sebo {

struct Objective {
    std::string name = "objective";
    bool minimize = false;
};

// Settings of a built-in problem (see problems/problem_catalog.h for the names and defaults).
struct ProblemSpec {
    std::string name;              // "branin", "hartmann6", "sourcing", ...
    int dimension = 0;             // 0: the problem's default
    std::vector<int> effective;    // empty: the problem's default
    std::optional<double> target;  // unit-cube target of every parameter; unset: default (0)
    int repetitions = 0;           // stochastic problems: simulations per evaluation (0: default)
    std::uint64_t world_seed = 0;  // stochastic problems: seed of the fixed world (0: default)
};

struct EvaluatorSpec {
    enum class Kind { Problem, Command, Manual };
    Kind kind = Kind::Manual;
    ProblemSpec problem;               // Kind::Problem
    std::vector<std::string> command;  // Kind::Command: argv, never a shell string
    double timeout_seconds = 3600.0;   // Kind::Command
};

const char* to_string(EvaluatorSpec::Kind kind);
std::optional<EvaluatorSpec::Kind> evaluator_kind_from_string(const std::string& text);

enum class StrategyKind { Sobol };

const char* to_string(StrategyKind kind);
std::optional<StrategyKind> strategy_kind_from_string(const std::string& text);
std::vector<StrategyKind> all_strategy_kinds();

struct MethodSettings {
    StrategyKind strategy = StrategyKind::Sobol;
    int initial_trials = 8;  // quasi-random (Sobol) trials before any model is used
    int budget = 50;         // total number of trials to run to

    std::optional<std::string> validate() const;
};

struct ChosenConfiguration {
    int trial = 0;
    std::string note;
};

struct Experiment {
    std::string name;
    std::string description;
    SearchSpace space;
    Objective objective;
    EvaluatorSpec evaluator;
    MethodSettings method;
    std::uint64_t seed = 0;
    // Objective value (user sign) of the hypervolume reference point; unset: the documented
    // default rule (see experiment/analytics.h).
    std::optional<double> hypervolume_reference;
    std::vector<Trial> trials;
    std::vector<ChosenConfiguration> chosen;

    // The objective in maximization form (negated when minimizing); unset unless completed.
    std::optional<double> utility(const Trial& trial) const;
    double to_utility(double objective_value) const { return objective.minimize ? -objective_value : objective_value; }
    double from_utility(double utility_value) const { return objective.minimize ? -utility_value : utility_value; }
    // The sparsity count used in every analysis: active groups when the space has groups,
    // otherwise active parameters. max_sparsity() is D (or the number of groups).
    int sparsity(const Trial& trial) const;
    int max_sparsity() const;

    int count(TrialStatus status) const;
    const Trial* find_trial(int index) const;
    Trial* find_trial(int index);
    int next_trial_index() const;

    // Empty when consistent: a valid space, settings, and every trial inside the space with a
    // status-consistent result. Messages name the field path.
    std::optional<std::string> validate() const;
};

}  // namespace sebo
