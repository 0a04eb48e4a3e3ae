// Hostile inputs (issue 8): experiment files and CSV sheets from colleagues must never crash,
// hang or load wrongly. Every refusal is an InputError whose message names the field and the
// offending value. This complements test_experiment_file.cpp (round trips and the first
// malformed-input cases) and test_results_import.cpp (CSV semantics): here every field of the
// format gets every wrong JSON type, non-finite and out-of-range numbers, non-UTF-8 bytes, and
// the sizes a hostile file can reach (docs/reliability.md lists the outcomes).

#include <sys/stat.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <cstdint>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/input_error.h"
#include "experiment/analytics.h"
#include "io/csv_table.h"
#include "io/experiment_file.h"
#include "io/results_import.h"
#include "io/space_file.h"
#include "io/utf8_text.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_hostile_files {

using namespace sebo;
using Json = nlohmann::ordered_json;

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// A valid document with every field of the format present: metrics, two objectives (one with a
// threshold), a constraint, a command evaluator, every method setting, a grouped log parameter,
// an integer parameter, trials with values and standard errors (one with a fit record), a chosen
// note and a sampler state.
Json base_document() {
    Experiment e;
    e.name = "hostile";
    e.description = "base document";
    e.seed = 3;
    e.outcomes.metrics = {"loss", "latency", "cost"};
    e.outcomes.objectives = {{"loss", true, 10.0}, {"latency", true, std::nullopt}};
    e.outcomes.constraints = {{"cost", ConstraintSense::AtMost, 5.0}};
    Parameter alpha;
    alpha.name = "alpha";
    alpha.lower = -2.0;
    alpha.upper = 6.0;
    alpha.target = 0.5;
    alpha.group = "g";
    Parameter count;
    count.name = "count";
    count.kind = ParameterKind::Integer;
    count.lower = 0.0;
    count.upper = 50.0;
    Parameter rate;
    rate.name = "rate";
    rate.lower = 1e-3;
    rate.upper = 1.0;
    rate.log_scale = true;
    e.space = SearchSpace({alpha, count, rate});
    e.evaluator.kind = EvaluatorSpec::Kind::Command;
    e.evaluator.command = {"run", "--x"};
    e.evaluator.timeout_seconds = 60.0;
    e.evaluator.working_directory = "/tmp";
    e.evaluator.environment = {{"LC_ALL", "C"}};
    e.evaluator.max_concurrency = 2;
    e.method.strategy = StrategyKind::EiEr;
    e.method.model = ModelKind::Gp;
    e.method.penalty = PenaltyKind::L1;
    e.method.nuts = NutsMode::Fast;
    e.method.nuts_warmup = 300;
    e.method.nuts_samples = 128;
    e.method.nuts_thinning = 8;
    e.method.nuts_max_tree_depth = 5;
    e.method.nuts_chains = 2;
    e.method.nuts_warm_warmup = 64;
    Trial t0;
    t0.index = 0;
    t0.status = TrialStatus::Completed;
    t0.parameters = {1.0, 3.0, 0.01};
    t0.values = {{"loss", {2.5, 0.1}}, {"latency", {3.0, std::nullopt}}, {"cost", {1.0, std::nullopt}}};
    t0.generator = "sobol";
    t0.error = "";
    t0.created_at = "2026-11-25T22:31:07Z";
    t0.completed_at = "2026-11-25T22:31:19Z";
    t0.exclusion = TrialExclusion{"sentinel", "2026-11-25T22:40:00Z"};
    Trial t1;
    t1.index = 1;
    t1.status = TrialStatus::Failed;
    t1.parameters = {0.0, 0.0, 1.0};
    t1.error = "boom";
    FitRecord fit;
    fit.nuts = "fast";
    fit.chains = 2;
    fit.start = "warm";
    fit.cold_start_reason = "none";
    fit.warmup = 128;
    fit.draws = 16;
    fit.divergences = 0;
    fit.rhat = 1.01;
    fit.ess_bulk = 80.0;
    fit.parameters = {{"alpha", 1.02, 70.0}};
    fit.seconds = 1.5;
    t0.fit = fit;
    e.trials = {t0, t1};
    e.chosen = {{0, "best"}};
    MetricSamplerState state;  // the first objective's; 3 inputs, inferred noise: 7 coordinates
    state.metric = "loss";
    state.trials = {0};
    state.fingerprint = 12345;
    state.step_size = 0.25;
    state.dense_metric = false;
    state.positions = {{-2.0, 0.1, 0.2, 0.3, 0.0, -4.0, 0.1}, {-1.9, 0.0, 0.1, 0.2, 0.1, -3.9, 0.0}};
    state.inverse_metric = {1.0, 2.0, 1.0, 1.0, 0.5, 1.0, 1.0};
    e.sampler_state = SamplerState{{state}};
    Json j = Json::parse(experiment_to_json_text(e));
    j["trials"][0]["error"] = "";  // written only when set; present here so that it is swept too
    return j;
}

// The same with a built-in problem as the evaluator.
Json problem_document() {
    Json j = base_document();
    j["evaluator"] = Json{{"kind", "problem"},
                          {"problem",
                           {{"name", "branin"},
                            {"dimension", 3},
                            {"effective", {0, 1}},
                            {"target", 0.25},
                            {"repetitions", 1},
                            {"world_seed", 5}}}};
    return j;
}

