#include "problems/grouped_contextual.h"

#include <cassert>
#include <string>

#include "core/format.h"

namespace sebo {

namespace {

constexpr int kC = GroupedContextualProblem::kContexts;
constexpr int kP = GroupedContextualProblem::kParametersPerContext;

constexpr std::array<double, kP> kGlobal = {0.5, 0.4, 0.6, 0.3};
constexpr std::array<double, kC> kTraffic = {0.20, 0.15, 0.12, 0.10, 0.08, 0.08, 0.07, 0.06, 0.05, 0.04, 0.03, 0.02};
// Curvature per parameter, shared by all contexts, so the best shared policy is the
// traffic-weighted mean of the context optima.
constexpr std::array<double, kP> kCurvature = {6.0, 4.0, 3.0, 2.0};
// Residuals of the contexts that gain. 0.12 d2 + 0.08 d5 + 0.04 d9 = 0 per parameter, so the
// traffic-weighted mean of all optima is kGlobal.
constexpr int kGaining[3] = {2, 5, 9};
constexpr std::array<double, kP> kResidual[3] = {
    {0.15, -0.10, 0.10, 0.00}, {-0.15, 0.20, -0.10, 0.10}, {-0.15, -0.10, -0.10, -0.20}};

}  // namespace

std::array<double, kP> GroupedContextualProblem::global_policy() { return kGlobal; }
std::array<double, kC> GroupedContextualProblem::traffic_shares() { return kTraffic; }

std::array<double, kP> GroupedContextualProblem::context_optimum(int context) {
    assert(context >= 0 && context < kC);
    std::array<double, kP> optimum = kGlobal;
    for (int g = 0; g < 3; ++g)
        if (kGaining[g] == context)
            for (int j = 0; j < kP; ++j)
                optimum[static_cast<std::size_t>(j)] += kResidual[g][static_cast<std::size_t>(j)];
    return optimum;
}

GroupedContextualProblem::GroupedContextualProblem() {
    std::vector<Parameter> parameters;
    parameters.reserve(kDimension);
    for (int c = 0; c < kC; ++c)
        for (int j = 0; j < kP; ++j) {
            Parameter p;
            p.name = "ctx" + two_digits(c) + "_p" + std::to_string(j);
            p.lower = 0.0;
            p.upper = 1.0;
            p.target = kGlobal[static_cast<std::size_t>(j)];
            p.group = "ctx" + two_digits(c);
            parameters.push_back(std::move(p));
        }
    space_ = SearchSpace(std::move(parameters));
}

MetricValues GroupedContextualProblem::evaluate(const std::vector<double>& x, std::uint64_t /*noise_seed*/) const {
    assert(static_cast<int>(x.size()) == kDimension);
    double value = 0.0;
    for (int c = 0; c < kC; ++c) {
        const auto optimum = context_optimum(c);
        double reward = 1.0;
        for (int j = 0; j < kP; ++j) {
            const double d = x[static_cast<std::size_t>(c * kP + j)] - optimum[static_cast<std::size_t>(j)];
            reward -= kCurvature[static_cast<std::size_t>(j)] * d * d;
        }
        value += kTraffic[static_cast<std::size_t>(c)] * reward;
    }
    return {{"qoe", {value, std::nullopt}}};
}

Outcomes GroupedContextualProblem::outcomes() const {
    return Outcomes::single("qoe", false, evaluate(space_.target(), 0).at("qoe").mean);
}

std::vector<int> GroupedContextualProblem::effective_dimensions() const {
    std::vector<int> effective;
    for (int g = 0; g < 3; ++g)
        for (int j = 0; j < kP; ++j)
            if (kResidual[g][static_cast<std::size_t>(j)] != 0.0) effective.push_back(kGaining[g] * kP + j);
    return effective;
}

}  // namespace sebo
