// The dense simplex solver (core/linear_program.h): hand-solved programs, degenerate and
// redundant ones, and random programs against brute-force vertex enumeration.
#include <Eigen/LU>
#include <functional>
#include <optional>
#include <random>

#include "core/linear_program.h"
#include "test_main.h"
#include "test_support.h"

namespace test_linear_program {

using namespace sebo;

namespace {

LinearProgram box_program(int n, double lower, double upper) {
    LinearProgram lp;
    lp.cost = Eigen::VectorXd::Zero(n);
    lp.inequality.resize(0, n);
    lp.inequality_bound.resize(0);
    lp.equality.resize(0, n);
    lp.equality_bound.resize(0);
    lp.lower = Eigen::VectorXd::Constant(n, lower);
    lp.upper = Eigen::VectorXd::Constant(n, upper);
    return lp;
}

void add_row(Eigen::MatrixXd& m, Eigen::VectorXd& rhs, std::initializer_list<double> row, double b) {
    const Eigen::Index r = m.rows();
    m.conservativeResize(r + 1, Eigen::NoChange);
    rhs.conservativeResize(r + 1);
    Eigen::Index j = 0;
    for (double v : row) m(r, j++) = v;
    rhs[r] = b;
}

// The optimum of a bounded program by enumerating every vertex: each choice of n tight rows among
// A, E, and the bounds whose solution satisfies everything. Empty when no vertex is feasible.
std::optional<double> brute_force(const LinearProgram& lp) {
    const Eigen::Index n = lp.cost.size();
    // All rows as a·x <= b, equalities twice.
    std::vector<Eigen::VectorXd> rows;
    std::vector<double> rhs;
    for (Eigen::Index i = 0; i < lp.inequality.rows(); ++i) rows.push_back(lp.inequality.row(i)), rhs.push_back(lp.inequality_bound[i]);
    for (Eigen::Index i = 0; i < lp.equality.rows(); ++i) {
        rows.push_back(lp.equality.row(i)), rhs.push_back(lp.equality_bound[i]);
        rows.push_back(-lp.equality.row(i)), rhs.push_back(-lp.equality_bound[i]);
    }
    for (Eigen::Index j = 0; j < n; ++j) {
        Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
        e[j] = 1.0;
        rows.push_back(e), rhs.push_back(lp.upper[j]);
        rows.push_back(-e), rhs.push_back(-lp.lower[j]);
    }
    const int m = static_cast<int>(rows.size());
    std::optional<double> best;
    std::vector<int> pick(static_cast<std::size_t>(n));
    // Every n-subset of rows (n <= 3, m small).
    std::function<void(int, int)> choose = [&](int start, int depth) {
        if (depth == n) {
            Eigen::MatrixXd a(n, n);
            Eigen::VectorXd b(n);
            for (Eigen::Index k = 0; k < n; ++k) a.row(k) = rows[static_cast<std::size_t>(pick[static_cast<std::size_t>(k)])], b[k] = rhs[static_cast<std::size_t>(pick[static_cast<std::size_t>(k)])];
            const Eigen::FullPivLU<Eigen::MatrixXd> lu(a);
            if (!lu.isInvertible()) return;
            const Eigen::VectorXd x = lu.solve(b);
            for (int i = 0; i < m; ++i)
                if (rows[static_cast<std::size_t>(i)].dot(x) > rhs[static_cast<std::size_t>(i)] + 1e-9) return;
            const double v = lp.cost.dot(x);
            if (!best || v < *best) best = v;
            return;
        }
        for (int i = start; i < m; ++i) {
            pick[static_cast<std::size_t>(depth)] = i;
            choose(i + 1, depth + 1);
        }
    };
    choose(0, 0);
    return best;
}

}  // namespace

class TestLinearProgram : public QObject {
    Q_OBJECT
private slots:
    void two_variables_by_hand() {
        // min −x − y  s.t.  x + 2y <= 4,  3x + y <= 6,  0 <= x, y <= 10: the corner x = 1.6, y = 1.2.
        LinearProgram lp = box_program(2, 0.0, 10.0);
        lp.cost << -1.0, -1.0;
        add_row(lp.inequality, lp.inequality_bound, {1.0, 2.0}, 4.0);
        add_row(lp.inequality, lp.inequality_bound, {3.0, 1.0}, 6.0);
        QVERIFY(!lp.validate());
        const LinearProgramResult r = solve_linear_program(lp);
        QCOMPARE(r.status, LinearProgramResult::Status::Optimal);
        SEBO_COMPARE_NEAR(r.x[0], 1.6, 1e-12);
        SEBO_COMPARE_NEAR(r.x[1], 1.2, 1e-12);
        SEBO_COMPARE_NEAR(r.value, -2.8, 1e-12);
    }

    void equalities_and_shifted_bounds() {
        // min x  s.t.  x + y = 1.5 in [0,1]²: x = 0.5.
        LinearProgram lp = box_program(2, 0.0, 1.0);
        lp.cost << 1.0, 0.0;
        add_row(lp.equality, lp.equality_bound, {1.0, 1.0}, 1.5);
        LinearProgramResult r = solve_linear_program(lp);
        QCOMPARE(r.status, LinearProgramResult::Status::Optimal);
        SEBO_COMPARE_NEAR(r.x[0], 0.5, 1e-12);
        SEBO_COMPARE_NEAR(r.x[1], 1.0, 1e-12);
        // Negative bounds: min x over [−2, −1] with x − y <= 0.5 and y in [−2, −1]: x = −2.
        LinearProgram shifted = box_program(2, -2.0, -1.0);
        shifted.cost << 1.0, 0.0;
        add_row(shifted.inequality, shifted.inequality_bound, {1.0, -1.0}, 0.5);
        r = solve_linear_program(shifted);
        QCOMPARE(r.status, LinearProgramResult::Status::Optimal);
        SEBO_COMPARE_NEAR(r.x[0], -2.0, 1e-12);
        // A negative right-hand side: max x + y s.t. −x − y <= −0.5 (x + y >= 0.5) is at the box corner.
        LinearProgram negative = box_program(2, 0.0, 1.0);
        negative.cost << -1.0, -1.0;
        add_row(negative.inequality, negative.inequality_bound, {-1.0, -1.0}, -0.5);
        r = solve_linear_program(negative);
        QCOMPARE(r.status, LinearProgramResult::Status::Optimal);
        SEBO_COMPARE_NEAR(r.value, -2.0, 1e-12);
    }

