// Metrics, objectives and outcome constraints (issue 13): their rules, their short text forms
// (flags), feasibility of trials, and what the runner records from an evaluator that reports
// several metrics — or the wrong ones.

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <limits>

#include "core/input_error.h"
#include "evaluators/command_evaluator.h"
#include "experiment/runner.h"
#include "experiment/sobol_strategy.h"
#include "experiment/strategy.h"
#include "io/outcome_text.h"
#include "test_main.h"

namespace test_outcomes {

using namespace sebo;

namespace {

// throughput (max, threshold 900), p99_ms (min); p99_ms <= 50 and cost >= 1; cost and notes.
Outcomes service_outcomes() {
    Outcomes o;
    o.metrics = {"throughput", "p99_ms", "cost", "notes"};
    o.objectives = {{"throughput", false, 900.0}, {"p99_ms", true, std::nullopt}};
    o.constraints = {{"p99_ms", ConstraintSense::AtMost, 50.0}, {"cost", ConstraintSense::AtLeast, 1.0}};
    return o;
}

Experiment service_experiment() {
    Experiment e;
    Parameter x;
    x.name = "x";
    x.lower = 0.0;
    x.upper = 1.0;
    e.space = SearchSpace({x});
    e.outcomes = service_outcomes();
    e.method.strategy = StrategyKind::Sobol;
    e.method.budget = 20;
    return e;
}

Trial completed(int index, MetricValues values) {
    Trial t;
    t.index = index;
    t.parameters = {0.5};
    t.status = TrialStatus::Completed;
    t.values = std::move(values);
    return t;
}

std::string error_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

// Reports exactly the values it was given, as a success.
class FixedEvaluator final : public Evaluator {
public:
    explicit FixedEvaluator(MetricValues values) : values_(std::move(values)) {}
    EvaluationOutcome evaluate(const Trial&, const StepControl&) override {
        EvaluationOutcome outcome;
        outcome.ok = true;
        outcome.values = values_;
        return outcome;
    }

private:
    MetricValues values_;
};

}  // namespace

class TestOutcomes : public QObject {
    Q_OBJECT

private slots:
    void roles_of_the_metrics() {
        const Outcomes o = service_outcomes();
        QVERIFY(!o.validate());
        QVERIFY(o.objective_on("p99_ms") && o.objective_on("p99_ms")->minimize);
        QVERIFY(!o.objective_on("cost"));
        QVERIFY(o.is_constrained("p99_ms") && o.is_constrained("cost") && !o.is_constrained("notes"));
        QVERIFY(o.is_tracked("notes") && !o.is_tracked("cost") && !o.is_tracked("unknown"));
        QCOMPARE(o.modelled_metrics(), (std::vector<std::string>{"throughput", "p99_ms", "cost"}));
        QCOMPARE(o.summary(), std::string("throughput (max, threshold 900), p99_ms (min); p99_ms <= 50; cost >= 1; tracked: notes"));
        QCOMPARE(o.constraints[0].text(), std::string("p99_ms <= 50"));
        // The bound itself is allowed on both sides.
        QVERIFY(o.constraints[0].holds(50.0) && !o.constraints[0].holds(50.000000000000007));
        QVERIFY(o.constraints[1].holds(1.0) && !o.constraints[1].holds(0.999));
        QCOMPARE(o.objectives[1].to_utility(40.0), -40.0);
        QCOMPARE(o.objectives[1].from_utility(-40.0), 40.0);
    }

