// Numerically hostile experiments through the public step API (run_step) with every
// model-based strategy: duplicated configurations, a constant objective, a single completed
// trial, objectives at 1e12 scale, parameter ranges 1e-9 wide, only failed trials, NaN from an
// evaluator, and exactly repeated noise-free observations (a singular kernel matrix). Whatever
// the data, a step either proposes configurations inside the space (finite, within bounds,
// integral where required) or stops with StepResult::Status::Failed and a message; it never
// throws, never records a NaN, and never leaves the experiment invalid. Objectives near ±1e300
// (whose squares overflow) once aborted in the standardizer; the training set now rescales them.

#include <QTemporaryDir>
#include <cmath>
#include <fstream>
#include <limits>

#include "evaluators/command_evaluator.h"
#include "experiment/model_step.h"
#include "experiment/model_strategy.h"
#include "experiment/runner.h"
#include "experiment/sobol_strategy.h"
#include "parameter_builders.h"
#include "test_main.h"
#include "test_support.h"

namespace test_numerical_faults {

using namespace sebo;

using sebo::test::continuous;

namespace {

// The model-based strategies under test; the SAAS ones use the MAP fit (seconds, not minutes),
// which goes through the same training set, acquisition and optimizer as NUTS.
struct StrategyCase {
    StrategyKind strategy;
    ModelKind model;
};

const StrategyCase kStrategies[] = {
    {StrategyKind::Gpei, ModelKind::Gp},
    {StrategyKind::Saasbo, ModelKind::SaasMap},
    {StrategyKind::SeboL0, ModelKind::SaasMap},
    {StrategyKind::EiIr, ModelKind::SaasMap},
    {StrategyKind::Bonsai, ModelKind::SaasMap},
};

// Four continuous parameters and one integer one: [0, 1]^2, [-5, 5], [1e-3, 1e3] on log scale,
// and an integer in [0, 10].
SearchSpace ordinary_space() {
    Parameter log_rate = continuous("rate", 1e-3, 1e3);
    log_rate.log_scale = true;
    Parameter count = continuous("count", 0.0, 10.0);
    count.kind = ParameterKind::Integer;
    return SearchSpace({continuous("x1", 0.0, 1.0), continuous("x2", 0.0, 1.0), continuous("offset", -5.0, 5.0),
                        log_rate, count});
}

// Small optimizer settings: the point is robustness, not quality, and every case runs 4 strategies.
Experiment make_experiment(SearchSpace space, const StrategyCase& c, int initial_trials = 4) {
    Experiment e;
    e.name = "numerical faults";
    e.space = std::move(space);
    e.evaluator.kind = EvaluatorSpec::Kind::Manual;
    e.method.strategy = c.strategy;
    e.method.model = c.model;
    e.method.initial_trials = initial_trials;
    e.method.budget = 100;
    e.method.raw_samples = 128;
    e.method.restarts = 3;
    e.method.homotopy_steps = 5;
    e.seed = 11;
    return e;
}

Trial completed(int index, std::vector<double> parameters, double objective, std::optional<double> sem = std::nullopt) {
    Trial t;
    t.index = index;
    t.parameters = std::move(parameters);
    t.status = TrialStatus::Completed;
    t.values = {{"objective", {objective, sem}}};
    t.generator = "sobol";
    return t;
}

Trial failed(int index, std::vector<double> parameters) {
    Trial t;
    t.index = index;
    t.parameters = std::move(parameters);
    t.status = TrialStatus::Failed;
    t.error = "the measurement failed";
    t.generator = "sobol";
    return t;
}

// `count` Sobol configurations of the space (user units, snapped).
std::vector<std::vector<double>> sobol_configurations(const Experiment& e, int count) {
    Experiment probe = e;
    probe.trials.clear();
    return next_sobol_points(probe, count);
}

// What one step did, for the assertions and the failure messages.
struct StepReport {
    bool threw = false;
    std::string what;
    StepResult result;
    std::vector<Trial> new_trials;
};

// Runs one step (manual evaluation: the new trials stay pending, unless an evaluator is given).
StepReport step(Experiment& e, Evaluator* evaluator = nullptr, int count = 1) {
    StepReport report;
    try {
        auto strategy = make_strategy(e.method);
        report.result = run_step(e, *strategy, evaluator, StepControl{}, count);
        for (int index : report.result.new_trials) report.new_trials.push_back(*e.find_trial(index));
    } catch (const std::exception& error) {
        report.threw = true;
        report.what = error.what();
    }
    return report;
}

QString label(const Experiment& e, const char* scenario) {
    return QString("%1 / %2 / %3").arg(scenario, to_string(e.method.strategy), to_string(e.method.resolved_model()));
}

// The contract of a step on hostile data: proposals inside the space, or a clear failure.
// Returns whether the step proposed points (so a caller can insist on it where it must).
bool check_step(const Experiment& e, const StepReport& r, const char* scenario) {
    const QString where = label(e, scenario);
    if (r.threw) {
        QTest::qFail(qPrintable(where + ": the step threw: " + QString::fromStdString(r.what)), __FILE__, __LINE__);
        return false;
    }
    if (const auto error = e.validate()) {
        QTest::qFail(qPrintable(where + ": the experiment is invalid after the step: " + QString::fromStdString(*error)),
                     __FILE__, __LINE__);
        return false;
    }
    switch (r.result.status) {
    case StepResult::Status::Completed: break;
    case StepResult::Status::Failed:
        if (r.result.message.empty())
            QTest::qFail(qPrintable(where + ": the step failed without a message"), __FILE__, __LINE__);
        if (!r.new_trials.empty())
            QTest::qFail(qPrintable(where + ": a failed step added trials"), __FILE__, __LINE__);
        return false;
    default:
        QTest::qFail(qPrintable(where + ": unexpected status " + QString::number(static_cast<int>(r.result.status)) +
                                " (" + QString::fromStdString(r.result.message) + ")"),
                     __FILE__, __LINE__);
        return false;
    }
    if (r.new_trials.empty()) {
        QTest::qFail(qPrintable(where + ": a completed step added no trial"), __FILE__, __LINE__);
        return false;
    }
    for (const Trial& t : r.new_trials) {
        for (double v : t.parameters)
            if (!std::isfinite(v)) {
                QTest::qFail(qPrintable(where + ": a proposed value is not finite"), __FILE__, __LINE__);
                return false;
            }
        if (const auto error = e.space.check_point(t.parameters)) {
            QTest::qFail(qPrintable(where + ": the proposal is outside the space: " + QString::fromStdString(*error)),
                         __FILE__, __LINE__);
            return false;
        }
        for (const auto& [metric, m] : t.values)
            if (!std::isfinite(m.mean)) {
                QTest::qFail(qPrintable(where + ": a non-finite value was recorded"), __FILE__, __LINE__);
                return false;
            }
    }
    return true;
}

// A step that proposed must have used the model (the data are enough for one).
void check_model_used(const Experiment& e, const StepReport& r, const char* scenario) {
    if (r.result.status != StepResult::Status::Completed) return;
    for (const Trial& t : r.new_trials)
        if (t.generator != to_string(e.method.strategy) &&
            !(is_sebo(e.method.strategy) &&
              (t.generator == dense_start_generator(e.method.strategy, DenseStart::ExpectedImprovement) ||
               t.generator == dense_start_generator(e.method.strategy, DenseStart::Thompson))))
            QTest::qFail(qPrintable(label(e, scenario) + ": proposed by " + QString::fromStdString(t.generator)), __FILE__,
                         __LINE__);
}

// Returns ok = true with NaN (or ±infinity): an evaluator that forgot to check its result.
class CarelessEvaluator final : public Evaluator {
public:
    explicit CarelessEvaluator(double value, std::optional<double> sem = std::nullopt) : value_(value), sem_(sem) {}
    EvaluationOutcome evaluate(const Trial&, const StepControl&) override {
        EvaluationOutcome outcome;
        outcome.ok = true;
        outcome.values = {{"objective", {value_, sem_}}};
        return outcome;
    }

private:
    double value_;
    std::optional<double> sem_;
};

}  // namespace

class TestNumericalFaults : public QObject {
    Q_OBJECT

private slots:
    // The same configuration many times, with equal and with different observed values.
    void duplicatedPoints() {
        for (const StrategyCase& c : kStrategies) {
            for (const bool equal_values : {true, false}) {
                Experiment e = make_experiment(ordinary_space(), c);
                const std::vector<double> x = sobol_configurations(e, 1).front();
                for (int i = 0; i < 10; ++i) e.trials.push_back(completed(i, x, equal_values ? 2.5 : 2.5 + 0.1 * (i % 3)));
                const StepReport r = step(e);
                QVERIFY2(check_step(e, r, equal_values ? "duplicated points, equal values" : "duplicated points"),
                         qPrintable(label(e, "duplicated points")));
                check_model_used(e, r, "duplicated points");
            }
        }
    }

