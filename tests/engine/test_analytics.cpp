// Frontier analytics of a hand-built experiment (SPEC §3): pareto trials, levels, hypervolume,
// its trace, activation frequencies, simple regret and the default reference rule, all checked
// against values worked out by hand in the comments.

#include <cmath>
#include <limits>

#include "experiment/analytics.h"
#include "test_main.h"
#include "test_support.h"

namespace test_analytics {

using namespace sebo;

namespace {

Parameter parameter(std::string name, double lower, double upper, std::string group = {}) {
    Parameter p;
    p.name = std::move(name);
    p.lower = lower;
    p.upper = upper;
    p.group = std::move(group);
    return p;
}

// a, b in [0, 1] (target 0); c integer in [1, 10] (target 1, its lower bound); d in [−1, 1]
// with target 0.5. With `grouped`, a and b form one group, so there are 3 groups.
SearchSpace space(bool grouped) {
    Parameter c = parameter("c", 1.0, 10.0);
    c.kind = ParameterKind::Integer;
    Parameter d = parameter("d", -1.0, 1.0);
    d.target = 0.5;
    const std::string ab = grouped ? "ab" : "";
    return SearchSpace({parameter("a", 0.0, 1.0, ab), parameter("b", 0.0, 1.0, ab), c, d});
}

Trial trial(int index, std::vector<double> parameters, TrialStatus status, std::optional<double> objective) {
    Trial t;
    t.index = index;
    t.parameters = std::move(parameters);
    t.status = status;
    if (objective) t.values = {{"objective", {*objective, std::nullopt}}};
    return t;
}

// A minimized loss. Trial indices are position + 1 so that positions and indices differ.
//   pos idx  parameters (a, b, c, d)  status     loss  active params      groups (a,b joined)
//   0   1    (0,   0,   1, 0.5)       completed 10    -            0     -            0
//   1   2    (0.3, 0,   1, 0.5)       completed  6    a            1     ab           1
//   2   3    (0.2, 0.7, 4, 0.5)       failed    (0)   a b c        3     ab c         2
//   3   4    (0,   0.5, 3, 0.5)       completed  4    b c          2     ab c         2
//   4   5    (0.1, 0.2, 1, -0.3)      completed  3    a b d        3     ab d         2
//   5   6    (0.9, 0.9, 9, 0.9)       pending    -    a b c d      4     ab c d       3
//   6   7    (0.5, 0,   2, 0)         completed  1    a c d        3     ab c d       3
//   7   8    (0,   0,   1, 0.5)       completed 10    -            0     -            0
// The failed trial carries a stale objective of 0 (better than everything) that must be ignored.
Experiment experiment(bool grouped) {
    Experiment e;
    e.name = grouped ? "grouped" : "ungrouped";
    e.space = space(grouped);
    e.outcomes.objectives[0].minimize = true;  // a loss
    e.trials = {
        trial(1, {0.0, 0.0, 1, 0.5}, TrialStatus::Completed, 10.0),
        trial(2, {0.3, 0.0, 1, 0.5}, TrialStatus::Completed, 6.0),
        trial(3, {0.2, 0.7, 4, 0.5}, TrialStatus::Failed, 0.0),
        trial(4, {0.0, 0.5, 3, 0.5}, TrialStatus::Completed, 4.0),
        trial(5, {0.1, 0.2, 1, -0.3}, TrialStatus::Completed, 3.0),
        trial(6, {0.9, 0.9, 9, 0.9}, TrialStatus::Pending, std::nullopt),
        trial(7, {0.5, 0.0, 2, 0.0}, TrialStatus::Completed, 1.0),
        trial(8, {0.0, 0.0, 1, 0.5}, TrialStatus::Completed, 10.0),
    };
    return e;
}

void compare_levels(const FrontierReport& report, const std::vector<std::optional<double>>& objectives,
                    const std::vector<std::optional<int>>& trials) {
    QCOMPARE(report.levels.size(), objectives.size());
    for (std::size_t k = 0; k < objectives.size(); ++k) {
        QCOMPARE(report.levels[k].k, static_cast<int>(k));
        QCOMPARE(report.levels[k].best_objective, objectives[k]);
        QCOMPARE(report.levels[k].trial, trials[k]);
    }
}

}  // namespace

class TestAnalytics : public QObject {
    Q_OBJECT

private slots:
    void fixtureIsValid() {
        QCOMPARE(experiment(false).validate(), std::optional<std::string>());
        QCOMPARE(experiment(true).validate(), std::optional<std::string>());
        QCOMPARE(experiment(true).max_sparsity(), 3);
    }