// Empty when the text loads (`loads` true) or is refused with exactly `field` and a message
// containing every fragment; otherwise what happened instead.
std::string check_outcome(const std::string& text, bool loads, const std::string& field,
                          const std::vector<std::string>& fragments) {
    try {
        const Experiment e = experiment_from_json_text(text);
        if (loads) return e.validate() ? "loaded, but does not validate: " + *e.validate() : "";
        return "loaded; expected an error at '" + field + "'";
    } catch (const InputError& error) {
        if (loads) return std::string("refused: ") + error.what();
        if (error.field() != field) return "field '" + error.field() + "', expected '" + field + "': " + error.what();
        for (const std::string& fragment : fragments)
            if (std::string(error.what()).find(fragment) == std::string::npos)
                return "message lacks '" + fragment + "': " + error.what();
        return "";
    }
}

#define EXPECT_REFUSED(text, field, ...)                                                    \
    do {                                                                                    \
        const std::string sebo_problem_ = check_outcome((text), false, (field), {__VA_ARGS__}); \
        QVERIFY2(sebo_problem_.empty(), sebo_problem_.c_str());                             \
    } while (false)

#define EXPECT_LOADS(text)                                                      \
    do {                                                                        \
        const std::string sebo_problem_ = check_outcome((text), true, "", {});  \
        QVERIFY2(sebo_problem_.empty(), sebo_problem_.c_str());                 \
    } while (false)

// The document with the value at `pointer` replaced by raw JSON text (which may be invalid
// JSON such as NaN or a literal beyond the double range).
std::string with_literal(Json document, const std::string& pointer, const std::string& literal) {
    const std::string marker = "@@literal@@";
    document[Json::json_pointer(pointer)] = marker;
    std::string text = document.dump(2);
    const auto at = text.find("\"" + marker + "\"");
    text.replace(at, marker.size() + 2, literal);
    return text;
}

std::string with_value(Json document, const std::string& pointer, const Json& value) {
    document[Json::json_pointer(pointer)] = value;
    return document.dump(2);
}

enum class Type { String, Number, Integer, Unsigned, Boolean, Object, Array, Enum };

struct Field {
    const char* pointer;  // JSON pointer into the document
    const char* path;     // the path the loader names
    Type type;
};

