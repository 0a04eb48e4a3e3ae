// The multi-objective and constrained test problems (problems/branin_currin.h,
// problems/constrained_hartmann6.h): values computed independently (by hand and with Python's math
// module from the published formulas), the Branin–Currin front of a grid against its published
// maximal hypervolume, and the constrained Hartmann6 optimum against KKT conditions and a fresh
// multi-start SLSQP run (NLopt). Then the two as built-in problems of the catalog
// ("branin-currin", "hartmann6-constrained"): their metrics, objectives, thresholds and
// constraint, values through the embedding, feasibility at the stated optimum, the catalog's
// errors, and the sourcing simulation's metrics chosen as two objectives or as objective and
// constraint.

#include <cmath>
#include <nlopt.hpp>
#include <numbers>
#include <random>

#include "core/input_error.h"
#include "pareto/hypervolume_nd.h"
#include "problems/problem_catalog.h"
#include "problems/branin_currin.h"
#include "problems/constrained_hartmann6.h"
#include "problems/synthetic_functions.h"
#include "problem_test_support.h"
#include "test_support.h"
#include "test_main.h"

namespace test_moo_problems {

using namespace sebo;
using sebo::test::error_field;
using sebo::test::spec_named;

namespace {

std::array<double, 6> to_array(const std::vector<double>& x) {
    std::array<double, 6> a{};
    std::copy(x.begin(), x.end(), a.begin());
    return a;
}

// A point of the problem's space: `base` everywhere, the given coordinates set.
std::vector<double> point(int dimension, double base, const std::vector<std::pair<int, double>>& set) {
    std::vector<double> x(static_cast<std::size_t>(dimension), base);
    for (auto [i, v] : set) x[static_cast<std::size_t>(i)] = v;
    return x;
}

// Central differences of hartmann6 (step 1e-7).
std::array<double, 6> hartmann6_gradient(const std::array<double, 6>& x) {
    std::array<double, 6> g{};
    for (std::size_t i = 0; i < 6; ++i) {
        auto plus = x, minus = x;
        plus[i] += 1e-7;
        minus[i] -= 1e-7;
        g[i] = (hartmann6(plus) - hartmann6(minus)) / 2e-7;
    }
    return g;
}

}  // namespace

class TestMooProblems : public QObject {
    Q_OBJECT

private slots:
    void braninCurrinValues() {
        // Currin at (0.5, 0.5) by hand: (1 − e^{−1}) · (287.5 + 475 + 1046 + 60) / (12.5 + 125 + 2 + 20)
        // = 0.63212055882856 · 1868.5 / 159.5.
        SEBO_COMPARE_NEAR(branin_currin(0.5, 0.5).currin, (1.0 - std::exp(-1.0)) * 1868.5 / 159.5, 1e-14);
        // Currin at u2 = 0 takes the limit factor 1: 60 / 20 at u1 = 0; Branin(−5, 0) = 308.129….
        QCOMPARE(branin_currin(0.0, 0.0).currin, 3.0);
        // Python (math module, the formulas of the header), 17 significant digits.
        const struct {
            double u1, u2, branin, currin;
        } cases[] = {{0.0, 0.0, 308.12909601160663, 3.0},
                     {1.0, 1.0, 145.87219087939556, 4.005316104976526},
                     {0.5, 0.5, 24.129964413622268, 7.40512391329881},
                     {0.2, 0.8, 11.294861493648417, 6.399092638084671}};
        for (const auto& c : cases) {
            const BraninCurrinValue v = branin_currin(c.u1, c.u2);
            SEBO_COMPARE_NEAR(v.branin, c.branin, 1e-12 * c.branin);
            SEBO_COMPARE_NEAR(v.currin, c.currin, 1e-13 * c.currin);
        }
        // Branin's published minimum at (π, 2.275), i.e. u = ((π + 5)/15, 2.275/15).
        SEBO_COMPARE_NEAR(branin_currin((std::numbers::pi + 5.0) / 15.0, 2.275 / 15.0).branin, kBraninMinimum, 1e-6);
    }

