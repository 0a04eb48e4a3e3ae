// Built-in problems: the embedded Branin / Hartmann6 benchmarks against their published
// optima, the embedding's bookkeeping, the small demo problems against hand-computed values,
// the catalog's validation (every error names its field) and the problem evaluator.
// The sourcing simulation has its own suite (test_sourcing.cpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <set>
#include <stop_token>

#include "core/input_error.h"
#include "problems/embedded_problem.h"
#include "problems/grouped_contextual.h"
#include "problems/problem.h"
#include "problems/problem_catalog.h"
#include "problems/random_stream.h"
#include "problems/sparse_quadratic.h"
#include "problems/synthetic_functions.h"
#include "problem_test_support.h"
#include "test_support.h"
#include "test_main.h"

namespace test_problems {

using namespace sebo;
using sebo::test::error_field;
using sebo::test::spec_named;

namespace {

double value_at(const Problem& problem, const std::vector<double>& x) { return problem.primary_measurement(x, 0).mean; }

// Branin's three global minimizers in its own domain, mapped to the unit square.
std::vector<std::pair<double, double>> branin_minimizers_unit() {
    const double pi = std::numbers::pi;
    const std::pair<double, double> xs[] = {{-pi, 12.275}, {pi, 2.275}, {9.42478, 2.475}};
    std::vector<std::pair<double, double>> unit;
    for (auto [x1, x2] : xs) unit.emplace_back((x1 + 5.0) / 15.0, x2 / 15.0);
    return unit;
}

}  // namespace

class TestProblems : public QObject {
    Q_OBJECT

private slots:
    void branin_hand_computed() {
        // branin(0, 0) = (−6)² + 10(1 − 1/(8π)) + 10.
        const double expected = 36.0 + 10.0 * (1.0 - 1.0 / (8.0 * std::numbers::pi)) + 10.0;
        SEBO_COMPARE_NEAR(branin(0.0, 0.0), expected, 1e-12);
        SEBO_COMPARE_NEAR(branin_unit(1.0 / 3.0, 0.0), expected, 1e-12);
    }

    void branin_minimum_at_its_three_minimizers() {
        const auto problem = make_problem(spec_named("branin"));
        QCOMPARE(problem->space().dimension(), 50);
        for (auto [u1, u2] : branin_minimizers_unit()) {
            std::vector<double> x(50, 0.0);
            x[0] = u1;
            x[1] = u2;
            SEBO_COMPARE_NEAR(value_at(*problem, x), 0.397887, 1e-5);
            // A minimum: every small move goes up.
            for (int i = 0; i < 2; ++i)
                for (double h : {-1e-3, 1e-3}) {
                    std::vector<double> y = x;
                    y[static_cast<std::size_t>(i)] += h;
                    QVERIFY(value_at(*problem, y) > value_at(*problem, x) - 1e-9);
                }
        }
        QCOMPARE(*problem->optimum(), 0.397887);
    }

    void hartmann6_minimum_at_its_minimizer() {
        const auto problem = make_problem(spec_named("hartmann6"));
        std::vector<double> x(50, 0.0);
        std::copy(kHartmann6Minimizer.begin(), kHartmann6Minimizer.end(), x.begin());
        SEBO_COMPARE_NEAR(value_at(*problem, x), -3.32237, 1e-4);
        for (int i = 0; i < 6; ++i)
            for (double h : {-1e-2, 1e-2}) {
                std::vector<double> y = x;
                y[static_cast<std::size_t>(i)] += h;
                QVERIFY(value_at(*problem, y) > value_at(*problem, x));
            }
        QCOMPARE(*problem->optimum(), -3.32237);
        // At the all-zero target Hartmann6 is almost flat at 0 (−Σ α_i exp(−Σ A_ij P_ij²)).
        QVERIFY(std::abs(value_at(*problem, std::vector<double>(50, 0.0))) < 0.01);
    }

    void embedding_ignores_the_other_dimensions() {
        const auto problem = make_problem(spec_named("branin"));
        const auto [u1, u2] = branin_minimizers_unit()[1];
        std::vector<double> x(50, 0.0);
        x[0] = u1;
        x[1] = u2;
        const double base = value_at(*problem, x);
        for (int i = 2; i < 50; ++i) x[static_cast<std::size_t>(i)] = std::fmod(0.37 * i, 1.0);
        QCOMPARE(value_at(*problem, x), base);
        QCOMPARE(problem->effective_dimensions(), (std::vector<int>{0, 1}));
    }