// Every field of the format (except "format" and "version", checked on their own below).
const std::vector<Field>& fields() {
    static const std::vector<Field> all = {
        {"/name", "name", Type::String},
        {"/description", "description", Type::String},
        {"/seed", "seed", Type::Unsigned},
        {"/metrics", "metrics", Type::Array},
        {"/metrics/1", "metrics[1]", Type::String},
        {"/objectives", "objectives", Type::Array},
        {"/objectives/0", "objectives[0]", Type::Object},
        {"/objectives/0/metric", "objectives[0].metric", Type::String},
        {"/objectives/0/minimize", "objectives[0].minimize", Type::Boolean},
        {"/objectives/0/threshold", "objectives[0].threshold", Type::Number},
        {"/objectives/1/minimize", "objectives[1].minimize", Type::Boolean},
        {"/constraints", "constraints", Type::Array},
        {"/constraints/0", "constraints[0]", Type::Object},
        {"/constraints/0/metric", "constraints[0].metric", Type::String},
        {"/constraints/0/op", "constraints[0].op", Type::Enum},
        {"/constraints/0/bound", "constraints[0].bound", Type::Number},
        {"/space", "space", Type::Object},
        {"/space/parameters", "space.parameters", Type::Array},
        {"/space/parameters/0", "space.parameters[0]", Type::Object},
        {"/space/parameters/0/name", "space.parameters[0].name", Type::String},
        {"/space/parameters/0/kind", "space.parameters[0].kind", Type::Enum},
        {"/space/parameters/0/lower", "space.parameters[0].lower", Type::Number},
        {"/space/parameters/0/upper", "space.parameters[0].upper", Type::Number},
        {"/space/parameters/0/log", "space.parameters[0].log", Type::Boolean},
        {"/space/parameters/0/target", "space.parameters[0].target", Type::Number},
        {"/space/parameters/0/group", "space.parameters[0].group", Type::String},
        {"/space/parameters/2/lower", "space.parameters[2].lower", Type::Number},
        {"/evaluator", "evaluator", Type::Object},
        {"/evaluator/kind", "evaluator.kind", Type::Enum},
        {"/evaluator/command", "evaluator.command", Type::Array},
        {"/evaluator/command/0", "evaluator.command[0]", Type::String},
        {"/evaluator/command/1", "evaluator.command[1]", Type::String},
        {"/evaluator/timeout_seconds", "evaluator.timeout_seconds", Type::Number},
        {"/evaluator/working_directory", "evaluator.working_directory", Type::String},
        {"/evaluator/environment", "evaluator.environment", Type::Object},
        {"/evaluator/environment/LC_ALL", "evaluator.environment.LC_ALL", Type::String},
        {"/evaluator/max_concurrency", "evaluator.max_concurrency", Type::Integer},
        {"/method", "method", Type::Object},
        {"/method/strategy", "method.strategy", Type::Enum},
        {"/method/initial_trials", "method.initial_trials", Type::Integer},
        {"/method/budget", "method.budget", Type::Integer},
        {"/method/model", "method.model", Type::Enum},
        {"/method/lambda", "method.lambda", Type::Number},
        {"/method/penalty", "method.penalty", Type::Enum},
        {"/method/warp_objective", "method.warp_objective", Type::Boolean},
        {"/method/raw_samples", "method.raw_samples", Type::Integer},
        {"/method/restarts", "method.restarts", Type::Integer},
        {"/method/homotopy_a_start", "method.homotopy_a_start", Type::Number},
        {"/method/homotopy_a_end", "method.homotopy_a_end", Type::Number},
        {"/method/homotopy_steps", "method.homotopy_steps", Type::Integer},
        {"/method/fixed_a", "method.fixed_a", Type::Number},
        {"/method/nuts_warmup", "method.nuts_warmup", Type::Integer},
        {"/method/nuts_samples", "method.nuts_samples", Type::Integer},
        {"/method/nuts_thinning", "method.nuts_thinning", Type::Integer},
        {"/method/nuts_max_tree_depth", "method.nuts_max_tree_depth", Type::Integer},
        {"/method/nuts", "method.nuts", Type::Enum},
        {"/method/nuts_chains", "method.nuts_chains", Type::Integer},
        {"/method/nuts_warm_warmup", "method.nuts_warm_warmup", Type::Integer},
        {"/trials", "trials", Type::Array},
        {"/trials/0", "trials[0]", Type::Object},
        {"/trials/0/index", "trials[0].index", Type::Integer},
        {"/trials/0/status", "trials[0].status", Type::Enum},
        {"/trials/0/parameters", "trials[0].parameters", Type::Object},
        {"/trials/0/parameters/alpha", "trials[0].parameters.alpha", Type::Number},
        {"/trials/1/parameters/count", "trials[1].parameters.count", Type::Number},
        {"/trials/0/values", "trials[0].values", Type::Object},
        {"/trials/0/values/loss/mean", "trials[0].values.loss.mean", Type::Number},
        {"/trials/0/values/loss/sem", "trials[0].values.loss.sem", Type::Number},
        {"/trials/0/values/cost/mean", "trials[0].values.cost.mean", Type::Number},
        {"/trials/0/generator", "trials[0].generator", Type::String},
        {"/trials/0/error", "trials[0].error", Type::String},
        {"/trials/0/generation_seconds", "trials[0].generation_seconds", Type::Number},
        {"/trials/0/evaluation_seconds", "trials[0].evaluation_seconds", Type::Number},
        {"/trials/0/created_at", "trials[0].created_at", Type::String},
        {"/trials/0/completed_at", "trials[0].completed_at", Type::String},
        {"/trials/0/excluded", "trials[0].excluded", Type::Object},
        {"/trials/0/excluded/reason", "trials[0].excluded.reason", Type::String},
        {"/trials/0/excluded/at", "trials[0].excluded.at", Type::String},
        {"/trials/0/fit", "trials[0].fit", Type::Object},
        {"/trials/0/fit/nuts", "trials[0].fit.nuts", Type::Enum},
        {"/trials/0/fit/chains", "trials[0].fit.chains", Type::Integer},
        {"/trials/0/fit/start", "trials[0].fit.start", Type::Enum},
        {"/trials/0/fit/cold_start_reason", "trials[0].fit.cold_start_reason", Type::String},
        {"/trials/0/fit/warmup", "trials[0].fit.warmup", Type::Integer},
        {"/trials/0/fit/draws", "trials[0].fit.draws", Type::Integer},
        {"/trials/0/fit/divergences", "trials[0].fit.divergences", Type::Integer},
        {"/trials/0/fit/rhat", "trials[0].fit.rhat", Type::Number},
        {"/trials/0/fit/ess_bulk", "trials[0].fit.ess_bulk", Type::Number},
        {"/trials/0/fit/parameters", "trials[0].fit.parameters", Type::Array},
        {"/trials/0/fit/parameters/0", "trials[0].fit.parameters[0]", Type::Object},
        {"/trials/0/fit/parameters/0/name", "trials[0].fit.parameters[0].name", Type::String},
        {"/trials/0/fit/parameters/0/rhat", "trials[0].fit.parameters[0].rhat", Type::Number},
        {"/trials/0/fit/parameters/0/ess_bulk", "trials[0].fit.parameters[0].ess_bulk", Type::Number},
        {"/trials/0/fit/seconds", "trials[0].fit.seconds", Type::Number},
        {"/chosen", "chosen", Type::Array},
        {"/chosen/0", "chosen[0]", Type::Object},
        {"/chosen/0/trial", "chosen[0].trial", Type::Integer},
        {"/chosen/0/note", "chosen[0].note", Type::String},
        {"/sampler_states", "sampler_states", Type::Object},
        {"/sampler_states/loss", "sampler_states.loss", Type::Object},
        {"/sampler_states/loss/warp_objective", "sampler_states.loss.warp_objective", Type::Boolean},
        {"/sampler_states/loss/trials", "sampler_states.loss.trials", Type::Array},
        {"/sampler_states/loss/trials/0", "sampler_states.loss.trials[0]", Type::Integer},
        {"/sampler_states/loss/fingerprint", "sampler_states.loss.fingerprint", Type::Unsigned},
        {"/sampler_states/loss/step_size", "sampler_states.loss.step_size", Type::Number},
        {"/sampler_states/loss/metric", "sampler_states.loss.metric", Type::Enum},
        {"/sampler_states/loss/positions", "sampler_states.loss.positions", Type::Array},
        {"/sampler_states/loss/positions/1", "sampler_states.loss.positions[1]", Type::Array},
        {"/sampler_states/loss/positions/1/3", "sampler_states.loss.positions[1][3]", Type::Number},
        {"/sampler_states/loss/inverse_metric", "sampler_states.loss.inverse_metric", Type::Array},
        {"/sampler_states/loss/inverse_metric/4", "sampler_states.loss.inverse_metric[4]", Type::Number},
    };
    return all;
}

const std::vector<Field>& problem_fields() {
    static const std::vector<Field> all = {
        {"/evaluator/problem", "evaluator.problem", Type::Object},
        {"/evaluator/problem/name", "evaluator.problem.name", Type::String},
        {"/evaluator/problem/dimension", "evaluator.problem.dimension", Type::Integer},
        {"/evaluator/problem/effective", "evaluator.problem.effective", Type::Array},
        {"/evaluator/problem/effective/0", "evaluator.problem.effective[0]", Type::Integer},
        {"/evaluator/problem/target", "evaluator.problem.target", Type::Number},
        {"/evaluator/problem/repetitions", "evaluator.problem.repetitions", Type::Integer},
        {"/evaluator/problem/world_seed", "evaluator.problem.world_seed", Type::Unsigned},
    };
    return all;
}

