#pragma once
// The small experiment that fuzz_csv_import matches results sheets against, shared with
// tests/engine/test_fuzz_regressions.cpp so that a saved finding replays against the very
// experiment it was found with. Three parameters of every kind and scale; pending, completed
// and failed trials, and one pending pair with equal values (matching by values has to pick one).

#include <optional>
#include <utility>
#include <vector>

#include "experiment/experiment.h"

namespace sebo::fuzz {

inline Parameter fixture_parameter(const char* name, ParameterKind kind, double lower, double upper, bool log_scale) {
    Parameter p;
    p.name = name;
    p.kind = kind;
    p.lower = lower;
    p.upper = upper;
    p.log_scale = log_scale;
    return p;
}

inline Trial fixture_trial(int index, TrialStatus status, std::vector<double> x, std::optional<double> objective) {
    Trial t;
    t.index = index;
    t.status = status;
    t.parameters = std::move(x);
    if (objective) t.values = {{"loss", {*objective, std::nullopt}}};
    t.generator = "sobol";
    if (status == TrialStatus::Failed) t.error = "exited with 1";
    return t;
}

inline Experiment csv_fixture_experiment() {
    Experiment e;
    e.name = "fuzz";
    e.outcomes = Outcomes::single("loss", true);
    Parameter rate = fixture_parameter("rate", ParameterKind::Continuous, 1e-4, 1.0, true);
    rate.group = "opt";
    e.space = SearchSpace({fixture_parameter("x", ParameterKind::Continuous, -1.0, 1.0, false),
                           fixture_parameter("layers", ParameterKind::Integer, 1.0, 8.0, false), rate});
    e.trials = {fixture_trial(0, TrialStatus::Pending, {0.5, 3.0, 0.01}, std::nullopt),
                fixture_trial(1, TrialStatus::Completed, {-1.0, 1.0, 1e-4}, 2.5),
                fixture_trial(2, TrialStatus::Pending, {0.0, 8.0, 1.0}, std::nullopt),
                fixture_trial(3, TrialStatus::Failed, {1.0, 2.0, 0.1}, std::nullopt),
                fixture_trial(4, TrialStatus::Pending, {0.5, 3.0, 0.01}, std::nullopt)};
    return e;
}

// Every field a space CSV can set, compared exactly.
inline bool same_parameter(const Parameter& a, const Parameter& b) {
    return a.name == b.name && a.kind == b.kind && a.lower == b.lower && a.upper == b.upper &&
           a.log_scale == b.log_scale && a.target == b.target && a.group == b.group &&
           a.min_change == b.min_change && a.values == b.values && a.ordered == b.ordered;
}

}  // namespace sebo::fuzz
