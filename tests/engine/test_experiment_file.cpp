// Experiment files (SPEC §7): lossless round trip, atomic saves, and a clear InputError naming
// the JSON path for every kind of malformed, hostile or future-version input.

#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QDirIterator>
#include <QTemporaryDir>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "core/input_error.h"
#include "io/experiment_file.h"
#include "test_support.h"

using namespace sebo;
using Json = nlohmann::ordered_json;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

Parameter make_parameter(std::string name, double lo, double hi) {
    Parameter p;
    p.name = std::move(name);
    p.lower = lo;
    p.upper = hi;
    return p;
}

Trial make_trial(int index, TrialStatus status, std::vector<double> x) {
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
Experiment rich_experiment() {
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

Experiment problem_experiment() {
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
Experiment small_experiment() {
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

Json small_json() { return Json::parse(experiment_to_json_text(small_experiment())); }

// A current document of a one-objective experiment in the layout of versions 1 and 2:
// "objective": {"name", "minimize"}, "hypervolume_reference" (the threshold) and per trial
// "objective" and "sem" instead of metrics, objectives, constraints and values.
Json old_layout(Json j, int version) {
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
void check_migrated(const nlohmann::json& raw, const Experiment& e) {
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

void compare_parameters(const Parameter& a, const Parameter& b) {
    QCOMPARE(qs(a.name), qs(b.name));
    QCOMPARE(a.kind, b.kind);
    QCOMPARE(bits(a.lower), bits(b.lower));
    QCOMPARE(bits(a.upper), bits(b.upper));
    QCOMPARE(a.log_scale, b.log_scale);
    QCOMPARE(a.target.has_value(), b.target.has_value());
    if (a.target) QCOMPARE(bits(*a.target), bits(*b.target));
    QCOMPARE(qs(a.group), qs(b.group));
}

void compare_optional(const std::optional<double>& a, const std::optional<double>& b) {
    QCOMPARE(a.has_value(), b.has_value());
    if (a) QCOMPARE(bits(*a), bits(*b));
}

// Field by field, doubles bit for bit.
void compare_experiments(const Experiment& a, const Experiment& b) {
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

Failure load_error(const std::string& text) {
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

std::string mutated(const std::function<void(Json&)>& change) {
    Json j = small_json();
    change(j);
    return j.dump(2);
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_all(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

}  // namespace

class TestExperimentFile : public QObject {
    Q_OBJECT
private slots:
    void rich_round_trip_is_lossless() {
        const Experiment e = rich_experiment();
        QVERIFY2(!e.validate(), e.validate() ? e.validate()->c_str() : "");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("rich.sebo.json").toStdString();
        save_experiment(e, path);
        const Experiment back = load_experiment(path);
        compare_experiments(e, back);
        QCOMPARE(qs(experiment_to_json_text(back)), qs(experiment_to_json_text(e)));
        QCOMPARE(qs(read_all(path)), qs(experiment_to_json_text(e)));
        // Explicit targets stay explicit, default ones stay unset (gamma's equals its default).
        QVERIFY(back.space.parameter(4).target.has_value());
        QVERIFY(!back.space.parameter(0).target.has_value());
        QCOMPARE(back.space.group_count(), 5);
    }

    void written_layout() {
        const Json j = Json::parse(experiment_to_json_text(rich_experiment()));
        QCOMPARE(qs(j["format"].get<std::string>()), QString("sebo-experiment"));
        QVERIFY(j["version"].is_number_integer());
        QCOMPARE(j["version"].get<int>(), kExperimentVersion);
        QVERIFY(j["seed"].is_number_unsigned());  // a JSON integer, not a float
        QCOMPARE(j["seed"].get<std::uint64_t>(), 18446744073709551557ull);
        const Json& params = j["space"]["parameters"];
        QVERIFY(!params[0].contains("target"));  // written only when explicitly set
        QVERIFY(params[4].contains("target"));
        QVERIFY(!params[0].contains("group"));
        QCOMPARE(qs(params[1]["group"].get<std::string>()), QString("optimizer"));
        QCOMPARE(qs(params[5]["kind"].get<std::string>()), QString("integer"));
        QCOMPARE(params[5]["log"].get<bool>(), true);
        QCOMPARE(qs(j["evaluator"]["kind"].get<std::string>()), QString("command"));
        QVERIFY(!j["evaluator"].contains("problem"));
        QCOMPARE(qs(j["evaluator"]["environment"]["TAG"].get<std::string>()), QString("a=b; $(not run)"));
        QCOMPARE(j["evaluator"]["max_concurrency"].get<int>(), 3);
        // The command's optional settings: absent when unset, and then read back as defaults.
        Experiment plain = rich_experiment();
        plain.evaluator.working_directory.clear();
        plain.evaluator.environment.clear();
        const Json p = Json::parse(experiment_to_json_text(plain));
        QVERIFY(!p["evaluator"].contains("working_directory"));
        QVERIFY(!p["evaluator"].contains("environment"));
        Json old_file = p;  // a file written before these fields existed
        old_file["evaluator"].erase("max_concurrency");
        const Experiment back = experiment_from_json_text(old_file.dump());
        QVERIFY(back.evaluator.working_directory.empty());
        QVERIFY(back.evaluator.environment.empty());
        QCOMPARE(back.evaluator.max_concurrency, 1);
        QCOMPARE(qs(j["method"]["strategy"].get<std::string>()), QString("ei-ir"));
        QCOMPARE(qs(j["method"]["model"].get<std::string>()), QString("saas-map"));
        QCOMPARE(qs(j["method"]["penalty"].get<std::string>()), QString("l1"));
        const Json& t2 = j["trials"][2];
        QVERIFY(!t2.contains("values"));  // pending: absent, not null
        QVERIFY(!t2.contains("error"));
        QCOMPARE(t2["parameters"]["n.layers[0]"].get<double>(), 64.0);
        QCOMPARE(j["trials"][0]["parameters"].begin().key(), std::string("alpha"));  // space order
        // Metrics, objectives and constraints at the top level; values per trial, in metric
        // order, "sem" only when known; a threshold only when set.
        QCOMPARE(qs(j["metrics"].dump()), QString("[\"yield (%)\",\"cost\",\"purity \\\"µ\\\"\",\"notes.count\"]"));
        QCOMPARE(qs(j["objectives"].dump()),
                 QString("[{\"metric\":\"yield (%)\",\"minimize\":true,\"threshold\":0.30000000000000004},"
                         "{\"metric\":\"cost\",\"minimize\":false}]"));
        QCOMPARE(qs(j["constraints"].dump()), QString("[{\"metric\":\"purity \\\"µ\\\"\",\"op\":\">=\",\"bound\":0.95},"
                                                      "{\"metric\":\"cost\",\"op\":\"<=\",\"bound\":-1e-300}]"));
        QCOMPARE(qs(j["trials"][0]["values"].dump()),
                 QString("{\"yield (%)\":{\"mean\":0.30000000000000004,\"sem\":1e-300},\"cost\":{\"mean\":-0.0},"
                         "\"purity \\\"µ\\\"\":{\"mean\":0.99,\"sem\":0.004},\"notes.count\":{\"mean\":3.0}}"));
        QVERIFY(!j.contains("objective") && !j.contains("hypervolume_reference"));  // version 2's keys
        QVERIFY(!j["trials"][0].contains("objective") && !j["trials"][0].contains("sem"));
    }

    void problem_and_manual_evaluators_round_trip() {
        const Experiment e = problem_experiment();
        QVERIFY(!e.validate());
        const Experiment back = experiment_from_json_text(experiment_to_json_text(e));
        compare_experiments(e, back);
        QCOMPARE(qs(experiment_to_json_text(back)), qs(experiment_to_json_text(e)));
        QCOMPARE(back.evaluator.problem.world_seed, 9007199254740993ull);

        Experiment unset = e;
        unset.evaluator.problem.target.reset();
        QVERIFY(!experiment_from_json_text(experiment_to_json_text(unset)).evaluator.problem.target);

        Experiment manual = e;
        manual.evaluator = EvaluatorSpec{};
        const std::string text = experiment_to_json_text(manual);
        const Json j = Json::parse(text);
        QCOMPARE(j["evaluator"].size(), std::size_t{1});  // only "kind"
        QCOMPARE(experiment_from_json_text(text).evaluator.kind, EvaluatorSpec::Kind::Manual);
    }

    void doubles_read_back_bit_identical() {
        // The library property the format relies on, over random bit patterns (every exponent,
        // subnormals included), then the same through the file API.
        std::mt19937_64 rng(20230425);
        int checked = 0;
        for (int i = 0; i < 200000; ++i) {
            const double x = std::bit_cast<double>(rng());
            if (!std::isfinite(x)) continue;
            const double y = nlohmann::json::parse(nlohmann::json(x).dump()).get<double>();
            if (bits(x) != bits(y)) QFAIL(qPrintable(QString("%1 read back as %2").arg(x, 0, 'g', 17).arg(y, 0, 'g', 17)));
            ++checked;
        }
        QVERIFY(checked > 199000);

        Experiment e;
        e.space = SearchSpace({make_parameter("x", -1.0, 1.0)});
        std::uniform_real_distribution<double> unit(-1.0, 1.0);
        for (int i = 0; i < 2000; ++i) {
            Trial t = make_trial(i, TrialStatus::Completed, {unit(rng)});
            double y;
            do y = std::bit_cast<double>(rng());
            while (!std::isfinite(y));
            t.values = {{"objective", {y, std::nullopt}}};
            e.trials.push_back(t);
        }
        const Experiment back = experiment_from_json_text(experiment_to_json_text(e));
        for (std::size_t i = 0; i < e.trials.size(); ++i) {
            QCOMPARE(bits(back.trials[i].parameters[0]), bits(e.trials[i].parameters[0]));
            QCOMPARE(bits(*back.trials[i].value("objective")), bits(*e.trials[i].value("objective")));
        }
    }

    void atomic_save_replaces_and_leaves_no_temporary() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("e.sebo.json").toStdString();
        write_all(path, "old contents");
        QCOMPARE(::chmod(path.c_str(), 0640), 0);
        const Experiment e = small_experiment();
        save_experiment(e, path);
        QCOMPARE(qs(read_all(path)), qs(experiment_to_json_text(e)));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"e.sebo.json"});
        struct stat info {};
        QCOMPARE(::stat(path.c_str(), &info), 0);
        QCOMPARE(info.st_mode & 0777, 0640u);  // permissions of the replaced file are kept

        Experiment changed = e;
        changed.name = "second save";
        save_experiment(changed, path);
        QCOMPARE(qs(load_experiment(path).name), QString("second save"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);

        write_file_atomic(path, "plain text");
        QCOMPARE(qs(read_all(path)), QString("plain text"));
    }

    void save_failures_name_the_path() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("missing/folder/e.sebo.json").toStdString();
        try {
            save_experiment(small_experiment(), path);
            QFAIL("saving into a missing folder did not throw");
        } catch (const std::runtime_error& error) {
            const QString message = qs(error.what());
            QVERIFY2(message.contains(qs(path)), qPrintable(message));
            QVERIFY2(message.contains("No such file or directory"), qPrintable(message));
        }
        // The target is a folder: rename fails, and the temporary file is removed.
        const std::string folder = dir.filePath("a-folder").toStdString();
        QVERIFY(QDir().mkdir(qs(folder)));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, write_file_atomic(folder, "text"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
        // An invalid experiment is refused rather than written as a file that cannot be opened.
        Experiment invalid = small_experiment();
        invalid.trials[0].values.clear();
        const std::string target = dir.filePath("invalid.sebo.json").toStdString();
        try {
            save_experiment(invalid, target);
            QFAIL("saving an invalid experiment did not throw");
        } catch (const std::runtime_error& error) {
            QVERIFY2(qs(error.what()).contains("trials[0].values.objective: a completed trial needs a value of every objective"),
                     error.what());
        }
        QVERIFY(!QFile::exists(qs(target)));
    }

    void document_level_errors() {
        const std::string valid = experiment_to_json_text(small_experiment());
        const Failure truncated = load_error(valid.substr(0, valid.size() / 2));
        QVERIFY(truncated.thrown);
        QCOMPARE(truncated.field, QString(""));
        QVERIFY2(truncated.message.contains("line") && truncated.message.contains("column") &&
                     truncated.message.contains("byte"),
                 qPrintable(truncated.message));
        EXPECT_INPUT_ERROR("", "", "empty");
        EXPECT_INPUT_ERROR(" \n\t\r\n", "", "empty");
        EXPECT_INPUT_ERROR("[1, 2, 3]", "", "expected an object, got an array");
        EXPECT_INPUT_ERROR("\"sebo-experiment\"", "", "expected an object");
        EXPECT_INPUT_ERROR("{\"format\": \"sebo-experiment\", \"version\": 1,}", "", "line 1, column 44");
        EXPECT_INPUT_ERROR("{\"format\": \"sebo-experiment\", \"version\": NaN}", "", "not valid JSON");
        // Not UTF-8: a Latin-1 byte inside a string.
        EXPECT_INPUT_ERROR("{\"format\": \"sebo-experiment\", \"name\": \"caf\xe9\"}", "", "UTF-8");
        EXPECT_INPUT_ERROR(std::string("{\"format\"\0: 1}", 14), "", "not valid JSON");
        // A syntax error names the field being read when it happened.
        const std::string cut = valid.substr(0, valid.find("\"boom\"") + 3);
        EXPECT_INPUT_ERROR(cut, "", "in trials[1].error");
        // Duplicate keys would silently keep the last value; they are refused where they occur.
        std::string twice = valid;
        twice.insert(twice.find("\"space\""), "\"metrics\": [\"y\"],\n");
        EXPECT_INPUT_ERROR(twice, "metrics", "the key \"metrics\" appears twice");
        std::string twice_value = valid;
        twice_value.insert(twice_value.find("\"beta\": 4.0"), "\"beta\": 4.5, ");
        EXPECT_INPUT_ERROR(twice_value, "trials[1].parameters.beta", "the key \"beta\" appears twice");
    }

    void deep_nesting_is_refused_without_crashing() {
        EXPECT_INPUT_ERROR(std::string(100000, '['), "", "nested deeper than 64");
        const std::string balanced = std::string(100000, '[') + std::string(100000, ']');
        EXPECT_INPUT_ERROR(balanced, "", "nested deeper than 64");
        std::string text = experiment_to_json_text(small_experiment());
        text.insert(1, "\"extra\": " + std::string(70, '{') + std::string(70, '}') + ",\n");
        EXPECT_INPUT_ERROR(text, "", "line 1, column 74");
        // Brackets inside strings do not count, and nesting within the limit in an unknown key loads.
        Json j = small_json();
        j["name"] = std::string(1000, '[');
        std::string ok = j.dump();
        ok.insert(1, "\"future\": " + std::string(60, '[') + std::string(60, ']') + ",");
        QCOMPARE(qs(experiment_from_json_text(ok).name), qs(std::string(1000, '[')));
    }

    void format_and_version() {
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["format"] = "other-format"; }), "format", "\"other-format\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j.erase("format"); }), "format", "not a SEBO experiment file");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["format"] = 1; }), "format", "not a SEBO experiment file");
        const Failure newer = load_error(mutated([](Json& j) { j["version"] = kExperimentVersion + 1; }));
        QVERIFY(newer.thrown);
        QCOMPARE(newer.field, QString("version"));
        QVERIFY2(newer.message.contains(QString("version %1").arg(kExperimentVersion + 1)) &&
                     newer.message.contains(QString("up to %1").arg(kExperimentVersion)),
                 qPrintable(newer.message));
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["version"] = 0; }), "version", "0 is not a valid version");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["version"] = "1"; }), "version", "the string \"1\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j.erase("version"); }), "version", "missing");
    }

    void wrong_fields_name_their_path() {
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j.erase("space"); }), "space", "missing");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"] = Json::array(); }), "space", "expected an object");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"] = Json::array(); }), "space.parameters",
                           "no parameters");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][0]["lower"] = "abc"; }),
                           "space.parameters[0].lower", "expected a number, got the string \"abc\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][1]["upper"] = 2.0; }),
                           "space.parameters[1].upper", "2 is not above lower 2");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][2]["upper"] = 10.5; }),
                           "space.parameters[2].upper", "10.5 is not an integer");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][1]["target"] = 9.0; }),
                           "space.parameters[1].target", "9 is outside the bounds [2, 5]");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][0]["log"] = true; }),
                           "space.parameters[0].lower", "log scale needs a positive lower bound");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][0]["log"] = 1; }),
                           "space.parameters[0].log", "expected true or false, got 1");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][1]["name"] = "alpha"; }),
                           "space.parameters[1].name", "duplicate parameter name \"alpha\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][1]["name"] = ""; }),
                           "space.parameters[1].name", "must not be empty");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][2]["kind"] = "discrete"; }),
                           "space.parameters[2].kind", "unknown parameter kind \"discrete\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][0].erase("upper"); }),
                           "space.parameters[0].upper", "missing");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["space"]["parameters"][0] = 3; }), "space.parameters[0]",
                           "expected an object, got 3");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j.erase("objectives"); }), "objectives", "missing");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["objectives"][0].erase("minimize"); }), "objectives[0].minimize",
                           "missing");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["name"] = Json::array(); }), "name", "expected a string, got an array");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["seed"] = -1; }), "seed", "-1 is negative");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["seed"] = 1.5; }), "seed", "1.5 is not an integer");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["objectives"][0]["threshold"] = "high"; }), "objectives[0].threshold",
                           "expected a number");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["strategy"] = "magic"; }), "method.strategy",
                           "unknown strategy \"magic\"; expected one of sobol");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["budget"] = -1; }), "method.budget", "-1 must be at least 0");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["model"] = "forest"; }), "method.model",
                           "unknown model \"forest\"; expected one of gp, saas, saas-map");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["penalty"] = 3; }), "method.penalty", "expected a string");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["homotopy_a_end"] = 2.0; }), "method.homotopy_a_end",
                           "is above homotopy_a_start");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["lambda"] = -0.5; }), "method.lambda",
                           "-0.5 must be a non-negative number");
        // BONSAI's tolerance (issue 16): a number in (0, 1].
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["bonsai_tolerance"] = 0.0; }), "method.bonsai_tolerance",
                           "0 is not in (0, 1]");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["bonsai_tolerance"] = 1.5; }), "method.bonsai_tolerance",
                           "1.5 is not in (0, 1]");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["bonsai_tolerance"] = "high"; }), "method.bonsai_tolerance",
                           "expected a number");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["initial_trials"] = 2.5; }), "method.initial_trials",
                           "2.5 is not an integer");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["method"]["budget"] = 1e12; }), "method.budget", "out of range");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["evaluator"]["kind"] = "shell"; }), "evaluator.kind",
                           "unknown evaluator kind \"shell\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["evaluator"] = Json{{"kind", "command"}}; }), "evaluator.command",
                           "missing");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["evaluator"] = Json{{"kind", "command"}, {"command", Json::array()}}; }),
                           "evaluator.command", "at least the program");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["evaluator"] = Json{{"kind", "command"}, {"command", {"run", 5}}}; }),
                           "evaluator.command[1]", "expected a string, got 5");
        EXPECT_INPUT_ERROR(mutated([](Json& j) {
                               j["evaluator"] = Json{{"kind", "command"}, {"command", {"run"}}, {"timeout_seconds", 0}};
                           }),
                           "evaluator.timeout_seconds", "0 is not positive");
        const auto command_with = [](const char* key, Json value) {
            return [key, value](Json& j) {
                j["evaluator"] = Json{{"kind", "command"}, {"command", {"run"}}};
                j["evaluator"][key] = value;
            };
        };
        EXPECT_INPUT_ERROR(mutated(command_with("max_concurrency", 0)), "evaluator.max_concurrency", "0 is outside [1, 256]");
        EXPECT_INPUT_ERROR(mutated(command_with("max_concurrency", 1.5)), "evaluator.max_concurrency", "1.5 is not an integer");
        EXPECT_INPUT_ERROR(mutated(command_with("working_directory", 7)), "evaluator.working_directory", "expected a string");
        EXPECT_INPUT_ERROR(mutated(command_with("environment", Json::array())), "evaluator.environment",
                           "expected an object, got an array");
        EXPECT_INPUT_ERROR(mutated(command_with("environment", Json{{"A=B", "x"}})), "evaluator.environment.A=B",
                           "without '='");
        EXPECT_INPUT_ERROR(mutated(command_with("environment", Json{{"N", 3}})), "evaluator.environment.N",
                           "expected a string, got 3");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["evaluator"] = Json{{"kind", "problem"}, {"problem", {{"dimension", 3}}}}; }),
                           "evaluator.problem.name", "missing");
        EXPECT_INPUT_ERROR(mutated([](Json& j) {
                               j["evaluator"] = Json{{"kind", "problem"}, {"problem", {{"name", "branin"}, {"effective", {1, -2}}}}};
                           }),
                           "evaluator.problem.effective[1]", "-2 is negative");
        EXPECT_INPUT_ERROR(mutated([](Json& j) {
                               j["evaluator"] = Json{{"kind", "problem"}, {"problem", {{"name", "branin"}, {"target", 1.5}}}};
                           }),
                           "evaluator.problem.target", "1.5 is outside the unit interval");
        EXPECT_INPUT_ERROR(mutated([](Json& j) {
                               j["evaluator"] = Json{{"kind", "problem"}, {"problem", {{"name", "b"}, {"world_seed", -3}}}};
                           }),
                           "evaluator.problem.world_seed", "-3 is negative");
    }

    void trial_errors_name_their_path() {
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["parameters"]["alpha"] = 7.0; }),
                           "trials[0].parameters.alpha", "7 is above the upper bound 6");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][1]["parameters"]["beta"] = 1.0; }),
                           "trials[1].parameters.beta", "1 is below the lower bound 2");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["parameters"]["count"] = 2.5; }),
                           "trials[0].parameters.count", "2.5 is not an integer");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["parameters"]["alpha"] = "1"; }),
                           "trials[0].parameters.alpha", "expected a number, got the string \"1\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["parameters"]["zeta"] = 1.0; }),
                           "trials[0].parameters.zeta", "unknown parameter \"zeta\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][1]["parameters"].erase("beta"); }),
                           "trials[1].parameters.beta", "missing value for parameter \"beta\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["parameters"] = {1, 2, 3}; }), "trials[0].parameters",
                           "expected an object, got an array");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][1]["index"] = 0; }), "trials[1].index",
                           "duplicate trial index 0");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][1]["index"] = -4; }), "trials[1].index", "-4 is negative");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][1]["index"] = 1.5; }), "trials[1].index", "1.5 is not an integer");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["status"] = "done"; }), "trials[0].status",
                           "unknown status \"done\"; expected one of pending, completed, failed, abandoned");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0].erase("values"); }), "trials[0].values.objective",
                           "a completed trial needs a value of every objective");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["values"] = nullptr; }), "trials[0].values.objective",
                           "a completed trial needs a value of every objective");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["values"]["objective"]["sem"] = -0.5; }),
                           "trials[0].values.objective.sem", "-0.5 is negative");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["evaluation_seconds"] = -1.0; }),
                           "trials[0].evaluation_seconds", "-1 is negative");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["error"] = false; }), "trials[0].error",
                           "expected a string, got false");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][1] = "trial"; }), "trials[1]",
                           "expected an object, got the string \"trial\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"] = Json::object(); }), "trials", "expected an array");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["chosen"][0]["trial"] = 9; }), "chosen[0].trial", "no trial with index 9");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["chosen"][0].erase("trial"); }), "chosen[0].trial", "missing");

        // Literals beyond the double range become infinity in the parser and are refused.
        std::string text = experiment_to_json_text(small_experiment());
        const auto at = text.find("12345.5");
        QVERIFY(at != std::string::npos);
        EXPECT_INPUT_ERROR(std::string(text).replace(at, 7, "1e400"), "trials[0].values.objective.mean",
                           "1e400 is not a finite number");
        EXPECT_INPUT_ERROR(std::string(text).replace(at, 7, "-1e400"), "trials[0].values.objective.mean",
                           "-1e400 is not a finite number");
        const auto lower = text.find("-2.0");
        QVERIFY(lower != std::string::npos);
        EXPECT_INPUT_ERROR(std::string(text).replace(lower, 4, "-1e999"), "space.parameters[0].lower", "-1e999");
    }

    // "excluded": {"reason", "at"} on a completed trial (version 2).
    void excluded_trials_round_trip_and_errors() {
        Json j = small_json();
        j["trials"][0]["excluded"] = {{"reason", "timeout reported as 1e308"}, {"at", "2026-11-26T08:00:00Z"}};
        const Experiment e = experiment_from_json_text(j.dump());
        QVERIFY(e.trials[0].exclusion);
        QCOMPARE(qs(e.trials[0].exclusion->reason), QString("timeout reported as 1e308"));
        QCOMPARE(e.trials[0].value("objective"), std::optional<double>(12345.5));
        QVERIFY(!e.trials[1].exclusion);
        const Json written = Json::parse(experiment_to_json_text(e));
        QCOMPARE(qs(written["trials"][0]["excluded"].dump()),
                 QString(R"({"reason":"timeout reported as 1e308","at":"2026-11-26T08:00:00Z"})"));
        QVERIFY(!written["trials"][1].contains("excluded"));
        // "at" is optional; null means absent, as everywhere in the format.
        j["trials"][0]["excluded"].erase("at");
        QCOMPARE(qs(experiment_from_json_text(j.dump()).trials[0].exclusion->at), QString());
        j["trials"][0]["excluded"] = nullptr;
        QVERIFY(!experiment_from_json_text(j.dump()).trials[0].exclusion);

        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][1]["excluded"] = {{"reason", "x"}}; }), "trials[1].excluded",
                           "only a completed trial can be excluded from analysis (this one is failed)");
        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][0]["excluded"] = Json::object(); }),
                           "trials[0].excluded.reason", "missing");
        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][0]["excluded"] = {{"reason", ""}}; }),
                           "trials[0].excluded.reason", "must not be empty");
        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][0]["excluded"] = {{"reason", 3}}; }),
                           "trials[0].excluded.reason", "expected a string");
        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][0]["excluded"] = true; }), "trials[0].excluded",
                           "expected an object, got true");
        EXPECT_INPUT_ERROR(mutated([](Json& k) { k["trials"][0]["excluded"] = {{"reason", "x"}, {"at", 5}}; }),
                           "trials[0].excluded.at", "expected a string");
    }

    // A version-1 file loads unchanged, and is saved in the current version. Version 1 had no
    // exclusions: an "excluded" member it carried meant nothing (its reader ignored it), so the
    // trial counts after the upgrade too.
    void version_1_files_migrate() {
        Json j = old_layout(small_json(), 1);
        const Experiment plain = experiment_from_json_text(j.dump());
        compare_experiments(plain, small_experiment());
        j["trials"][0]["excluded"] = {{"reason", "written by a newer tool"}};
        j["trials"][1]["excluded"] = "not even an object";
        const Experiment e = experiment_from_json_text(j.dump());
        QVERIFY(!e.trials[0].exclusion && !e.trials[1].exclusion);
        const Json saved = Json::parse(experiment_to_json_text(e));
        QCOMPARE(saved["version"].get<int>(), kExperimentVersion);
        QVERIFY(!saved["trials"][0].contains("excluded"));
    }

    // A version-2 file (one objective) loads with the same meaning: one metric, the one objective
    // on it with the hypervolume reference as its threshold, each trial's value and standard
    // error under "values"; it is saved in the current version. A broken version-2 file is
    // reported with the path it has in that file.
    void version_2_files_migrate() {
        Experiment e = small_experiment();
        e.outcomes = Outcomes::single("yield", true, -2.5);
        e.trials[0].values = {{"yield", {12345.5, 0.25}}};
        e.trials[0].exclusion = TrialExclusion{"sentinel", "2026-11-26T08:00:00Z"};
        const Json j = old_layout(Json::parse(experiment_to_json_text(e)), 2);
        QVERIFY(j.contains("objective") && !j.contains("objectives") && j["trials"][0].contains("sem"));
        const Experiment back = experiment_from_json_text(j.dump());
        compare_experiments(back, e);
        check_migrated(nlohmann::json::parse(j.dump()), back);
        const Json saved = Json::parse(experiment_to_json_text(back));
        QCOMPARE(saved["version"].get<int>(), kExperimentVersion);
        QCOMPARE(qs(saved["trials"][0]["values"].dump()), QString(R"({"yield":{"mean":12345.5,"sem":0.25}})"));
        QVERIFY(!saved.contains("objective") && !saved.contains("hypervolume_reference"));

        // The defaults of version 2: no name (or an empty one) is "objective"; no reference is no
        // threshold. A value on a pending trial is kept (it never counted); a standard error
        // without a value, and "values" (which version 2 did not know), mean nothing.
        Json k = old_layout(small_json(), 2);
        k["objective"].erase("name");
        k["trials"][1]["status"] = "pending";
        k["trials"][1]["objective"] = 4.0;
        k["trials"].push_back(Json{{"index", 7}, {"status", "pending"}, {"parameters", k["trials"][1]["parameters"]},
                                   {"sem", 0.5}, {"values", {{"junk", 1}}}});
        const Experiment d = experiment_from_json_text(k.dump());
        check_migrated(nlohmann::json::parse(k.dump()), d);
        QCOMPARE(d.trials[1].value("objective"), std::optional<double>(4.0));
        QVERIFY(d.trials[2].values.empty());
        k["objective"]["name"] = "";
        QCOMPARE(experiment_from_json_text(k.dump()).outcomes.metrics, std::vector<std::string>{"objective"});

        const auto old = [](const std::function<void(Json&)>& change) {
            Json o = old_layout(small_json(), 2);
            change(o);
            return o.dump();
        };
        EXPECT_INPUT_ERROR(old([](Json& o) { o.erase("objective"); }), "objective", "required field is missing");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["objective"] = 3; }), "objective", "expected an object, got 3");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["objective"].erase("minimize"); }), "objective.minimize", "missing");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["objective"]["minimize"] = "yes"; }), "objective.minimize",
                           "expected true or false, got the string \"yes\"");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["objective"]["name"] = 5; }), "objective.name", "expected a string, got 5");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["hypervolume_reference"] = "high"; }), "hypervolume_reference",
                           "expected a number, got the string \"high\"");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["trials"][0]["objective"] = "x"; }), "trials[0].objective",
                           "expected a number");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["trials"][0].erase("objective"); }), "trials[0].objective",
                           "a completed trial needs an objective value");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["trials"][0]["sem"] = -0.5; }), "trials[0].sem", "-0.5 is negative");
        EXPECT_INPUT_ERROR(old([](Json& o) { o["trials"][0]["sem"] = true; }), "trials[0].sem", "expected a number");
    }

    // Version 3's own checks of metrics, objectives, constraints and values.
    void outcome_errors_name_their_path() {
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["objectives"] = Json::array(); }), "objectives",
                           "at least one objective");
        EXPECT_INPUT_ERROR(mutated([](Json& j) {
                               j["metrics"] = {"a", "b", "c", "d", "e"};
                               j["objectives"] = Json::array();
                               for (const char* m : {"a", "b", "c", "d", "e"})
                                   j["objectives"].push_back({{"metric", m}, {"minimize", false}});
                           }),
                           "objectives", "5 objectives; at most 4");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["objectives"].push_back({{"metric", "objective"}, {"minimize", true}}); }),
                           "objectives[1].metric", "'objective' is already objectives[0]");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["objectives"][0]["metric"] = "speed"; }), "objectives[0].metric",
                           "unknown metric 'speed'; the metrics are 'objective'");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["metrics"] = {"objective", "objective"}; }), "metrics[1]",
                           "listed twice");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["metrics"] = {"objective", ""}; }), "metrics[1]", "must not be empty");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["metrics"] = "objective"; }), "metrics", "expected an array");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["constraints"] = {{{"metric", "p99"}, {"op", "<="}, {"bound", 5}}}; }),
                           "constraints[0].metric", "unknown metric 'p99'");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["constraints"] = {{{"metric", "objective"}, {"op", "<"}, {"bound", 5}}}; }),
                           "constraints[0].op", "\"<\" is not a constraint operator");
        EXPECT_INPUT_ERROR(mutated([](Json& j) {
                               j["constraints"] = {{{"metric", "objective"}, {"op", ">="}, {"bound", "5"}}};
                           }),
                           "constraints[0].bound", "expected a number, got the string \"5\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["constraints"] = {{{"metric", "objective"}, {"op", ">="}}}; }),
                           "constraints[0].bound", "missing");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["values"]["latency"] = 3; }), "trials[0].values.latency",
                           "unknown metric \"latency\"");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["values"]["objective"] = {{"sem", 1}}; }),
                           "trials[0].values.objective.mean", "missing");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["values"]["objective"] = "high"; }),
                           "trials[0].values.objective", "expected a number");
        EXPECT_INPUT_ERROR(mutated([](Json& j) { j["trials"][0]["values"] = {1, 2}; }), "trials[0].values",
                           "expected an object, got an array");

        // Without "metrics", the metrics are the objectives'; a value may be a plain number.
        Json j = small_json();
        j.erase("metrics");
        j.erase("constraints");
        j["trials"][0]["values"]["objective"] = 7.5;
        const Experiment e = experiment_from_json_text(j.dump());
        QCOMPARE(e.outcomes.metrics, std::vector<std::string>{"objective"});
        QCOMPARE(e.trials[0].value("objective"), std::optional<double>(7.5));
        QVERIFY(!e.trials[0].measurement("objective")->sem);
    }

    // Every experiment file in the repository (examples, fuzz seeds, test fixtures) loads, and
    // survives save -> load -> save with the same text.
    void repository_files_load_and_round_trip() {
        int found = 0, migrated = 0, states = 0;
        for (const char* folder : {"resources/examples", "docs", "tests/fixtures", "fuzz/corpus/experiment_file"}) {
            const QString root = qs(test::source_path(folder));
            QDirIterator it(root, {"*.sebo.json"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const std::string path = it.next().toStdString();
                ++found;
                Experiment e;
                try {
                    e = load_experiment(path);
                } catch (const InputError& error) {
                    QFAIL(qPrintable(qs(path + ": " + error.what())));
                }
                // A file of an older version (one objective) means the same after the upgrade.
                std::ifstream in(path);
                const nlohmann::json raw = nlohmann::json::parse(in);
                if (raw.at("version").get<int>() < 3) {
                    ++migrated;
                    check_migrated(raw, e);
                }
                // Versions 3 to 5: the one sampler state is the first objective's in version 6.
                if (raw.at("version").get<int>() < 6 && raw.contains("sampler_state")) {
                    ++states;
                    QVERIFY(e.sampler_state);
                    QCOMPARE(e.sampler_state->metrics.size(), std::size_t{1});
                    QCOMPARE(qs(e.sampler_state->metrics[0].metric), qs(e.primary_objective().metric));
                    QCOMPARE(e.sampler_state->metrics[0].positions,
                             (raw["sampler_state"]["positions"].get<std::vector<std::vector<double>>>()));
                    QCOMPARE(e.sampler_state->metrics[0].inverse_metric,
                             raw["sampler_state"]["inverse_metric"].get<std::vector<double>>());
                }
                const std::string saved = experiment_to_json_text(e);
                QCOMPARE(Json::parse(saved)["version"].get<int>(), kExperimentVersion);
                QCOMPARE(qs(experiment_to_json_text(experiment_from_json_text(saved))), qs(saved));
            }
        }
        QVERIFY2(found >= 4, qPrintable(QString("only %1 files found").arg(found)));
        QVERIFY2(migrated >= 1, "no file of an older version was found");
        QVERIFY2(states >= 1, "no file of versions 3 to 5 with a sampler state was found");
    }

    void unknown_keys_are_ignored_and_absent_optionals_take_defaults() {
        Json j = small_json();
        j["future_top"] = {{"a", 1}};
        j["space"]["parameters"][0]["future"] = "x";
        j["trials"][0]["future"] = Json::array();
        j["method"]["future_setting"] = 3.5;
        j["method"].erase("budget");
        j["trials"][1].erase("generator");
        j["trials"][1].erase("created_at");
        j["space"]["parameters"][0].erase("kind");
        j["space"]["parameters"][0].erase("log");
        j.erase("evaluator");
        j.erase("seed");
        j.erase("chosen");
        j["trials"][1]["values"] = nullptr;  // null is "absent"
        const Experiment e = experiment_from_json_text(j.dump());
        QCOMPARE(e.method.budget, MethodSettings{}.budget);
        QCOMPARE(e.method.initial_trials, 8);  // kept from the file
        QCOMPARE(qs(e.trials[1].generator), QString(""));
        QCOMPARE(qs(e.trials[1].created_at), QString(""));
        QCOMPARE(e.space.parameter(0).kind, ParameterKind::Continuous);
        QCOMPARE(e.space.parameter(0).log_scale, false);
        QCOMPARE(e.evaluator.kind, EvaluatorSpec::Kind::Manual);
        QCOMPARE(e.seed, std::uint64_t{0});
        QVERIFY(e.chosen.empty());
        QVERIFY(e.trials[1].values.empty());
        // Integral numbers written as floats (or integers written for doubles) are accepted.
        Json k = small_json();
        k["method"]["budget"] = 40.0;
        k["space"]["parameters"][0]["lower"] = -2;
        const Experiment f = experiment_from_json_text(k.dump());
        QCOMPARE(f.method.budget, 40);
        QCOMPARE(f.space.parameter(0).lower, -2.0);
    }

    void file_errors() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string missing = dir.filePath("nope.sebo.json").toStdString();
        try {
            (void)load_experiment(missing);
            QFAIL("loading a missing file did not throw");
        } catch (const InputError& e) {
            QCOMPARE(qs(e.field()), QString("file"));
            QVERIFY(qs(e.what()).contains(qs(missing)));
        }
        try {
            (void)load_experiment(dir.path().toStdString());
            QFAIL("loading a folder did not throw");
        } catch (const InputError& e) {
            QCOMPARE(qs(e.field()), QString("file"));
            QVERIFY(qs(e.what()).contains("not a regular file"));
        }
        // A sparse file just over the limit: refused from its size, without reading it.
        const std::string big = dir.filePath("big.sebo.json").toStdString();
        {
            std::ofstream touch(big);
        }
        QCOMPARE(::truncate(big.c_str(), static_cast<off_t>(kMaxExperimentFileBytes + 1)), 0);
        try {
            (void)load_experiment(big);
            QFAIL("an oversized file was read");
        } catch (const InputError& e) {
            QCOMPARE(qs(e.field()), QString("file"));
            QVERIFY2(qs(e.what()).contains("256 MiB"), e.what());
        }
        const std::string empty = dir.filePath("empty.sebo.json").toStdString();
        write_all(empty, "");
        try {
            (void)load_experiment(empty);
            QFAIL("an empty file loaded");
        } catch (const InputError& e) {
            QCOMPARE(qs(e.field()), QString(""));
            QVERIFY(qs(e.what()).contains("empty"));
        }
    }

    void every_truncation_and_random_corruption_is_an_input_error() {
        // Hostile input never crashes and never escapes as another exception type.
        const std::string valid = experiment_to_json_text(small_experiment());
        QVERIFY(valid.size() > 2 && valid.substr(valid.size() - 2) == "}\n");
        for (std::size_t n = 0; n + 1 < valid.size(); ++n) {  // without the final "\n" it is whole
            const Failure f = load_error(valid.substr(0, n));
            if (!f.thrown) QFAIL(qPrintable(QString("prefix of %1 bytes loaded").arg(n)));
        }
        std::mt19937 rng(7);
        std::uniform_int_distribution<std::size_t> position(0, valid.size() - 1);
        std::uniform_int_distribution<int> byte(0, 255);
        int rejected = 0;
        for (int i = 0; i < 3000; ++i) {
            std::string text = valid;
            const int edits = 1 + i % 4;
            for (int k = 0; k < edits; ++k) text[position(rng)] = static_cast<char>(byte(rng));
            try {
                const Experiment e = experiment_from_json_text(text);
                QVERIFY(!e.validate());  // whatever loads is a consistent experiment
            } catch (const InputError&) {
                ++rejected;
            }
        }
        QVERIFY(rejected > 2000);
    }
};

QTEST_GUILESS_MAIN(TestExperimentFile)
#include "test_experiment_file.moc"