    void ungroupedFrontier() {
        Experiment e = experiment(false);
        e.outcomes.objectives[0].threshold = 11.0;  // loss 11 → utility −11
        const FrontierReport report = analyze_frontier(e);
        QCOMPARE(report.reference_utilities[0], -11.0);
        QCOMPARE(report.reference_sparsity, 4);
        // Utilities by sparsity: 0: −10 (trials 1, 8), 1: −6, 2: −4, 3: −3 and −1. Trial 5 is
        // dominated by trial 7, trial 8 duplicates trial 1.
        QCOMPARE(report.pareto_trials, (std::vector<int>{1, 2, 4, 7}));
        compare_levels(report, {10.0, 6.0, 4.0, 1.0, 1.0}, {1, 2, 4, 7, 7});
        // Strips j = 0..3 of width utility + 11: 1 + 5 + 7 + 10.
        QCOMPARE(report.hypervolume, 23.0);
        // Trial 1 fills strips 0–3 (4); trial 2 raises 1–3 by 4 (16); failed repeats; trial 4
        // raises 2–3 by 2 (20); trial 5 raises strip 3 by 1 (21); pending repeats; trial 7
        // raises strip 3 by 2 (23); trial 8 adds nothing.
        QCOMPARE(report.hypervolume_trace, (std::vector<double>{4, 16, 16, 20, 21, 21, 23, 23}));
        // Active sets on the frontier: {}, {a}, {b, c}, {a, c, d}.
        QCOMPARE(report.activation_frequency, (std::vector<double>{0.5, 0.25, 0.5, 0.25}));
    }

    void groupedFrontier() {
        Experiment e = experiment(true);
        e.outcomes.objectives[0].threshold = 11.0;
        const FrontierReport report = analyze_frontier(e);
        QCOMPARE(report.reference_utilities[0], -11.0);
        QCOMPARE(report.reference_sparsity, 3);
        // Group counts move trial 5 to sparsity 2, where it beats trial 4 (−3 > −4).
        QCOMPARE(report.pareto_trials, (std::vector<int>{1, 2, 5, 7}));
        compare_levels(report, {10.0, 6.0, 3.0, 1.0}, {1, 2, 5, 7});
        // Strips j = 0..2: 1 + 5 + 8; trial 7 sits at the reference sparsity and adds nothing.
        QCOMPARE(report.hypervolume, 14.0);
        // 3 (strips 0–2 at 1), 11 (strips 1–2 raised by 4), failed, 13 (trial 4 raises strip 2
        // by 2), 14 (trial 5 by 1), then no change.
        QCOMPARE(report.hypervolume_trace, (std::vector<double>{3, 11, 11, 13, 14, 14, 14, 14}));
        // Active parameters on the frontier: {}, {a}, {a, b, d}, {a, c, d}.
        QCOMPARE(report.activation_frequency, (std::vector<double>{0.75, 0.25, 0.25, 0.5}));
    }

    void defaultReferenceRuleInFrontier() {
        // Completed utilities −10 … −1: range 9, reference −10 − 0.9. Strip widths over
        // sparsity 0..3 with that reference: 0.9, 4.9, 6.9, 9.9.
        const FrontierReport report = analyze_frontier(experiment(false));
        SEBO_COMPARE_NEAR(report.reference_utilities[0], -10.9, 1e-12);
        SEBO_COMPARE_NEAR(report.hypervolume, 0.9 + 4.9 + 6.9 + 9.9, 1e-12);
        SEBO_COMPARE_NEAR(report.hypervolume_trace.back(), report.hypervolume, 1e-12);
    }

    void referenceRule() {
        Experiment e;
        e.space = space(false);
        const std::vector<double> at_target = {0.0, 0.0, 1.0, 0.5};
        // No completed trial: 0, whatever failed or pending trials hold.
        e.trials = {trial(0, at_target, TrialStatus::Failed, 5.0), trial(1, at_target, TrialStatus::Pending, std::nullopt)};
        QCOMPARE(reference_utilities(e)[0], 0.0);

        // Maximized values 2, 7, 4: worst minus 10% of the range 5. The failed trial's 5 and
        // an abandoned trial's −100 are ignored.
        e.trials.push_back(trial(2, at_target, TrialStatus::Completed, 2.0));
        e.trials.push_back(trial(3, at_target, TrialStatus::Completed, 7.0));
        e.trials.push_back(trial(4, at_target, TrialStatus::Completed, 4.0));
        e.trials.push_back(trial(5, at_target, TrialStatus::Abandoned, -100.0));
        SEBO_COMPARE_NEAR(reference_utilities(e)[0], 1.5, 1e-12);

        // Minimized: utilities −2, −7, −4 → worst −7, range 5 → −7.5.
        e.outcomes.objectives[0].minimize = true;
        SEBO_COMPARE_NEAR(reference_utilities(e)[0], -7.5, 1e-12);

        // All equal: minus 1 (3 → −3 → −4 when minimizing).
        e.trials = {trial(0, at_target, TrialStatus::Completed, 3.0), trial(1, at_target, TrialStatus::Completed, 3.0)};
        QCOMPARE(reference_utilities(e)[0], -4.0);
        e.outcomes.objectives[0].minimize = false;
        QCOMPARE(reference_utilities(e)[0], 2.0);

        // An explicit reference is in the user's sign and wins over the rule.
        e.outcomes.objectives[0].threshold = -10.0;
        QCOMPARE(reference_utilities(e)[0], -10.0);
        e.outcomes.objectives[0].minimize = true;
        QCOMPARE(reference_utilities(e)[0], 10.0);
    }

