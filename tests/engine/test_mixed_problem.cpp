// The built-in problem `mixed` (issue 14, item 8): its space (continuous, integer, choice and fixed
// parameters, fa + fb + fc <= 1), its stated optimum and best values with at most k changes against
// an independent brute-force enumeration, the status quo, the nuisance parameters' zero effect,
// the catalog entry, and the bench preset `mixed` (with the summary's counts of changed choices).
#include <algorithm>
#include <cmath>
#include <random>

#include "bench/bench_plan.h"
#include "bench/bench_results.h"
#include "bench/bench_summary.h"
#include "experiment/status_quo.h"
#include "problems/mixed_problem.h"
#include "problems/problem_catalog.h"
#include "problem_test_support.h"
#include "test_support.h"
#include "test_main.h"

namespace test_mixed_problem {

using namespace sebo;
using sebo::test::error_field;
using sebo::test::spec_named;

namespace {

double value_at(const Problem& problem, const std::vector<double>& x) { return problem.primary_measurement(x, 0).mean; }

// The objective written out again from the problem's definition (mixed_problem.h), term by term,
// for the enumeration: it must agree with the problem's evaluate() wherever the two are compared.
double reference_throughput(double fa, double fb, double fc, int threads, int codec) {
    const double t = threads;
    const double mixture = fa * (2.6 - 2.0 * fa) + fb * (1.4 - 2.0 * fb) + 2.0 * fa * fb - 0.5 * fc;
    double f = mixture + (t - 4.0) * (20.0 - t) / 64.0;
    if (codec == 1) f += 0.2;
    if (codec == 2) f += (t - 4.0) / 16.0 - 0.25;
    return f;
}

}  // namespace

class TestMixedProblem : public QObject {
    Q_OBJECT

private slots:
    void space_has_every_kind_and_the_constraint() {
        const MixedProblem problem;
        const SearchSpace& space = problem.space();
        QVERIFY(!space.validate());
        QCOMPARE(space.dimension(), 19);
        QCOMPARE(int(space.declared_parameters().size()), 20);
        QCOMPARE(int(space.fixed_parameters().size()), 1);
        QCOMPARE(space.fixed_parameters()[0].name, std::string("region"));
        QCOMPARE(*space.fixed_parameters()[0].target, 2.0);
        QCOMPARE(space.parameter(MixedProblem::kThreads).kind, ParameterKind::Integer);
        const Parameter& codec = space.parameter(MixedProblem::kCodec);
        QCOMPARE(codec.kind, ParameterKind::Choice);
        QVERIFY(!codec.ordered);
        QCOMPARE(value_text(codec, 2.0), std::string("zstd"));
        const Parameter& level = space.parameter(MixedProblem::kLevel);
        QVERIFY(level.ordered && level.levels() == 3);
        QCOMPARE(value_text(level, level.resolved_target()), std::string("mid"));
        QCOMPARE(space.choice_levels()[MixedProblem::kCodec], 3);
        QCOMPARE(int(space.constraints().size()), 1);
        QCOMPARE(space.constraint_text(0), std::string("fa + fb + fc <= 1"));
        QVERIFY(space.polytope() != nullptr);
        // The 13 nuisance parameters: 8 continuous, 5 integer.
        int continuous = 0, integer = 0;
        for (int i = MixedProblem::kFirstNuisance; i < space.dimension(); ++i)
            (space.parameter(i).kind == ParameterKind::Integer ? integer : continuous) += 1;
        QCOMPARE(continuous, 8);
        QCOMPARE(integer, 5);
    }

    void status_quo_is_zero_with_no_change() {
        const MixedProblem problem;
        const std::vector<double> target = problem.space().target();
        QCOMPARE(problem.space().active_count(target), 0);
        QVERIFY(problem.space().violated_constraints(target).empty());
        QCOMPARE(value_at(problem, target), 0.0);
        QCOMPARE(*problem.outcomes().objectives[0].threshold, 0.0);
        QVERIFY(!problem.outcomes().objectives[0].minimize);
    }

    void stated_optimum_is_feasible_binding_and_changes_four() {
        const MixedProblem problem;
        const std::vector<double> x = problem.optimum_configuration();
        QVERIFY(!problem.space().check_point(x));
        QVERIFY(problem.space().violated_constraints(x).empty());
        SEBO_COMPARE_NEAR(x[0] + x[1] + x[2], 1.0, 1e-9);  // binding
        QCOMPARE(problem.space().active_count(x), 4);
        QCOMPARE(problem.space().active_mask(x),
                 (std::vector<bool>{true, true, false, true, true, false, false, false, false, false, false, false, false,
                                    false, false, false, false, false, false}));
        SEBO_COMPARE_NEAR(value_at(problem, x), 2.8725, 1e-12);
        QCOMPARE(*problem.optimum(), 2.8725);
        QCOMPARE(problem.effective_dimensions(), (std::vector<int>{0, 1, 3, 4}));
    }