    void validation_names_the_path() {
        const auto error = [](const std::function<void(Outcomes&)>& change) {
            Outcomes o = service_outcomes();
            change(o);
            const auto e = o.validate();
            return e ? *e : std::string("(valid)");
        };
        QCOMPARE(error([](Outcomes& o) { o.objectives.clear(); }), std::string("objectives: an experiment needs at least one objective"));
        QCOMPARE(error([](Outcomes& o) {
                     o.metrics = {"a", "b", "c", "d", "e"};
                     o.constraints.clear();
                     o.objectives = {{"a", false, {}}, {"b", false, {}}, {"c", false, {}}, {"d", false, {}}, {"e", false, {}}};
                 }),
                 std::string("objectives: 5 objectives; at most 4 are possible"));
        QCOMPARE(error([](Outcomes& o) { o.objectives.push_back({"throughput", true, {}}); }),
                 std::string("objectives[2].metric: 'throughput' is already objectives[0]; a metric is one objective at most"));
        QCOMPARE(error([](Outcomes& o) { o.objectives[1].metric = "latency"; }),
                 std::string("objectives[1].metric: unknown metric 'latency'; the metrics are 'throughput', 'p99_ms', 'cost', "
                             "'notes'"));
        QCOMPARE(error([](Outcomes& o) { o.constraints[1].metric = "price"; }),
                 std::string("constraints[1].metric: unknown metric 'price'; the metrics are 'throughput', 'p99_ms', 'cost', "
                             "'notes'"));
        QCOMPARE(error([](Outcomes& o) { o.constraints[0].bound = std::nan(""); }), std::string("constraints[0].bound: nan is not a finite number"));
        QCOMPARE(error([](Outcomes& o) { o.objectives[0].threshold = INFINITY; }),
                 std::string("objectives[0].threshold: inf is not a finite number"));
        QCOMPARE(error([](Outcomes& o) { o.metrics.push_back("cost"); }), std::string("metrics[4]: the metric 'cost' is listed twice"));
        QCOMPARE(error([](Outcomes& o) { o.metrics[3].clear(); }), std::string("metrics[3]: a metric name must not be empty"));
        // Four objectives are fine; a constraint may be on an objective.
        QCOMPARE(error([](Outcomes& o) { o.objectives = {{"throughput", false, {}}, {"p99_ms", false, {}}, {"cost", false, {}}, {"notes", false, {}}}; }), std::string("(valid)"));
    }

    void text_forms() {
        Objective o = parse_objective_text("p99_ms:min", "--objective");
        QCOMPARE(o.metric, std::string("p99_ms"));
        QVERIFY(o.minimize);
        QVERIFY(!parse_objective_text(" throughput ", "--objective").minimize);
        QVERIFY(!parse_objective_text("throughput:max", "--objective").minimize);
        // Only a last ":min" or ":max" is a direction.
        QCOMPARE(parse_objective_text("db:latency", "--objective").metric, std::string("db:latency"));
        QCOMPARE(parse_objective_text("a:min:max", "--objective").metric, std::string("a:min"));
        QCOMPARE(error_of([] { parse_objective_text(":min", "--objective"); }),
                 std::string("--objective: ':min' has no metric name; expected NAME, NAME:max or NAME:min"));

        OutcomeConstraint c = parse_constraint_text(" p99_ms <= 50 ", "--constraint");
        QCOMPARE(c.metric, std::string("p99_ms"));
        QCOMPARE(c.sense, ConstraintSense::AtMost);
        QCOMPARE(c.bound, 50.0);
        c = parse_constraint_text("cost>=-1e-3", "--constraint");
        QCOMPARE(c.sense, ConstraintSense::AtLeast);
        QCOMPARE(c.bound, -1e-3);
        QCOMPARE(parse_constraint_text("a<=b<=2", "--constraint").metric, std::string("a<=b"));
        QCOMPARE(error_of([] { parse_constraint_text("p99_ms < 50", "--constraint"); }),
                 std::string("--constraint: 'p99_ms < 50' is not a constraint; expected NAME<=BOUND or NAME>=BOUND"));
        QCOMPARE(error_of([] { parse_constraint_text("p99_ms <= fifty", "--constraint"); }),
                 std::string("--constraint: 'fifty' in 'p99_ms <= fifty' is not a number"));
        QCOMPARE(error_of([] { parse_constraint_text("p99_ms <= nan", "--constraint"); }),
                 std::string("--constraint: 'nan' in 'p99_ms <= nan' is not a finite number"));
        QCOMPARE(error_of([] { parse_constraint_text("p99_ms <=", "--constraint"); }),
                 std::string("--constraint: 'p99_ms <=' has no bound after the operator"));
        QCOMPARE(error_of([] { parse_constraint_text("<= 5", "--constraint"); }),
                 std::string("--constraint: '<= 5' has no metric name; expected NAME<=BOUND or NAME>=BOUND"));

        const auto [name, value] = parse_named_number("p99_ms = 41.5", "--value");
        QCOMPARE(name, std::string("p99_ms"));
        QCOMPARE(value, 41.5);
        QCOMPARE(parse_named_number("a=b=3", "--value").first, std::string("a=b"));
        QCOMPARE(error_of([] { parse_named_number("p99_ms", "--threshold"); }),
                 std::string("--threshold: 'p99_ms' is not NAME=VALUE"));
        QCOMPARE(error_of([] { parse_named_number("p99_ms=1e999", "--threshold"); }),
                 std::string("--threshold: '1e999' in 'p99_ms=1e999' is not a finite number"));
    }