    void custom_effective_dimensions_are_respected() {
        ProblemSpec spec = spec_named("branin");
        spec.dimension = 40;
        spec.effective = {31, 7};  // x31 is Branin's first argument, x7 its second
        const auto problem = make_problem(spec);
        QCOMPARE(problem->space().dimension(), 40);
        const auto [u1, u2] = branin_minimizers_unit()[0];
        std::vector<double> x(40, 0.9);
        x[31] = u1;
        x[7] = u2;
        SEBO_COMPARE_NEAR(value_at(*problem, x), 0.397887, 1e-5);
        std::swap(x[31], x[7]);
        SEBO_COMPARE_NEAR(value_at(*problem, x), branin_unit(u2, u1), 1e-12);
        QCOMPARE(problem->effective_dimensions(), (std::vector<int>{31, 7}));

        ProblemSpec h = spec_named("hartmann6");
        h.effective = {49, 10, 20, 30, 40, 0};
        const auto hartmann = make_problem(h);
        std::vector<double> y(50, 0.0);
        for (int j = 0; j < 6; ++j)
            y[static_cast<std::size_t>(h.effective[static_cast<std::size_t>(j)])] =
                kHartmann6Minimizer[static_cast<std::size_t>(j)];
        SEBO_COMPARE_NEAR(value_at(*hartmann, y), -3.32237, 1e-4);
    }

    void embedded_space_and_objective() {
        ProblemSpec spec = spec_named("branin");
        spec.target = 0.25;
        const auto problem = make_problem(spec);
        const SearchSpace& space = problem->space();
        QCOMPARE(space.parameter(0).name, std::string("x0"));
        QCOMPARE(space.parameter(49).name, std::string("x49"));
        for (const Parameter& p : space.parameters()) {
            QCOMPARE(p.kind, ParameterKind::Continuous);
            QCOMPARE(p.lower, 0.0);
            QCOMPARE(p.upper, 1.0);
            QCOMPARE(p.resolved_target(), 0.25);
        }
        QVERIFY(!space.validate());
        QCOMPARE(problem->outcomes().metrics, std::vector<std::string>{"branin"});
        QCOMPARE(problem->outcomes().objectives[0].metric, std::string("branin"));
        QVERIFY(problem->outcomes().objectives[0].minimize);
        QCOMPARE(*problem->outcomes().objectives[0].threshold, 10.0);
        QVERIFY(problem->outcomes().constraints.empty());
        QCOMPARE(*make_problem(spec_named("hartmann6"))->outcomes().objectives[0].threshold, 0.0);
        QCOMPARE(make_problem(spec_named("hartmann6"))->outcomes().objectives[0].metric, std::string("hartmann6"));
        QCOMPARE(make_problem(spec_named("branin"))->space().target(), std::vector<double>(50, 0.0));
    }

    void sparse_quadratic_values() {
        const auto problem = make_problem(spec_named("sparse-quadratic"));
        QCOMPARE(problem->space().dimension(), 10);
        QVERIFY(!problem->outcomes().objectives[0].minimize);
        std::vector<double> x(10, 0.0);
        QCOMPARE(value_at(*problem, x), 0.0);  // the target
        QCOMPARE(*problem->outcomes().objectives[0].threshold, 0.0);
        // Best with k active: move effective dimension j to its optimum 0.5 → + 2^-j.
        const double expected[] = {1.0, 1.5, 1.75};
        for (int k = 0; k < 3; ++k) {
            x[static_cast<std::size_t>(k)] = 0.5;
            QCOMPARE(value_at(*problem, x), expected[k]);
        }
        QCOMPARE(*problem->optimum(), 1.75);
        x[0] = 0.75;  // 1 − 4·0.25² = 0.75 of weight 1
        QCOMPARE(value_at(*problem, x), 1.5);
        x[9] = 1.0;  // not effective
        QCOMPARE(value_at(*problem, x), 1.5);

        ProblemSpec spec = spec_named("sparse-quadratic");
        spec.dimension = 6;
        spec.effective = {5, 2};
        spec.target = 0.8;  // optimum 0.5 below the target
        const auto custom = make_problem(spec);
        std::vector<double> y(6, 0.8);
        QCOMPARE(value_at(*custom, y), 0.0);
        y[5] = 0.3;
        QCOMPARE(value_at(*custom, y), 1.0);
        y[2] = 0.3;
        QCOMPARE(value_at(*custom, y), 1.5);
        QCOMPARE(custom->effective_dimensions(), (std::vector<int>{5, 2}));
    }