struct WrongValue {
    Json value;
    std::string expected;  // what the message says about the type ("expected a number")
    std::string shown;     // how the message shows the value
};

// Values of every JSON type other than the field's, with the words the message must contain.
std::vector<WrongValue> wrong_values(Type type) {
    std::string expected;
    switch (type) {
    case Type::String:
    case Type::Enum: expected = "expected a string"; break;
    case Type::Number: expected = "expected a number"; break;
    case Type::Integer: expected = "expected an integer"; break;
    case Type::Unsigned: expected = "expected a non-negative integer"; break;
    case Type::Boolean: expected = "expected true or false"; break;
    case Type::Object: expected = "expected an object"; break;
    case Type::Array: expected = "expected an array"; break;
    }
    std::vector<WrongValue> values;
    const bool numeric = type == Type::Number || type == Type::Integer || type == Type::Unsigned;
    if (!numeric) values.push_back({7, expected, "got 7"});
    if (type != Type::String && type != Type::Enum) values.push_back({"7", expected, "got the string \"7\""});
    if (type != Type::Boolean) values.push_back({true, expected, "got true"});
    if (type != Type::Array) values.push_back({Json::array({1, 2}), expected, "got an array"});
    if (type != Type::Object) values.push_back({Json::object(), expected, "got an object"});
    return values;
}

