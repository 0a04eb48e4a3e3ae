#pragma once
// The web service of the decision-desk tests, measured by hand: cache_mb (64–4096, status quo 256)
// and threads (1–64, status quo 4); throughput maximized, p99 minimized, memory <= 100. Sobol with
// a GP and a budget of 40, so that nothing runs unless a test asks.

#include <optional>
#include <utility>
#include <vector>

#include "experiment/experiment.h"
#include "parameter_builders.h"

namespace sebo::test {

inline Experiment web_service_experiment() {
    Experiment e;
    e.name = "web service";
    Parameter cache = integer("cache_mb", 64, 4096);
    cache.target = 256;
    Parameter threads = integer("threads", 1, 64);
    threads.target = 4;
    e.space = SearchSpace({cache, threads});
    e.outcomes.metrics = {"throughput", "p99", "memory"};
    e.outcomes.objectives = {Objective{"throughput", false, std::nullopt}, Objective{"p99", true, std::nullopt}};
    e.outcomes.constraints = {OutcomeConstraint{"memory", ConstraintSense::AtMost, 100.0}};
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    e.method.strategy = StrategyKind::Sobol;
    e.method.model = ModelKind::Gp;
    e.method.budget = 40;
    return e;
}

// A completed trial of it, entered by hand.
inline Trial measured_service_trial(int index, std::vector<double> parameters, double throughput, double p99,
                                    double memory) {
    Trial t;
    t.index = index;
    t.parameters = std::move(parameters);
    t.status = TrialStatus::Completed;
    t.generator = "manual";
    t.values = {{"throughput", {throughput, std::nullopt}}, {"p99", {p99, std::nullopt}}, {"memory", {memory, std::nullopt}}};
    return t;
}

}  // namespace sebo::test
