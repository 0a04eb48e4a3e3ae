#pragma once
// The built-in problems by name, with their options (SPEC §4).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "experiment/experiment.h"
#include "problems/problem.h"

namespace sebo {

struct ProblemOptionInfo {
    std::string name;         // "dim", "effective", "target", "repetitions", "world-seed"
    std::string description;  // one line, with the default
};

struct ProblemInfo {
    std::string name;
    std::string description;  // one line
    std::vector<ProblemOptionInfo> options;
    // The known optimum of the default objectives in words (where it is and how it was found),
    // empty when unknown. Problem::optimum() gives the number.
    std::string optimum;
};

std::vector<ProblemInfo> list_problems();

// Builds the named problem; throws InputError naming the field ("problem.name",
// "problem.dimension", "problem.effective[1]", ...) when the spec is invalid.
std::shared_ptr<const Problem> make_problem(const ProblemSpec& spec);

// The spec with every default written out (dimension, effective dimensions, target,
// repetitions, world seed, as they apply to the problem), so that a saved experiment
// describes its problem completely; throws InputError like make_problem.
ProblemSpec resolve_problem_spec(const ProblemSpec& spec);

// A new experiment for a problem: its space, metrics, objectives (with their thresholds, the
// hypervolume reference) and constraints, the problem as evaluator, the method and seed.
// `chosen` replaces the problem's objectives and constraints by others on its metrics (e.g.
// sourcing's relevance maximized subject to cost <= 2); its `metrics` only list the metrics it
// names. Throws InputError naming the field ("metrics", "objectives[1].metric", ...).
Experiment make_problem_experiment(const ProblemSpec& spec, const MethodSettings& method, std::uint64_t seed,
                                   const std::optional<Outcomes>& chosen = std::nullopt);

}  // namespace sebo
