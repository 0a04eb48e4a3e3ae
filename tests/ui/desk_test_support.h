#pragma once
// The experiment of the decision-desk tests (issue 32): three parameters in [0, 1] (target 0),
// two objectives — yield = Σ x maximized, cost = Σ x² minimized — and the constraint cost <= 1.5,
// measured by the command tests/fixtures/evaluators/yield_and_cost.sh (which computes the same),
// with twelve Sobol trials already measured by these formulas.

#include <vector>

#include "experiment/experiment.h"
#include "experiment/sobol_strategy.h"
#include "test_support.h"

namespace sebo::test {

inline double yield_of(const std::vector<double>& x) {
    double s = 0.0;
    for (double v : x) s += v;
    return s;
}

inline double cost_of(const std::vector<double>& x) {
    double s = 0.0;
    for (double v : x) s += v * v;
    return s;
}

inline Experiment yield_and_cost_experiment(int trials = 12) {
    Experiment e;
    e.name = "two objectives";
    std::vector<Parameter> parameters;
    for (const char* name : {"x0", "x1", "x2"})
        parameters.push_back(Parameter{name, ParameterKind::Continuous, 0.0, 1.0, false, std::nullopt, {}, {}, {}, false});
    e.space = SearchSpace(parameters);
    e.outcomes.metrics = {"yield", "cost"};
    e.outcomes.objectives = {Objective{"yield", false, std::nullopt}, Objective{"cost", true, std::nullopt}};
    e.outcomes.constraints = {OutcomeConstraint{"cost", ConstraintSense::AtMost, 1.5}};
    e.evaluator.kind = EvaluatorSpec::Kind::Command;
    e.evaluator.command = {"sh", source_path("tests/fixtures/evaluators/yield_and_cost.sh")};
    e.evaluator.timeout_seconds = 60;
    e.method.strategy = StrategyKind::Sobol;
    e.method.model = ModelKind::Gp;
    e.method.initial_trials = 12;
    e.method.budget = 30;
    e.seed = 3;
    const auto points = next_sobol_points(e, trials);
    for (int i = 0; i < trials; ++i) {
        Trial t;
        t.index = i;
        t.parameters = points[static_cast<std::size_t>(i)];
        t.status = TrialStatus::Completed;
        t.values["yield"] = {yield_of(t.parameters), std::nullopt};
        t.values["cost"] = {cost_of(t.parameters), std::nullopt};
        t.generator = "sobol";
        e.trials.push_back(t);
    }
    return e;
}

// A feasible trial of that experiment with every parameter changed (the one Simplify starts from).
inline int fully_changed_feasible_trial(const Experiment& e) {
    int trial = -1;
    for (const Trial& t : e.trials)
        if (cost_of(t.parameters) <= 1.5 && e.space.active_count(t.parameters) == 3) trial = t.index;
    return trial;
}

}  // namespace sebo::test