    void braninCurrinGridFrontBelowPublishedMaximum() {
        // The non-dominated part of a 201 × 201 grid, both objectives negated (maximized), against
        // the reference (18, 6): 58.006797180855585 by an independent Python sweep; BoTorch's
        // NSGA-II estimate of the best attainable is 59.36.
        std::vector<std::vector<double>> points;
        const int n = 200;
        for (int i = 0; i <= n; ++i)
            for (int j = 0; j <= n; ++j) {
                const BraninCurrinValue v = branin_currin(double(i) / n, double(j) / n);
                points.push_back({-v.branin, -v.currin});
            }
        const double volume = hypervolume_nd(points, {-kBraninCurrinReference[0], -kBraninCurrinReference[1]});
        SEBO_COMPARE_NEAR(volume, 58.006797180855585, 1e-9);
        QVERIFY(volume < kBraninCurrinMaxHypervolume);
    }

    void constrainedHartmannExcludesTheUnconstrainedOptimum() {
        QVERIFY(hartmann6_coordinate_sum(kHartmann6Minimizer) > kHartmann6SumBound + 0.5);
        SEBO_COMPARE_NEAR(hartmann6_coordinate_sum(kHartmann6Minimizer), 2.072859, 1e-6);
        // The stated optimum: feasible, its value, strictly inside the cube, worse than the
        // unconstrained minimum.
        QVERIFY(hartmann6_coordinate_sum(kConstrainedHartmann6Minimizer) <= kHartmann6SumBound);
        SEBO_COMPARE_NEAR(hartmann6_coordinate_sum(kConstrainedHartmann6Minimizer), kHartmann6SumBound, 1e-12);
        SEBO_COMPARE_NEAR(hartmann6(kConstrainedHartmann6Minimizer), kConstrainedHartmann6Minimum, 1e-13);
        for (const double x : kConstrainedHartmann6Minimizer) QVERIFY(x > 0.01 && x < 0.99);
        QVERIFY(kConstrainedHartmann6Minimum > kHartmann6Minimum + 0.5);
        // KKT with the constraint active and no bound active: ∇f = −λ·1, λ > 0.
        const auto g = hartmann6_gradient(kConstrainedHartmann6Minimizer);
        const double lambda = -g[0];
        SEBO_COMPARE_NEAR(lambda, 1.94896, 1e-5);
        for (const double gi : g) SEBO_COMPARE_NEAR(gi, -lambda, 1e-6);
    }

    void constrainedHartmannOptimumIsReproduced() {
        // SLSQP from 64 random starts (fixed seed), finite-difference gradients: nothing feasible
        // is better than the stated optimum, and the best run reaches it.
        auto objective = [](const std::vector<double>& x, std::vector<double>& grad, void*) {
            const auto a = to_array(x);
            if (!grad.empty()) {
                const auto g = hartmann6_gradient(a);
                grad.assign(g.begin(), g.end());
            }
            return hartmann6(a);
        };
        auto constraint = [](const std::vector<double>& x, std::vector<double>& grad, void*) {
            if (!grad.empty()) grad.assign(6, 1.0);
            return hartmann6_coordinate_sum(to_array(x)) - kHartmann6SumBound;
        };
        std::mt19937_64 rng(6);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        double best = 0.0;
        int reached = 0;
        for (int start = 0; start < 64; ++start) {
            nlopt::opt opt(nlopt::LD_SLSQP, 6);
            opt.set_lower_bounds(std::vector<double>(6, 0.0));
            opt.set_upper_bounds(std::vector<double>(6, 1.0));
            opt.set_min_objective(+objective, nullptr);
            opt.add_inequality_constraint(+constraint, nullptr, 1e-12);
            opt.set_xtol_rel(1e-12);
            opt.set_maxeval(1000);
            std::vector<double> x(6);
            for (double& v : x) v = u(rng);
            double f = 0.0;
            try {
                opt.optimize(x, f);
            } catch (const std::exception&) {
                continue;  // a start SLSQP cannot handle says nothing about the optimum
            }
            if (hartmann6_coordinate_sum(to_array(x)) > kHartmann6SumBound + 1e-9) continue;
            QVERIFY2(f >= kConstrainedHartmann6Minimum - 1e-8,
                     qPrintable(QString("better feasible point: %1").arg(f, 0, 'g', 15)));
            best = std::min(best, f);
            reached += f < kConstrainedHartmann6Minimum + 1e-7;
        }
        SEBO_COMPARE_NEAR(best, kConstrainedHartmann6Minimum, 1e-7);
        QVERIFY(reached >= 16);
    }