    void grouped_contextual_structure_and_values() {
        const auto problem = make_problem(spec_named("grouped-contextual"));
        const SearchSpace& space = problem->space();
        QCOMPARE(space.dimension(), 48);
        QCOMPARE(space.group_count(), 12);
        QVERIFY(space.has_groups());
        QCOMPARE(space.parameter(0).name, std::string("ctx00_p0"));
        QCOMPARE(space.parameter(47).name, std::string("ctx11_p3"));
        QCOMPARE(space.group_name(space.group_of(47)), std::string("ctx11"));
        QVERIFY(!space.validate());

        // Hand computation: the three gaining contexts lose w_c Σ_j a_j δ_cj² at the global policy.
        const double loss2 = 0.12 * (6 * 0.0225 + 4 * 0.01 + 3 * 0.01 + 0.0);
        const double loss5 = 0.08 * (6 * 0.0225 + 4 * 0.04 + 3 * 0.01 + 2 * 0.01);
        const double loss9 = 0.04 * (6 * 0.0225 + 4 * 0.01 + 3 * 0.01 + 2 * 0.04);
        const std::vector<double> global = space.target();
        SEBO_COMPARE_NEAR(value_at(*problem, global), 1.0 - loss2 - loss5 - loss9, 1e-12);
        SEBO_COMPARE_NEAR(*problem->outcomes().objectives[0].threshold, 1.0 - loss2 - loss5 - loss9, 1e-12);

        // Deviating one gaining context (one active group) recovers exactly its loss.
        std::vector<double> x = global;
        const auto o5 = GroupedContextualProblem::context_optimum(5);
        for (int j = 0; j < 4; ++j) x[static_cast<std::size_t>(5 * 4 + j)] = o5[static_cast<std::size_t>(j)];
        QCOMPARE(space.active_group_count(x), 1);
        SEBO_COMPARE_NEAR(value_at(*problem, x), 1.0 - loss2 - loss9, 1e-12);
        // Deviating a context that does not gain only hurts: 0.20 · 6 · 0.1².
        std::vector<double> y = global;
        y[0] += 0.1;
        SEBO_COMPARE_NEAR(value_at(*problem, y), value_at(*problem, global) - 0.20 * 6 * 0.01, 1e-12);
        // Every context at its optimum: QoE 1.
        std::vector<double> best(48);
        for (int c = 0; c < 12; ++c) {
            const auto o = GroupedContextualProblem::context_optimum(c);
            for (int j = 0; j < 4; ++j) best[static_cast<std::size_t>(c * 4 + j)] = o[static_cast<std::size_t>(j)];
        }
        SEBO_COMPARE_NEAR(value_at(*problem, best), 1.0, 1e-12);
        QCOMPARE(*problem->optimum(), 1.0);
        QCOMPARE(int(problem->effective_dimensions().size()), 11);  // ctx02_p3 has no residual

        // The global policy is the best shared policy: moving parameter j in every context
        // together by ±h loses the same amount both ways (zero gradient), and loses.
        for (int j = 0; j < 4; ++j) {
            std::vector<double> up = global, down = global;
            for (int c = 0; c < 12; ++c) {
                up[static_cast<std::size_t>(c * 4 + j)] += 1e-3;
                down[static_cast<std::size_t>(c * 4 + j)] -= 1e-3;
            }
            const double f0 = value_at(*problem, global), fu = value_at(*problem, up), fd = value_at(*problem, down);
            SEBO_COMPARE_NEAR((fu - fd) / 2e-3, 0.0, 1e-9);
            QVERIFY(fu < f0 && fd < f0);
        }
        // Traffic shares sum to one.
        double total = 0.0;
        for (double w : GroupedContextualProblem::traffic_shares()) total += w;
        SEBO_COMPARE_NEAR(total, 1.0, 1e-12);
    }