    // Duplicates with a known zero standard error: the noise floor is the only thing keeping the
    // kernel matrix positive definite (ten identical rows), so this is where a Cholesky fails first.
    void exactDuplicatesWithoutNoise() {
        for (const StrategyCase& c : kStrategies) {
            Experiment e = make_experiment(ordinary_space(), c);
            const auto xs = sobol_configurations(e, 2);
            for (int i = 0; i < 12; ++i) e.trials.push_back(completed(i, xs[static_cast<std::size_t>(i % 2)], i % 2 ? 1.0 : -1.0, 0.0));
            const StepReport r = step(e);
            QVERIFY2(check_step(e, r, "exact duplicates, sem 0"), qPrintable(label(e, "exact duplicates")));
            check_model_used(e, r, "exact duplicates");
        }
    }

    void constantObjective() {
        for (const StrategyCase& c : kStrategies) {
            Experiment e = make_experiment(ordinary_space(), c);
            const auto xs = sobol_configurations(e, 10);
            for (int i = 0; i < 10; ++i) e.trials.push_back(completed(i, xs[static_cast<std::size_t>(i)], 7.0));
            StepReport r = step(e, nullptr, 2);  // a batch: the second point sees a fantasy
            QVERIFY2(check_step(e, r, "constant objective"), qPrintable(label(e, "constant objective")));
            check_model_used(e, r, "constant objective");
            QCOMPARE(r.new_trials.size(), std::size_t{2});
            QVERIFY2(r.new_trials[0].parameters != r.new_trials[1].parameters,
                     qPrintable(label(e, "constant objective: the batch repeats its first point")));
        }
    }

