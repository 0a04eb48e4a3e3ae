#pragma once
// Frontier analytics of an experiment (SPEC §3, §10): the frontier for every sparsity level,
// the non-dominated trials, the hypervolume and its trace, activation frequencies and simple
// regret.
//
// Which trials: those that count in the analysis (Experiment::analyzed: completed and not
// excluded) and are feasible (Experiment::feasible: every outcome constraint holds on their
// recorded values; a trial missing a constrained metric is not). Infeasible trials are on no
// frontier and add no hypervolume. Sparsity is Experiment::sparsity (active groups when the space
// has groups). Trials are identified by Trial::index. The experiment is assumed to pass
// Experiment::validate().
//
// Sign convention: every objective in maximization form (utility, Objective::to_utility), the
// point of a trial is (u_1, …, u_m, −sparsity), every coordinate maximized.
//
// Hypervolume reference point, per objective: its threshold when set (built-in problems set the
// authors' values: Branin −10, Hartmann6 0, in maximization form); otherwise the rule for user
// problems, in maximization form:
//   1. take the objective's utilities of the feasible trials that count;
//   2. with at least 5 of them and a robust scale S (their interquartile range, or |median| when
//      that is 0; core/robust_spread.h), keep those within the far-out fences Q1 − 3 S and
//      Q3 + 3 S — the bulk; otherwise keep them all;
//   3. reference = (worst kept) − 10% of (best kept − worst kept); when those are equal,
//      (worst kept) − max(1, 10% of |worst kept|); never below the lowest double.
// Without far-out values this is the worst observed value minus 10% of the observed range (like
// the nadir-minus-10% rule of the reference implementation, SPEC §9); an absurd value (an error
// sentinel of 1e308) neither drags it down nor widens its margin. The sparsity side is D (or the
// number of groups), so a configuration with every parameter active adds no volume — or
// max_active + 1 when the method sets max_active (configurations with more changes add none);
// with min_active N, a trial with fewer than N changes is measured as N (MethodSettings, "sparsity
// range of interest"). The frontier levels and pareto_trials are not affected by the range: they
// describe the trials as they are. The volume itself is computed in scaled units (pareto/) and is
// finite for any finite values, saturating at the largest double. With one objective, no
// constraints and no sparsity range every number here is what the single-objective analysis gave
// before several objectives existed.

#include <optional>
#include <vector>

#include "experiment/experiment.h"
#include "pareto/frontier.h"

namespace sebo {

struct FrontierReport {
    // The reference point: one utility per objective (maximization form), and the sparsity.
    std::vector<double> reference_utilities;
    int reference_sparsity = 0;
    // Feasible analysed trials that no other one dominates in (u_1, …, u_m, −sparsity), by
    // sparsity ascending, then first objective best first.
    std::vector<int> pareto_trials;
    // k = 0..max_sparsity.
    struct Level {
        int k = 0;
        // The feasible analysed trials with at most k active that no other such trial dominates
        // in the objectives alone, first objective best first. With one objective: the best one.
        std::vector<int> front;
        // The first objective's best value (user sign) with at most k active, and its trial
        // (front's first): the one-objective view of the level.
        std::optional<double> best_objective;
        std::optional<int> trial;
    };
    std::vector<Level> levels;
    double hypervolume = 0.0;
    // Hypervolume after each trial, in the order of experiment.trials, with the final
    // reference point. Failed, pending, infeasible and excluded trials repeat the previous value:
    // an excluded trial leaves the trace as if it had never been measured.
    std::vector<double> hypervolume_trace;
    // Per parameter: the share of pareto_trials in which it is active (0 when there are none).
    std::vector<double> activation_frequency;
    // Analysed trials that satisfy every outcome constraint (all analysed trials without them).
    int feasible_trials = 0;
};

// The objectives' side of the reference point in maximization form (rule above), one per
// objective; 0 for an objective without a threshold while no feasible trial counts yet.
std::vector<double> reference_utilities(const Experiment& experiment);
FrontierReport analyze_frontier(const Experiment& experiment);

// optimum − best first objective among feasible analysed trials with at most max_active active
// parameters (in maximization form, so never negative for a true optimum); unset when there is
// none. optimum_objective is in the user's sign. Counts parameters (SearchSpace::active_count),
// not groups.
std::optional<double> simple_regret(const Experiment& experiment, int max_active, double optimum_objective);

}  // namespace sebo