    void catalog_lists_every_problem() {
        const auto infos = list_problems();
        std::set<std::string> names;
        for (const ProblemInfo& info : infos) {
            names.insert(info.name);
            QVERIFY(!info.description.empty());
            for (const ProblemOptionInfo& option : info.options)
                QVERIFY(option.description.find("default") != std::string::npos);
            // Every listed problem can be built with its defaults.
            QVERIFY(make_problem(spec_named(info.name)) != nullptr);
        }
        QCOMPARE(names,
                 (std::set<std::string>{"branin", "hartmann6", "branin-currin", "hartmann6-constrained", "sourcing",
                                        "sparse-quadratic", "grouped-contextual", "mixed"}));
        const auto sourcing =
            std::find_if(infos.begin(), infos.end(), [](const ProblemInfo& i) { return i.name == "sourcing"; });
        std::set<std::string> options;
        for (const auto& o : sourcing->options) options.insert(o.name);
        QVERIFY(options.count("repetitions") && options.count("world-seed"));
    }

    void validation_names_the_field() {
        std::string message;
        QCOMPARE(error_field(spec_named("rosenbrock"), &message), std::string("problem.name"));
        QVERIFY(message.find("rosenbrock") != std::string::npos && message.find("hartmann6") != std::string::npos);
        QCOMPARE(error_field(spec_named("")), std::string("problem.name"));

        ProblemSpec s = spec_named("branin");
        s.dimension = 1;
        QCOMPARE(error_field(s), std::string("problem.dimension"));
        s.dimension = -3;
        QCOMPARE(error_field(s), std::string("problem.dimension"));
        s.dimension = 100000;
        QCOMPARE(error_field(s), std::string("problem.dimension"));
        s = spec_named("hartmann6");
        s.dimension = 5;
        QCOMPARE(error_field(s), std::string("problem.dimension"));

        s = spec_named("branin");
        s.effective = {0, 1, 2};
        QCOMPARE(error_field(s, &message), std::string("problem.effective"));
        QVERIFY(message.find("exactly 2") != std::string::npos);
        s.effective = {3, 50};
        QCOMPARE(error_field(s, &message), std::string("problem.effective[1]"));
        QVERIFY(message.find("50") != std::string::npos);
        s.effective = {-1, 4};
        QCOMPARE(error_field(s), std::string("problem.effective[0]"));
        s.effective = {4, 4};
        QCOMPARE(error_field(s), std::string("problem.effective[1]"));
        s.effective = {10, 20};
        s.dimension = 15;  // 20 is outside a 15-dimensional space
        QCOMPARE(error_field(s), std::string("problem.effective[1]"));

        s = spec_named("branin");
        s.target = 1.5;
        QCOMPARE(error_field(s), std::string("problem.target"));
        s.target = std::nan("");
        QCOMPARE(error_field(s), std::string("problem.target"));
        s = spec_named("branin");
        s.repetitions = 10;
        QCOMPARE(error_field(s), std::string("problem.repetitions"));
        s = spec_named("hartmann6");
        s.world_seed = 7;
        QCOMPARE(error_field(s), std::string("problem.world_seed"));

        s = spec_named("sourcing");
        s.repetitions = -1;
        QCOMPARE(error_field(s), std::string("problem.repetitions"));
        s.repetitions = 2'000'000;
        QCOMPARE(error_field(s), std::string("problem.repetitions"));
        s = spec_named("sourcing");
        s.dimension = 10;
        QCOMPARE(error_field(s), std::string("problem.dimension"));
        s = spec_named("sourcing");
        s.effective = {1};
        QCOMPARE(error_field(s), std::string("problem.effective"));
        s = spec_named("sourcing");
        s.target = 0.33;  // 16.5 retrievals
        QCOMPARE(error_field(s), std::string("problem.target"));
        s.target = 0.3;  // 15 retrievals
        QCOMPARE(error_field(s), std::string());
        QCOMPARE(make_problem(s)->space().target(), std::vector<double>(25, 15.0));

        s = spec_named("grouped-contextual");
        s.target = 0.0;
        QCOMPARE(error_field(s), std::string("problem.target"));
        s = spec_named("grouped-contextual");
        s.dimension = 12;
        QCOMPARE(error_field(s), std::string("problem.dimension"));

        s = spec_named("sparse-quadratic");
        s.effective = {};
        s.dimension = 2;  // defaults to the first min(3, D) dimensions
        QCOMPARE(make_problem(s)->effective_dimensions(), (std::vector<int>{0, 1}));
    }