void write_all(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// A sparse file of `size` bytes: no disk space, and reading it would take `size` bytes of memory.
bool make_sparse(const std::string& path, std::uint64_t size) {
    write_all(path, "");
    return ::truncate(path.c_str(), static_cast<off_t>(size)) == 0;
}

std::string error_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

class TestHostileFiles : public QObject {
    Q_OBJECT
private slots:
    void base_documents_load() {
        EXPECT_LOADS(base_document().dump());
        EXPECT_LOADS(problem_document().dump());
        // A byte-order mark, as some editors write, is not an error.
        EXPECT_LOADS("\xEF\xBB\xBF" + base_document().dump());
    }

    void every_field_refuses_every_wrong_type() {
        int cases = 0;
        const auto sweep = [&](const Json& document, const std::vector<Field>& list) {
            for (const Field& f : list) {
                for (const WrongValue& wrong : wrong_values(f.type)) {
                    const std::string problem =
                        check_outcome(with_value(document, f.pointer, wrong.value), false, f.path, {wrong.expected, wrong.shown});
                    QVERIFY2(problem.empty(), qPrintable(QString("%1 = %2: %3").arg(f.pointer, qs(wrong.value.dump()), qs(problem))));
                    ++cases;
                }
            }
        };
        sweep(base_document(), fields());
        if (QTest::currentTestFailed()) return;
        sweep(problem_document(), problem_fields());
        QVERIFY(cases > 280);
    }

    void integers_refuse_fractions_and_out_of_range_values() {
        for (const auto* list : {&fields(), &problem_fields()}) {
            const Json document = list == &fields() ? base_document() : problem_document();
            for (const Field& f : *list) {
                if (f.type != Type::Integer && f.type != Type::Unsigned) continue;
                EXPECT_REFUSED(with_value(document, f.pointer, 1.5), f.path, "1.5 is not an integer");
                if (f.type == Type::Integer) {
                    EXPECT_REFUSED(with_value(document, f.pointer, 1e12), f.path, "1e+12 is out of range");
                    EXPECT_REFUSED(with_value(document, f.pointer, std::uint64_t{1} << 40), f.path, "1099511627776 is too large");
                } else {
                    EXPECT_REFUSED(with_value(document, f.pointer, -1), f.path, "-1 is negative");
                    EXPECT_REFUSED(with_value(document, f.pointer, 1e20), f.path, "1e+20 is too large");
                }
            }
        }
    }

    void enums_refuse_unknown_names() {
        const Json j = base_document();
        EXPECT_REFUSED(with_value(j, "/space/parameters/0/kind", "real"), "space.parameters[0].kind",
                       "unknown parameter kind \"real\"");
        EXPECT_REFUSED(with_value(j, "/evaluator/kind", "python"), "evaluator.kind", "unknown evaluator kind \"python\"");
        EXPECT_REFUSED(with_value(j, "/method/strategy", "SEBO-L0"), "method.strategy", "unknown strategy \"SEBO-L0\"");
        EXPECT_REFUSED(with_value(j, "/method/model", ""), "method.model", "unknown model \"\"");
        EXPECT_REFUSED(with_value(j, "/method/penalty", "l2"), "method.penalty", "unknown penalty \"l2\"");
        EXPECT_REFUSED(with_value(j, "/trials/0/status", "running"), "trials[0].status", "unknown status \"running\"");
        EXPECT_REFUSED(with_value(j, "/method/nuts", "slow"), "method.nuts", "unknown NUTS setting \"slow\"",
                       "expected one of fast, paper");
        EXPECT_REFUSED(with_value(j, "/trials/0/fit/start", "lukewarm"), "trials[0].fit.start", "\"lukewarm\" is not a start");
        EXPECT_REFUSED(with_value(j, "/trials/0/fit/nuts", "slow"), "trials[0].fit.nuts", "\"slow\" is not a sampler setting");
        EXPECT_REFUSED(with_value(j, "/sampler_states/loss/metric", "full"), "sampler_states.loss.metric", "\"full\" is not a metric kind");
        EXPECT_REFUSED(with_value(j, "/constraints/0/op", "=<"), "constraints[0].op", "\"=<\" is not a constraint operator");
        // A value is a number or {"mean", "sem"}: anything else names the metric.
        EXPECT_REFUSED(with_value(j, "/trials/0/values/latency", "7"), "trials[0].values.latency",
                       "expected a number, got the string \"7\"");
        EXPECT_REFUSED(with_value(j, "/trials/0/values/latency", true), "trials[0].values.latency", "expected a number");
        EXPECT_LOADS(with_value(j, "/trials/0/values/latency", 7));
        // A long unknown name is shown cut short, not in full.
        const std::string huge(100000, 'x');
        try {
            (void)experiment_from_json_text(with_value(j, "/method/strategy", huge));
            QFAIL("a 100000-character strategy name loaded");
        } catch (const InputError& e) {
            QCOMPARE(qs(e.field()), QString("method.strategy"));
            QVERIFY2(std::string(e.what()).size() < 400, e.what());
            QVERIFY(std::string(e.what()).find("\"xxxxxxxxxx") != std::string::npos);
        }
    }

    void unknown_problem_names_load_and_fail_when_run() {
        // By design (experiment_file.cpp, read_problem): the file opens so that its trials can be
        // inspected; building the problem names the field and the value.
        Json j = problem_document();
        j["evaluator"]["problem"]["name"] = "no-such-problem";
        const Experiment e = experiment_from_json_text(j.dump());
        QCOMPARE(qs(e.evaluator.problem.name), QString("no-such-problem"));
        const std::string message = error_of([&] { (void)make_problem(e.evaluator.problem); });
        QVERIFY2(message.find("problem.name") != std::string::npos && message.find("'no-such-problem'") != std::string::npos,
                 message.c_str());
    }

    void non_finite_numbers_are_refused_in_every_number_field() {
        const Json document = base_document();
        for (const Field& f : fields()) {
            if (f.type != Type::Number && f.type != Type::Integer && f.type != Type::Unsigned) continue;
            // Beyond the double range: refused by the parser, naming the field.
            EXPECT_REFUSED(with_literal(document, f.pointer, "1e400"), f.path, "1e400 is not a finite number");
            EXPECT_REFUSED(with_literal(document, f.pointer, "-1e400"), f.path, "-1e400 is not a finite number");
            // JSON has no NaN or Infinity: a syntax error that names the field and the word.
            for (const char* word : {"NaN", "Infinity", "-Infinity", "nan", "inf"}) {
                EXPECT_REFUSED(with_literal(document, f.pointer, word), "", "not valid JSON", std::string("in ") + f.path,
                               std::string("found '") + word + "'");
            }
        }
        // Non-JSON number spellings as well.
        for (const char* word : {"0x10", "+1", ".5", "01", "1.", "1e", "--1"})
            EXPECT_REFUSED(with_literal(document, "/trials/0/values/loss/mean", word), "",
                           "in trials[0].values.loss.mean", std::string("found '") + word + "'");
        // Tiny numbers underflow to 0 or a subnormal and are fine.
        EXPECT_LOADS(with_literal(document, "/trials/0/values/loss/mean", "1e-400"));
    }

    // The edges of double in every field that takes any number (issue 18): they load, the
    // analysis stays finite, and save -> load -> save gives the same text. Only a parameter range
    // wider than the largest double is refused (the unit-cube map divides by it).
    void extreme_finite_values_load_and_stay_finite() {
        const std::vector<std::string> extremes = {"1.7976931348623157e308", "-1.7976931348623157e308", "1e308", "-1e308",
                                                   "4.9406564584124654e-324", "-4.9406564584124654e-324",
                                                   "2.2250738585072014e-308", "-0.0", "1e-15", "9007199254740993"};
        const Json document = base_document();
        int loaded = 0;
        for (const char* pointer : {"/trials/0/values/loss/mean", "/objectives/0/threshold", "/trials/0/values/latency/mean",
                                    "/trials/0/values/cost/mean", "/constraints/0/bound"}) {
            for (const std::string& literal : extremes) {
                for (const bool excluded : {true, false}) {
                    Json j = document;
                    if (!excluded) j["trials"][0].erase("excluded");
                    const std::string text = with_literal(j, pointer, literal);
                    Experiment e;
                    try {
                        e = experiment_from_json_text(text);
                    } catch (const InputError& error) {
                        QFAIL(qPrintable(QString("%1 = %2: %3").arg(pointer, qs(literal), error.what())));
                    }
                    ++loaded;
                    const FrontierReport report = analyze_frontier(e);
                    QVERIFY2(std::isfinite(report.hypervolume) && std::isfinite(report.reference_utilities[0]) &&
                                 std::isfinite(report.reference_utilities[1]),
                             qPrintable(QString("%1 = %2").arg(pointer, qs(literal))));
                    for (double v : report.hypervolume_trace) QVERIFY(std::isfinite(v));
                    const std::string saved = experiment_to_json_text(e);
                    QCOMPARE(qs(experiment_to_json_text(experiment_from_json_text(saved))), qs(saved));
                }
            }
        }
        QCOMPARE(loaded, 100);
        // Standard errors and durations at the top of the range load too.
        EXPECT_LOADS(with_literal(document, "/trials/0/values/loss/sem", "1.7976931348623157e308"));
        EXPECT_LOADS(with_literal(document, "/trials/0/evaluation_seconds", "1.7976931348623157e308"));
        // Parameter ranges: up to the largest double wide, not beyond.
        Json wide = document;
        wide["space"]["parameters"][0]["lower"] = -8e307;
        wide["space"]["parameters"][0]["upper"] = 8e307;
        wide["space"]["parameters"][0]["target"] = 0.0;
        wide["trials"][0]["parameters"]["alpha"] = 8e307;
        wide["trials"][1]["parameters"]["alpha"] = -8e307;
        EXPECT_LOADS(wide.dump());
        wide["space"]["parameters"][0]["upper"] = 1e308;
        EXPECT_REFUSED(wide.dump(), "space.parameters[0].upper", "the range from -8e+307 to 1e+308 is wider than the largest number");
        wide["space"]["parameters"][0]["lower"] = -1.7976931348623157e308;
        wide["space"]["parameters"][0]["upper"] = 1.7976931348623157e308;
        EXPECT_REFUSED(wide.dump(), "space.parameters[0].upper", "wider than the largest number");
    }

    void space_rules_name_the_field_and_the_value() {
        const Json j = base_document();
        EXPECT_REFUSED(with_value(j, "/space/parameters/0/upper", -3.0), "space.parameters[0].upper", "-3 is not above lower -2");
        EXPECT_REFUSED(with_value(j, "/space/parameters/2/lower", 0.0), "space.parameters[2].lower",
                       "log scale needs a positive lower bound, got 0");
        EXPECT_REFUSED(with_value(j, "/space/parameters/2/lower", -0.5), "space.parameters[2].lower",
                       "log scale needs a positive lower bound, got -0.5");
        Json negative_log = j;
        negative_log["space"]["parameters"][2]["lower"] = -2.0;
        negative_log["space"]["parameters"][2]["upper"] = -1.0;
        EXPECT_REFUSED(negative_log.dump(), "space.parameters[2].lower", "got -2");
        EXPECT_REFUSED(with_value(j, "/space/parameters/1/lower", 0.5), "space.parameters[1].lower", "0.5 is not an integer");
        EXPECT_REFUSED(with_value(j, "/space/parameters/1/upper", 49.5), "space.parameters[1].upper", "49.5 is not an integer");
        EXPECT_REFUSED(with_value(j, "/space/parameters/1/target", 2.5), "space.parameters[1].target", "2.5 is not an integer");
        EXPECT_REFUSED(with_value(j, "/space/parameters/0/target", -2.5), "space.parameters[0].target",
                       "-2.5 is outside the bounds [-2, 6]");
        EXPECT_REFUSED(with_value(j, "/space/parameters/2/target", 2.0), "space.parameters[2].target",
                       "2 is outside the bounds [0.001, 1]");
        EXPECT_REFUSED(with_value(j, "/space/parameters/2/name", "alpha"), "space.parameters[2].name",
                       "duplicate parameter name \"alpha\"");
        EXPECT_REFUSED(with_value(j, "/space/parameters/0/name", ""), "space.parameters[0].name", "must not be empty");
    }

    void future_and_invalid_versions() {
        const Json j = base_document();
        const std::string next = std::to_string(kExperimentVersion + 1);
        EXPECT_REFUSED(with_value(j, "/version", kExperimentVersion + 1), "version", "version " + next,
                       "up to " + std::to_string(kExperimentVersion), "newer SEBO Explorer");
        EXPECT_REFUSED(with_value(j, "/version", 99), "version", "version 99");
        EXPECT_REFUSED(with_value(j, "/version", 4294967296LL), "version", "4294967296 is too large");
        EXPECT_REFUSED(with_value(j, "/version", -1), "version", "-1 is not a valid version");
        EXPECT_REFUSED(with_value(j, "/version", 1.5), "version", "1.5 is not an integer");
        EXPECT_REFUSED(with_value(j, "/version", nullptr), "version", "expected an integer, got null");
        EXPECT_REFUSED(with_literal(j, "/version", "1e400"), "version", "1e400 is not a finite number");
        // A future file is refused before anything else in it is read.
        Json future = j;
        future["version"] = kExperimentVersion + 1;
        future["space"] = "a layout this program does not know";
        EXPECT_REFUSED(future.dump(), "version", "version " + next);
        EXPECT_REFUSED(with_value(j, "/format", "sebo-experiment-v2"), "format", "\"sebo-experiment-v2\"");
    }

    void non_utf8_bytes_are_refused_where_they_occur() {
        const std::string text = base_document().dump(2);
        struct Case {
            std::string from, to;  // replace the first `from` by `to`
            std::string where;     // the field named in the message
            std::string byte;      // the offending byte
        };
        const std::vector<Case> cases = {
            {"\"hostile\"", "\"host\xFFile\"", "in name", "0xFF"},
            {"\"base document\"", "\"caf\xE9 au lait\"", "in description", "0xE9"},                  // Latin-1
            {"\"name\": \"alpha\"", "\"name\": \"al\xC0\xAFpha\"", "in space.parameters[0].name", "0xC0"},  // overlong "/"
            {"\"boom\"", "\"bo\xED\xA0\x80om\"", "in trials[1].error", "0xED"},                         // a UTF-16 surrogate
            {"\"best\"", "\"be\x80st\"", "in chosen[0].note", "0x80"},                                   // a stray continuation
            {"\"g\"", "\"\xE2\x82\"", "in space.parameters[0].group", "0xE2"},                          // cut short
            {"\"LC_ALL\"", "\"LC\xF8" "ALL\"", "in a key of evaluator.environment", "0xF8"},
            {"\"alpha\": 1.0", "\"\xFE\": 1.0", "in a key of trials[0].parameters", "0xFE"},
        };
        for (const Case& c : cases) {
            std::string bad = text;
            const auto at = bad.find(c.from);
            QVERIFY2(at != std::string::npos, c.from.c_str());
            bad.replace(at, c.from.size(), c.to);
            const std::string problem = check_outcome(bad, false, "", {"UTF-8", c.where, "the byte " + c.byte});
            QVERIFY2(problem.empty(), problem.c_str());
            // The message itself is valid UTF-8 (it is shown in dialogs and written to logs).
            try {
                (void)experiment_from_json_text(bad);
            } catch (const InputError& e) {
                QVERIFY2(!find_invalid_utf8(e.what()), e.what());
            }
        }
        // Escapes that are not characters.
        EXPECT_REFUSED(with_literal(base_document(), "/name", "\"\\ud800\""), "", "in name", "surrogate", "\"\\ud800\"");
        EXPECT_REFUSED(with_literal(base_document(), "/name", "\"a\\qb\""), "", "in name", "backslash");
        EXPECT_REFUSED(with_literal(base_document(), "/name", "\"tab\there\""), "", "in name", "control character");
        // Valid non-ASCII text loads unchanged, including an escaped NUL.
        const Experiment e = experiment_from_json_text(with_value(base_document(), "/name", std::string("µ ✓ 日本 \0 end", 19)));
        QCOMPARE(e.name, std::string("µ ✓ 日本 \0 end", 19));
    }

    void truncated_files_are_refused() {
        const std::string example = [] {
            std::ifstream in(test::source_path("resources/examples/branin-50d.sebo.json"), std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), {});
        }();
        QVERIFY(example.size() > 10000);
        EXPECT_LOADS(example);
        for (std::size_t n : {std::size_t{1}, std::size_t{100}, example.size() / 3, example.size() / 2, example.size() - 3}) {
            const std::string problem =
                check_outcome(example.substr(0, n), false, "", {"not valid JSON", "line", "the end of the text (it is cut short)"});
            QVERIFY2(problem.empty(), qPrintable(QString("first %1 bytes: %2").arg(n).arg(qs(problem))));
        }
        // Cut inside a string, a number and a key: the message says what was being read.
        EXPECT_REFUSED(example.substr(0, example.find("\"name\": \"") + 12), "", "in name");
        EXPECT_REFUSED(std::string("{\"format\": \"sebo-experiment\", \"version\": 1"), "", "in version", "cut short");
        EXPECT_REFUSED(std::string("{\"format\": \"sebo-experiment\", \"vers"), "", "cut short");
        EXPECT_REFUSED(std::string(1, '\0'), "", "not valid JSON", "the byte 0x00");
        EXPECT_REFUSED(std::string("\xEF\xBB\xBF"), "", "not valid JSON");
    }

    void huge_arrays_load_in_bounded_memory() {
        // 100000 trials (a long-running lab campaign is a few thousand): loads completely.
        Json j = base_document();
        j.erase("chosen");
        Json trials = Json::array();
        for (int i = 0; i < 100000; ++i)
            trials.push_back(Json{{"index", i},
                                  {"status", "completed"},
                                  {"parameters", {{"alpha", (i % 800) / 100.0 - 2.0}, {"count", i % 51}, {"rate", 0.5}}},
                                  {"values", {{"loss", i * 0.5}, {"latency", 1}}}});
        j["trials"] = std::move(trials);
        const std::string text = j.dump();
        QVERIFY(text.size() > 8u << 20);
        const Experiment e = experiment_from_json_text(text);
        QCOMPARE(e.trials.size(), std::size_t{100000});
        QCOMPARE(e.trials.back().index, 99999);
        QCOMPARE(*e.trials.back().value("loss"), 99999 * 0.5);
        QCOMPARE(e.trials[12345].parameters[1], 12345.0 - 51 * 242);

        // A bad value deep in a huge array names its index.
        std::string bad = text;
        const std::string needle = "\"index\":77777,";
        const auto at = bad.find(needle);
        QVERIFY(at != std::string::npos);
        bad.replace(at, needle.size(), "\"index\":77777.5,");
        EXPECT_REFUSED(bad, "trials[77777].index", "77777.5 is not an integer");

        // A million-element array under an unknown key is skipped (read, then ignored).
        Json extra = base_document();
        extra["future_samples"] = Json(std::vector<int>(1000000, 7));
        EXPECT_LOADS(extra.dump());
    }

    void deep_nesting_is_refused_before_parsing() {
        // nlohmann's DOM parser is iterative, but walking, copying and destroying a document
        // recurse per level; the pre-scan refuses depth beyond kMaxJsonNesting before any of that.
        EXPECT_REFUSED(std::string(100000, '{') , "", "nested deeper than 64", "line 1, column 65");
        std::string objects;
        for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
        EXPECT_REFUSED(objects, "", "nested deeper than 64", "column 321", "byte 321");
        // Deep nesting where a value is expected, in an otherwise valid file.
        const std::string deep = std::string(65, '[') + "1" + std::string(65, ']');
        EXPECT_REFUSED(with_literal(base_document(), "/trials/0/values/loss/mean", deep), "", "nested deeper than 64");
        // 64 levels is within the limit: the value is then refused for its type.
        const std::string within = std::string(58, '[') + "1" + std::string(58, ']');
        EXPECT_REFUSED(with_literal(base_document(), "/trials/0/values/loss/mean", within), "trials[0].values.loss.mean",
                       "expected a number, got an array");
        // Unbalanced closers do not drive the depth negative and hide an opener.
        EXPECT_REFUSED(std::string(1000, ']') + std::string(65, '['), "", "nested deeper than 64");
    }

    void oversized_files_are_refused_from_their_size() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // A sparse 1 GiB file: refused from fstat, before anything is read or allocated.
        const std::string big = dir.filePath("colleague.sebo.json").toStdString();
        QVERIFY(make_sparse(big, std::uint64_t{1} << 30));
        try {
            (void)load_experiment(big);
            QFAIL("a 1 GiB file was read");
        } catch (const InputError& e) {
            QCOMPARE(qs(e.field()), QString("file"));
            QVERIFY2(qs(e.what()).contains(qs(big)) && qs(e.what()).contains("1073741824 bytes") &&
                         qs(e.what()).contains("over 256 MiB are refused"),
                     e.what());
        }

        // CSV sheets: 64 MiB, same rule, for space files and results sheets alike.
        const std::string sheet = dir.filePath("results.csv").toStdString();
        QVERIFY(make_sparse(sheet, std::uint64_t{1} << 30));
        const std::string message = error_of([&] { (void)read_text_file(sheet); });
        QVERIFY2(qs(message).startsWith(qs(sheet + ": 1073741824 bytes; files over 64 MiB are refused")), message.c_str());
        const std::string space = dir.filePath("space.csv").toStdString();
        QVERIFY(make_sparse(space, (std::uint64_t{64} << 20) + 1));
        QVERIFY(qs(error_of([&] { (void)load_space_file(space); })).contains("67108865 bytes"));
    }

    void space_csv_refuses_names_that_are_not_utf8() {
        // A sheet saved in Latin-1: the name would change on the next save (bad bytes become
        // U+FFFD), and two such names could become one, leaving a file that does not load.
        QCOMPARE(qs(error_of([] { (void)space_from_csv_text("name,lower,upper\ncaf\xE9,0,1\ncaf\xE8,0,1\n", "space.csv"); })),
                 QString("space.csv line 2, column name: 'caf\\xE9' is not UTF-8 text (byte 4); save the sheet as UTF-8"));
        QCOMPARE(qs(error_of([] { (void)space_from_csv_text("name,lower,upper,group\nx,0,1,\xFFgrp\n", "space.csv"); })),
                 QString("space.csv line 2, column group: '\\xFFgrp' is not UTF-8 text (byte 1); save the sheet as UTF-8"));
        // UTF-8 names (with a byte-order mark) are read unchanged.
        const SearchSpace space = space_from_csv_text("\xEF\xBB\xBFname,lower,upper\ncafé µ,0,1\n", "space.csv");
        QCOMPARE(space.parameter(0).name, std::string("café µ"));
    }

    void csv_numbers_refuse_non_finite_values() {
        for (const char* word : {"nan", "NaN", "inf", "-Infinity", "1e400", "-1e999"}) {
            const std::string expected = std::string("space.csv line 2, column lower: '") + word + "' is not a finite number";
            const std::string message =
                error_of([&] { (void)space_from_csv_text(std::string("name,lower,upper\nx,") + word + ",1\n", "space.csv"); });
            QCOMPARE(qs(message), qs(expected));
        }
        // Results: a non-finite objective or sem makes its row invalid, naming the column and value.
        Experiment e;
        Parameter x;
        x.name = "x";
        e.space = SearchSpace({x});
        e.outcomes = Outcomes::single("loss", false);
        Trial t;
        t.index = 0;
        t.parameters = {0.5};
        e.trials = {t};
        const CsvTable table = parse_csv_table("trial,loss,sem\n0,nan,\n0,1,inf\n0,1e400,\n", "results.csv");
        const ResultsMatch match = match_results(e, table);
        QCOMPARE(match.rows.size(), std::size_t{3});
        QCOMPARE(qs(match.rows[0].message), QString("column loss: 'nan' is not a finite number"));
        QCOMPARE(qs(match.rows[1].message), QString("column sem: 'inf' is not a finite number"));
        QCOMPARE(qs(match.rows[2].message), QString("column loss: '1e400' is not a finite number"));
        QVERIFY(match.results.empty());
        // Historical import: likewise, the row is reported and nothing is imported.
        const TrialImport import = import_trials(e, parse_csv_table("x,loss\n0.5,-inf\n", "past.csv"));
        QVERIFY(import.trials.empty());
        QCOMPARE(import.problems.size(), std::size_t{1});
        QCOMPARE(qs(import.problems[0]), QString("past.csv line 2, column loss: '-inf' is not a finite number"));
    }

    void csv_structure_errors() {
        // Truncated in a quoted field, and NUL bytes: errors or plain cells, never a crash.
        QCOMPARE(qs(error_of([] { (void)parse_csv_table("name,lower,upper\n\"x,0,1\n", "s.csv"); })),
                 QString("s.csv line 2: a quoted field is not closed (a \" is missing)"));
        const std::string nul("name,lower,upper\nx\0y,0,1\n", 25);
        QCOMPARE(space_from_csv_text(nul, "s.csv").parameter(0).name, std::string("x\0y", 3));
        QCOMPARE(qs(error_of([] { (void)space_from_csv_text("", "s.csv"); })),
                 QString("s.csv: the file is empty (expected a header row)"));
        QCOMPARE(qs(error_of([] { (void)space_from_csv_text("\xEF\xBB\xBF\r\n\r\n", "s.csv"); })),
                 QString("s.csv: the file is empty (expected a header row)"));
        // 100000 columns in one row: read, then refused for the unknown column names.
        std::string wide = "name,lower,upper";
        for (int i = 0; i < 100000; ++i) wide += ",c" + std::to_string(i);
        QVERIFY(qs(error_of([&] { (void)space_from_csv_text(wide + "\n", "s.csv"); })).startsWith("s.csv line 1, column c0: unknown column"));
    }
};

SEBO_TEST_MAIN(TestHostileFiles)
}  // namespace test_hostile_files
#include "test_hostile_files.moc"
