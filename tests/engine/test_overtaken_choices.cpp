// "Notice what changed" (issue 32 item 5): experiment/overtaken_choices.h finds the trials that are
// feasible and strictly better on every objective than a chosen configuration — not those better on
// one objective only, infeasible, excluded, or measuring the same configuration again.
#include "experiment/overtaken_choices.h"
#include "parameter_builders.h"
#include "test_main.h"
#include "test_support.h"

namespace test_overtaken_choices {

using namespace sebo;

namespace {

// throughput (max), p99 (min), memory <= 100.
Experiment service() {
    Experiment e;
    e.space = SearchSpace({test::continuous("a"), test::continuous("b")});
    e.outcomes.metrics = {"throughput", "p99", "memory"};
    e.outcomes.objectives = {Objective{"throughput", false, std::nullopt}, Objective{"p99", true, std::nullopt}};
    e.outcomes.constraints = {OutcomeConstraint{"memory", ConstraintSense::AtMost, 100.0}};
    const auto add = [&](std::vector<double> p, double throughput, double p99, double memory) {
        Trial t;
        t.index = e.next_trial_index();
        t.parameters = std::move(p);
        t.status = TrialStatus::Completed;
        t.values = {{"throughput", {throughput, std::nullopt}}, {"p99", {p99, std::nullopt}}, {"memory", {memory, std::nullopt}}};
        e.trials.push_back(t);
    };
    add({0.1, 0.0}, 1000, 50, 80);   // 0: chosen
    add({0.2, 0.0}, 1100, 45, 90);   // 1: better on both, feasible
    add({0.3, 0.0}, 1200, 55, 90);   // 2: better throughput, worse p99
    add({0.4, 0.0}, 1300, 40, 150);  // 3: better on both, infeasible
    add({0.1, 0.0}, 1050, 49, 80);   // 4: the chosen configuration measured again
    add({0.5, 0.0}, 1000, 40, 80);   // 5: equal throughput: not strictly better
    add({0.6, 0.0}, 1400, 30, 60);   // 6: better on both, then excluded
    e.trials[6].exclusion = TrialExclusion{"a timeout reported as a value", ""};
    e.chosen = {ChosenConfiguration{0, "the safe one"}};
    return e;
}

}  // namespace

class TestOvertakenChoices : public QObject {
    Q_OBJECT
private slots:
    void onlyTrialsBetterOnEveryObjectiveAndFeasible() {
        const Experiment e = service();
        const std::vector<OvertakenChoice> all = overtaken_choices(e);
        QCOMPARE(all.size(), std::size_t{1});
        QCOMPARE(all[0].chosen, 0);
        QCOMPARE(all[0].by, 1);
        QVERIFY(overtaken_choices(e, {2, 3, 4, 5, 6}).empty());
        QCOMPARE(overtaken_choices(e, {1, 99}).size(), std::size_t{1});
    }

    void aChoiceThatDoesNotCountIsNotOvertaken() {
        Experiment e = service();
        e.trials[0].exclusion = TrialExclusion{"measured on the wrong build", ""};
        QVERIFY(overtaken_choices(e).empty());
        e = service();
        e.chosen.clear();
        QVERIFY(overtaken_choices(e).empty());
    }
};

SEBO_TEST_MAIN(TestOvertakenChoices)
}  // namespace test_overtaken_choices
#include "test_overtaken_choices.moc"
