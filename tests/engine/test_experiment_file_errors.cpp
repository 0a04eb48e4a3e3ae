// Experiment files (SPEC §7): every malformed field, trial and outcome names its JSON path and the
// value in the InputError (test_experiment_file.cpp has the round trips, saves and versions).

#include "experiment_file_fixtures.h"
#include "test_main.h"

namespace test_experiment_file_errors {

using namespace sebo;
using namespace sebo::test::experiment_file;

class TestExperimentFileErrors : public QObject {
    Q_OBJECT
private slots:
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
};

SEBO_TEST_MAIN(TestExperimentFileErrors)
}  // namespace test_experiment_file_errors
#include "test_experiment_file_errors.moc"
