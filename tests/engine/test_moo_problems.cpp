// The multi-objective and constrained test problems (problems/branin_currin.h,
// problems/constrained_hartmann6.h): values computed independently (by hand and with Python's math
// module from the published formulas), the Branin–Currin front of a grid against its published
// maximal hypervolume, and the constrained Hartmann6 optimum against KKT conditions and a fresh
// multi-start SLSQP run (NLopt).

#include <cmath>
#include <nlopt.hpp>
#include <numbers>
#include <random>

#include "pareto/hypervolume_nd.h"
#include "problems/branin_currin.h"
#include "problems/constrained_hartmann6.h"
#include "problems/synthetic_functions.h"
#include "test_support.h"

using namespace sebo;

namespace {

std::array<double, 6> to_array(const std::vector<double>& x) {
    std::array<double, 6> a{};
    std::copy(x.begin(), x.end(), a.begin());
    return a;
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
};

QTEST_GUILESS_MAIN(TestMooProblems)
#include "test_moo_problems.moc"
