#pragma once
// Frontier analytics of an experiment (SPEC §3): the step frontier, the non-dominated trials,
// the hypervolume and its trace, activation frequencies and simple regret.
//
// Hypervolume reference point: the objective side is Experiment::hypervolume_reference when
// set (built-in problems set the authors' values: Branin −10, Hartmann6 0, in maximization
// form); otherwise the rule for user problems, in maximization form (utilities):
//   1. take the utilities of the trials that count (completed, not excluded);
//   2. with at least 5 of them and a robust scale S (their interquartile range, or |median| when
//      that is 0; core/robust_spread.h), keep those within the far-out fences Q1 − 3 S and
//      Q3 + 3 S — the bulk; otherwise keep them all;
//   3. reference = (worst kept) − 10% of (best kept − worst kept); when those are equal,
//      (worst kept) − max(1, 10% of |worst kept|); never below the lowest double.
// Without far-out values this is the earlier rule, the worst observed value minus 10% of the
// observed range (like the nadir-minus-10% rule of the reference implementation, SPEC §9); an
// absurd value (an error sentinel of 1e308) neither drags it down nor widens its margin. The
// sparsity side is D (or the number of groups), so a configuration with every parameter active
// adds no volume — or max_active + 1 when the method sets max_active (configurations with more
// changes add none); with min_active N, a trial with fewer than N changes is measured as N
// (MethodSettings, "sparsity range of interest"). The frontier levels and pareto_trials are not
// affected by the range: they describe the trials as they are. The volume itself is computed in
// scaled units (pareto/frontier.h) and is finite for any finite values, saturating at the largest
// double.
//
// Only trials that count in the analysis are analysed (Experiment::analyzed: completed and not
// excluded from analysis); sparsity is Experiment::sparsity (active groups when the space has
// groups). Trials are identified by Trial::index. The experiment is assumed to pass
// Experiment::validate() (every trial has one value per parameter).

#include <optional>
#include <vector>

#include "experiment/experiment.h"
#include "pareto/frontier.h"

namespace sebo {

struct FrontierReport {
    double reference_utility = 0.0;
    int reference_sparsity = 0;
    // Non-dominated analysed trials (trial indices), by sparsity ascending.
    std::vector<int> pareto_trials;
    // k = 0..max_sparsity: best objective (user sign) with at most k active, and its trial.
    struct Level {
        int k = 0;
        std::optional<double> best_objective;
        std::optional<int> trial;
    };
    std::vector<Level> levels;
    double hypervolume = 0.0;
    // Hypervolume after each trial, in the order of experiment.trials, with the final
    // reference point. Failed, pending and excluded trials repeat the previous value: an
    // excluded trial leaves the trace as if it had never been measured.
    std::vector<double> hypervolume_trace;
    // Per parameter: the share of pareto_trials in which it is active (0 when there are none).
    std::vector<double> activation_frequency;
};

// The objective side of the reference point in maximization form (rule above); 0 when no
// trial counts yet and no reference is set.
double reference_utility(const Experiment& experiment);
FrontierReport analyze_frontier(const Experiment& experiment);

// optimum − best objective among analysed trials with at most max_active active parameters
// (in maximization form, so never negative for a true optimum); unset when there is none.
// optimum_objective is in the user's sign. Counts parameters (SearchSpace::active_count), not
// groups.
std::optional<double> simple_regret(const Experiment& experiment, int max_active, double optimum_objective);

}  // namespace sebo