    // Feasible when every constraint holds on the recorded values; a constrained metric that was
    // not recorded makes the feasibility unknown, which counts as infeasible; exclusion excludes
    // every metric.
    void feasibility_of_trials() {
        Experiment e = service_experiment();
        e.trials = {completed(0, {{"throughput", {1000, std::nullopt}}, {"p99_ms", {40, std::nullopt}}, {"cost", {2, std::nullopt}}}),
                    completed(1, {{"throughput", {1200, std::nullopt}}, {"p99_ms", {55, std::nullopt}}, {"cost", {2, std::nullopt}}}),
                    completed(2, {{"throughput", {1100, std::nullopt}}, {"p99_ms", {45, std::nullopt}}}),
                    completed(3, {{"throughput", {900, 3.0}}, {"p99_ms", {50, 1.0}}, {"cost", {1, std::nullopt}},
                                  {"notes", {7, std::nullopt}}})};
        Trial pending;
        pending.index = 4;
        pending.parameters = {0.1};
        e.trials.push_back(pending);
        QVERIFY(!e.validate());
        QCOMPARE(e.feasibility(e.trials[0]), Feasibility::Feasible);
        QCOMPARE(e.feasibility(e.trials[1]), Feasibility::Infeasible);
        QCOMPARE(e.feasibility(e.trials[2]), Feasibility::Unknown);
        QCOMPARE(e.feasibility(e.trials[3]), Feasibility::Feasible);
        QCOMPARE(e.feasibility(e.trials[4]), Feasibility::Unknown);
        QVERIFY(e.feasible(e.trials[0]) && !e.feasible(e.trials[1]) && !e.feasible(e.trials[2]) && !e.feasible(e.trials[4]));
        QCOMPARE(e.feasible_count(), 2);
        QCOMPARE(e.utility(e.trials[3], 1), std::optional<double>(-50.0));
        QCOMPARE(e.objective_value(e.trials[3], 1), std::optional<double>(50.0));
        QCOMPARE(e.objective_measurement(e.trials[3])->sem, std::optional<double>(3.0));
        e.trials[0].exclusion = TrialExclusion{"sentinel", ""};
        QVERIFY(!e.analyzed(e.trials[0]) && !e.feasible(e.trials[0]));
        QCOMPARE(e.utility(e.trials[0], 1), std::optional<double>());
        QCOMPARE(e.feasible_count(), 1);
        // Without constraints every completed trial is feasible.
        e.outcomes.constraints.clear();
        QCOMPARE(e.feasibility(e.trials[2]), Feasibility::Feasible);

        // The experiment's own checks name the path of the file.
        Experiment bad = service_experiment();
        bad.trials = {completed(0, {{"throughput", {1000, std::nullopt}}})};
        QCOMPARE(*bad.validate(), std::string("trials[0].values.p99_ms: a completed trial needs a value of every objective"));
        bad.trials[0].values["p99_ms"] = {3, -1.0};
        QCOMPARE(*bad.validate(), std::string("trials[0].values.p99_ms.sem: -1 is not a finite non-negative number"));
        bad.trials[0].values["p99_ms"] = {std::nan(""), std::nullopt};
        QCOMPARE(*bad.validate(), std::string("trials[0].values.p99_ms.mean: nan is not a finite number"));
        bad.trials[0].values["p99_ms"] = {3, std::nullopt};
        bad.trials[0].values["latency"] = {3, std::nullopt};
        QCOMPARE(*bad.validate(), std::string("trials[0].values.latency: unknown metric 'latency'; the metrics are 'throughput', "
                                              "'p99_ms', 'cost', 'notes'"));
    }

