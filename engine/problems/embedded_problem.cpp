#include "problems/embedded_problem.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "problems/branin_currin.h"
#include "problems/constrained_hartmann6.h"
#include "problems/synthetic_functions.h"

namespace sebo {

namespace {

constexpr const char* kSumMetric = "sum";

std::array<double, 6> six(const std::vector<double>& u) {
    std::array<double, 6> x{};
    std::copy(u.begin(), u.end(), x.begin());
    return x;
}

}  // namespace

int embedded_function_dimension(EmbeddedFunction function) {
    switch (function) {
    case EmbeddedFunction::Branin:
    case EmbeddedFunction::BraninCurrin: return 2;
    case EmbeddedFunction::Hartmann6:
    case EmbeddedFunction::ConstrainedHartmann6: return 6;
    }
    return 0;
}

const char* to_string(EmbeddedFunction function) {
    switch (function) {
    case EmbeddedFunction::Branin: return "branin";
    case EmbeddedFunction::Hartmann6: return "hartmann6";
    case EmbeddedFunction::BraninCurrin: return "branin-currin";
    case EmbeddedFunction::ConstrainedHartmann6: return "hartmann6-constrained";
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
    switch (function_) {
    case EmbeddedFunction::Branin: return Outcomes::single("branin", true, 10.0);
    case EmbeddedFunction::Hartmann6: return Outcomes::single("hartmann6", true, 0.0);
    case EmbeddedFunction::BraninCurrin: {
        Outcomes outcomes;
        outcomes.metrics = {"branin", "currin"};
        outcomes.objectives = {Objective{"branin", true, kBraninCurrinReference[0]},
                               Objective{"currin", true, kBraninCurrinReference[1]}};
        return outcomes;
    }
    case EmbeddedFunction::ConstrainedHartmann6: {
        Outcomes outcomes = Outcomes::single("hartmann6", true, 0.0);
        outcomes.metrics.push_back(kSumMetric);
        outcomes.constraints.push_back(OutcomeConstraint{kSumMetric, ConstraintSense::AtMost, kHartmann6SumBound});
        return outcomes;
    }
    }
    return {};
}

MetricValues EmbeddedProblem::metrics_of_effective(const std::vector<double>& u) const {
    assert(static_cast<int>(u.size()) == embedded_function_dimension(function_));
    switch (function_) {
    case EmbeddedFunction::Branin: return {{"branin", {branin_unit(u[0], u[1]), std::nullopt}}};
    case EmbeddedFunction::Hartmann6: return {{"hartmann6", {hartmann6(six(u)), std::nullopt}}};
    case EmbeddedFunction::BraninCurrin: {
        const BraninCurrinValue v = branin_currin(u[0], u[1]);
        return {{"branin", {v.branin, std::nullopt}}, {"currin", {v.currin, std::nullopt}}};
    }
    case EmbeddedFunction::ConstrainedHartmann6:
        return {{"hartmann6", {hartmann6(six(u)), std::nullopt}},
                {kSumMetric, {hartmann6_coordinate_sum(six(u)), std::nullopt}}};
    }
    return {};
}

double EmbeddedProblem::value_of_effective(const std::vector<double>& u) const {
    return metrics_of_effective(u).at(outcomes().objectives.front().metric).mean;
}

MetricValues EmbeddedProblem::evaluate(const std::vector<double>& x, std::uint64_t /*noise_seed*/) const {
    assert(static_cast<int>(x.size()) == space_.dimension());
    std::vector<double> u;
    u.reserve(effective_.size());
    for (int e : effective_) u.push_back(x[static_cast<std::size_t>(e)]);
    return metrics_of_effective(u);
}

std::optional<double> EmbeddedProblem::optimum() const {
    switch (function_) {
    case EmbeddedFunction::Branin: return kBraninMinimum;
    case EmbeddedFunction::Hartmann6: return kHartmann6Minimum;
    case EmbeddedFunction::BraninCurrin: return std::nullopt;
    case EmbeddedFunction::ConstrainedHartmann6: return kConstrainedHartmann6Minimum;
    }
    return std::nullopt;
}

}  // namespace sebo
