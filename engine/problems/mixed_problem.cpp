#include "problems/mixed_problem.h"

#include <cassert>
#include <cmath>
#include <string>

#include "core/format.h"

namespace sebo {

namespace {

Parameter numeric(const std::string& name, ParameterKind kind, double lower, double upper, double target) {
    Parameter p;
    p.name = name;
    p.kind = kind;
    p.lower = lower;
    p.upper = upper;
    p.target = target;
    return p;
}

Parameter choice(const std::string& name, std::vector<std::string> values, bool ordered, int target) {
    Parameter p;
    p.name = name;
    p.kind = ParameterKind::Choice;
    for (std::string& v : values) p.values.push_back(ChoiceValue{std::move(v), std::nullopt});
    p.ordered = ordered;
    p.target = target;
    return p;
}

}  // namespace

MixedProblem::MixedProblem() {
    std::vector<Parameter> parameters;
    parameters.push_back(numeric("fa", ParameterKind::Continuous, 0.0, 1.0, 0.0));
    parameters.push_back(numeric("fb", ParameterKind::Continuous, 0.0, 1.0, 0.0));
    parameters.push_back(numeric("fc", ParameterKind::Continuous, 0.0, 1.0, 0.0));
    parameters.push_back(numeric("threads", ParameterKind::Integer, 1.0, 16.0, 4.0));
    parameters.push_back(choice("codec", {"none", "lz4", "zstd"}, false, kCodecNone));
    parameters.push_back(choice("level", {"low", "mid", "high"}, true, 1));
    Parameter region;
    region.name = "region";
    region.kind = ParameterKind::Fixed;
    region.lower = region.upper = kRegion;
    region.target = kRegion;
    parameters.push_back(region);
    for (int i = 1; i <= 8; ++i) parameters.push_back(numeric("n" + two_digits(i), ParameterKind::Continuous, 0.0, 1.0, 0.5));
    for (int i = 9; i <= 13; ++i) parameters.push_back(numeric("n" + two_digits(i), ParameterKind::Integer, 0.0, 20.0, 10.0));
    // fa + fb + fc <= 1: the terms index the varying parameters, fa, fb, fc being the first three.
    LinearConstraint mixture;
    mixture.terms = {{kFa, 1.0}, {kFb, 1.0}, {kFc, 1.0}};
    mixture.relation = ConstraintRelation::LessEqual;
    mixture.bound = 1.0;
    space_ = SearchSpace(std::move(parameters), {mixture});
    assert(space_.dimension() == kDimension && !space_.validate());
}

double MixedProblem::throughput(double fa, double fb, double fc, double threads, int codec) {
    const double mixture = 2.6 * fa - 2.0 * fa * fa + 1.4 * fb - 2.0 * fb * fb + 2.0 * fa * fb - 0.5 * fc;
    const double scaling = (threads - 4.0) * (20.0 - threads) / 64.0;
    double compression = 0.0;
    if (codec == kCodecLz4) compression = 0.2;
    else if (codec == kCodecZstd) compression = (threads - 4.0) / 16.0 - 0.25;
    return mixture + scaling + compression;
}

MetricValues MixedProblem::evaluate(const std::vector<double>& x, std::uint64_t /*noise_seed*/) const {
    assert(static_cast<int>(x.size()) == kDimension);
    const int codec = static_cast<int>(std::lround(x[kCodec]));
    const double value = throughput(x[kFa], x[kFb], x[kFc], x[kThreads], codec);
    return {{"throughput", {value, std::nullopt}}};
}

std::vector<double> MixedProblem::optimum_configuration() const {
    std::vector<double> x = space_.target();
    x[kFa] = 0.6;
    x[kFb] = 0.4;
    x[kThreads] = 14.0;
    x[kCodec] = kCodecZstd;
    return x;
}

}  // namespace sebo
