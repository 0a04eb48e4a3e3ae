// The stall of SEBO-L0 under noise (issue 30 item 2; docs/method.md, "Noisy measurements"), end to
// end at a fixed seed: Hartmann6 hidden among 12 parameters, measured with Gaussian noise of sd
// 0.1 (3 % of its range), the status quo + 7 Sobol trials, then 32 SEBO-L0 steps with the default
// model (SAAS, NUTS). With the acquisition over the measured values (noisy_acquisition off) the
// proposals of seed 1 stall at the status quo: the last 15 change under two parameters on average
// and their true value is about the status quo's (0.005 in maximization form). With the noisy
// acquisition (the default) they leave it — more changes — and are worth more. Over seeds 1–15
// (docs/method.md) the noisy acquisition's last proposals were worth more in 12 and it stalled in
// one (9). Which seed stalls depends on rounding: issue 34's first change to the models'
// arithmetic moved it from seed 1 to 9, the second (moments_at's triangular products, the shorter
// warm-up) back to 1. About half a minute: labelled "slow".
#include <future>

#include "experiment/runner.h"
#include "problems/problem_catalog.h"
#include "test_main.h"
#include "test_support.h"

namespace test_slow_noisy_stall {

using namespace sebo;

namespace {

Experiment run(NoisyAcquisition mode) {
    ProblemSpec spec;
    spec.name = "hartmann6";
    spec.dimension = 12;
    spec.noise["*"] = 0.1;
    MethodSettings method;
    method.strategy = StrategyKind::SeboL0;
    method.initial_trials = 8;
    method.budget = 40;
    method.status_quo_first = true;
    method.noisy_acquisition = mode;
    method.dense_steps = 0;  // the stall and the noisy acquisition alone (the dense start: test_dense_start)
    // The warp as when the stall was found (its check, format version 10: test_power_transform).
    // With the check, the run over the measured values changes one parameter at a time still,
    // but its last 15 proposals are worth 0.033, not under 0.02.
    method.warp_check = false;
    Experiment e = make_problem_experiment(spec, method, 1);
    ProblemEvaluator evaluator(make_problem(e.evaluator.problem), e.seed);
    auto s = make_strategy(e.method);
    while (static_cast<int>(e.trials.size()) < e.method.budget) {
        const StepResult r = run_step(e, *s, &evaluator, StepControl{});
        if (r.status != StepResult::Status::Completed) break;
    }
    return e;
}

struct LastProposals {
    double mean_true = 0.0;    // noise-free value in maximization form
    double mean_active = 0.0;  // changed parameters
    double best_true = 0.0;    // of every model-based trial
};

LastProposals last_proposals(const Experiment& e, std::size_t count) {
    std::vector<const Trial*> model;
    for (const Trial& t : e.trials)
        if (t.generator == "sebo-l0") model.push_back(&t);
    LastProposals out;
    out.best_true = -1e300;
    for (const Trial* t : model) out.best_true = std::max(out.best_true, -t->noise_free.at("hartmann6"));
    const std::size_t first = model.size() - std::min(count, model.size());
    for (std::size_t i = first; i < model.size(); ++i) {
        out.mean_true += -model[i]->noise_free.at("hartmann6");
        out.mean_active += e.sparsity(*model[i]);
    }
    out.mean_true /= static_cast<double>(model.size() - first);
    out.mean_active /= static_cast<double>(model.size() - first);
    return out;
}

}  // namespace

class TestNoisyStall : public QObject {
    Q_OBJECT
private slots:
    void the_noisy_acquisition_leaves_the_status_quo() {
        auto measured_run = std::async(std::launch::async, [] { return run(NoisyAcquisition::Off); });
        const Experiment noisy = run(NoisyAcquisition::Auto);
        const Experiment measured = measured_run.get();
        for (const Experiment* e : {&noisy, &measured}) QCOMPARE(e->count(TrialStatus::Completed), 40);
        const LastProposals stalled = last_proposals(measured, 15);
        const LastProposals moving = last_proposals(noisy, 15);
        qInfo("measured values: last 15 proposals %.2f changes, mean true %.3f; best true %.3f", stalled.mean_active,
              stalled.mean_true, stalled.best_true);
        qInfo("noisy acquisition: last 15 proposals %.2f changes, mean true %.3f; best true %.3f", moving.mean_active,
              moving.mean_true, moving.best_true);
        QVERIFY(stalled.mean_active <= 2.0 && stalled.mean_true < 0.02);
        QVERIFY(moving.mean_active >= 3.0 && moving.mean_active >= stalled.mean_active + 1.0);
        QVERIFY(moving.mean_true > stalled.mean_true);
    }
};

SEBO_TEST_MAIN(TestNoisyStall)
}  // namespace test_slow_noisy_stall
#include "test_slow_noisy_stall.moc"