    void experiment_is_self_describing() {
        MethodSettings method;
        method.initial_trials = 5;
        method.budget = 30;
        const Experiment e = make_problem_experiment(spec_named("branin"), method, 42);
        QCOMPARE(e.name, std::string("branin-50d"));
        QVERIFY2(e.description.find("effective parameters x0, x1; target 0") != std::string::npos,
                 e.description.c_str());
        QCOMPARE(e.space.dimension(), 50);
        QCOMPARE(e.primary_objective().metric, std::string("branin"));
        QVERIFY(e.primary_objective().minimize);
        QCOMPARE(e.evaluator.kind, EvaluatorSpec::Kind::Problem);
        QCOMPARE(e.evaluator.problem.name, std::string("branin"));
        QCOMPARE(e.evaluator.problem.dimension, 50);
        QCOMPARE(e.evaluator.problem.effective, (std::vector<int>{0, 1}));
        QVERIFY(e.evaluator.problem.target.has_value());
        QCOMPARE(*e.evaluator.problem.target, 0.0);
        QCOMPARE(e.method.budget, 30);
        QCOMPARE(e.method.initial_trials, 5);
        QCOMPARE(e.seed, std::uint64_t{42});
        QCOMPARE(*e.primary_objective().threshold, 10.0);
        QVERIFY(!e.validate());

        const Experiment h = make_problem_experiment(spec_named("hartmann6"), method, 1);
        QCOMPARE(h.name, std::string("hartmann6-50d"));
        QCOMPARE(h.evaluator.problem.effective, (std::vector<int>{0, 1, 2, 3, 4, 5}));
        QCOMPARE(*h.primary_objective().threshold, 0.0);

        const Experiment s = make_problem_experiment(spec_named("sourcing"), method, 1);
        QCOMPARE(s.name, std::string("sourcing-25d"));
        QCOMPARE(s.evaluator.problem.repetitions, 1000);
        QCOMPARE(s.evaluator.problem.world_seed, std::uint64_t{20230425});
        QCOMPARE(s.space.parameter(0).name, std::string("source_00"));
        QCOMPARE(s.primary_objective().metric, std::string("quality"));
        QVERIFY(!s.primary_objective().minimize);
        QCOMPARE(*s.primary_objective().threshold, 0.0);
        QCOMPARE(s.outcomes.metrics, (std::vector<std::string>{"quality", "relevance", "cost"}));

        const Experiment g = make_problem_experiment(spec_named("grouped-contextual"), method, 1);
        QCOMPARE(g.name, std::string("grouped-contextual-48d"));
        QCOMPARE(g.max_sparsity(), 12);
        QVERIFY(!g.evaluator.problem.target.has_value());

        // Other objectives and constraints among the problem's metrics: relevance maximized
        // subject to cost <= 2, quality tracked; a metric the problem does not report is refused.
        Outcomes chosen;
        chosen.metrics = {"relevance", "cost"};
        chosen.objectives = {{"relevance", false, std::nullopt}};
        chosen.constraints = {{"cost", ConstraintSense::AtMost, 2.0}};
        const Experiment c = make_problem_experiment(spec_named("sourcing"), method, 1, chosen);
        QCOMPARE(c.outcomes.metrics, (std::vector<std::string>{"quality", "relevance", "cost"}));
        QCOMPARE(c.primary_objective().metric, std::string("relevance"));
        QVERIFY(!c.primary_objective().threshold);
        QCOMPARE(c.outcomes.constraints.size(), std::size_t{1});
        QVERIFY(c.outcomes.is_tracked("quality"));
        QVERIFY(!c.validate());
        chosen.metrics.push_back("latency");
        try {
            make_problem_experiment(spec_named("sourcing"), method, 1, chosen);
            QFAIL("a metric sourcing does not report was accepted");
        } catch (const InputError& error) {
            QCOMPARE(error.field(), std::string("metrics"));
            QVERIFY2(std::string(error.what()).find("unknown metric 'latency' of sourcing") != std::string::npos, error.what());
        }
        chosen.metrics.pop_back();
        chosen.objectives.push_back({"relevance", true, std::nullopt});
        try {
            make_problem_experiment(spec_named("sourcing"), method, 1, chosen);
            QFAIL("an objective given twice was accepted");
        } catch (const InputError& error) {
            QCOMPARE(error.field(), std::string("objectives[1].metric"));
        }

        // Resolving is idempotent: the written-out spec builds the same problem.
        const ProblemSpec again = resolve_problem_spec(s.evaluator.problem);
        QCOMPARE(again.repetitions, s.evaluator.problem.repetitions);
        QCOMPARE(again.world_seed, s.evaluator.problem.world_seed);
        QCOMPARE(*again.target, *s.evaluator.problem.target);

        MethodSettings bad;
        bad.budget = -1;
        try {
            make_problem_experiment(spec_named("branin"), bad, 1);
            QFAIL("a negative budget was accepted");
        } catch (const InputError& error) {
            QCOMPARE(error.field(), std::string("method.budget"));
        }
    }