    void infeasible_programs() {
        LinearProgram lp = box_program(2, 0.0, 1.0);
        add_row(lp.inequality, lp.inequality_bound, {-1.0, -1.0}, -3.0);  // x + y >= 3
        QCOMPARE(solve_linear_program(lp).status, LinearProgramResult::Status::Infeasible);
        LinearProgram eq = box_program(3, 0.0, 1.0);
        add_row(eq.equality, eq.equality_bound, {1.0, 1.0, 0.0}, 1.0);
        add_row(eq.equality, eq.equality_bound, {1.0, 1.0, 0.0}, 1.2);  // parallel, different
        QCOMPARE(solve_linear_program(eq).status, LinearProgramResult::Status::Infeasible);
    }

    void redundant_equalities_and_degenerate_vertices() {
        LinearProgram lp = box_program(3, 0.0, 1.0);
        lp.cost << 1.0, 2.0, -1.0;
        add_row(lp.equality, lp.equality_bound, {1.0, 1.0, 1.0}, 1.0);
        add_row(lp.equality, lp.equality_bound, {2.0, 2.0, 2.0}, 2.0);  // the same row twice
        add_row(lp.equality, lp.equality_bound, {1.0, 1.0, 1.0}, 1.0);
        const LinearProgramResult r = solve_linear_program(lp);
        QCOMPARE(r.status, LinearProgramResult::Status::Optimal);
        SEBO_COMPARE_NEAR(r.value, -1.0, 1e-12);  // z = 1
        // The Chebyshev program of the 12-cube: every vertex is degenerate; r = 0.5.
        const int d = 12;
        LinearProgram cube = box_program(d + 1, 0.0, 1.0);
        cube.cost[d] = -1.0;
        cube.inequality = Eigen::MatrixXd::Zero(2 * d, d + 1);
        cube.inequality_bound = Eigen::VectorXd::Zero(2 * d);
        for (int j = 0; j < d; ++j) {
            cube.inequality(j, j) = 1.0, cube.inequality(j, d) = 1.0, cube.inequality_bound[j] = 1.0;
            cube.inequality(d + j, j) = -1.0, cube.inequality(d + j, d) = 1.0;
        }
        const LinearProgramResult c = solve_linear_program(cube);
        QCOMPARE(c.status, LinearProgramResult::Status::Optimal);
        SEBO_COMPARE_NEAR(c.x[d], 0.5, 1e-12);
    }

    void random_programs_match_vertex_enumeration() {
        std::mt19937_64 rng(20240611);
        std::uniform_real_distribution<double> coef(-2.0, 2.0), unit(0.0, 1.0);
        int feasible = 0, infeasible = 0;
        for (int trial = 0; trial < 400; ++trial) {
            const int n = 2 + trial % 2;
            LinearProgram lp = box_program(n, -1.0, 1.0);
            for (int j = 0; j < n; ++j) lp.cost[j] = coef(rng);
            const int mi = 1 + static_cast<int>(rng() % 4), me = static_cast<int>(rng() % 2);
            for (int i = 0; i < mi; ++i) {
                lp.inequality.conservativeResize(i + 1, n);
                lp.inequality_bound.conservativeResize(i + 1);
                for (int j = 0; j < n; ++j) lp.inequality(i, j) = coef(rng);
                lp.inequality_bound[i] = coef(rng);
            }
            for (int i = 0; i < me; ++i) {
                lp.equality.conservativeResize(i + 1, n);
                lp.equality_bound.conservativeResize(i + 1);
                for (int j = 0; j < n; ++j) lp.equality(i, j) = coef(rng);
                lp.equality_bound[i] = 0.5 * coef(rng) * unit(rng);
            }
            const LinearProgramResult r = solve_linear_program(lp);
            const std::optional<double> reference = brute_force(lp);
            if (!reference) {
                QCOMPARE(r.status, LinearProgramResult::Status::Infeasible);
                ++infeasible;
                continue;
            }
            QCOMPARE(r.status, LinearProgramResult::Status::Optimal);
            SEBO_COMPARE_NEAR(r.value, *reference, 1e-9);
            QVERIFY((lp.inequality * r.x - lp.inequality_bound).maxCoeff() <= 1e-9);
            if (me > 0) QVERIFY((lp.equality * r.x - lp.equality_bound).cwiseAbs().maxCoeff() <= 1e-9);
            ++feasible;
        }
        // Both outcomes are exercised.
        QVERIFY(feasible > 100);
        QVERIFY(infeasible > 20);
    }

    void validation_names_the_field() {
        LinearProgram lp = box_program(2, 0.0, 1.0);
        lp.upper[1] = -1.0;
        QVERIFY(lp.validate()->find("upper") != std::string::npos);
        LinearProgramOptions o;
        o.pivot_limit_factor = 0;
        QVERIFY(o.validate()->find("pivot_limit_factor") != std::string::npos);
    }
};

SEBO_TEST_MAIN(TestLinearProgram)
}  // namespace test_linear_program
#include "test_linear_program.moc"