    void braninCurrinInTheCatalog() {
        const auto problem = make_problem(spec_named("branin-currin"));
        QCOMPARE(problem->space().dimension(), 50);
        QCOMPARE(problem->effective_dimensions(), (std::vector<int>{0, 1}));
        QVERIFY(!problem->optimum());  // a front, not a value
        const Outcomes o = problem->outcomes();
        QCOMPARE(o.metrics, (std::vector<std::string>{"branin", "currin"}));
        QCOMPARE(o.objectives.size(), std::size_t{2});
        QCOMPARE(o.objectives[0].metric, std::string("branin"));
        QCOMPARE(o.objectives[1].metric, std::string("currin"));
        QVERIFY(o.objectives[0].minimize && o.objectives[1].minimize);
        // BoTorch's reference point as the thresholds.
        QCOMPARE(*o.objectives[0].threshold, 18.0);
        QCOMPARE(*o.objectives[1].threshold, 6.0);
        QVERIFY(o.constraints.empty());
        QVERIFY(!o.validate());

        // Branin's three minimizers (Branin 0.397887) with Currin there, and Currin's minimizer
        // (0, 1), where it is 3·(1 − e^{−1/2}): Python's math module, 17 significant digits.
        const double pi = std::numbers::pi;
        const struct {
            double u1, u2, branin, currin;
        } cases[] = {{(5.0 - pi) / 15.0, 12.275 / 15.0, 0.39788735772973816, 5.686144051643406},
                     {(5.0 + pi) / 15.0, 2.275 / 15.0, 0.39788735772973816, 11.023462104796744},
                     {(5.0 + 9.42478) / 15.0, 2.475 / 15.0, 0.39788735775266204, 9.71987281681612},
                     {0.0, 1.0, 17.508299515778166, 1.1804080208620997}};
        for (const auto& c : cases) {
            const MetricValues v = problem->evaluate(point(50, 0.0, {{0, c.u1}, {1, c.u2}}), 0);
            QCOMPARE(v.size(), std::size_t{2});
            SEBO_COMPARE_NEAR(v.at("branin").mean, c.branin, 1e-12);
            SEBO_COMPARE_NEAR(v.at("currin").mean, c.currin, 1e-13 * c.currin);
            QVERIFY(!v.at("branin").sem && !v.at("currin").sem);
        }
        // At Currin's minimizer the problem's value is the closed form itself (the table's 17 digits
        // come from Python; this ties the problem to the formula, not to the digits).
        SEBO_COMPARE_NEAR(problem->evaluate(point(50, 0.0, {{0, 0.0}, {1, 1.0}}), 0).at("currin").mean,
                          3.0 * (1.0 - std::exp(-0.5)), 1e-13);

        // The embedding: --effective 7,3 reads x7 as u1 and x3 as u2, and nothing else.
        ProblemSpec spec = spec_named("branin-currin");
        spec.dimension = 12;
        spec.effective = {7, 3};
        spec.target = 0.25;
        const auto embedded = make_problem(spec);
        QCOMPARE(embedded->space().dimension(), 12);
        for (const Parameter& p : embedded->space().parameters()) QCOMPARE(*p.target, 0.25);
        const BraninCurrinValue at = branin_currin(0.2, 0.8);
        for (double other : {0.0, 0.6, 1.0}) {
            const MetricValues v = embedded->evaluate(point(12, other, {{7, 0.2}, {3, 0.8}}), 0);
            QCOMPARE(v.at("branin").mean, at.branin);
            QCOMPARE(v.at("currin").mean, at.currin);
        }
        // The first metric through the single-objective accessor.
        QCOMPARE(embedded->primary_measurement(point(12, 0.5, {{7, 0.2}, {3, 0.8}}), 0).mean, at.branin);
    }