    // One completed trial (the others failed): too little for a model, so the strategy keeps
    // proposing quasi-random points rather than failing.
    void singleCompletedTrial() {
        for (const StrategyCase& c : kStrategies) {
            Experiment e = make_experiment(ordinary_space(), c, /*initial_trials=*/1);
            const auto xs = sobol_configurations(e, 6);
            e.trials.push_back(completed(0, xs[0], 3.0));
            for (int i = 1; i < 6; ++i) e.trials.push_back(failed(i, xs[static_cast<std::size_t>(i)]));
            const StepReport r = step(e);
            QVERIFY2(check_step(e, r, "single completed trial"), qPrintable(label(e, "single completed trial")));
            QCOMPARE(r.new_trials.front().generator, std::string("sobol"));
        }
    }

    void allTrialsFailed() {
        for (const StrategyCase& c : kStrategies) {
            Experiment e = make_experiment(ordinary_space(), c);
            const auto xs = sobol_configurations(e, 12);
            for (int i = 0; i < 12; ++i) e.trials.push_back(failed(i, xs[static_cast<std::size_t>(i)]));
            const StepReport r = step(e);
            QVERIFY2(check_step(e, r, "all trials failed"), qPrintable(label(e, "all trials failed")));
            QCOMPARE(r.new_trials.front().generator, std::string("sobol"));
            // Not a repeat of a failed configuration.
            for (const auto& x : xs) QVERIFY(r.new_trials.front().parameters != x);
        }
    }

