#pragma once
// Fixtures of the experiment-file tests (test_experiment_file.cpp, test_experiment_file_errors.cpp):
// experiments with every kind of field, comparisons field by field, and helpers that load
// mutated documents and return the InputError they raise.

#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QDirIterator>
#include <QString>
#include <QTemporaryDir>
#include <QtTest>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "io/experiment_file.h"
#include "test_support.h"

namespace sebo::test::experiment_file {

using Json = nlohmann::ordered_json;


inline QString qs(const std::string& s) { return QString::fromStdString(s); }

inline std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

inline Parameter make_parameter(std::string name, double lo, double hi) {
    Parameter p;
    p.name = std::move(name);
    p.lower = lo;
    p.upper = hi;
    return p;
}

inline Trial make_trial(int index, TrialStatus status, std::vector<double> x) {
    Trial t;
    t.index = index;
    t.status = status;
    t.parameters = std::move(x);
    t.generator = "sobol";
    t.created_at = "2026-11-25T22:31:07Z";
    return t;
}

// Every kind of field the format holds, with awkward values: log and integer parameters,
// groups, explicit and default targets, two objectives (one with a threshold), constraints of
// both senses, a tracked metric, every trial status, sem, a missing tracked metric, text with
// quotes, line breaks and non-ASCII characters, chosen notes, an extreme seed and non-trivial
// doubles.
inline Experiment rich_experiment() {
    Experiment e;
    e.name = "Rich \"test\" experiment";
    e.description = "line one\nline two, with a tab\tand unicode: µ-σ ✓ 日本";
    Parameter alpha = make_parameter("alpha", -2.0, 6.0);  // default target 0
    Parameter rate = make_parameter("rate", 1e-3, 10.0);   // log: default target = lower
    rate.log_scale = true;
    rate.group = "optimizer";
    Parameter count = make_parameter("count", 0.0, 50.0);  // integer, grouped
    count.kind = ParameterKind::Integer;
    count.group = "optimizer";
    Parameter beta = make_parameter("beta", 2.0, 5.0);  // explicit target
    beta.target = 3.5;
    Parameter gamma = make_parameter("gamma", 0.1, 0.9);  // explicit target equal to the default
    gamma.target = 0.1;
    Parameter layers = make_parameter("n.layers[0]", 1.0, 64.0);  // integer, log, odd name
    layers.kind = ParameterKind::Integer;
    layers.log_scale = true;
    e.space = SearchSpace({alpha, rate, count, beta, gamma, layers});
    e.outcomes.metrics = {"yield (%)", "cost", "purity \"µ\"", "notes.count"};
    e.outcomes.objectives = {{"yield (%)", true, 0.1 + 0.2}, {"cost", false, std::nullopt}};
    e.outcomes.constraints = {{"purity \"µ\"", ConstraintSense::AtLeast, 0.95}, {"cost", ConstraintSense::AtMost, -1e-300}};
    e.evaluator.kind = EvaluatorSpec::Kind::Command;
    e.evaluator.command = {"/usr/bin/python3", "eval script.py", "--flag=\"quoted\""};
    e.evaluator.timeout_seconds = 12.5;
    e.evaluator.working_directory = "/srv/lab bench/run";
    e.evaluator.environment = {{"LC_ALL", "C"}, {"OMP_NUM_THREADS", "1"}, {"TAG", "a=b; $(not run)"}};  // name order
    e.evaluator.max_concurrency = 3;
    e.method.initial_trials = 5;
    e.method.budget = 30;
    e.method.strategy = StrategyKind::EiIr;
    e.method.model = ModelKind::SaasMap;
    e.method.penalty = PenaltyKind::L1;
    e.method.lambda = 0.001;
    e.method.bonsai_tolerance = 0.35;
    e.method.homotopy_steps = 12;
    e.method.homotopy_a_start = 0.5;
    e.method.nuts_warmup = 128;
    e.seed = 18446744073709551557ull;  // the largest 64-bit prime: needs the unsigned range

    Trial t0 = make_trial(0, TrialStatus::Completed, {1.0 / 3.0, 0.0123456789, 17.0, 3.5, 0.1, 8.0});
    t0.values = {{"yield (%)", {0.1 + 0.2, 1e-300}}, {"cost", {-0.0, std::nullopt}},
                 {"purity \"µ\"", {0.99, 0.004}}, {"notes.count", {3.0, std::nullopt}}};
    t0.generation_seconds = 0.001;
    t0.evaluation_seconds = 12.345678901234567;
    t0.completed_at = "2026-11-25T22:31:19Z";
    t0.exclusion = TrialExclusion{"a \"sentinel\"\nvalue µ", "2026-11-26T08:00:00Z"};
    Trial t1 = make_trial(1, TrialStatus::Failed, {0.0, 1e-3, 0.0, 2.0, 0.9, 1.0});
    t1.error = "command \"eval\" exited with 1\nstderr: Ünïcødé ✓, commas, and a\ttab";
    t1.completed_at = "2026-11-25T22:32:00Z";
    Trial t2 = make_trial(2, TrialStatus::Pending, {-2.0, 10.0, 50.0, 5.0, 0.5, 64.0});
    t2.generator = "manual";
    Trial t3 = make_trial(3, TrialStatus::Abandoned, {6.0, 0.5, 25.0, 4.25, 0.25, 2.0});
    t3.error = "abandoned by the user";
    Trial t5 = make_trial(5, TrialStatus::Completed, {-0.0, 1e-3, 0.0, 3.5, 0.1, 1.0});
    t5.values = {{"yield (%)", {-1.7976931348623157e308, std::nullopt}}, {"cost", {1.7976931348623157e308, 0.0}}};
    t5.generator = "";
    Trial t4 = make_trial(4, TrialStatus::Completed, {1e-310, 9.999999999999998, 49.0, 2.0000000000000004, 0.8999999999999999, 63.0});
    t4.values = {{"yield (%)", {4.9406564584124654e-324, std::nullopt}},  // the smallest subnormal
                 {"cost", {2.5, std::nullopt}},
                 {"purity \"µ\"", {0.5, std::nullopt}}};
    e.trials = {t0, t1, t2, t3, t5, t4};         // file order differs from index order
    e.chosen = {{0, "best so far, \"sparse\"\nsecond line"}, {4, ""}};
    return e;
}

inline Experiment problem_experiment() {
    Experiment e;
    e.name = "branin";
    e.space = SearchSpace({make_parameter("x0", 0.0, 1.0), make_parameter("x1", 0.0, 1.0)});
    e.evaluator.kind = EvaluatorSpec::Kind::Problem;
    e.evaluator.problem.name = "branin";
    e.evaluator.problem.dimension = 2;
    e.evaluator.problem.effective = {0, 1};
    e.evaluator.problem.target = 0.25;
    e.evaluator.problem.repetitions = 3;
    e.evaluator.problem.world_seed = 9007199254740993ull;  // 2^53 + 1: not representable as a double
    e.seed = 7;
    e.outcomes = Outcomes::single("branin", true, 10.0);
    Trial t = make_trial(0, TrialStatus::Completed, {0.5, 0.25});
    t.values = {{"branin", {2.5, std::nullopt}}};
    e.trials = {t};
    return e;
}

// Small valid experiment used as the base for the malformed-input cases.
inline Experiment small_experiment() {
    Experiment e;
    e.name = "small";
    Parameter count = make_parameter("count", 0.0, 50.0);
    count.kind = ParameterKind::Integer;
    Parameter beta = make_parameter("beta", 2.0, 5.0);
    beta.target = 3.5;
    e.space = SearchSpace({make_parameter("alpha", -2.0, 6.0), beta, count});
    Trial t0 = make_trial(0, TrialStatus::Completed, {1.0, 3.5, 3.0});
    t0.values = {{"objective", {12345.5, std::nullopt}}};
    Trial t1 = make_trial(1, TrialStatus::Failed, {0.0, 4.0, 0.0});
    t1.error = "boom";
    e.trials = {t0, t1};
    e.chosen = {{0, "note"}};
    return e;
}

inline Json small_json() { return Json::parse(experiment_to_json_text(small_experiment())); }

// A current document of a one-objective experiment in the layout of versions 1 and 2:
// "objective": {"name", "minimize"}, "hypervolume_reference" (the threshold) and per trial
// "objective" and "sem" instead of metrics, objectives, constraints and values.
inline Json old_layout(Json j, int version) {
    const Json objective = j["objectives"][0];
    const std::string name = objective["metric"].get<std::string>();
    j["version"] = version;
    j["objective"] = Json{{"name", name}, {"minimize", objective["minimize"]}};
    if (objective.contains("threshold")) j["hypervolume_reference"] = objective["threshold"];
    for (const char* key : {"metrics", "objectives", "constraints"}) j.erase(key);
    for (Json& trial : j["trials"]) {
        if (trial.contains("values")) {
            const Json& m = trial["values"][name];
            trial["objective"] = m["mean"];
            if (m.contains("sem")) trial["sem"] = m["sem"];
        }
        trial.erase("values");
    }
    return j;
}

// What a file of version 1 or 2 (`raw`, as read) says, in the experiment it loads as: its one
// metric, direction, reference point, and each trial's value and standard error.
inline void check_migrated(const nlohmann::json& raw, const Experiment& e) {
    const nlohmann::json& objective = raw.at("objective");
    std::string name = objective.value("name", std::string("objective"));
    if (name.empty()) name = "objective";
    QCOMPARE(e.outcomes.metrics, std::vector<std::string>{name});
    QCOMPARE(e.outcomes.objectives.size(), std::size_t{1});
    QCOMPARE(qs(e.primary_objective().metric), qs(name));
    QCOMPARE(e.primary_objective().minimize, objective.at("minimize").get<bool>());
    const auto reference = raw.find("hypervolume_reference");
    QCOMPARE(e.primary_objective().threshold.has_value(), reference != raw.end() && !reference->is_null());
    if (e.primary_objective().threshold) QCOMPARE(bits(*e.primary_objective().threshold), bits(reference->get<double>()));
    QVERIFY(e.outcomes.constraints.empty());
    const auto trials = raw.find("trials");
    QCOMPARE(e.trials.size(), trials == raw.end() || trials->is_null() ? std::size_t{0} : trials->size());
    for (std::size_t i = 0; i < e.trials.size(); ++i) {
        const nlohmann::json& t = (*trials)[i];
        const Trial& loaded = e.trials[i];
        const bool has_value = t.contains("objective") && !t["objective"].is_null();
        QCOMPARE(loaded.values.size(), std::size_t{has_value ? 1u : 0u});
        if (!has_value) continue;
        QCOMPARE(bits(loaded.values.at(name).mean), bits(t["objective"].get<double>()));
        const bool has_sem = t.contains("sem") && !t["sem"].is_null();
        QCOMPARE(loaded.values.at(name).sem.has_value(), has_sem);
        if (has_sem) QCOMPARE(bits(*loaded.values.at(name).sem), bits(t["sem"].get<double>()));
    }
}

inline void compare_parameters(const Parameter& a, const Parameter& b) {
    QCOMPARE(qs(a.name), qs(b.name));
    QCOMPARE(a.kind, b.kind);
    QCOMPARE(bits(a.lower), bits(b.lower));
    QCOMPARE(bits(a.upper), bits(b.upper));
    QCOMPARE(a.log_scale, b.log_scale);
    QCOMPARE(a.target.has_value(), b.target.has_value());
    if (a.target) QCOMPARE(bits(*a.target), bits(*b.target));
    QCOMPARE(qs(a.group), qs(b.group));
}

inline void compare_optional(const std::optional<double>& a, const std::optional<double>& b) {
    QCOMPARE(a.has_value(), b.has_value());
    if (a) QCOMPARE(bits(*a), bits(*b));
}

// Field by field, doubles bit for bit.
inline void compare_experiments(const Experiment& a, const Experiment& b) {
    QCOMPARE(qs(a.name), qs(b.name));
    QCOMPARE(qs(a.description), qs(b.description));
    QCOMPARE(a.seed, b.seed);
    QCOMPARE(a.outcomes.metrics, b.outcomes.metrics);
    QCOMPARE(a.outcomes.objectives.size(), b.outcomes.objectives.size());
    for (std::size_t i = 0; i < a.outcomes.objectives.size(); ++i) {
        QCOMPARE(qs(a.outcomes.objectives[i].metric), qs(b.outcomes.objectives[i].metric));
        QCOMPARE(a.outcomes.objectives[i].minimize, b.outcomes.objectives[i].minimize);
        compare_optional(a.outcomes.objectives[i].threshold, b.outcomes.objectives[i].threshold);
    }
    QCOMPARE(a.outcomes.constraints.size(), b.outcomes.constraints.size());
    for (std::size_t i = 0; i < a.outcomes.constraints.size(); ++i) {
        QCOMPARE(qs(a.outcomes.constraints[i].metric), qs(b.outcomes.constraints[i].metric));
        QCOMPARE(a.outcomes.constraints[i].sense, b.outcomes.constraints[i].sense);
        QCOMPARE(bits(a.outcomes.constraints[i].bound), bits(b.outcomes.constraints[i].bound));
    }
    QCOMPARE(a.space.dimension(), b.space.dimension());
    for (int i = 0; i < a.space.dimension(); ++i) compare_parameters(a.space.parameter(i), b.space.parameter(i));
    QCOMPARE(a.space.group_count(), b.space.group_count());
    QCOMPARE(a.evaluator.kind, b.evaluator.kind);
    if (a.evaluator.kind == EvaluatorSpec::Kind::Problem) {
        const ProblemSpec &p = a.evaluator.problem, &q = b.evaluator.problem;
        QCOMPARE(qs(p.name), qs(q.name));
        QCOMPARE(p.dimension, q.dimension);
        QCOMPARE(p.effective, q.effective);
        compare_optional(p.target, q.target);
        QCOMPARE(p.repetitions, q.repetitions);
        QCOMPARE(p.world_seed, q.world_seed);
    }
    if (a.evaluator.kind == EvaluatorSpec::Kind::Command) {
        QCOMPARE(a.evaluator.command.size(), b.evaluator.command.size());
        for (std::size_t i = 0; i < a.evaluator.command.size(); ++i)
            QCOMPARE(qs(a.evaluator.command[i]), qs(b.evaluator.command[i]));
        QCOMPARE(bits(a.evaluator.timeout_seconds), bits(b.evaluator.timeout_seconds));
        QCOMPARE(qs(a.evaluator.working_directory), qs(b.evaluator.working_directory));
        QVERIFY(a.evaluator.environment == b.evaluator.environment);
        QCOMPARE(a.evaluator.max_concurrency, b.evaluator.max_concurrency);
    }
    QCOMPARE(a.method.strategy, b.method.strategy);
    QCOMPARE(a.method.initial_trials, b.method.initial_trials);
    QCOMPARE(a.method.budget, b.method.budget);
    QVERIFY(a.method.model == b.method.model);
    QVERIFY(a.method.penalty == b.method.penalty);
    QCOMPARE(a.method.lambda, b.method.lambda);
    QCOMPARE(a.method.bonsai_tolerance, b.method.bonsai_tolerance);
    QCOMPARE(a.method.homotopy_steps, b.method.homotopy_steps);
    QCOMPARE(a.method.homotopy_a_start, b.method.homotopy_a_start);
    QCOMPARE(a.method.nuts_warmup, b.method.nuts_warmup);
    QCOMPARE(a.trials.size(), b.trials.size());
    for (std::size_t i = 0; i < a.trials.size(); ++i) {
        const Trial &s = a.trials[i], &t = b.trials[i];
        QCOMPARE(s.index, t.index);
        QCOMPARE(s.status, t.status);
        QCOMPARE(s.parameters.size(), t.parameters.size());
        for (std::size_t k = 0; k < s.parameters.size(); ++k) QCOMPARE(bits(s.parameters[k]), bits(t.parameters[k]));
        QCOMPARE(s.values.size(), t.values.size());
        for (const auto& [metric, m] : s.values) {
            QVERIFY2(t.values.count(metric), metric.c_str());
            QCOMPARE(bits(m.mean), bits(t.values.at(metric).mean));
            compare_optional(m.sem, t.values.at(metric).sem);
        }
        QCOMPARE(qs(s.generator), qs(t.generator));
        QCOMPARE(qs(s.error), qs(t.error));
        QCOMPARE(bits(s.generation_seconds), bits(t.generation_seconds));
        QCOMPARE(bits(s.evaluation_seconds), bits(t.evaluation_seconds));
        QCOMPARE(qs(s.created_at), qs(t.created_at));
        QCOMPARE(qs(s.completed_at), qs(t.completed_at));
        QCOMPARE(s.exclusion.has_value(), t.exclusion.has_value());
        if (s.exclusion) {
            QCOMPARE(qs(s.exclusion->reason), qs(t.exclusion->reason));
            QCOMPARE(qs(s.exclusion->at), qs(t.exclusion->at));
        }
    }
    QCOMPARE(a.chosen.size(), b.chosen.size());
    for (std::size_t i = 0; i < a.chosen.size(); ++i) {
        QCOMPARE(a.chosen[i].trial, b.chosen[i].trial);
        QCOMPARE(qs(a.chosen[i].note), qs(b.chosen[i].note));
    }
}

// The error a text gives; fails the test when it loads or throws anything else.
struct Failure {
    bool thrown = false;
    QString field;
    QString message;
};

inline Failure load_error(const std::string& text) {
    Failure f;
    try {
        (void)experiment_from_json_text(text);
    } catch (const InputError& e) {
        f.thrown = true;
        f.field = qs(e.field());
        f.message = qs(e.what());
    }
    return f;
}

#define EXPECT_INPUT_ERROR(text, expected_field, expected_fragment)                                     \
    do {                                                                                                \
        const Failure sebo_f_ = load_error(text);                                                       \
        QVERIFY2(sebo_f_.thrown, "the malformed text loaded without an error");                         \
        QCOMPARE(sebo_f_.field, QString(expected_field));                                               \
        QVERIFY2(sebo_f_.message.contains(QString::fromUtf8(expected_fragment)), qPrintable(sebo_f_.message)); \
    } while (false)

inline std::string mutated(const std::function<void(Json&)>& change) {
    Json j = small_json();
    change(j);
    return j.dump(2);
}

inline std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_all(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}


}  // namespace sebo::test::experiment_file