    // Trial 7 (loss 1, the best) excluded: every analysis is that of the experiment without it,
    // and the trace repeats the previous value at its position. Including it restores all.
    void excludedTrialCountsNowhere() {
        Experiment e = experiment(false);
        e.outcomes.objectives[0].threshold = 11.0;
        const FrontierReport full = analyze_frontier(e);
        e.trials[6].exclusion = TrialExclusion{"sentinel", "2026-01-01T00:00:00Z"};
        QVERIFY(!e.validate());
        QVERIFY(!e.analyzed(e.trials[6]));
        QCOMPARE(e.utility(e.trials[6]), std::optional<double>());
        QCOMPARE(e.excluded_count(), 1);
        const FrontierReport report = analyze_frontier(e);
        // Without trial 7, trial 5 (loss 3, a b d) is the best with at most 3 active.
        QCOMPARE(report.pareto_trials, (std::vector<int>{1, 2, 4, 5}));
        compare_levels(report, {10.0, 6.0, 4.0, 3.0, 3.0}, {1, 2, 4, 5, 5});
        QCOMPARE(report.hypervolume, 1.0 + 5.0 + 7.0 + 8.0);
        QCOMPARE(report.hypervolume_trace, (std::vector<double>{4, 16, 16, 20, 21, 21, 21, 21}));
        // Active sets on the frontier: {}, {a}, {b, c}, {a, b, d}.
        QCOMPARE(report.activation_frequency, (std::vector<double>{0.5, 0.5, 0.25, 0.25}));
        QCOMPARE(simple_regret(e, 4, 0.5), std::optional<double>(2.5));

        Experiment removed = experiment(false);
        removed.outcomes.objectives[0].threshold = 11.0;
        removed.trials.erase(removed.trials.begin() + 6);
        const FrontierReport without = analyze_frontier(removed);
        QCOMPARE(report.pareto_trials, without.pareto_trials);
        QCOMPARE(report.hypervolume, without.hypervolume);
        QCOMPARE(report.activation_frequency, without.activation_frequency);
        // The default reference ignores it too (utilities −10 … −3: −10 − 0.7).
        e.outcomes.objectives[0].threshold.reset();
        removed.outcomes.objectives[0].threshold.reset();
        SEBO_COMPARE_NEAR(reference_utilities(e)[0], -10.7, 1e-12);
        QCOMPARE(reference_utilities(e)[0], reference_utilities(removed)[0]);

        e.trials[6].exclusion.reset();
        e.outcomes.objectives[0].threshold = 11.0;
        const FrontierReport again = analyze_frontier(e);
        QCOMPARE(again.pareto_trials, full.pareto_trials);
        QCOMPARE(again.hypervolume_trace, full.hypervolume_trace);
    }