    void constrainedHartmannInTheCatalog() {
        ProblemSpec spec = spec_named("hartmann6-constrained");
        spec.dimension = 20;
        spec.effective = {10, 11, 12, 13, 14, 15};
        const auto problem = make_problem(spec);
        QCOMPARE(problem->space().dimension(), 20);
        QCOMPARE(problem->effective_dimensions(), (std::vector<int>{10, 11, 12, 13, 14, 15}));
        QCOMPARE(*problem->optimum(), kConstrainedHartmann6Minimum);
        const Outcomes o = problem->outcomes();
        QCOMPARE(o.metrics, (std::vector<std::string>{"hartmann6", "sum"}));
        QCOMPARE(o.objectives.size(), std::size_t{1});
        QCOMPARE(o.objectives[0].metric, std::string("hartmann6"));
        QVERIFY(o.objectives[0].minimize);
        QCOMPARE(*o.objectives[0].threshold, 0.0);  // Hartmann6's, as for the unconstrained problem
        QCOMPARE(o.constraints.size(), std::size_t{1});
        QCOMPARE(o.constraints[0].text(), std::string("sum <= 1.5"));
        QVERIFY(!o.validate());
        QCOMPARE(make_problem(spec_named("hartmann6-constrained"))->effective_dimensions(),
                 (std::vector<int>{0, 1, 2, 3, 4, 5}));

        // The stated optimum, embedded (the other coordinates at 0.9 change nothing): its value,
        // the sum at the bound, and feasible for the experiment; the unconstrained minimizer is not.
        Experiment e = make_problem_experiment(spec, MethodSettings{}, 1);
        QCOMPARE(e.outcomes.constraints.size(), std::size_t{1});
        const auto embed = [&](const std::array<double, 6>& x) {
            std::vector<std::pair<int, double>> set;
            for (int j = 0; j < 6; ++j) set.emplace_back(10 + j, x[static_cast<std::size_t>(j)]);
            return point(20, 0.9, set);
        };
        const auto trial_at = [&](const std::array<double, 6>& x) {
            Trial t;
            t.index = e.next_trial_index();
            t.parameters = embed(x);
            t.status = TrialStatus::Completed;
            t.values = problem->evaluate(t.parameters, 0);
            e.trials.push_back(t);
            return e.trials.back();
        };
        const Trial best = trial_at(kConstrainedHartmann6Minimizer);
        SEBO_COMPARE_NEAR(best.values.at("hartmann6").mean, -2.59510829369852, 1e-13);
        SEBO_COMPARE_NEAR(best.values.at("sum").mean, 1.5, 1e-12);
        QVERIFY(best.values.at("sum").mean <= 1.5);
        QCOMPARE(e.feasibility(best), Feasibility::Feasible);
        const Trial unconstrained = trial_at(kHartmann6Minimizer);
        SEBO_COMPARE_NEAR(unconstrained.values.at("hartmann6").mean, kHartmann6Minimum, 1e-5);
        SEBO_COMPARE_NEAR(unconstrained.values.at("sum").mean, 2.072859, 1e-6);
        QCOMPARE(e.feasibility(unconstrained), Feasibility::Infeasible);
        // The target (all zero): sum 0, feasible, hartmann6 there by hand: −Σ α_i exp(−Σ_j A_ij P_ij²).
        const Trial target = trial_at({0, 0, 0, 0, 0, 0});
        QCOMPARE(target.values.at("sum").mean, 0.0);
        QCOMPARE(e.feasibility(target), Feasibility::Feasible);
        SEBO_COMPARE_NEAR(target.values.at("hartmann6").mean, hartmann6({0, 0, 0, 0, 0, 0}), 0.0);
    }