    void evaluator_reports_failures_without_throwing() {
        const auto problem = make_problem(spec_named("branin"));
        ProblemEvaluator evaluator(problem, 7);
        StepControl control;
        Trial trial;
        trial.index = 3;
        trial.parameters.assign(50, 0.0);
        trial.parameters[0] = branin_minimizers_unit()[1].first;
        trial.parameters[1] = branin_minimizers_unit()[1].second;
        EvaluationOutcome ok = evaluator.evaluate(trial, control);
        QVERIFY(ok.ok);
        QCOMPARE(ok.values.size(), std::size_t{1});
        SEBO_COMPARE_NEAR(ok.values.at("branin").mean, 0.397887, 1e-5);
        QVERIFY(ok.error.empty());

        trial.parameters[7] = 1.5;  // above the upper bound
        EvaluationOutcome out = evaluator.evaluate(trial, control);
        QVERIFY(!out.ok);
        QVERIFY2(out.error.find("x7") != std::string::npos, out.error.c_str());

        trial.parameters.assign(3, 0.0);  // wrong length
        QVERIFY(!evaluator.evaluate(trial, control).ok);
        trial.parameters.assign(50, std::nan(""));
        QVERIFY(!evaluator.evaluate(trial, control).ok);

        // A non-integer retrieval count is outside the sourcing space.
        ProblemEvaluator sourcing(make_problem(spec_named("sourcing")), 7);
        Trial half;
        half.parameters.assign(25, 0.0);
        half.parameters[4] = 2.5;
        const EvaluationOutcome frac = sourcing.evaluate(half, control);
        QVERIFY(!frac.ok);
        QVERIFY2(frac.error.find("source_04") != std::string::npos, frac.error.c_str());

        // Cancelled before it starts: not evaluated.
        std::stop_source stop;
        StepControl cancelled;
        cancelled.stop = stop.get_token();
        stop.request_stop();
        trial.parameters.assign(50, 0.0);
        QVERIFY(!evaluator.evaluate(trial, cancelled).ok);
    }

    void evaluator_noise_seed_is_derived_from_seed_and_trial() {
        // Distinct (seed, trial) pairs give distinct seeds; the function is deterministic.
        std::set<std::uint64_t> seeds;
        for (std::uint64_t seed : {0ull, 1ull, 2ull})
            for (int trial = 0; trial < 100; ++trial) seeds.insert(problem_noise_seed(seed, trial));
        QCOMPARE(int(seeds.size()), 300);
        // Values from an independent implementation (Python integers, written from the
        // definitions in random_stream.h): splitmix64(0) is SplitMix64's published first output
        // for seed 0, and the seed of trial −1 shows the index's sign extension (2^64 − 1).
        QCOMPARE(splitmix64(0), 0xE220A8397B1DCDAFull);
        QCOMPARE(problem_noise_seed(5, 9), 0x98381911B1CB1E92ull);
        QCOMPARE(problem_noise_seed(5, -1), 0xE1B46BBE30467B8Bull);
        // Neighbouring inputs differ in about half of the bits (avalanche).
        const int flipped = std::popcount(problem_noise_seed(5, 9) ^ problem_noise_seed(5, 10));
        QVERIFY(flipped > 16 && flipped < 48);

        // The evaluator uses exactly that seed: same value as the problem called directly.
        ProblemSpec spec = spec_named("sourcing");
        spec.repetitions = 50;
        const auto problem = make_problem(spec);
        ProblemEvaluator evaluator(problem, 11);
        Trial trial;
        trial.index = 4;
        trial.parameters.assign(25, 0.0);
        trial.parameters[3] = 20;
        const EvaluationOutcome outcome = evaluator.evaluate(trial, StepControl{});
        const MetricValues direct = problem->evaluate(trial.parameters, problem_noise_seed(11, 4));
        QVERIFY(outcome.ok);
        QVERIFY(outcome.values == direct);
        QVERIFY(outcome.values.at("quality").sem);
    }
};

SEBO_TEST_MAIN(TestProblems)
}  // namespace test_problems
#include "test_problems.moc"
