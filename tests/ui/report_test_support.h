#pragma once
// A small experiment of one's own for the report's UI and browser tests (engine/report/): two
// objectives (throughput ↑, p99 ↓), a memory limit, a choice, the status quo measured, one
// infeasible trial, and a chosen configuration whose note looks like markup.

#include "experiment/experiment.h"
#include "parameter_builders.h"

namespace sebo::test {

inline Experiment report_experiment() {
    Experiment e;
    e.name = "Service tuning";
    Parameter cache = integer("cache_mb", 64, 4096);
    cache.target = 256;
    e.space = SearchSpace({cache, choice("mode", {"plain", "fast", "safe"})});
    e.outcomes.metrics = {"throughput", "p99", "memory"};
    e.outcomes.objectives = {Objective{"throughput", false, std::nullopt}, Objective{"p99", true, std::nullopt}};
    e.outcomes.constraints = {OutcomeConstraint{"memory", ConstraintSense::AtMost, 100.0}};
    const auto add = [&](std::vector<double> p, double throughput, double p99, double memory) {
        Trial t;
        t.index = e.next_trial_index();
        t.parameters = std::move(p);
        t.status = TrialStatus::Completed;
        t.values = {{"throughput", {throughput, std::nullopt}}, {"p99", {p99, std::nullopt}}, {"memory", {memory, std::nullopt}}};
        t.generator = "manual";
        t.created_at = "2026-11-20T10:00:00Z";
        t.completed_at = "2026-11-20T11:00:00Z";
        e.trials.push_back(t);
    };
    add({256, 0}, 1000, 50, 80);    // 0: the status quo
    add({811, 0}, 1100, 45, 90);    // 1: chosen
    add({811, 1}, 1234.5, 40, 95);  // 2
    add({2048, 2}, 1500, 30, 150);  // 3: over the memory limit
    e.chosen = {ChosenConfiguration{1, "<script>steal()</script> & keep"}};
    return e;
}

}  // namespace sebo::test
