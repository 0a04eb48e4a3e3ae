#include "problems/problem_catalog.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "core/format.h"
#include "core/input_error.h"
#include "problems/branin_currin.h"
#include "problems/constrained_hartmann6.h"
#include "problems/embedded_problem.h"
#include "problems/grouped_contextual.h"
#include "problems/mixed_problem.h"
#include "problems/noisy_problem.h"
#include "problems/sourcing.h"
#include "problems/sparse_quadratic.h"
#include "problems/synthetic_functions.h"

namespace sebo {

namespace {

enum class Kind { Branin, Hartmann6, BraninCurrin, ConstrainedHartmann6, Sourcing, SparseQuadratic, GroupedContextual, Mixed };

// Large enough for any benchmark in the paper (D = 50) with a wide margin, small enough that
// a typo cannot ask for a search space that exhausts memory.
constexpr int kMaxDimension = 1000;
constexpr int kMaxRepetitions = 1'000'000;

struct Entry {
    Kind kind;
    const char* name;
};
constexpr Entry kEntries[] = {{Kind::Branin, "branin"},
                              {Kind::Hartmann6, "hartmann6"},
                              {Kind::BraninCurrin, "branin-currin"},
                              {Kind::ConstrainedHartmann6, "hartmann6-constrained"},
                              {Kind::Sourcing, "sourcing"},
                              {Kind::SparseQuadratic, "sparse-quadratic"},
                              {Kind::GroupedContextual, "grouped-contextual"},
                              {Kind::Mixed, "mixed"}};

std::string known_names() {
    std::string text;
    for (const Entry& e : kEntries) text += (text.empty() ? "" : ", ") + std::string(e.name);
    return text;
}

Kind kind_of(const std::string& name) {
    for (const Entry& e : kEntries)
        if (name == e.name) return e.kind;
    throw InputError("problem.name",
                     (name.empty() ? std::string("no problem given") : "unknown problem '" + name + "'") +
                         "; the built-in problems are " + known_names());
}

std::string dims(int n) { return std::to_string(n); }

// The embedded problems: a function of a few effective coordinates in a unit cube.
std::optional<EmbeddedFunction> embedded_function(Kind kind) {
    switch (kind) {
    case Kind::Branin: return EmbeddedFunction::Branin;
    case Kind::Hartmann6: return EmbeddedFunction::Hartmann6;
    case Kind::BraninCurrin: return EmbeddedFunction::BraninCurrin;
    case Kind::ConstrainedHartmann6: return EmbeddedFunction::ConstrainedHartmann6;
    case Kind::Sourcing:
    case Kind::SparseQuadratic:
    case Kind::GroupedContextual:
    case Kind::Mixed: return std::nullopt;
    }
    return std::nullopt;
}

std::string coordinates(const std::array<double, 6>& x) {
    std::string text;
    for (double v : x) text += (text.empty() ? "(" : ", ") + format_short(v, 4);
    return text + ")";
}

// Checks a dimension that may default, for problems whose dimension can be chosen.
int resolve_dimension(const ProblemSpec& spec, int default_dimension, int minimum) {
    if (spec.dimension == 0) return default_dimension;
    if (spec.dimension < minimum)
        throw InputError("problem.dimension",
                         dims(spec.dimension) + " is below the minimum " + dims(minimum) + " for " + spec.name);
    if (spec.dimension > kMaxDimension)
        throw InputError("problem.dimension", dims(spec.dimension) + " is above the maximum " + dims(kMaxDimension));
    return spec.dimension;
}

void require_fixed_dimension(const ProblemSpec& spec, int dimension) {
    if (spec.dimension != 0 && spec.dimension != dimension)
        throw InputError("problem.dimension", dims(spec.dimension) + " is not possible: " + spec.name +
                                                  " has exactly " + dims(dimension) + " parameters");
}

// Effective dimensions: `count_min`..`count_max` distinct indices in [0, dimension).
std::vector<int> resolve_effective(const ProblemSpec& spec, int dimension, int count_min, int count_max,
                                   int default_count) {
    if (spec.effective.empty()) {
        std::vector<int> first(static_cast<std::size_t>(default_count));
        for (int i = 0; i < default_count; ++i) first[static_cast<std::size_t>(i)] = i;
        return first;
    }
    const int count = static_cast<int>(spec.effective.size());
    if (count < count_min || count > count_max) {
        const std::string wanted = count_min == count_max ? "exactly " + dims(count_min)
                                                          : "between " + dims(count_min) + " and " + dims(count_max);
        throw InputError("problem.effective",
                         spec.name + " needs " + wanted + " effective dimensions, got " + dims(count));
    }
    for (std::size_t i = 0; i < spec.effective.size(); ++i) {
        const std::string field = "problem.effective[" + std::to_string(i) + "]";
        const int e = spec.effective[i];
        if (e < 0 || e >= dimension)
            throw InputError(field,
                             dims(e) + " is outside [0, " + dims(dimension - 1) + "] (parameters are numbered from 0)");
        for (std::size_t j = 0; j < i; ++j)
            if (spec.effective[j] == e)
                throw InputError(field, dims(e) + " repeats problem.effective[" + std::to_string(j) + "]");
    }
    return spec.effective;
}

void require_no_effective(const ProblemSpec& spec) {
    if (!spec.effective.empty())
        throw InputError("problem.effective", spec.name + " has no configurable effective dimensions; leave it empty");
}

double resolve_unit_target(const ProblemSpec& spec) {
    if (!spec.target) return 0.0;
    const double t = *spec.target;
    if (!std::isfinite(t) || t < 0.0 || t > 1.0)
        throw InputError("problem.target", format_number(t) + " is outside the unit interval [0, 1]");
    return t;
}

void require_no_target(const ProblemSpec& spec, const std::string& why) {
    if (spec.target) throw InputError("problem.target", spec.name + " has no configurable target: " + why);
}

void require_deterministic(const ProblemSpec& spec) {
    if (spec.repetitions != 0)
        throw InputError("problem.repetitions",
                         spec.name + " is deterministic; repetitions apply only to stochastic problems (sourcing)");
    if (spec.world_seed != 0)
        throw InputError("problem.world_seed",
                         spec.name + " has no random world; a world seed applies only to sourcing");
}

// The sourcing target is given in the unit cube like every other problem's; it must land on
// a whole number of retrievals (tolerating the rounding of decimal fractions such as 0.3).
int sourcing_target_count(double unit_target) {
    const double count = unit_target * SourcingWorld::kMaxRetrievals;
    const double rounded = std::round(count);
    if (std::abs(count - rounded) > 1e-9)
        throw InputError("problem.target", format_number(unit_target) + " is not a whole number of retrievals (" +
                                               format_number(unit_target) + " x " +
                                               std::to_string(SourcingWorld::kMaxRetrievals) + " = " +
                                               format_number(count) + ")");
    return static_cast<int>(rounded);
}

// The resolved settings in words, appended to the experiment's description.
std::string details(const ProblemSpec& r) {
    std::string text;
    if (!r.effective.empty()) {
        text += "; effective parameters";
        for (std::size_t i = 0; i < r.effective.size(); ++i)
            text += (i ? ", x" : " x") + std::to_string(r.effective[i]);
    }
    if (r.target) text += "; target " + format_number(*r.target);
    if (r.repetitions > 0) text += "; " + std::to_string(r.repetitions) + " simulations per evaluation";
    if (r.world_seed != 0) text += "; world seed " + std::to_string(r.world_seed);
    for (const auto& [metric, sd] : r.noise) text += "; Gaussian noise of sd " + format_number(sd) + " on " + metric;
    return text;
}

}  // namespace

std::vector<ProblemInfo> list_problems() {
    const ProblemOptionInfo target{"target", "target value of every parameter, in [0, 1] (default 0)"};
    const auto embedded_options = [&](int d, const std::string& function, const std::string& default_effective) {
        return std::vector<ProblemOptionInfo>{
            {"dim", "number of parameters, at least " + dims(d) + " (default 50)"},
            {"effective", "the " + dims(d) + " parameters " + function + " reads, numbered from 0 (default " +
                              default_effective + ")"},
            target};
    };
    return {
        {"branin",
         "Branin (2 effective parameters) hidden in a high-dimensional unit cube, minimized (paper §5)",
         embedded_options(2, "Branin", "0,1"),
         "branin " + format_short(kBraninMinimum, 6) + " at three points, e.g. x_e = ((pi + 5)/15, 2.275/15)"},
        {"hartmann6",
         "Hartmann6 (6 effective parameters) hidden in a high-dimensional unit cube, minimized (paper §5)",
         embedded_options(6, "Hartmann6", "0,...,5"),
         "hartmann6 " + format_short(kHartmann6Minimum, 6) + " at x_e = " + coordinates(kHartmann6Minimizer)},
        {"branin-currin",
         "Branin-Currin (BoTorch's two-objective test problem, 2 effective parameters) hidden in a high-dimensional "
         "unit cube: branin and currin, both minimized, thresholds (18, 6)",
         embedded_options(2, "Branin-Currin", "0,1"),
         "a front, no single optimum; BoTorch's estimate of the largest hypervolume of branin and currin against the "
         "reference (18, 6): " +
             format_short(kBraninCurrinMaxHypervolume, 6)},
        {"hartmann6-constrained",
         "Hartmann6 (6 effective parameters) hidden in a high-dimensional unit cube, minimized, subject to sum <= 1.5, "
         "sum being the metric x_e1 + ... + x_e6 of the effective parameters",
         embedded_options(6, "Hartmann6", "0,...,5"),
         "hartmann6 " + format_short(kConstrainedHartmann6Minimum, 6) + " at x_e = " +
             coordinates(kConstrainedHartmann6Minimizer) + ", sum = 1.5 (multi-start SLSQP; the unconstrained minimum " +
             format_short(kHartmann6Minimum, 6) + " has sum " + format_short(hartmann6_coordinate_sum(kHartmann6Minimizer), 4) +
             ")"},
        {"sourcing",
         "Recommender sourcing simulation: items retrieved from 25 sources (0..50 each), quality maximized (paper App. "
         "F.1); also reports relevance (maximize) and cost (minimize) for --objective / --constraint",
         {{"repetitions", "simulations averaged per evaluation (default " +
                              std::to_string(SourcingProblem::kDefaultRepetitions) + ")"},
          {"world-seed", "seed of the simulated world (default " + std::to_string(SourcingWorld::kDefaultSeed) + ")"},
          {"target", "target retrieval count of every source as a fraction of 50, in [0, 1] (default 0)"}},
         ""},
        {"sparse-quadratic",
         "Fast demo: a quadratic in a few effective parameters with its optimum away from the target, maximized",
         {{"dim", "number of parameters (default " + std::to_string(SparseQuadraticProblem::kDefaultDimension) + ")"},
          {"effective", "the parameters that matter, most important first (default 0,1,2)"},
          target},
         "objective 2 - 2^(1-e) for e effective parameters (1.75 for the default 3), each 0.5 away from its target"},
        {"grouped-contextual",
         "Stand-in for the paper's contextual ABR problem: 12 contexts x 4 parameters grouped by context, "
         "target = the global policy, maximized",
         {},
         "objective 1 with the three contexts that gain (ctx02, ctx05, ctx09) at their own optimal policies"},
        {"mixed",
         "Mixed space with a known sparse optimum: fractions fa, fb, fc (fa + fb + fc <= 1), integer threads, choices "
         "codec and level, fixed region = 2 and 13 nuisance parameters (19 varying), throughput maximized",
         {},
         "throughput " + format_short(MixedProblem::kOptimum, 6) +
             " with 4 changes: fa = 0.6, fb = 0.4 (fa + fb + fc <= 1 binding), threads = 14, codec = zstd; best with at "
             "most 1, 2, 3 changes " + format_short(MixedProblem::kBestAtMost[1], 6) + ", " +
             format_short(MixedProblem::kBestAtMost[2], 6) + ", " + format_short(MixedProblem::kBestAtMost[3], 6) +
             "; the status quo 0"},
    };
}

namespace {

// The problem of a resolved spec, without its added noise.
std::shared_ptr<const Problem> make_noise_free_problem(const ProblemSpec& r) {
    const Kind kind = kind_of(r.name);
    switch (kind) {
    case Kind::Branin:
    case Kind::Hartmann6:
    case Kind::BraninCurrin:
    case Kind::ConstrainedHartmann6:
        return std::make_shared<EmbeddedProblem>(*embedded_function(kind), r.dimension, r.effective, *r.target);
    case Kind::SparseQuadratic: return std::make_shared<SparseQuadraticProblem>(r.dimension, r.effective, *r.target);
    case Kind::Sourcing:
        return std::make_shared<SourcingProblem>(r.world_seed, r.repetitions, sourcing_target_count(*r.target));
    case Kind::GroupedContextual: return std::make_shared<GroupedContextualProblem>();
    case Kind::Mixed: return std::make_shared<MixedProblem>();
    }
    return nullptr;
}

// The spec's noise checked against the problem's metrics, "*" replaced by every metric not named.
std::map<std::string, double> resolve_noise(const ProblemSpec& spec, const Problem& problem) {
    const Outcomes outcomes = problem.outcomes();
    std::map<std::string, double> resolved;
    for (const auto& [metric, sd] : spec.noise) {
        const std::string field = "problem.noise." + (metric == "*" ? std::string("*") : metric);
        if (!std::isfinite(sd) || sd <= 0.0)
            throw InputError(field, format_number(sd) + " is not a positive standard deviation");
        if (metric != "*" && !outcomes.has_metric(metric))
            throw InputError(field, "unknown metric '" + metric + "' of " + spec.name + "; its metrics are " +
                                        outcomes.metric_list());
        if (metric != "*") resolved[metric] = sd;
    }
    if (const auto all = spec.noise.find("*"); all != spec.noise.end())
        for (const std::string& metric : outcomes.metrics) resolved.emplace(metric, all->second);
    return resolved;
}

}  // namespace

ProblemSpec resolve_problem_spec(const ProblemSpec& spec) {
    const Kind kind = kind_of(spec.name);
    ProblemSpec resolved;
    resolved.name = spec.name;
    switch (kind) {
    case Kind::Branin:
    case Kind::Hartmann6:
    case Kind::BraninCurrin:
    case Kind::ConstrainedHartmann6: {
        const int d = embedded_function_dimension(*embedded_function(kind));
        resolved.dimension = resolve_dimension(spec, 50, d);
        resolved.effective = resolve_effective(spec, resolved.dimension, d, d, d);
        resolved.target = resolve_unit_target(spec);
        require_deterministic(spec);
        break;
    }
    case Kind::SparseQuadratic: {
        resolved.dimension = resolve_dimension(spec, SparseQuadraticProblem::kDefaultDimension, 1);
        resolved.effective =
            resolve_effective(spec, resolved.dimension, 1, resolved.dimension,
                              std::min(SparseQuadraticProblem::kDefaultEffectiveCount, resolved.dimension));
        resolved.target = resolve_unit_target(spec);
        require_deterministic(spec);
        break;
    }
    case Kind::Sourcing: {
        require_fixed_dimension(spec, SourcingWorld::kSources);
        resolved.dimension = SourcingWorld::kSources;
        require_no_effective(spec);
        resolved.target = resolve_unit_target(spec);
        sourcing_target_count(*resolved.target);
        if (spec.repetitions < 0 || spec.repetitions > kMaxRepetitions)
            throw InputError("problem.repetitions", std::to_string(spec.repetitions) + " is outside [1, " +
                                                        std::to_string(kMaxRepetitions) + "] (0 means the default " +
                                                        std::to_string(SourcingProblem::kDefaultRepetitions) + ")");
        resolved.repetitions = spec.repetitions == 0 ? SourcingProblem::kDefaultRepetitions : spec.repetitions;
        resolved.world_seed = spec.world_seed == 0 ? SourcingWorld::kDefaultSeed : spec.world_seed;
        break;
    }
    case Kind::GroupedContextual:
        require_fixed_dimension(spec, GroupedContextualProblem::kDimension);
        resolved.dimension = GroupedContextualProblem::kDimension;
        require_no_effective(spec);
        require_no_target(spec, "every parameter's target is the global policy");
        require_deterministic(spec);
        break;
    case Kind::Mixed:
        require_fixed_dimension(spec, MixedProblem::kDimension);
        resolved.dimension = MixedProblem::kDimension;
        require_no_effective(spec);
        require_no_target(spec, "each parameter has its own target (the status quo)");
        require_deterministic(spec);
        break;
    }
    if (!spec.noise.empty()) resolved.noise = resolve_noise(spec, *make_noise_free_problem(resolved));
    return resolved;
}


std::shared_ptr<const Problem> make_problem(const ProblemSpec& spec) {
    const ProblemSpec r = resolve_problem_spec(spec);
    std::shared_ptr<const Problem> problem = make_noise_free_problem(r);
    if (r.noise.empty()) return problem;
    return std::make_shared<NoisyProblem>(std::move(problem), r.noise);
}

Experiment make_problem_experiment(const ProblemSpec& spec, const MethodSettings& method, std::uint64_t seed,
                                   const std::optional<Outcomes>& chosen) {
    if (auto error = method.validate()) {
        // MethodSettings::validate() messages start with the field path ("method.budget: ...").
        const auto colon = error->find(": ");
        if (colon == std::string::npos) throw InputError("method", *error);
        throw InputError(error->substr(0, colon), error->substr(colon + 2));
    }
    const ProblemSpec resolved = resolve_problem_spec(spec);
    const std::shared_ptr<const Problem> problem = make_problem(resolved);
    Experiment experiment;
    experiment.name = resolved.name + "-" + std::to_string(resolved.dimension) + "d";
    for (const ProblemInfo& info : list_problems())
        if (info.name == resolved.name) experiment.description = info.description;
    experiment.description += details(resolved);
    experiment.space = problem->space();
    experiment.outcomes = problem->outcomes();
    if (chosen) {
        // Other objectives and constraints, among the problem's own metrics (which it reports
        // whatever is optimized): every metric stays, the rest are tracked.
        const Outcomes defaults = experiment.outcomes;
        experiment.outcomes.objectives = chosen->objectives;
        experiment.outcomes.constraints = chosen->constraints;
        for (const std::string& metric : chosen->metrics)
            if (!defaults.has_metric(metric))
                throw InputError("metrics", "unknown metric '" + metric + "' of " + resolved.name + "; its metrics are " +
                                                defaults.metric_list());
        if (auto error = experiment.outcomes.validate()) {
            const auto colon = error->find(": ");
            throw InputError(error->substr(0, colon), error->substr(colon + 2));
        }
    }
    experiment.evaluator.kind = EvaluatorSpec::Kind::Problem;
    experiment.evaluator.problem = resolved;
    experiment.method = method;
    experiment.seed = seed;
    return experiment;
}

}  // namespace sebo
