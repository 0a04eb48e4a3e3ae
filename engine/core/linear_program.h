#pragma once
// A small dense linear program, solved by the two-phase simplex method on a full tableau.
//
//     minimize c·x  subject to  A x <= b,  E x = f,  lower <= x <= upper   (all bounds finite)
//
// Written for the polytopes of linear parameter constraints (space/polytope_analysis.h): tens to a
// few hundred variables and rows, solved a handful of times when an experiment is created and once
// per projection. Finite bounds on every variable mean the program is never unbounded, so the only
// outcomes are an optimum, infeasibility, or (numerical trouble) the pivot limit.
//
// Pivoting: Dantzig's rule (most negative reduced cost); after a degenerate pivot (no progress)
// Bland's rule (lowest index) until progress resumes, which rules out cycling. The leaving row is
// the minimum ratio, ties broken by the lowest basic index. A dense tableau is O(rows · columns)
// per pivot, cheap at these sizes and simpler to get right than a revised simplex with updates.
// Rows with no feasible effect (a redundant equality) stay in the tableau with their artificial
// variable pinned at zero.

#include <Eigen/Core>
#include <optional>
#include <string>

namespace sebo {

struct LinearProgram {
    Eigen::VectorXd cost;               // c (size n)
    Eigen::MatrixXd inequality;         // A (rows × n); may have 0 rows
    Eigen::VectorXd inequality_bound;   // b
    Eigen::MatrixXd equality;           // E (rows × n); may have 0 rows
    Eigen::VectorXd equality_bound;     // f
    Eigen::VectorXd lower, upper;       // finite, lower <= upper

    // Empty when the sizes agree and every number is finite; otherwise what is wrong.
    std::optional<std::string> validate() const;
};

struct LinearProgramOptions {
    // Phase 1 declares the program infeasible when the sum of artificial variables stays above
    // this, relative to max(1, largest right-hand side).
    double feasibility_tolerance = 1e-10;
    // Entries smaller than this are zero when choosing pivots.
    double pivot_tolerance = 1e-11;
    // Pivot limit, as a multiple of rows + columns of the tableau.
    int pivot_limit_factor = 50;

    std::optional<std::string> validate() const;
};

struct LinearProgramResult {
    // Failed: the pivot limit was reached, or round-off left no valid pivot (numerical trouble).
    enum class Status { Optimal, Infeasible, Failed };
    Status status = Status::Failed;
    Eigen::VectorXd x;   // the optimum (Optimal only), clamped into [lower, upper]
    double value = 0.0;  // c·x
    int pivots = 0;
};

LinearProgramResult solve_linear_program(const LinearProgram& program, const LinearProgramOptions& options = {});

}  // namespace sebo
