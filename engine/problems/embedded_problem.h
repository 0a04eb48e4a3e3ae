#pragma once
// A low-dimensional test function hidden in a high-dimensional unit cube (paper §5,
// "Synthetic functions": Branin with d = 2 and Hartmann6 with d = 6 embedded in D = 50), and
// the same embedding of the two test problems with several metrics (issue 13 item 7):
// Branin–Currin (two objectives, problems/branin_currin.h) and Hartmann6 with an outcome
// constraint on the sum of its six inputs (problems/constrained_hartmann6.h). Only the effective
// coordinates are read; all others are irrelevant, so the sparse optimum changes exactly the
// effective parameters away from the target.

#include <optional>
#include <vector>

#include "problems/problem.h"

namespace sebo {

enum class EmbeddedFunction { Branin, Hartmann6, BraninCurrin, ConstrainedHartmann6 };

// Number of effective coordinates of the function (2 for Branin and Branin–Currin, 6 for the
// Hartmann6 ones).
int embedded_function_dimension(EmbeddedFunction function);
// The problem's name in the catalog: "branin", "hartmann6", "branin-currin",
// "hartmann6-constrained".
const char* to_string(EmbeddedFunction function);

class EmbeddedProblem final : public Problem {
public:
    // dimension >= embedded_function_dimension(function); `effective` lists that many distinct
    // indices in [0, dimension) in the order of the function's arguments; target in [0, 1] is
    // the sparse point of every parameter. Preconditions are asserted: validate user input
    // first (problem_catalog.h does).
    EmbeddedProblem(EmbeddedFunction function, int dimension, std::vector<int> effective, double target);

    const SearchSpace& space() const override { return space_; }
    // Every metric in the functions' usual sign (all minimized), with fixed thresholds so that
    // the hypervolumes of different runs compare:
    // - branin, hartmann6: one metric named after the function; its threshold is the authors'
    //   SparseBO benchmark setting (SPEC §3): -10 for Branin and 0 for Hartmann6 in
    //   maximization form, i.e. 10 and 0 in the user's (minimization) sign.
    // - branin-currin: the objectives "branin" and "currin" with BoTorch's reference point
    //   (18, 6) as thresholds.
    // - hartmann6-constrained: the objective "hartmann6" (threshold 0, as above) and the metric
    //   "sum" (x_e1 + … + x_e6 of the effective parameters) with the constraint sum <= 1.5.
    Outcomes outcomes() const override;
    MetricValues evaluate(const std::vector<double>& x, std::uint64_t noise_seed) const override;
    // Branin's and Hartmann6's global minima; the constrained minimum of hartmann6-constrained
    // (kConstrainedHartmann6Minimum, which the stated minimizer attains at sum = 1.5); none for
    // branin-currin, whose optimum is a front (BoTorch's estimate of its largest hypervolume
    // against (18, 6) is kBraninCurrinMaxHypervolume).
    std::optional<double> optimum() const override;
    std::vector<int> effective_dimensions() const override { return effective_; }

    // Every metric of a point given by its effective coordinates only (unit cube).
    MetricValues metrics_of_effective(const std::vector<double>& effective_coordinates) const;
    // The first metric's value of such a point (Branin, Hartmann6).
    double value_of_effective(const std::vector<double>& effective_coordinates) const;

private:
    EmbeddedFunction function_;
    std::vector<int> effective_;
    SearchSpace space_;
};

}  // namespace sebo
