#pragma once
// A low-dimensional test function hidden in a high-dimensional unit cube (paper §5,
// "Synthetic functions": Branin with d = 2 and Hartmann6 with d = 6 embedded in D = 50).
// Only the effective coordinates are read; all others are irrelevant, so the sparse optimum
// changes exactly the effective parameters away from the target.

#include <optional>
#include <vector>

#include "problems/problem.h"

namespace sebo {

enum class EmbeddedFunction { Branin, Hartmann6 };

// Number of effective coordinates of the function (2 for Branin, 6 for Hartmann6).
int embedded_function_dimension(EmbeddedFunction function);
const char* to_string(EmbeddedFunction function);  // "branin", "hartmann6"

class EmbeddedProblem final : public Problem {
public:
    // dimension >= embedded_function_dimension(function); `effective` lists that many distinct
    // indices in [0, dimension) in the order of the function's arguments; target in [0, 1] is
    // the sparse point of every parameter. Preconditions are asserted: validate user input
    // first (problem_catalog.h does).
    EmbeddedProblem(EmbeddedFunction function, int dimension, std::vector<int> effective, double target);

    const SearchSpace& space() const override { return space_; }
    // One metric named after the function, minimized, in the function's usual sign: the user
    // sees Branin / Hartmann6 values. Its threshold is the authors' SparseBO benchmark setting
    // (SPEC §3): -10 for Branin and 0 for Hartmann6 in maximization form, i.e. 10 and 0 in the
    // user's (minimization) sign.
    Outcomes outcomes() const override;
    MetricValues evaluate(const std::vector<double>& x, std::uint64_t noise_seed) const override;
    std::optional<double> optimum() const override;
    std::vector<int> effective_dimensions() const override { return effective_; }

    // The function value of a point given by its effective coordinates only (unit cube).
    double value_of_effective(const std::vector<double>& effective_coordinates) const;

private:
    EmbeddedFunction function_;
    std::vector<int> effective_;
    SearchSpace space_;
};

}  // namespace sebo