    void catalogErrorsNameTheField() {
        std::string message;
        for (const char* name : {"branin-currin", "hartmann6-constrained"}) {
            const int d = std::string(name) == "branin-currin" ? 2 : 6;
            ProblemSpec s = spec_named(name);
            s.dimension = d - 1;
            QCOMPARE(error_field(s, &message), std::string("problem.dimension"));
            QVERIFY2(message.find("minimum " + std::to_string(d)) != std::string::npos, message.c_str());
            s.dimension = 5000;
            QCOMPARE(error_field(s), std::string("problem.dimension"));
            s = spec_named(name);
            s.dimension = 10;
            s.effective = {0, 1, 2, 3, 4, 5, 6};
            QCOMPARE(error_field(s, &message), std::string("problem.effective"));
            QVERIFY2(message.find("exactly " + std::to_string(d)) != std::string::npos, message.c_str());
            s.effective.assign(static_cast<std::size_t>(d), 0);
            for (int i = 0; i < d; ++i) s.effective[static_cast<std::size_t>(i)] = i;
            s.effective.back() = 10;  // outside [0, 9]
            QCOMPARE(error_field(s, &message), std::string("problem.effective[" + std::to_string(d - 1) + "]"));
            QVERIFY2(message.find("10") != std::string::npos, message.c_str());
            s.effective.back() = 0;  // repeats the first
            QCOMPARE(error_field(s), std::string("problem.effective[" + std::to_string(d - 1) + "]"));
            s = spec_named(name);
            s.target = 1.5;
            QCOMPARE(error_field(s, &message), std::string("problem.target"));
            QVERIFY2(message.find("1.5") != std::string::npos, message.c_str());
            s = spec_named(name);
            s.repetitions = 3;
            QCOMPARE(error_field(s), std::string("problem.repetitions"));
            s = spec_named(name);
            s.world_seed = 7;
            QCOMPARE(error_field(s), std::string("problem.world_seed"));
        }
        // A misspelt name lists the new problems among the known ones.
        QCOMPARE(error_field(spec_named("branin-curin"), &message), std::string("problem.name"));
        QVERIFY2(message.find("branin-currin") != std::string::npos && message.find("hartmann6-constrained") != std::string::npos,
                 message.c_str());
    }

    void catalogDescribesOutcomesAndOptima() {
        for (const ProblemInfo& info : list_problems()) {
            if (info.name == "branin-currin") QVERIFY(info.optimum.find("59.3601") != std::string::npos);
            if (info.name == "hartmann6-constrained")
                QVERIFY2(info.optimum.find("-2.59511") != std::string::npos && info.optimum.find("sum = 1.5") != std::string::npos,
                         info.optimum.c_str());
            if (info.name == "sourcing") QVERIFY(info.description.find("relevance") != std::string::npos);
        }
    }

    void sourcingMetricsAsObjectivesOrConstraint() {
        ProblemSpec spec = spec_named("sourcing");
        spec.repetitions = 2;
        // Two objectives: relevance maximized, cost minimized.
        Outcomes two;
        two.metrics = {"relevance", "cost"};
        two.objectives = {Objective{"relevance", false, std::nullopt}, Objective{"cost", true, std::nullopt}};
        Experiment e = make_problem_experiment(spec, MethodSettings{}, 1, two);
        QCOMPARE(e.outcomes.objectives.size(), std::size_t{2});
        QCOMPARE(e.outcomes.metrics, (std::vector<std::string>{"quality", "relevance", "cost"}));  // every metric stays
        QVERIFY(e.outcomes.is_tracked("quality"));
        // Relevance subject to a budget.
        Outcomes budget;
        budget.metrics = {"relevance", "cost"};
        budget.objectives = {Objective{"relevance", false, std::nullopt}};
        budget.constraints = {OutcomeConstraint{"cost", ConstraintSense::AtMost, 3.0}};
        e = make_problem_experiment(spec, MethodSettings{}, 1, budget);
        QCOMPARE(e.outcomes.summary(), std::string("relevance (max); cost <= 3; tracked: quality"));
        // A metric the problem does not report.
        budget.constraints = {OutcomeConstraint{"latency", ConstraintSense::AtMost, 3.0}};
        budget.metrics = {"relevance", "latency"};
        try {
            make_problem_experiment(spec, MethodSettings{}, 1, budget);
            QFAIL("an unknown metric was accepted");
        } catch (const InputError& error) {
            QCOMPARE(error.field(), std::string("metrics"));
            QVERIFY2(std::string(error.what()).find("latency") != std::string::npos, error.what());
        }
    }
};

SEBO_TEST_MAIN(TestMooProblems)
}  // namespace test_moo_problems
#include "test_moo_problems.moc"
