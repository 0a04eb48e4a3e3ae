// "Confirm with more measurements" (issue 30 item 5): experiment/replicates.h's replicate_points
// gives each named trial's configuration `repeats` times, in the order named, once per trial, and
// refuses what is not a measured trial or not a number of measurements, naming the field.
#include "core/input_error.h"
#include "experiment/replicates.h"
#include "parameter_builders.h"
#include "test_main.h"
#include "test_support.h"

namespace test_replicate_points {

using namespace sebo;

namespace {

Experiment two_trials() {
    Experiment e;
    e.space = SearchSpace({test::continuous("a"), test::integer("n", 1, 8)});
    e.outcomes = Outcomes::single("y", false);
    for (const std::vector<double>& p : {std::vector<double>{0.25, 3}, std::vector<double>{0.5, 8}}) {
        Trial t;
        t.index = e.next_trial_index();
        t.parameters = p;
        t.status = TrialStatus::Completed;
        t.values["y"] = Measurement{1.0, std::nullopt};
        e.trials.push_back(t);
    }
    return e;
}

QString field_of(const std::function<void()>& call) {
    try {
        call();
    } catch (const InputError& error) {
        return QString::fromStdString(error.field()) + ": " + QString::fromStdString(error.what());
    }
    return {};
}

}  // namespace

class TestReplicatePoints : public QObject {
    Q_OBJECT
private slots:
    void eachTrialRepeatedInOrder() {
        const Experiment e = two_trials();
        const std::vector<std::vector<double>> points = replicate_points(e, {1, 0, 1}, 2);
        const std::vector<std::vector<double>> expected{{0.5, 8}, {0.5, 8}, {0.25, 3}, {0.25, 3}};
        QCOMPARE(points, expected);
        QCOMPARE(replicate_points(e, {0}, 1), (std::vector<std::vector<double>>{{0.25, 3}}));
    }

    void refusesWhatCannotBeConfirmed() {
        const Experiment e = two_trials();
        QVERIFY(field_of([&] { replicate_points(e, {0}, 0); }).startsWith("repeats"));
        QVERIFY(field_of([&] { replicate_points(e, {0}, 1001); }).startsWith("repeats"));
        QVERIFY(field_of([&] { replicate_points(e, {0, 9}, 2); }).startsWith("trials[9]: trials[9]: trial 9 does not exist"));
        QVERIFY(field_of([&] { replicate_points(e, {}, 2); }).startsWith("trials"));
        Experiment outside = e;
        outside.trials[1].parameters = {2.0, 8};
        QVERIFY(field_of([&] { replicate_points(outside, {1}, 1); }).contains("trial 1 is not a configuration of the space"));
        Experiment pending = e;
        pending.trials[1].status = TrialStatus::Pending;
        pending.trials[1].values.clear();
        QVERIFY(field_of([&] { replicate_points(pending, {1}, 1); }).contains("trial 1 is pending"));
    }
};

SEBO_TEST_MAIN(TestReplicatePoints)
}  // namespace test_replicate_points
#include "test_replicate_points.moc"