    // Independent check: every integer and choice value with a grid of step 1/100 over fa, fb, fc
    // on the constraint set. The best value per number of changed effective parameters matches the
    // stated ones (the stated optimizers lie on the grid), and the grid's overall best is the
    // stated optimum.
    void enumeration_confirms_the_optimum_and_best_per_count() {
        const MixedProblem problem;
        constexpr int n = 100;
        std::vector<double> best(6, -1e300);
        for (int threads = 1; threads <= 16; ++threads)
            for (int codec = 0; codec < 3; ++codec)
                for (int a = 0; a <= n; ++a)
                    for (int b = 0; a + b <= n; ++b)
                        for (int c = 0; a + b + c <= n; ++c) {
                            const double fa = a / double(n), fb = b / double(n), fc = c / double(n);
                            const double f = reference_throughput(fa, fb, fc, threads, codec);
                            const int changes = (a != 0) + (b != 0) + (c != 0) + (threads != 4) + (codec != 0);
                            for (int k = changes; k < 6; ++k) best[static_cast<std::size_t>(k)] =
                                std::max(best[static_cast<std::size_t>(k)], f);
                        }
        for (int k = 0; k <= 4; ++k)
            SEBO_COMPARE_NEAR(best[static_cast<std::size_t>(k)], MixedProblem::kBestAtMost[static_cast<std::size_t>(k)], 1e-12);
        SEBO_COMPARE_NEAR(best[5], MixedProblem::kOptimum, 1e-12);  // a fifth change adds nothing

        // Between the grid points: along the binding edge fb = 1 − fa (step 1e-5) and over random
        // points of the polytope, nothing beats the stated mixture optimum M = 1.56.
        double edge = -1e300;
        for (int i = 0; i <= 100000; ++i) {
            const double fa = i * 1e-5;
            edge = std::max(edge, reference_throughput(fa, 1.0 - fa, 0.0, 4, 0));
        }
        SEBO_COMPARE_NEAR(edge, 1.56, 1e-12);
        std::mt19937_64 rng(14);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        double sampled = -1e300;
        for (int i = 0; i < 200000; ++i) {
            const double fa = unit(rng), fb = unit(rng), fc = unit(rng);
            if (fa + fb + fc > 1.0) continue;
            sampled = std::max(sampled, reference_throughput(fa, fb, fc, 14, 2));
        }
        QVERIFY(sampled <= MixedProblem::kOptimum);
        QVERIFY(sampled > MixedProblem::kOptimum - 0.05);  // the sample does reach the neighbourhood

        // The problem's evaluate() is the reference function.
        std::vector<double> x = problem.space().target();
        for (int i = 0; i < 500; ++i) {
            for (int j = 0; j < 3; ++j) x[static_cast<std::size_t>(j)] = unit(rng) / 3;
            x[3] = 1 + static_cast<int>(rng() % 16);
            x[4] = static_cast<double>(rng() % 3);
            SEBO_COMPARE_NEAR(value_at(problem, x), reference_throughput(x[0], x[1], x[2], int(x[3]), int(x[4])), 1e-12);
        }
    }

    // A dense change is not better: the distractor and the nuisance parameters move nothing, exactly.
    void nuisance_and_distractor_have_no_effect() {
        const MixedProblem problem;
        const std::vector<double> optimum = problem.optimum_configuration();
        std::vector<double> dense = optimum;
        std::mt19937_64 rng(8);
        for (int trial = 0; trial < 50; ++trial) {
            dense[MixedProblem::kLevel] = static_cast<double>(rng() % 3);
            for (int i = MixedProblem::kFirstNuisance; i < MixedProblem::kDimension; ++i) {
                const Parameter& p = problem.space().parameter(i);
                const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
                dense[static_cast<std::size_t>(i)] = problem.space().from_unit(i, u);
                QVERIFY(p.kind != ParameterKind::Choice);
            }
            QCOMPARE(value_at(problem, dense), value_at(problem, optimum));
        }
        QVERIFY(problem.space().active_count(dense) > 10);
        // fc only costs: moving some of the sum from fb to fc loses.
        std::vector<double> with_fc = optimum;
        with_fc[1] = 0.3;
        with_fc[2] = 0.1;
        QVERIFY(value_at(problem, with_fc) < value_at(problem, optimum));
    }