    // The runner records what an evaluator reports only when it fits the experiment: every
    // metric, no other, finite values and standard errors. A missing or unknown metric is a
    // misreport (clients stop the run); a non-finite value is an ordinary failed trial.
    void runner_checks_the_reported_metrics() {
        const MetricValues all = {{"throughput", {1000, 5.0}}, {"p99_ms", {40, std::nullopt}}, {"cost", {2, std::nullopt}},
                                  {"notes", {1, std::nullopt}}};
        struct Case {
            MetricValues values;
            const char* error;  // empty: completed
            bool misreport;
        };
        MetricValues no_cost = all, no_notes = all, extra = all, nan_value = all, bad_sem = all;
        no_cost.erase("cost");
        no_notes.erase("notes");
        extra["latency"] = {1, std::nullopt};
        nan_value["p99_ms"].mean = std::numeric_limits<double>::quiet_NaN();
        bad_sem["throughput"].sem = -1.0;
        const Case cases[] = {
            {all, "", false},
            {no_cost, "the evaluator did not report the metric 'cost' (constrained: cost >= 1)", true},
            {no_notes, "the evaluator did not report the metric 'notes' (a tracked metric)", true},
            {extra, "the evaluator reported the metric 'latency', which the experiment does not have (its metrics: "
                    "'throughput', 'p99_ms', 'cost', 'notes')",
             true},
            {nan_value, "the evaluator reported p99_ms = nan, which is not a finite number", false},
            {bad_sem, "the evaluator reported the standard error -1 of throughput, which is not a finite number >= 0", false},
        };
        for (const Case& c : cases) {
            Experiment e = service_experiment();
            SobolStrategy sobol;
            FixedEvaluator evaluator(c.values);
            const StepResult step = run_step(e, sobol, &evaluator, StepControl{}, 2);
            QCOMPARE(step.status, StepResult::Status::Completed);
            QCOMPARE(e.trials.size(), std::size_t{2});
            for (const Trial& t : e.trials) {
                if (std::string(c.error).empty()) {
                    QCOMPARE(t.status, TrialStatus::Completed);
                    QVERIFY(t.values == c.values);
                } else {
                    QCOMPARE(t.status, TrialStatus::Failed);
                    QCOMPARE(t.error, std::string(c.error));
                    QVERIFY(t.values.empty());
                }
            }
            QCOMPARE(step.misreport.has_value(), c.misreport);
            if (c.misreport) QCOMPARE(*step.misreport, "trial 0: " + std::string(c.error));
            QVERIFY(!e.validate());
        }
    }

    // End to end with the user's own command: {"metrics": {...}} becomes the trial's values; a
    // command that never reports the constrained metric fails every trial naming it.
    void command_reporting_several_metrics() {
        QTemporaryDir dir;
        const auto script = [&](const char* name, const char* output) {
            const QString path = dir.filePath(name);
            std::ofstream out(path.toStdString());
            out << "cat > /dev/null\necho '" << output << "'\n";
            return path.toStdString();
        };
        Experiment e = service_experiment();
        e.evaluator.kind = EvaluatorSpec::Kind::Command;
        e.evaluator.command = {"/bin/sh", script("ok.sh", R"({"metrics": {"throughput": 1234.5, "p99_ms": {"mean": 41.2, "sem": 0.8}, "cost": 3, "notes": 0}})")};
        CommandEvaluator good(e.evaluator, e.space, e.outcomes.metrics);
        SobolStrategy sobol;
        StepResult step = run_step(e, sobol, &good, StepControl{}, 1);
        QVERIFY(!step.misreport);
        const Trial& t = e.trials.front();
        QCOMPARE(t.status, TrialStatus::Completed);
        QCOMPARE(t.values.at("p99_ms"), (Measurement{41.2, 0.8}));
        QCOMPARE(t.values.at("cost"), (Measurement{3.0, std::nullopt}));
        QVERIFY(e.feasible(t));

        e.evaluator.command = {"/bin/sh", script("no_cost.sh", R"({"metrics": {"throughput": 1, "p99_ms": 2, "notes": 0}})")};
        CommandEvaluator forgetful(e.evaluator, e.space, e.outcomes.metrics);
        step = run_step(e, sobol, &forgetful, StepControl{}, 1);
        QVERIFY(step.misreport);
        QCOMPARE(*step.misreport, std::string("trial 1: the evaluator did not report the metric 'cost' (constrained: cost >= 1)"));
        QCOMPARE(e.trials.back().status, TrialStatus::Failed);
    }
};

SEBO_TEST_MAIN(TestOutcomes)
}  // namespace test_outcomes
#include "test_outcomes.moc"
