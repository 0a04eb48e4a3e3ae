#pragma once
// A small, fast, deterministic problem for tests and demos with a genuine trade-off between
// objective and sparsity: a separable quadratic in a few effective coordinates whose optimum
// lies 0.5 (unit scale) away from the target, with halving importance,
//     f(x) = sum_j w_j (1 - 4 (x_{e_j} - c_j)^2),   w_j = 2^-j,   c_j = t +/- 0.5,
// maximized. f(target) = 0 and the optimum is sum_j w_j, so the best value with k active
// parameters is sum_{j<k} w_j (1, 1.5, 1.75, ... for the default three effective coordinates).

#include <optional>
#include <vector>

#include "problems/problem.h"

namespace sebo {

class SparseQuadraticProblem final : public Problem {
public:
    static constexpr int kDefaultDimension = 10;
    static constexpr int kDefaultEffectiveCount = 3;

    // `effective`: distinct indices in [0, dimension), most important first; target in [0, 1]
    // (asserted: validate user input first).
    SparseQuadraticProblem(int dimension, std::vector<int> effective, double target);

    const SearchSpace& space() const override { return space_; }
    // "quadratic", maximized, with threshold 0 (the value at the target): the hypervolume
    // measures gains over changing nothing.
    Outcomes outcomes() const override { return Outcomes::single("quadratic", false, 0.0); }
    MetricValues evaluate(const std::vector<double>& x, std::uint64_t noise_seed) const override;
    std::optional<double> optimum() const override;
    std::vector<int> effective_dimensions() const override { return effective_; }

    // The unit-cube optimum c_j of effective coordinate j: 0.5 above the target when the
    // target is at most 0.5, otherwise 0.5 below it.
    const std::vector<double>& optimum_location() const { return centers_; }

private:
    std::vector<int> effective_;
    std::vector<double> centers_;
    std::vector<double> weights_;
    SearchSpace space_;
};

}  // namespace sebo
