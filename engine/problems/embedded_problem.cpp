#include "problems/embedded_problem.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "problems/synthetic_functions.h"

namespace sebo {

int embedded_function_dimension(EmbeddedFunction function) {
    switch (function) {
    case EmbeddedFunction::Branin: return 2;
    case EmbeddedFunction::Hartmann6: return 6;
    }
    return 0;
}

const char* to_string(EmbeddedFunction function) {
    switch (function) {
    case EmbeddedFunction::Branin: return "branin";
    case EmbeddedFunction::Hartmann6: return "hartmann6";
    }
    return "branin";
}

EmbeddedProblem::EmbeddedProblem(EmbeddedFunction function, int dimension, std::vector<int> effective, double target)
    : function_(function), effective_(std::move(effective)) {
    assert(static_cast<int>(effective_.size()) == embedded_function_dimension(function));
    assert(target >= 0.0 && target <= 1.0);
    std::vector<Parameter> parameters(static_cast<std::size_t>(dimension));
    for (int i = 0; i < dimension; ++i) {
        Parameter& p = parameters[static_cast<std::size_t>(i)];
        p.name = "x" + std::to_string(i);
        p.kind = ParameterKind::Continuous;
        p.lower = 0.0;
        p.upper = 1.0;
        p.target = target;
    }
    for ([[maybe_unused]] int e : effective_) assert(e >= 0 && e < dimension);
    space_ = SearchSpace(std::move(parameters));
}

Outcomes EmbeddedProblem::outcomes() const {
    return Outcomes::single(to_string(function_), true, function_ == EmbeddedFunction::Branin ? 10.0 : 0.0);
}

double EmbeddedProblem::value_of_effective(const std::vector<double>& u) const {
    assert(u.size() == effective_.size());
    switch (function_) {
    case EmbeddedFunction::Branin: return branin_unit(u[0], u[1]);
    case EmbeddedFunction::Hartmann6: {
        std::array<double, 6> x{};
        std::copy(u.begin(), u.end(), x.begin());
        return hartmann6(x);
    }
    }
    return 0.0;
}

MetricValues EmbeddedProblem::evaluate(const std::vector<double>& x, std::uint64_t /*noise_seed*/) const {
    assert(static_cast<int>(x.size()) == space_.dimension());
    std::vector<double> u;
    u.reserve(effective_.size());
    for (int e : effective_) u.push_back(x[static_cast<std::size_t>(e)]);
    return {{to_string(function_), {value_of_effective(u), std::nullopt}}};
}

std::optional<double> EmbeddedProblem::optimum() const {
    return function_ == EmbeddedFunction::Branin ? kBraninMinimum : kHartmann6Minimum;
}

}  // namespace sebo
