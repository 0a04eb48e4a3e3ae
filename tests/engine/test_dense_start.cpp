// The dense start under noise (issue 30; docs/method.md §13, MethodSettings::dense_steps): while
// a SEBO step uses the noisy acquisition, the trials after the initial design up to dense_steps
// are proposed by the noisy EI without sparsity — the candidate SAASBO's step proposes from the
// same experiment — and marked "(dense start)" in their generator; after them, or with the
// measured-values acquisition, or with dense_steps 0, SEBO's own acquisition proposes.
#include "experiment/runner.h"
#include "io/experiment_file.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_dense_start {

using namespace sebo;

namespace {

// Hartmann6 among 12 parameters with noise of sd 0.3 (10 % of its range): the status quo and 7
// Sobol trials, measured.
Experiment initial_design(StrategyKind strategy, NoisyAcquisition mode, int dense_steps) {
    ProblemSpec spec;
    spec.name = "hartmann6";
    spec.dimension = 12;
    spec.noise["*"] = 0.3;
    MethodSettings method;
    method.strategy = strategy;
    method.initial_trials = 8;
    method.budget = 40;
    method.status_quo_first = true;
    method.noisy_acquisition = mode;
    method.dense_steps = dense_steps;
    Experiment e = make_problem_experiment(spec, method, 3);
    ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
    auto s = make_strategy(e.method);
    while (static_cast<int>(e.trials.size()) < method.initial_trials)
        if (run_step(e, *s, &evaluator, StepControl{}).status != StepResult::Status::Completed) break;
    return e;
}

// One step of the experiment's strategy, measured; the new trial.
Trial step(Experiment& e) {
    ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
    auto s = make_strategy(e.method);
    const StepResult r = run_step(e, *s, &evaluator, StepControl{});
    if (r.status != StepResult::Status::Completed) qFatal("step failed: %s", r.message.c_str());
    return e.trials.back();
}

}  // namespace

class TestDenseStart : public QObject {
    Q_OBJECT
private slots:
    void a_dense_step_is_saasbos_candidate() {
        Experiment sebo = initial_design(StrategyKind::SeboL0, NoisyAcquisition::On, 15);
        Experiment saasbo = initial_design(StrategyKind::Saasbo, NoisyAcquisition::On, 15);
        QCOMPARE(sebo.trials.size(), std::size_t{8});
        const Trial dense = step(sebo);
        const Trial reference = step(saasbo);
        QCOMPARE(dense.generator, std::string("sebo-l0 (dense start)"));
        QCOMPARE(reference.generator, std::string("saasbo"));
        QCOMPARE(dense.parameters.size(), reference.parameters.size());
        for (std::size_t i = 0; i < dense.parameters.size(); ++i) QCOMPARE(dense.parameters[i], reference.parameters[i]);
        // Dense: SAASBO's candidate changes most of the 12 parameters.
        QVERIFY2(sebo.sparsity(dense) >= 6, std::to_string(sebo.sparsity(dense)).c_str());
    }

    void sebos_own_acquisition_outside_the_dense_start() {
        // dense_steps 0, the measured-values acquisition, and the step after the last dense one
        // are SEBO's own steps.
        Experiment off = initial_design(StrategyKind::SeboL0, NoisyAcquisition::On, 0);
        QCOMPARE(step(off).generator, std::string("sebo-l0"));
        Experiment measured = initial_design(StrategyKind::SeboL0, NoisyAcquisition::Off, 15);
        QCOMPARE(step(measured).generator, std::string("sebo-l0"));
        Experiment short_start = initial_design(StrategyKind::SeboL0, NoisyAcquisition::On, 2);
        QCOMPARE(step(short_start).generator, std::string("sebo-l0 (dense start)"));
        QCOMPARE(step(short_start).generator, std::string("sebo-l0 (dense start)"));
        QCOMPARE(step(short_start).generator, std::string("sebo-l0"));
    }

    void files_of_version_7_have_no_dense_start() {
        // A version-7 reader ignored "dense_steps": every SEBO step of such a file was sparse, and
        // a resumed run continues so. A new file keeps its setting.
        Experiment e = initial_design(StrategyKind::SeboL0, NoisyAcquisition::Auto, 9);
        std::string text = experiment_to_json_text(e);
        QCOMPARE(experiment_from_json_text(text).method.dense_steps, 9);
        const std::string version = "\"version\": " + std::to_string(kExperimentVersion);
        const auto at = text.find(version);
        QVERIFY(at != std::string::npos);
        text.replace(at, version.size(), "\"version\": 7");
        QCOMPARE(experiment_from_json_text(text).method.dense_steps, 0);
        QCOMPARE(MethodSettings{}.dense_steps, 15);
    }
};

SEBO_TEST_MAIN(TestDenseStart)
}  // namespace test_dense_start
#include "test_dense_start.moc"
