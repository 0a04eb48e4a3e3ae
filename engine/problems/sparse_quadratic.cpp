#include "problems/sparse_quadratic.h"

#include <cassert>
#include <cmath>

namespace sebo {

SparseQuadraticProblem::SparseQuadraticProblem(int dimension, std::vector<int> effective, double target)
    : effective_(std::move(effective)) {
    assert(dimension >= 1 && !effective_.empty());
    assert(target >= 0.0 && target <= 1.0);
    std::vector<Parameter> parameters(static_cast<std::size_t>(dimension));
    for (int i = 0; i < dimension; ++i) {
        Parameter& p = parameters[static_cast<std::size_t>(i)];
        p.name = "x" + std::to_string(i);
        p.lower = 0.0;
        p.upper = 1.0;
        p.target = target;
    }
    space_ = SearchSpace(std::move(parameters));
    const double center = target <= 0.5 ? target + 0.5 : target - 0.5;
    for (std::size_t j = 0; j < effective_.size(); ++j) {
        assert(effective_[j] >= 0 && effective_[j] < dimension);
        centers_.push_back(center);
        weights_.push_back(std::ldexp(1.0, -static_cast<int>(j)));
    }
}

MetricValues SparseQuadraticProblem::evaluate(const std::vector<double>& x, std::uint64_t /*noise_seed*/) const {
    assert(static_cast<int>(x.size()) == space_.dimension());
    double value = 0.0;
    for (std::size_t j = 0; j < effective_.size(); ++j) {
        const double d = x[static_cast<std::size_t>(effective_[j])] - centers_[j];
        value += weights_[j] * (1.0 - 4.0 * d * d);
    }
    return {{"quadratic", {value, std::nullopt}}};
}

std::optional<double> SparseQuadraticProblem::optimum() const {
    double total = 0.0;
    for (double w : weights_) total += w;
    return total;
}

}  // namespace sebo
