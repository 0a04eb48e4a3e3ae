// The dense start under noise (issue 30; docs/method.md §13, MethodSettings::dense_steps): while
// a SEBO step uses the noisy acquisition, the trials after the initial design up to dense_steps
// are proposed by the noisy EI without sparsity — the candidate SAASBO's step proposes from the
// same experiment — and marked "(dense start)" in their generator; after them, or with the
// measured-values acquisition, or with dense_steps 0, SEBO's own acquisition proposes. Once five
// or more of the noisy EI's dense trials measure no better (by their median) than the initial
// design's Sobol trials, the rest of the dense start is Thompson sampling ("(dense start,
// Thompson)"); files of version 8 and older keep the noisy EI. Past dense_steps the dense start
// goes on, up to dense_steps_max, while the step's model knows no parameter to matter (in 90 % of
// its members none has an inverse squared lengthscale of 0.1 or more); files of version 10 and
// older end it after dense_steps.
#include <memory>
#include <vector>

#include "core/quantile.h"
#include "experiment/model_step.h"
#include "experiment/runner.h"
#include "io/experiment_file.h"
#include "model/ensemble_posterior.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_dense_start {

using namespace sebo;

namespace {

// Hartmann6 among 12 parameters with noise of sd 0.3 (10 % of its range): the status quo and 7
// Sobol trials, measured.
Experiment initial_design(StrategyKind strategy, NoisyAcquisition mode, int dense_steps, const char* problem = "hartmann6",
                          double noise = 0.3) {
    ProblemSpec spec;
    spec.name = problem;
    spec.dimension = 12;
    spec.noise["*"] = noise;
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

// `values.size()` trials recorded as the dense start's noisy EI proposed them, at the
// configurations of the design's Sobol trials, measured as `values` (Hartmann6 is minimized).
void add_dense_trials(Experiment& e, const std::vector<double>& values) {
    const std::string metric = e.outcomes.objectives.front().metric;
    for (std::size_t k = 0; k < values.size(); ++k) {
        Trial t = e.trials[1 + k];
        t.index = static_cast<int>(e.trials.size());
        t.generator = "sebo-l0 (dense start)";
        t.values[metric].mean = values[k];
        t.noise_free.clear();
        e.trials.push_back(std::move(t));
    }
}

// The median measured value of the initial design's Sobol trials.
double design_median(const Experiment& e) {
    std::vector<double> values;
    for (const Trial& t : e.trials)
        if (t.generator == "sobol") values.push_back(t.values.at(e.outcomes.objectives.front().metric).mean);
    return quantile(values, 0.5);
}

// `e` written to its file's text, marked as format `version`, and read back: what a file of that
// version with the same members means today.
Experiment read_as_version(const Experiment& e, int version) {
    std::string text = experiment_to_json_text(e);
    const std::string current = "\"version\": " + std::to_string(kExperimentVersion);
    const auto at = text.find(current);
    if (at == std::string::npos) qFatal("no version member in the file's text");
    text.replace(at, current.size(), "\"version\": " + std::to_string(version));
    return experiment_from_json_text(text);
}

// A posterior of as many points as `e` has trials (where and what they measured does not matter
// here) whose `members` hyperparameter sets give every input the relevance ρ = 0.01, except
// input 3 in the first `relevant` members, which gets ρ = 0.5.
std::shared_ptr<const EnsemblePosterior> posterior_with(const Experiment& e, int members, int relevant) {
    auto data = std::make_shared<TrainingData>();
    const int d = e.space.dimension();
    data->inputs.resize(static_cast<Eigen::Index>(e.trials.size()), d);
    data->targets.resize(static_cast<Eigen::Index>(e.trials.size()));
    for (std::size_t i = 0; i < e.trials.size(); ++i) {
        for (int j = 0; j < d; ++j) data->inputs(static_cast<Eigen::Index>(i), j) = static_cast<double>((7 * i + 3 * j) % 11) / 10.0;
        data->targets[static_cast<Eigen::Index>(i)] = static_cast<double>(i % 3) - 1.0;
    }
    std::vector<GpHyperparameters> samples(static_cast<std::size_t>(members));
    for (int s = 0; s < members; ++s) {
        GpHyperparameters& h = samples[static_cast<std::size_t>(s)];
        h.inverse_squared_lengthscales = Eigen::VectorXd::Constant(d, 0.01);
        if (s < relevant) h.inverse_squared_lengthscales[3] = 0.5;
        h.noise = 0.1;
    }
    return std::make_shared<const EnsemblePosterior>(std::move(data), samples);
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
        short_start.method.dense_steps_max = 2;  // not going on (the next test)
        QCOMPARE(step(short_start).generator, std::string("sebo-l0 (dense start)"));
        QCOMPARE(step(short_start).generator, std::string("sebo-l0 (dense start)"));
        QCOMPARE(step(short_start).generator, std::string("sebo-l0"));
    }

    void thompson_sampling_once_the_noisy_ei_measures_no_better_than_the_design() {
        const Experiment design = initial_design(StrategyKind::SeboL0, NoisyAcquisition::On, 15);
        QVERIFY(design.outcomes.objectives.front().minimize);
        const double m = design_median(design);
        QCOMPARE(kDenseJudgeAfter, 5);
        QCOMPARE(dense_start(design, design.method), DenseStart::ExpectedImprovement);
        {  // judged from the fifth of its trials on: four worse ones are not enough
            Experiment e = design;
            add_dense_trials(e, {m + 0.5, m + 0.4, m + 0.3, m + 0.2});
            QCOMPARE(dense_start(e, e.method), DenseStart::ExpectedImprovement);
            add_dense_trials(e, {m + 0.3});
            QCOMPARE(dense_start(e, e.method), DenseStart::Thompson);
            // an excluded trial counts nowhere
            e.trials.back().exclusion = TrialExclusion{"a faulty run", ""};
            QCOMPARE(dense_start(e, e.method), DenseStart::ExpectedImprovement);
        }
        {  // by the median: one disaster among good trials does not decide (their mean is m + 0.8)
            Experiment e = design;
            add_dense_trials(e, {m - 0.3, m - 0.2, m - 0.4, m + 5.0, m - 0.1});  // median m − 0.2
            QCOMPARE(dense_start(e, e.method), DenseStart::ExpectedImprovement);
            add_dense_trials(e, {m + 0.5, m + 0.6});  // median m − 0.1
            QCOMPARE(dense_start(e, e.method), DenseStart::ExpectedImprovement);
            add_dense_trials(e, {m + 0.7});  // median m + 0.2: no better than the design
            QCOMPARE(dense_start(e, e.method), DenseStart::Thompson);
        }
        {  // outside the dense start: off
            Experiment e = design;
            e.method.dense_steps = 5;
            add_dense_trials(e, {m + 0.5, m + 0.4, m + 0.3, m + 0.2, m + 0.1});
            QCOMPARE(dense_start(e, e.method), DenseStart::Off);
        }
    }

    void a_model_knows_a_parameter_when_ninety_percent_of_its_members_do() {
        const Experiment e = initial_design(StrategyKind::SeboL0, NoisyAcquisition::On, 15);
        QCOMPARE(kCredibleRelevance, 0.1);
        // 16 members: the 10th percentile of ρ_3 interpolates between the 2nd and 3rd smallest, so
        // 15 or 14 members of 16 know it (ρ = 0.5), 13 do not (0.01 at the 3rd smallest).
        QVERIFY(knows_a_relevant_parameter(*posterior_with(e, 16, 16)));
        QVERIFY(knows_a_relevant_parameter(*posterior_with(e, 16, 15)));
        QVERIFY(knows_a_relevant_parameter(*posterior_with(e, 16, 14)));
        QVERIFY(!knows_a_relevant_parameter(*posterior_with(e, 16, 13)));
        QVERIFY(!knows_a_relevant_parameter(*posterior_with(e, 16, 0)));
        // A MAP fit has no spread to be credible about: it always knows.
        QCOMPARE(kCredibleRelevanceMembers, 4);
        QVERIFY(knows_a_relevant_parameter(*posterior_with(e, 1, 0)));
        QVERIFY(knows_a_relevant_parameter(*posterior_with(e, 3, 0)));
        QVERIFY(!knows_a_relevant_parameter(*posterior_with(e, 4, 0)));
    }

    void the_dense_start_goes_on_while_the_model_knows_no_parameter_to_matter() {
        Experiment e = initial_design(StrategyKind::SeboL0, NoisyAcquisition::On, 2);
        e.method.dense_thompson = false;
        add_dense_trials(e, {0.0, 0.0});  // 10 trials: the 2 steps of dense_steps are done
        QCOMPARE(MethodSettings{}.dense_steps_max, 30);
        const auto blind = posterior_with(e, 16, 0), knowing = posterior_with(e, 16, 16);
        QCOMPARE(dense_start(e, e.method), DenseStart::Off);  // no model: not known to be blind
        QCOMPARE(dense_start(e, e.method, knowing.get()), DenseStart::Off);
        QCOMPARE(dense_start(e, e.method, blind.get()), DenseStart::ExpectedImprovement);
        // Up to dense_steps_max trials after the initial design: 8 + 4 = 12.
        e.method.dense_steps_max = 4;
        QCOMPARE(dense_start(e, e.method, blind.get()), DenseStart::ExpectedImprovement);
        add_dense_trials(e, {0.0});
        QCOMPARE(dense_start(e, e.method, blind.get()), DenseStart::ExpectedImprovement);
        add_dense_trials(e, {0.0});
        QCOMPARE(dense_start(e, e.method, blind.get()), DenseStart::Off);
        // Never with dense_steps_max at most dense_steps, nor without a dense start, nor with max_active.
        e.trials.resize(10);
        e.method.dense_steps_max = 2;
        QCOMPARE(dense_start(e, e.method, blind.get()), DenseStart::Off);
        e.method.dense_steps_max = 30;
        e.method.dense_steps = 0;
        QCOMPARE(dense_start(e, e.method, blind.get()), DenseStart::Off);
        e.method.dense_steps = 2;
        e.method.max_active = 3;
        QCOMPARE(dense_start(e, e.method, blind.get()), DenseStart::Off);
        e.method.max_active.reset();
        // The turn to Thompson sampling judges the extension's EI trials as the others.
        e.method.dense_thompson = true;
        const double m = design_median(e);
        add_dense_trials(e, {m + 0.5, m + 0.4, m + 0.3});  // with the two above: median m + 0.3
        QCOMPARE(dense_start(e, e.method, blind.get()), DenseStart::Thompson);
    }

    void a_step_past_dense_steps_stays_dense_while_its_model_knows_nothing() {
        // Branin in 12 dimensions measured with noise of sd 300, about its whole range: after nine
        // such measurements the step's SAAS posterior knows no parameter to matter, so with
        // dense_steps 1 the second step past the design is dense too — and sparse when the dense
        // start may not go on.
        for (const int longest : {3, 1}) {
            Experiment e = initial_design(StrategyKind::SeboL0, NoisyAcquisition::On, 1, "branin", 300.0);
            e.method.dense_steps_max = longest;
            QCOMPARE(step(e).generator, std::string("sebo-l0 (dense start)"));
            const std::string second = step(e).generator;
            QVERIFY2(second == (longest == 3 ? "sebo-l0 (dense start)" : "sebo-l0"), (std::to_string(longest) + ": " + second).c_str());
        }
    }

    void files_of_version_10_end_the_dense_start_after_dense_steps() {
        const Experiment e = initial_design(StrategyKind::SeboL0, NoisyAcquisition::Auto, 9);
        QCOMPARE(experiment_from_json_text(experiment_to_json_text(e)).method.dense_steps_max, 30);
        const Experiment ten = read_as_version(e, 10);
        QCOMPARE(ten.method.dense_steps, 9);
        QCOMPARE(ten.method.dense_steps_max, 9);
        QCOMPARE(read_as_version(e, 7).method.dense_steps_max, 0);
    }

    void a_thompson_step_proposes_a_new_dense_configuration() {
        Experiment e = initial_design(StrategyKind::SeboL0, NoisyAcquisition::On, 15);
        const double m = design_median(e);
        add_dense_trials(e, {m + 0.5, m + 0.4, m + 0.3, m + 0.2, m + 0.1});
        const std::size_t known = e.trials.size();
        Experiment again = e;  // before the step, which keeps its sampler state in e
        const Trial t = step(e);
        QCOMPARE(t.generator, std::string("sebo-l0 (dense start, Thompson)"));
        QVERIFY2(e.sparsity(t) >= 6, std::to_string(e.sparsity(t)).c_str());
        for (std::size_t i = 0; i < known; ++i) QVERIFY(e.trials[i].parameters != t.parameters);
        // Repeatable: the same experiment proposes the same configuration.
        QCOMPARE(step(again).parameters, t.parameters);
    }

    void files_of_version_7_have_no_dense_start_and_of_8_no_thompson_sampling() {
        // A version-7 reader ignored "dense_steps": every SEBO step of such a file was sparse, and
        // a resumed run continues so. A new file keeps its setting.
        const Experiment e = initial_design(StrategyKind::SeboL0, NoisyAcquisition::Auto, 9);
        QCOMPARE(experiment_from_json_text(experiment_to_json_text(e)).method.dense_steps, 9);
        QCOMPARE(read_as_version(e, 7).method.dense_steps, 0);
        QCOMPARE(MethodSettings{}.dense_steps, 15);
        // A version-8 reader ignored "dense_thompson": its dense start used the noisy EI throughout.
        const Experiment eight = read_as_version(e, 8);
        QCOMPARE(eight.method.dense_steps, 9);
        QVERIFY(!eight.method.dense_thompson);
        QVERIFY(experiment_from_json_text(experiment_to_json_text(e)).method.dense_thompson);
        QVERIFY(MethodSettings{}.dense_thompson);
        Experiment judged = initial_design(StrategyKind::SeboL0, NoisyAcquisition::On, 15);
        const double m = design_median(judged);
        add_dense_trials(judged, {m + 0.5, m + 0.4, m + 0.3, m + 0.6, m + 0.5});
        QCOMPARE(dense_start(judged, judged.method), DenseStart::Thompson);
        judged.method.dense_thompson = false;
        QCOMPARE(dense_start(judged, judged.method), DenseStart::ExpectedImprovement);
    }
};

SEBO_TEST_MAIN(TestDenseStart)
}  // namespace test_dense_start
#include "test_dense_start.moc"