    // The default reference from the bulk (analytics.h): utilities 1 … 9 and one absurd value.
    // Sorted with −1e308 first: Q1 (position 2.25) = 2.25, Q3 (position 6.75) = 6.75, IQR 4.5,
    // far-out fences −11.25 and 20.25; the bulk is 1 … 9, so the reference is 1 − 0.8.
    void referenceRuleIgnoresFarOutValues() {
        Experiment e;
        e.space = space(false);
        const std::vector<double> at_target = {0.0, 0.0, 1.0, 0.5};
        for (int i = 1; i <= 9; ++i) e.trials.push_back(trial(i, at_target, TrialStatus::Completed, i));
        e.trials.push_back(trial(10, at_target, TrialStatus::Completed, -1e308));
        SEBO_COMPARE_NEAR(reference_utilities(e)[0], 0.2, 1e-12);
        // A best value of 1e308 does not widen the margin either.
        e.trials.back().values["objective"].mean = 1e308;
        SEBO_COMPARE_NEAR(reference_utilities(e)[0], 0.2, 1e-12);
        // Minimized, the same values are utilities −9 … −1 and −1e308: −9 − 0.8.
        e.outcomes.objectives[0].minimize = true;
        SEBO_COMPARE_NEAR(reference_utilities(e)[0], -9.8, 1e-12);
        const FrontierReport report = analyze_frontier(e);
        QVERIFY(std::isfinite(report.hypervolume));
        for (double v : report.hypervolume_trace) QVERIFY(std::isfinite(v));

        // Fewer than 5 values: no robust spread, the plain rule, still finite: worst −1e308,
        // best 3, margin 0.1·3 + 1e307 → −1.1e308.
        e.outcomes.objectives[0].minimize = false;
        e.trials = {trial(0, at_target, TrialStatus::Completed, 1.0), trial(1, at_target, TrialStatus::Completed, 2.0),
                    trial(2, at_target, TrialStatus::Completed, 3.0), trial(3, at_target, TrialStatus::Completed, -1e308)};
        SEBO_COMPARE_NEAR(reference_utilities(e)[0] / -1.1e308, 1.0, 1e-15);
        // Below the lowest double it is clamped: −1.7e308 − 1.7e307 − 0.3 → −DBL_MAX.
        e.trials[3].values["objective"].mean = -1.7e308;
        QCOMPARE(reference_utilities(e)[0], std::numeric_limits<double>::lowest());
        QVERIFY(std::isfinite(analyze_frontier(e).hypervolume));

        // All equal: 10% of the magnitude below when that is more than 1 (1e30 − 1 would be 1e30).
        e.trials = {trial(0, at_target, TrialStatus::Completed, 1e30), trial(1, at_target, TrialStatus::Completed, 1e30)};
        SEBO_COMPARE_NEAR(reference_utilities(e)[0] / 9e29, 1.0, 1e-15);
        QVERIFY(analyze_frontier(e).hypervolume > 0.0);
    }

    void emptyExperiment() {
        Experiment e;
        e.space = space(true);
        e.trials = {trial(0, {0.5, 0.0, 1, 0.5}, TrialStatus::Pending, std::nullopt),
                    trial(1, {0.5, 0.0, 1, 0.5}, TrialStatus::Failed, std::nullopt)};
        const FrontierReport report = analyze_frontier(e);
        QCOMPARE(report.reference_utilities[0], 0.0);
        QCOMPARE(report.reference_sparsity, 3);
        QVERIFY(report.pareto_trials.empty());
        compare_levels(report, {std::nullopt, std::nullopt, std::nullopt, std::nullopt},
                       {std::nullopt, std::nullopt, std::nullopt, std::nullopt});
        QCOMPARE(report.hypervolume, 0.0);
        QCOMPARE(report.hypervolume_trace, (std::vector<double>{0.0, 0.0}));
        QCOMPARE(report.activation_frequency, (std::vector<double>{0.0, 0.0, 0.0, 0.0}));
        QCOMPARE(simple_regret(e, 4, 1.0), std::optional<double>());
    }

    void simpleRegret() {
        // Optimum loss 0.5 → utility −0.5. Best utility with at most k active parameters:
        // k = 0: −10, 1: −6, 2: −4, 3: −1 (the failed trial's stale 0 does not count).
        const Experiment e = experiment(false);
        QCOMPARE(simple_regret(e, -1, 0.5), std::optional<double>());
        QCOMPARE(simple_regret(e, 0, 0.5), std::optional<double>(9.5));
        QCOMPARE(simple_regret(e, 1, 0.5), std::optional<double>(5.5));
        QCOMPARE(simple_regret(e, 2, 0.5), std::optional<double>(3.5));
        QCOMPARE(simple_regret(e, 3, 0.5), std::optional<double>(0.5));
        QCOMPARE(simple_regret(e, 4, 0.5), std::optional<double>(0.5));
        // Counting parameters, not groups: trial 5 has 2 active groups but 3 parameters, so
        // with at most 2 active the best is still trial 4.
        QCOMPARE(simple_regret(experiment(true), 2, 0.5), std::optional<double>(3.5));
        // Maximizing the same numbers: optimum 12, best with at most 2 active is 10 (trial 1).
        Experiment maximized = experiment(false);
        maximized.outcomes.objectives[0].minimize = false;
        QCOMPARE(simple_regret(maximized, 2, 12.0), std::optional<double>(2.0));
    }
};

SEBO_TEST_MAIN(TestAnalytics)
}  // namespace test_analytics
#include "test_analytics.moc"