    // Objectives around 1e12 with differences of order 1e9 (and sem at that scale), and a set
    // with one value at 1e12 among values of order 1: standardization and the warp must cope.
    void hugeObjectives() {
        for (const StrategyCase& c : kStrategies) {
            for (const bool outlier : {false, true}) {
                Experiment e = make_experiment(ordinary_space(), c);
                const auto xs = sobol_configurations(e, 10);
                for (int i = 0; i < 10; ++i) {
                    const auto& x = xs[static_cast<std::size_t>(i)];
                    const double shape = (x[0] - 0.3) * (x[0] - 0.3) + 0.5 * x[1] + 0.01 * x[2];
                    const double value = outlier ? (i == 3 ? 1e12 : shape) : 1e12 + 1e9 * shape;
                    e.trials.push_back(completed(i, x, value, outlier ? std::nullopt : std::optional<double>(1e8)));
                }
                const StepReport r = step(e, nullptr, 2);
                QVERIFY2(check_step(e, r, outlier ? "one objective at 1e12" : "objectives at 1e12"),
                         qPrintable(label(e, "huge objectives")));
                check_model_used(e, r, "huge objectives");
            }
        }
    }

    // At the edge of double: values near ±1e300 (their squares overflow) and tiny ones.
    void extremeObjectives() {
        for (const StrategyCase& c : kStrategies) {
            for (const double scale : {1e300, 1e-300}) {
                Experiment e = make_experiment(ordinary_space(), c);
                const auto xs = sobol_configurations(e, 10);
                for (int i = 0; i < 10; ++i) {
                    const auto& x = xs[static_cast<std::size_t>(i)];
                    e.trials.push_back(completed(i, x, scale * (x[0] - 0.5 + 0.3 * x[1]) * 1.5));
                }
                const StepReport r = step(e, nullptr, 2);
                QVERIFY2(check_step(e, r, scale > 1 ? "objectives near 1e300" : "objectives near 1e-300"),
                         qPrintable(label(e, "extreme objectives")));
                check_model_used(e, r, "extreme objectives");
            }
        }
    }

    // Every parameter 1e-9 wide (around 1, and from 0), so user units and the unit cube differ
    // by 1e9 and a rounding error of the map can step outside the bounds.
    void tinyRanges() {
        for (const StrategyCase& c : kStrategies) {
            SearchSpace space({continuous("a", 1.0, 1.0 + 1e-9), continuous("b", 1.0, 1.0 + 1e-9), continuous("c", 0.0, 1e-9),
                               continuous("d", -1e-9, 0.0)});
            Experiment e = make_experiment(std::move(space), c);
            const auto xs = sobol_configurations(e, 10);
            for (int i = 0; i < 10; ++i) {
                const auto& x = xs[static_cast<std::size_t>(i)];
                QVERIFY(!e.space.check_point(x));
                e.trials.push_back(completed(i, x, 1e9 * (x[0] - 1.0) - 2e9 * x[2] + std::sin(1e9 * x[3])));
            }
            const StepReport r = step(e, nullptr, 2);
            QVERIFY2(check_step(e, r, "ranges 1e-9 wide"), qPrintable(label(e, "tiny ranges")));
            check_model_used(e, r, "tiny ranges");
            QCOMPARE(r.result.status, StepResult::Status::Completed);
        }
    }