    void catalog_entry_and_validation() {
        const auto problem = make_problem(spec_named("mixed"));
        QCOMPARE(problem->space().dimension(), 19);
        const auto infos = list_problems();
        const auto info = std::find_if(infos.begin(), infos.end(), [](const ProblemInfo& i) { return i.name == "mixed"; });
        QVERIFY(info != infos.end());
        QVERIFY2(info->optimum.find("throughput 2.8725 with 4 changes") != std::string::npos, info->optimum.c_str());
        QVERIFY2(info->optimum.find("1, 1.845, 2.56") != std::string::npos, info->optimum.c_str());

        ProblemSpec s = spec_named("mixed");
        s.dimension = 20;
        QCOMPARE(error_field(s), std::string("problem.dimension"));
        s = spec_named("mixed");
        s.effective = {0};
        QCOMPARE(error_field(s), std::string("problem.effective"));
        s = spec_named("mixed");
        s.target = 0.5;
        QCOMPARE(error_field(s), std::string("problem.target"));
        s = spec_named("mixed");
        s.repetitions = 3;
        QCOMPARE(error_field(s), std::string("problem.repetitions"));

        const Experiment e = make_problem_experiment(spec_named("mixed"), MethodSettings{}, 1);
        QCOMPARE(e.name, std::string("mixed-19d"));
        QCOMPARE(e.max_sparsity(), 19);
        QVERIFY(e.space.has_constraints());
        QCOMPARE(e.primary_objective().metric, std::string("throughput"));
        QVERIFY(!e.validate());
    }

    void bench_preset_starts_from_the_status_quo() {
        const auto preset = find_bench_preset("mixed");
        QVERIFY(preset);
        const BenchPlan& plan = preset->plan;
        QCOMPARE(plan.problems.size(), std::size_t{1});
        QCOMPARE(plan.problems[0].spec.name, std::string("mixed"));
        QCOMPARE(plan.seeds, 5);
        QCOMPARE(plan.nuts, NutsMode::Fast);
        QVERIFY(plan.status_quo_first);
        const std::vector<StrategyKind> kinds{StrategyKind::Sobol, StrategyKind::Saasbo, StrategyKind::SeboL0};
        QCOMPARE(plan.strategies.size(), kinds.size());
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            const MethodSettings m = plan.method(plan.strategies[i]);
            QVERIFY(!m.validate());
            QCOMPARE(m.strategy, kinds[i]);
            QCOMPARE(m.budget, plan.trials);
            QCOMPARE(m.initial_trials, plan.initial_trials);
            QVERIFY(m.status_quo_first);
            Experiment e = make_problem_experiment(plan.problems[0].spec, m, 1);
            QVERIFY(status_quo_due(e));
        }
        // The paper's presets keep starting from Sobol.
        QVERIFY(!find_bench_preset("paper-branin")->plan.status_quo_first);
        QVERIFY(!find_bench_preset("paper-branin")->plan.method(find_bench_preset("paper-branin")->plan.strategies[0])
                     .status_quo_first);
    }

    // The summary's "best with at most k active" counts a changed choice as 1, and the status quo
    // trial is neither an initial-design nor a model iteration for the seconds per iteration.
    void bench_rows_count_choices_and_skip_the_status_quo_time() {
        const auto preset = find_bench_preset("mixed");
        Experiment e = make_problem_experiment(preset->plan.problems[0].spec, preset->plan.method(preset->plan.strategies[2]), 1);
        const MixedProblem problem;
        auto add = [&](std::vector<double> x, const char* generator, double seconds) {
            Trial t;
            t.index = e.next_trial_index();
            t.parameters = x;
            t.status = TrialStatus::Completed;
            t.values = problem.evaluate(x, 0);
            t.generator = generator;
            t.generation_seconds = seconds;
            e.trials.push_back(t);
        };
        const std::vector<double> target = problem.space().target();
        std::vector<double> lz4 = target;
        lz4[MixedProblem::kCodec] = MixedProblem::kCodecLz4;  // 0.2 with one change
        add(target, kStatusQuoGenerator, 0.0);
        add(lz4, "sobol", 0.0);
        add(problem.optimum_configuration(), "sebo-l0", 3.0);
        const std::vector<BenchRow> rows =
            bench_rows(e, BenchRunInfo{"mixed", "sebo-l0", 1, problem.optimum(), problem.effective_dimensions()});
        QCOMPARE(rows[0].active, 0);
        QCOMPARE(rows[1].active, 1);
        QCOMPARE(rows[1].active_parameters, std::vector<int>{MixedProblem::kCodec});
        QCOMPARE(rows[2].active, 4);
        const auto summary = summarize_bench(rows);
        QCOMPARE(summary[0].levels, (std::vector<int>{2, 4, 8}));
        const StrategySummary& s = summary[0].strategies[0];
        QCOMPARE(s.frontier[0].best->mean, 0.0);
        SEBO_COMPARE_NEAR(s.frontier[1].best->mean, 0.2, 1e-12);
        SEBO_COMPARE_NEAR(s.frontier[3].best->mean, 0.2, 1e-12);
        SEBO_COMPARE_NEAR(s.frontier[4].best->mean, 2.8725, 1e-12);
        SEBO_COMPARE_NEAR(*s.seconds_per_iteration, 3.0, 1e-15);
    }
};

SEBO_TEST_MAIN(TestMixedProblem)
}  // namespace test_mixed_problem
#include "test_mixed_problem.moc"