    // An evaluator that reports NaN or infinity as a success: the trial must be recorded as
    // failed with a reason, never as a completed trial with a non-finite objective; and the
    // next model step still works.
    void nanFromEvaluatorBecomesFailedTrial() {
        for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity()}) {
            Experiment e = make_experiment(ordinary_space(), kStrategies[0]);
            CarelessEvaluator careless(bad);
            const StepReport r = step(e, &careless);
            QVERIFY(check_step(e, r, "non-finite objective from an evaluator"));
            const Trial& t = r.new_trials.front();
            QCOMPARE(t.status, TrialStatus::Failed);
            QVERIFY(t.values.empty());
            QVERIFY2(t.error.find("not a finite number") != std::string::npos, t.error.c_str());
        }
        // A finite objective with a NaN or negative standard error: failed as well.
        for (const double bad_sem : {std::numeric_limits<double>::quiet_NaN(), -1.0}) {
            Experiment e = make_experiment(ordinary_space(), kStrategies[0]);
            CarelessEvaluator careless(1.0, bad_sem);
            const StepReport r = step(e, &careless);
            QVERIFY(check_step(e, r, "bad standard error from an evaluator"));
            QCOMPARE(r.new_trials.front().status, TrialStatus::Failed);
            QVERIFY2(r.new_trials.front().error.find("standard error") != std::string::npos, r.new_trials.front().error.c_str());
        }
        // Mixed: after 10 trials of which half reported NaN, every strategy proposes in bounds.
        for (const StrategyCase& c : kStrategies) {
            Experiment e = make_experiment(ordinary_space(), c);
            // Ten quasi-random steps through the careless evaluator, every other one NaN.
            for (int i = 0; i < 10; ++i) {
                CarelessEvaluator evaluator(i % 2 ? std::numeric_limits<double>::quiet_NaN() : 0.5 * i);
                Experiment sobol = e;
                sobol.method.strategy = StrategyKind::Sobol;
                const StepReport r = step(sobol, &evaluator);
                QVERIFY(check_step(sobol, r, "sobol step with NaN"));
                e.trials = sobol.trials;
            }
            QCOMPARE(e.count(TrialStatus::Failed), 5);
            QCOMPARE(e.count(TrialStatus::Completed), 5);
            const StepReport r = step(e);
            QVERIFY2(check_step(e, r, "half the trials NaN"), qPrintable(label(e, "half NaN")));
            check_model_used(e, r, "half NaN");
        }
    }

    // The external-command evaluator: a program printing NaN (not JSON) or a huge number
    // (beyond a double) yields a failed trial with the reason.
    void nanFromCommandBecomesFailedTrial() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::pair<const char*, const char*> outputs[] = {
            {"nan", "{\"objective\": NaN}"},
            {"overflow", "{\"objective\": 1e999}"},
            {"string", "{\"objective\": \"nan\"}"},
        };
        for (const auto& [name, output] : outputs) {
            const std::string script = dir.filePath(QString("%1.sh").arg(name)).toStdString();
            {
                std::ofstream out(script);
                out << "#!/bin/sh\ncat > /dev/null\necho '" << output << "'\n";
            }
            QVERIFY(QFile::setPermissions(QString::fromStdString(script), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
            Experiment e = make_experiment(ordinary_space(), kStrategies[0]);
            e.evaluator.kind = EvaluatorSpec::Kind::Command;
            e.evaluator.command = {script};
            e.evaluator.timeout_seconds = 30;
            CommandEvaluator evaluator(e.evaluator, e.space, e.outcomes.metrics);
            const StepReport r = step(e, &evaluator);
            QVERIFY2(check_step(e, r, name), name);
            const Trial& t = r.new_trials.front();
            QCOMPARE(t.status, TrialStatus::Failed);
            QVERIFY(t.values.empty());
            QVERIFY2(!t.error.empty(), name);
        }
    }
};

SEBO_TEST_MAIN(TestNumericalFaults)
}  // namespace test_numerical_faults
#include "test_numerical_faults.moc"
